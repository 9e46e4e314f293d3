package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunPrintsOneJSONLineAndServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-admin-token", "adm", "-user-token", "usr", "-seed", "-data", t.TempDir(), "-part-size", "1024"}, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()

	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(line), &got))
	keys := []string{}
	for k := range got {
		keys = append(keys, k)
	}
	assert.ElementsMatch(t, []string{"base_url", "upload_url", "download_url", "enterprise_id", "tokens", "users"}, keys)
	tokens := got["tokens"].(map[string]any)
	assert.Equal(t, "adm", tokens["admin"])
	assert.Equal(t, "usr", tokens["user"])
	assert.NotEmpty(t, tokens["app"])
	users := got["users"].(map[string]any)
	assert.NotEmpty(t, users["admin"])
	assert.NotEmpty(t, users["user"])

	req, err := http.NewRequest("GET", got["base_url"].(string)+"/folders/0/items", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer usr")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var items map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&items))
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.EqualValues(t, 3, items["total_count"], "seeded root")

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	err := run(context.Background(), []string{"-nope"}, io.Discard)
	require.Error(t, err)
	err = run(context.Background(), []string{"extra"}, io.Discard)
	require.Error(t, err)
}
