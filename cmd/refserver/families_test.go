package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -file-requests, -external-users and -enterprise-domains make what the API
// cannot; the startup line lists the file requests and external users.
func TestRunFamilySeeds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-admin-token", "adm", "-file-requests", "2", "-external-users", "a@partner.test, b@partner.test",
			"-enterprise-domains", "example.com"}, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var got struct {
		BaseURL       string            `json:"base_url"`
		Users         map[string]string `json:"users"`
		FileRequests  []string          `json:"file_requests"`
		ExternalUsers map[string]string `json:"external_users"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &got))
	require.Len(t, got.FileRequests, 2)
	assert.Len(t, got.ExternalUsers, 2)
	assert.NotEmpty(t, got.ExternalUsers["b@partner.test"])
	call := func(method, path, body string) int {
		req, err := http.NewRequest(method, got.BaseURL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer adm")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, 200, call("GET", "/file_requests/"+got.FileRequests[1], ""))
	assert.Equal(t, 201, call("POST", "/users/"+got.Users["user"]+"/email_aliases", `{"email":"x@example.com"}`))
	assert.Equal(t, 400, call("POST", "/users/"+got.Users["user"]+"/email_aliases", `{"email":"x@cms.test"}`))
	cancel()
	require.NoError(t, <-done)

	require.Error(t, run(context.Background(), []string{"-file-requests", "-1"}, io.Discard))
	require.Error(t, run(context.Background(), []string{"-external-users", "admin@cms.test"}, io.Discard))
}
