package refserver

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

func (e *env) createWebhook(token string, body any) (*http.Response, map[string]any) {
	e.t.Helper()
	return e.doJSON("POST", e.api("/webhooks"), token, body, nil)
}

func hookBody(id, typ, address string, triggers ...string) map[string]any {
	return map[string]any{"target": map[string]any{"id": id, "type": typ}, "address": address, "triggers": triggers}
}

func TestWebhooksCRUDAndRules(t *testing.T) {
	e := newEnv(t, Options{})
	user, admin, app := e.s.UserToken(), e.s.AdminToken(), e.s.AppToken()
	dir := e.createFolder(user, "0", "watched")["id"].(string)
	file := e.uploadFile(user, dir, "f.txt", []byte("x"))["id"].(string)
	hidden := e.createFolder(admin, "0", "admin's")["id"].(string)

	resp, hook := e.createWebhook(user, hookBody(dir, "folder", "https://example.com/hook", "FILE.UPLOADED", "FOLDER.CREATED", "FILE.UPLOADED"))
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", hook)
	require.Equal(t, "webhook", hook["type"])
	require.Equal(t, []any{"FILE.UPLOADED", "FOLDER.CREATED"}, hook["triggers"], "duplicates folded")
	require.Equal(t, map[string]any{"id": dir, "type": "folder"}, hook["target"])
	require.Equal(t, "user@cms.test", hook["created_by"].(map[string]any)["login"])
	id := hook["id"].(string)

	before := snapshot(e.s)
	for _, c := range []struct {
		token  string
		body   any
		status int
		code   string
	}{
		{user, hookBody(dir, "folder", "https://example.com/other", "FILE.UPLOADED"), http.StatusConflict, wire.CodeConflict},
		{user, hookBody("0", "folder", "https://example.com/h", "FILE.UPLOADED"), http.StatusBadRequest, wire.CodeBadRequest},
		{user, hookBody(file, "file", "ftp://example.com/h", "FILE.UPLOADED"), http.StatusBadRequest, wire.CodeBadRequest},
		{user, hookBody(file, "file", "http://example.com/h", "FILE.UPLOADED"), http.StatusBadRequest, wire.CodeBadRequest},
		{user, hookBody(file, "file", "/relative", "FILE.UPLOADED"), http.StatusBadRequest, wire.CodeBadRequest},
		{user, hookBody(file, "file", "https://example.com/h", "FILE.EXPLODED"), http.StatusBadRequest, wire.CodeBadRequest},
		{user, hookBody(file, "file", "https://example.com/h", "FOLDER.CREATED"), http.StatusBadRequest, wire.CodeBadRequest},
		{user, hookBody(file, "file", "https://example.com/h"), http.StatusBadRequest, wire.CodeBadRequest},
		{user, hookBody(file, "web_link", "https://example.com/h", "FILE.UPLOADED"), http.StatusBadRequest, wire.CodeBadRequest},
		{user, hookBody(hidden, "folder", "https://example.com/h", "FILE.UPLOADED"), http.StatusNotFound, wire.CodeNotFound},
		{user, hookBody("999999", "file", "https://example.com/h", "FILE.UPLOADED"), http.StatusNotFound, wire.CodeNotFound},
		{user, map[string]any{"address": "https://example.com/h", "triggers": []string{"FILE.UPLOADED"}}, http.StatusBadRequest, wire.CodeBadRequest},
		{user, map[string]any{"target": nil, "address": "https://example.com/h", "triggers": []string{"FILE.UPLOADED"}}, http.StatusBadRequest, wire.CodeBadRequest},
		{user, `[]`, http.StatusBadRequest, wire.CodeBadRequest},
		// A member the body does not have, even one named after a field
		// of the server's own: strict decoding refuses it.
		{user, func() map[string]any {
			b := hookBody(file, "file", "https://example.com/h", "FILE.UPLOADED")
			b["HasTrig"] = true
			return b
		}(), http.StatusBadRequest, wire.CodeBadRequest},
		{app, hookBody(file, "file", "https://example.com/h", "FILE.UPLOADED"), http.StatusForbidden, wire.CodeInsufficientScope},
	} {
		resp, m := e.createWebhook(c.token, c.body)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	require.Equal(t, before, snapshot(e.s), "refused requests change nothing")

	// http on a loopback host is taken (for tests), and a file webhook.
	resp, m := e.createWebhook(user, hookBody(file, "file", "http://127.0.0.1:9/hook", "FILE.DOWNLOADED"))
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	fileHook := m["id"].(string)

	resp, got := e.doJSON("GET", e.api("/webhooks/"+id), user, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, hook, got)
	resp, m = e.doJSON("GET", e.api("/webhooks/"+id), admin, nil, nil)
	requireAPIError(t, resp, m, http.StatusNotFound, wire.CodeNotFound)

	resp, up := e.doJSON("PUT", e.api("/webhooks/"+id), user, map[string]any{"address": "https://example.com/new", "triggers": []string{"FOLDER.RENAMED"}}, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%v", up)
	require.Equal(t, "https://example.com/new", up["address"])
	require.Equal(t, []any{"FOLDER.RENAMED"}, up["triggers"])
	other := e.uploadFile(user, dir, "other.txt", []byte("y"))["id"].(string)
	resp, m = e.doJSON("PUT", e.api("/webhooks/"+id), user, map[string]any{"target": map[string]any{"id": other, "type": "file"}}, nil)
	requireAPIError(t, resp, m, http.StatusBadRequest, wire.CodeBadRequest) // FOLDER.RENAMED does not fit a file
	resp, m = e.doJSON("PUT", e.api("/webhooks/"+fileHook), user, map[string]any{"target": map[string]any{"id": dir, "type": "folder"}}, nil)
	requireAPIError(t, resp, m, http.StatusConflict, wire.CodeConflict)

	// The list, by marker, two at a time over three webhooks.
	sub := e.createFolder(user, dir, "sub")["id"].(string)
	resp, _ = e.createWebhook(user, hookBody(sub, "folder", "https://example.com/sub", "FOLDER.TRASHED"))
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	var ids []string
	marker := ""
	for range 3 {
		resp, page := e.doJSON("GET", e.api("/webhooks?limit=2&marker="+marker), user, nil, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%v", page)
		for _, x := range page["entries"].([]any) {
			ids = append(ids, x.(map[string]any)["id"].(string))
		}
		if page["next_marker"] == nil {
			break
		}
		marker = page["next_marker"].(string)
	}
	require.Len(t, ids, 3)
	resp, page := e.doJSON("GET", e.api("/webhooks"), admin, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Empty(t, page["entries"], "another user's webhooks are not listed")

	resp, _ = e.do("DELETE", e.api("/webhooks/"+id), user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	resp, m = e.doJSON("GET", e.api("/webhooks/"+id), user, nil, nil)
	requireAPIError(t, resp, m, http.StatusNotFound, wire.CodeNotFound)
}

// receiver is a webhook address that records deliveries.
type receiver struct {
	got chan *http.Request
	srv *httptest.Server
}

func newReceiver(t *testing.T, status func(n int) int) *receiver {
	r := &receiver{got: make(chan *http.Request, 16)}
	n := 0
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		clone := req.Clone(context.Background())
		clone.Body = io.NopCloser(bytes.NewReader(b))
		n++
		w.WriteHeader(status(n))
		r.got <- clone
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) next(t *testing.T) (*http.Request, []byte, map[string]any) {
	t.Helper()
	select {
	case req := <-r.got:
		b, _ := io.ReadAll(req.Body)
		var m map[string]any
		require.NoError(t, json.Unmarshal(b, &m))
		return req, b, m
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery")
		return nil, nil, nil
	}
}

// checkSignatures verifies a delivery the way the signature guide says.
func checkSignatures(t *testing.T, req *http.Request, body []byte, primary, secondary string) {
	t.Helper()
	ts := req.Header.Get("box-delivery-timestamp")
	_, err := time.Parse(time.RFC3339, ts)
	require.NoError(t, err)
	for key, header := range map[string]string{primary: "box-signature-primary", secondary: "box-signature-secondary"} {
		mac := hmac.New(sha256.New, []byte(key))
		mac.Write(body)
		mac.Write([]byte(ts))
		require.Equal(t, base64.StdEncoding.EncodeToString(mac.Sum(nil)), req.Header.Get(header), header)
	}
	require.Equal(t, "1", req.Header.Get("box-signature-version"))
	require.Equal(t, "HmacSHA256", req.Header.Get("box-signature-algorithm"))
	require.NotEmpty(t, req.Header.Get("box-delivery-id"))
	require.Equal(t, "Box-WH-Client/0.1", req.Header.Get("User-Agent"))
}

func TestWebhookDeliveries(t *testing.T) {
	e := newEnv(t, Options{WebhookPrimaryKey: "primary-key", WebhookSecondaryKey: "secondary-key"})
	user := e.s.UserToken()
	rcv := newReceiver(t, func(int) int { return http.StatusOK })
	dir := e.createFolder(user, "0", "watched")["id"].(string)
	sub := e.createFolder(user, dir, "sub")["id"].(string)
	resp, hook := e.createWebhook(user, hookBody(dir, "folder", rcv.srv.URL+"/hook", "FILE.UPLOADED", "FOLDER.CREATED", "METADATA_INSTANCE.CREATED", "WEBHOOK.DELETED"))
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", hook)
	p, s := e.s.WebhookKeys()
	require.Equal(t, [2]string{"primary-key", "secondary-key"}, [2]string{p, s})

	f := e.uploadFile(user, sub, "deep.txt", []byte("x")) // below the target: fires
	req, body, payload := rcv.next(t)
	checkSignatures(t, req, body, "primary-key", "secondary-key")
	require.Equal(t, "webhook_event", payload["type"])
	require.Equal(t, "FILE.UPLOADED", payload["trigger"])
	require.Equal(t, map[string]any{"id": hook["id"], "type": "webhook"}, payload["webhook"])
	require.Equal(t, f["id"], payload["source"].(map[string]any)["id"])
	require.Equal(t, "user@cms.test", payload["created_by"].(map[string]any)["login"])
	require.NotEmpty(t, payload["id"])

	e.createFolder(user, sub, "deeper")
	_, _, payload = rcv.next(t)
	require.Equal(t, "FOLDER.CREATED", payload["trigger"])

	e.uploadFile(user, "0", "outside.txt", []byte("x")) // not below the target
	resp, _ = e.doJSON("POST", e.api("/files/"+f["id"].(string)+"/metadata/global/properties"), user, map[string]any{"k": "v"}, nil)
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	_, _, payload = rcv.next(t)
	require.Equal(t, "METADATA_INSTANCE.CREATED", payload["trigger"], "the outside upload sent nothing")

	resp, _ = e.do("DELETE", e.api("/webhooks/"+hook["id"].(string)), user, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	_, _, payload = rcv.next(t)
	require.Equal(t, "WEBHOOK.DELETED", payload["trigger"])
	// That no delivery follows a delete, and the retries, are in
	// webhook_delivery_synctest_test.go, on a clock that can be trusted.
}

func TestWebhookKeysPersist(t *testing.T) {
	opts := Options{DataDir: t.TempDir()}
	e := newEnv(t, opts)
	p, s := e.s.WebhookKeys()
	require.Len(t, p, 32)
	require.NotEqual(t, p, s)
	require.NoError(t, e.s.Close())
	e2 := newEnv(t, opts)
	p2, s2 := e2.s.WebhookKeys()
	require.Equal(t, [2]string{p, s}, [2]string{p2, s2}, "random keys survive a restart")
	require.NoError(t, e2.s.Close())
	opts.WebhookPrimaryKey = "fixed"
	e3 := newEnv(t, opts)
	p3, s3 := e3.s.WebhookKeys()
	require.Equal(t, [2]string{"fixed", s}, [2]string{p3, s3}, "a key Options gives wins")
}
