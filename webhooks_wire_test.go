package cms

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const webhookRecord = `{"type":"webhook","id":"4133","target":{"id":"42","type":"folder"},"created_by":{"type":"user","id":"11"},
"created_at":"2025-01-02T03:04:05Z","address":"https://example.com/hook","triggers":["FILE.UPLOADED","FOLDER.CREATED"]}`

func TestWebhooksWire(t *testing.T) {
	w := newWireLog(t)
	ctx := context.Background()
	w.answer("POST /webhooks", http.StatusCreated, webhookRecord)
	hook, _, err := w.e.client.Webhooks.Create(ctx, &CreateWebhookRequest{Target: ItemRef{ID: "42", Type: ItemTypeFolder},
		Address: "https://example.com/hook", Triggers: []WebhookTrigger{WebhookTriggerFileUploaded, WebhookTriggerFolderCreated}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"target":{"id":"42","type":"folder"},"address":"https://example.com/hook","triggers":["FILE.UPLOADED","FOLDER.CREATED"]}`, w.last(t).Body)
	assert.Equal(t, "4133", hook.ID)
	assert.Equal(t, ItemTypeFolder, hook.Target.Type)
	assert.Equal(t, []WebhookTrigger{WebhookTriggerFileUploaded, WebhookTriggerFolderCreated}, hook.Triggers)

	w.answer("PUT /webhooks/4133", http.StatusOK, webhookRecord)
	_, _, err = w.e.client.Webhooks.Update(ctx, "4133", &UpdateWebhookRequest{Triggers: []WebhookTrigger{WebhookTriggerFileTrashed}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"triggers":["FILE.TRASHED"]}`, w.last(t).Body)
	w.answer("GET /webhooks/4133", http.StatusOK, webhookRecord)
	_, _, err = w.e.client.Webhooks.Get(ctx, "4133")
	require.NoError(t, err)
	w.answer("DELETE /webhooks/4133", http.StatusNoContent, "")
	_, err = w.e.client.Webhooks.Delete(ctx, "4133")
	require.NoError(t, err)
	assert.Equal(t, "DELETE", w.last(t).Method)

	// The list, by marker, over two pages.
	w.serve("GET /webhooks", func(rw http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("marker") == "" {
			writeJSON(rw, http.StatusOK, []byte(`{"limit":1,"next_marker":"m2","entries":[{"type":"webhook","id":"1"}]}`))
			return
		}
		writeJSON(rw, http.StatusOK, []byte(`{"limit":1,"next_marker":null,"entries":[{"type":"webhook","id":"2"}]}`))
	})
	var ids []string
	for h, err := range w.e.client.Webhooks.ListIter(ctx, &ListWebhooksOptions{Limit: 1}) {
		require.NoError(t, err)
		ids = append(ids, h.ID)
	}
	assert.Equal(t, []string{"1", "2"}, ids)
	assert.Equal(t, "limit=1&marker=m2", w.last(t).Query)

	n := w.count()
	for _, bad := range []*CreateWebhookRequest{
		nil,
		{Target: ItemRef{ID: "42", Type: ItemTypeFolder}, Address: "https://example.com/h"},
		{Target: ItemRef{ID: "42", Type: ItemTypeWebLink}, Address: "https://example.com/h", Triggers: []WebhookTrigger{WebhookTriggerFileUploaded}},
		{Target: ItemRef{ID: "0", Type: ItemTypeFolder}, Address: "https://example.com/h", Triggers: []WebhookTrigger{WebhookTriggerFileUploaded}},
		{Target: ItemRef{ID: "42", Type: ItemTypeFile}, Address: "http://example.com/h", Triggers: []WebhookTrigger{WebhookTriggerFileUploaded}},
		{Target: ItemRef{ID: "42", Type: ItemTypeFile}, Address: "https://example.com/h", Triggers: []WebhookTrigger{"FILE.EXPLODED"}},
		{Target: ItemRef{ID: "42", Type: ItemTypeFile}, Address: "https://example.com/h", Triggers: []WebhookTrigger{WebhookTriggerFolderCreated}},
	} {
		_, _, err := w.e.client.Webhooks.Create(ctx, bad)
		var argErr *ArgError
		require.ErrorAs(t, err, &argErr, "%+v", bad)
	}
	_, _, err = w.e.client.Webhooks.Create(ctx, &CreateWebhookRequest{Target: ItemRef{ID: "42", Type: ItemTypeFile},
		Address: "http://127.0.0.1:8080/hook", Triggers: []WebhookTrigger{WebhookTriggerFileUploaded}})
	require.NoError(t, err, "http on a loopback host is let through")
	assert.Equal(t, n+1, w.count(), "only the valid call was sent")
}

// A valid body of Webhooks.Create for the failure sweep
// (failure_sweep_test.go).
func init() {
	b := &CreateWebhookRequest{Target: ItemRef{ID: "1", Type: ItemTypeFolder}, Address: "https://example.com/h",
		Triggers: []WebhookTrigger{WebhookTriggerFileUploaded}}
	sweepBodies[reflect.TypeOf(b)] = b
}
