package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunPrintsOneJSONLineAndServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-admin-token", "adm", "-user-token", "usr", "-seed", "-data", t.TempDir(), "-part-size", "1024", "-webhook-primary-key", "pk"}, pw)
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
	assert.ElementsMatch(t, []string{"base_url", "upload_url", "download_url", "enterprise_id", "tokens", "users", "webhook_keys"}, keys)
	hookKeys := got["webhook_keys"].(map[string]any)
	assert.Equal(t, "pk", hookKeys["primary"])
	assert.Len(t, hookKeys["secondary"], 32, "random unless given")
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
	err = run(context.Background(), []string{"-webhook-allow-hosts", "hooks.corp,https://x.example.com"}, io.Discard)
	require.ErrorContains(t, err, "WebhookAllowedHosts", "the flag reaches the option, which checks it")
}

// -ignore-content-auth makes the content host serve a download URL that is
// fetched with the API bearer token, as box-node-sdk's getReadStream does.
func TestRunIgnoreContentAuth(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-user-token", "usr", "-seed", "-ignore-content-auth"}, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var got struct {
		BaseURL string `json:"base_url"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &got))

	get := func(url string) *http.Response {
		t.Helper()
		req, err := http.NewRequest("GET", url, nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer usr")
		resp, err := http.DefaultTransport.RoundTrip(req) // no redirects
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	req, err := http.NewRequest("GET", got.BaseURL+"/folders/0/items", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer usr")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var items struct {
		Entries []struct{ ID, Type string } `json:"entries"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&items))
	resp.Body.Close()
	var fileID string
	for _, it := range items.Entries {
		if it.Type == "file" {
			fileID = it.ID
		}
	}
	require.NotEmpty(t, fileID, "seeded root has a file")
	resp = get(got.BaseURL + "/files/" + fileID + "/content")
	require.Equal(t, http.StatusFound, resp.StatusCode)
	resp = get(resp.Header.Get("Location"))
	assert.Equal(t, http.StatusOK, resp.StatusCode, "content host ignores the bearer token")

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
}

func TestRunWritesAppConfigForJWTAndClientCredentials(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	path := filepath.Join(t.TempDir(), "config.json")
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-app-config", path}, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var got struct {
		BaseURL      string `json:"base_url"`
		UploadURL    string `json:"upload_url"`
		EnterpriseID string `json:"enterprise_id"`
		ClientID     string `json:"client_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &got))

	// The file is complete when the line is printed.
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	app, err := cms.LoadAppConfig(path)
	require.NoError(t, err)
	assert.Equal(t, got.ClientID, app.BoxAppSettings.ClientID)
	assert.Equal(t, got.EnterpriseID, app.EnterpriseID)
	assert.Contains(t, app.BoxAppSettings.AppAuth.PrivateKey, "-----BEGIN ENCRYPTED PRIVATE KEY-----")

	for name, mk := range map[string]func() (*cms.TokenSource, error){
		"jwt": func() (*cms.TokenSource, error) { return cms.NewJWTTokenSource(app, cms.WithAuthBaseURL(got.BaseURL)) },
		"ccg": func() (*cms.TokenSource, error) {
			return cms.NewCCGTokenSourceFromConfig(app, cms.WithAuthBaseURL(got.BaseURL))
		},
	} {
		ts, err := mk()
		require.NoError(t, err, name)
		c, err := cms.NewClient(cms.WithURLs(got.BaseURL, got.UploadURL), cms.WithTokenSource(ts))
		require.NoError(t, err, name)
		_, _, err = c.Folders.Get(ctx, "0", nil)
		require.NoError(t, err, name)
	}

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}
}

// -device-pins pins devices at startup (the API cannot create them); -seed
// adds four more.
func TestRunDevicePins(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-admin-token", "adm", "-seed", "-device-pins", "3"}, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var got struct {
		BaseURL      string `json:"base_url"`
		EnterpriseID string `json:"enterprise_id"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &got))
	req, err := http.NewRequest("GET", got.BaseURL+"/enterprises/"+got.EnterpriseID+"/device_pinners", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer adm")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	var pins struct {
		Entries []any `json:"entries"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&pins))
	resp.Body.Close()
	assert.Len(t, pins.Entries, 7)
	cancel()
	require.NoError(t, <-done)

	require.Error(t, run(context.Background(), []string{"-device-pins", "-1"}, io.Discard))
}

// -cors-origins limits the origins whose pages may call the server; a
// malformed origin stops the command.
func TestRunCORSOrigins(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-cors-origins", "http://localhost:3000, https://app.example"}, pw)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	require.NoError(t, err)
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	var got struct {
		BaseURL string `json:"base_url"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &got))

	preflight := func(origin string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodOptions, got.BaseURL+"/folders/0/items", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "GET")
		req.Header.Set("Access-Control-Request-Headers", "authorization")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	for _, o := range []string{"http://localhost:3000", "https://app.example"} {
		resp := preflight(o)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode, o)
		assert.Equal(t, o, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	resp := preflight("http://localhost:3001")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not stop")
	}

	err = run(context.Background(), []string{"-cors-origins", "localhost:3000"}, io.Discard)
	require.ErrorContains(t, err, "CORSOrigins")
}
