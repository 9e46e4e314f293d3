package cms_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/require"
)

// TestWebhookDeliveriesVerify: the reference server's deliveries pass
// NewWebhookHandler's verification with the server's keys (either one
// alone), a delivery refused with 500 comes again with the same payload
// id, and a handler with other keys answers 401 and never sees one.
func TestWebhookDeliveriesVerify(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{WebhookRetryDelay: 10 * time.Millisecond})
	c := srv.Client(t)
	ctx := context.Background()
	primary, secondary := srv.WebhookKeys()

	got := make(chan *cms.WebhookPayload, 8)
	calls := 0
	h, err := cms.NewWebhookHandler(cms.WebhookKeys{Secondary: secondary}, nil, func(_ context.Context, p *cms.WebhookPayload) error {
		calls++
		got <- p
		if calls == 1 {
			return errors.New("not now") // 500: the server delivers again
		}
		return nil
	})
	require.NoError(t, err)
	rcv := httptest.NewServer(h)
	t.Cleanup(rcv.Close)

	wrong, err := cms.NewWebhookHandler(cms.WebhookKeys{Primary: primary + "x"}, nil, func(context.Context, *cms.WebhookPayload) error {
		t.Error("a delivery verified with the wrong key")
		return nil
	})
	require.NoError(t, err)
	refused := make(chan int, 8)
	wrongRcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		wrong.ServeHTTP(rec, r)
		refused <- rec.Code
		w.WriteHeader(http.StatusOK) // stop the server's retries
	}))
	t.Cleanup(wrongRcv.Close)

	dir, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "hooked", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	other, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "hooked elsewhere", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	createHook(t, srv, dir.ID, rcv.URL)
	createHook(t, srv, other.ID, wrongRcv.URL)

	f, _, err := c.Files.Upload(ctx, dir.ID, "a.txt", strings.NewReader("a"), 1, nil)
	require.NoError(t, err)
	first, second := <-got, <-got
	require.Equal(t, "FILE.UPLOADED", string(first.Trigger))
	require.Equal(t, first.ID, second.ID, "a retry carries the same payload id")
	require.NotEqual(t, first.DeliveryID, second.DeliveryID, "and a new delivery id")
	require.Equal(t, f.ID, first.Source.ID)

	_, _, err = c.Files.Upload(ctx, other.ID, "b.txt", strings.NewReader("b"), 1, nil)
	require.NoError(t, err)
	require.Equal(t, http.StatusUnauthorized, <-refused)
}

// createHook creates a FILE.UPLOADED webhook on a folder for the user,
// through the SDK.
func createHook(t *testing.T, srv *cmstest.Server, folderID, address string) {
	t.Helper()
	c := srv.Client(t)
	hook, _, err := c.Webhooks.Create(context.Background(), &cms.CreateWebhookRequest{
		Target: cms.ItemRef{ID: folderID, Type: cms.ItemTypeFolder}, Address: address,
		Triggers: []cms.WebhookTrigger{cms.WebhookTriggerFileUploaded}})
	require.NoError(t, err)
	require.Equal(t, address, hook.Address)
}
