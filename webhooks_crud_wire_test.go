package cms

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhookUpdateAndGetWire: Update sends every member it is given and
// nothing else; Get decodes every member of the record.
func TestWebhookUpdateAndGetWire(t *testing.T) {
	w := newWireLog(t)
	ctx := context.Background()
	w.answer("PUT /webhooks/4133", http.StatusOK, webhookRecord)
	_, _, err := w.e.client.Webhooks.Update(ctx, "4133", &UpdateWebhookRequest{Target: &ItemRef{ID: "77", Type: ItemTypeFile},
		Address: "https://example.com/new", Triggers: []WebhookTrigger{WebhookTriggerFileLocked, WebhookTriggerSharedLinkCreated}})
	require.NoError(t, err)
	c := w.last(t)
	assert.Equal(t, "/webhooks/4133", c.Path)
	assert.JSONEq(t, `{"target":{"id":"77","type":"file"},"address":"https://example.com/new","triggers":["FILE.LOCKED","SHARED_LINK.CREATED"]}`, c.Body)
	_, _, err = w.e.client.Webhooks.Update(ctx, "4133", &UpdateWebhookRequest{Address: "https://example.com/only"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"address":"https://example.com/only"}`, w.last(t).Body)

	w.answer("GET /webhooks/4133", http.StatusOK, webhookRecord)
	hook, _, err := w.e.client.Webhooks.Get(ctx, "4133")
	require.NoError(t, err)
	assert.Equal(t, &Webhook{ID: "4133", Type: "webhook", Target: &ItemRef{ID: "42", Type: ItemTypeFolder},
		CreatedBy: &UserMini{Type: "user", ID: "11"}, CreatedAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
		Address: "https://example.com/hook", Triggers: []WebhookTrigger{WebhookTriggerFileUploaded, WebhookTriggerFolderCreated}}, hook)
}

// TestWebhookArgumentsRefused: what the SDK refuses before sending, for
// every call that takes arguments.
func TestWebhookArgumentsRefused(t *testing.T) {
	w := newWireLog(t)
	ctx := context.Background()
	argErr := func(t *testing.T, err error, what string) {
		t.Helper()
		var ae *ArgError
		require.ErrorAs(t, err, &ae, what)
	}
	for _, id := range []string{"", "..", "1/2", "a?b"} {
		_, _, err := w.e.client.Webhooks.Get(ctx, id)
		argErr(t, err, "Get "+id)
		_, _, err = w.e.client.Webhooks.Update(ctx, id, &UpdateWebhookRequest{Address: "https://example.com/h"})
		argErr(t, err, "Update "+id)
		_, err = w.e.client.Webhooks.Delete(ctx, id)
		argErr(t, err, "Delete "+id)
	}
	for _, body := range []*UpdateWebhookRequest{
		nil,
		{Address: "ftp://example.com/h"},
		{Address: "/relative"},
		{Address: "https://"},
		{Address: "http://example.com/h"},
		{Triggers: []WebhookTrigger{"FILE.EXPLODED"}},
		{Triggers: []WebhookTrigger{""}},
		{Target: &ItemRef{ID: "7", Type: ItemTypeFile}, Triggers: []WebhookTrigger{WebhookTriggerCollaborationCreated}},
		{Target: &ItemRef{ID: "0", Type: ItemTypeFolder}},
		{Target: &ItemRef{ID: "7"}},
		{Target: &ItemRef{Type: ItemTypeFile}},
		{Target: &ItemRef{ID: "7", Type: ItemTypeWebLink}},
	} {
		_, _, err := w.e.client.Webhooks.Update(ctx, "1", body)
		argErr(t, err, "Update body")
	}
	_, _, err := w.e.client.Webhooks.List(ctx, &ListWebhooksOptions{Limit: -1})
	argErr(t, err, "List limit")
	assert.Zero(t, w.count(), "nothing sent")
}

// TestWebhookAddresses: an absolute https URL anywhere, http only on a
// loopback host.
func TestWebhookAddresses(t *testing.T) {
	for addr, ok := range map[string]bool{
		"https://example.com/hook":       true,
		"HTTPS://EXAMPLE.COM/hook":       true,
		"https://example.com:8443/h?x=1": true,
		"http://127.0.0.1:8080/hook":     true,
		"http://127.0.0.2/hook":          true,
		"http://[::1]:9000/hook":         true,
		"http://localhost/hook":          true,
		"http://example.com/hook":        false,
		"http://10.0.0.1/hook":           false,
		"http://localhost.example.com/":  false,
		"ws://example.com/hook":          false,
		"mailto:a@example.com":           false,
		"example.com/hook":               false,
		"":                               false,
		" https://example.com/hook":      false,
	} {
		err := checkWebhookAddress(addr)
		if ok {
			assert.NoError(t, err, addr)
		} else {
			assert.Error(t, err, addr)
		}
	}
}

// TestWebhookConflictAndPaginator: the service's 409 for a second webhook
// on a target matches ErrConflict; the paginator walks the marker pages and
// tells the marker to resume at.
func TestWebhookConflictAndPaginator(t *testing.T) {
	w := newWireLog(t)
	ctx := context.Background()
	w.answer("POST /webhooks", http.StatusConflict, `{"type":"error","status":409,"code":"conflict","message":"Webhook:1 already exists"}`)
	_, resp, err := w.e.client.Webhooks.Create(ctx, &CreateWebhookRequest{Target: ItemRef{ID: "42", Type: ItemTypeFile},
		Address: "https://example.com/h", Triggers: []WebhookTrigger{WebhookTriggerFileUploaded}})
	require.ErrorIs(t, err, ErrConflict)
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusConflict, resp.StatusCode)

	w.serve("GET /webhooks", func(rw http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("marker") {
		case "":
			writeJSON(rw, http.StatusOK, []byte(`{"limit":2,"next_marker":"m2","entries":[{"type":"webhook","id":"1"},{"type":"webhook","id":"2"}]}`))
		case "m2":
			writeJSON(rw, http.StatusOK, []byte(`{"limit":2,"next_marker":"m3","entries":[{"type":"webhook","id":"3"}]}`))
		default:
			writeJSON(rw, http.StatusOK, []byte(`{"limit":2,"entries":[]}`))
		}
	})
	p := w.e.client.Webhooks.NewListPaginator(&ListWebhooksOptions{Limit: 2})
	page, resp, err := p.NextPage(ctx)
	require.NoError(t, err)
	assert.Len(t, page.Entries, 2)
	assert.Equal(t, "m2", resp.NextMarker)
	assert.Equal(t, "m2", p.NextMarker(), "where a later paginator resumes")

	var ids []string
	for h, err := range w.e.client.Webhooks.ListIter(ctx, &ListWebhooksOptions{Marker: p.NextMarker(), Limit: 2}) {
		require.NoError(t, err)
		ids = append(ids, h.ID)
	}
	assert.Equal(t, []string{"3"}, ids, "resumed at m2, past an empty last page")
	assert.Equal(t, "limit=2&marker=m3", w.last(t).Query)
}
