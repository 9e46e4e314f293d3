package cms_test

import (
	"context"
	"strings"
	"testing"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWebhooksCRUDAgainstRefserver: webhooks on a file and folders through
// client.Webhooks: a second one on the same target is ErrConflict; the list
// walks marker pages of one; Update changes triggers and address; another
// user sees none of them (404); Delete removes one, and Get then finds
// nothing.
func TestWebhooksCRUDAgainstRefserver(t *testing.T) {
	t.Parallel()
	srv := cmstest.NewInProcessServer(t, cmstest.Options{})
	c := srv.Client(t)
	ctx := context.Background()
	f, _, err := c.Files.Upload(ctx, "0", "watched.txt", strings.NewReader("w"), 1, nil)
	require.NoError(t, err)
	var targets []cms.ItemRef
	for _, name := range []string{"one", "two"} {
		d, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(t, err)
		targets = append(targets, cms.ItemRef{ID: d.ID, Type: cms.ItemTypeFolder})
	}
	targets = append(targets, cms.ItemRef{ID: f.ID, Type: cms.ItemTypeFile})

	var ids []string
	for _, target := range targets {
		triggers := []cms.WebhookTrigger{cms.WebhookTriggerFileUploaded}
		if target.Type == cms.ItemTypeFolder {
			triggers = append(triggers, cms.WebhookTriggerFolderCreated)
		}
		h, _, err := c.Webhooks.Create(ctx, &cms.CreateWebhookRequest{Target: target, Address: "https://example.com/hook", Triggers: triggers})
		require.NoError(t, err)
		assert.Equal(t, target, *h.Target)
		assert.Equal(t, triggers, h.Triggers)
		ids = append(ids, h.ID)
	}
	_, _, err = c.Webhooks.Create(ctx, &cms.CreateWebhookRequest{Target: targets[2], Address: "https://example.com/again",
		Triggers: []cms.WebhookTrigger{cms.WebhookTriggerFileTrashed}})
	require.ErrorIs(t, err, cms.ErrConflict, "one webhook per target and user")

	var listed []string
	for h, err := range c.Webhooks.ListIter(ctx, &cms.ListWebhooksOptions{Limit: 1}) {
		require.NoError(t, err)
		listed = append(listed, h.ID)
	}
	assert.ElementsMatch(t, ids, listed)
	p := c.Webhooks.NewListPaginator(&cms.ListWebhooksOptions{Limit: 1})
	pages := 0
	for p.HasMorePages() {
		page, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		assert.LessOrEqual(t, len(page.Entries), 1)
		pages++
		require.Less(t, pages, 10)
	}
	assert.GreaterOrEqual(t, pages, 3, "one webhook a page")

	h, _, err := c.Webhooks.Update(ctx, ids[2], &cms.UpdateWebhookRequest{Address: "https://example.com/moved",
		Triggers: []cms.WebhookTrigger{cms.WebhookTriggerFileTrashed, cms.WebhookTriggerFileRenamed}})
	require.NoError(t, err)
	assert.Equal(t, "https://example.com/moved", h.Address)
	got, _, err := c.Webhooks.Get(ctx, ids[2])
	require.NoError(t, err)
	assert.Equal(t, []cms.WebhookTrigger{cms.WebhookTriggerFileTrashed, cms.WebhookTriggerFileRenamed}, got.Triggers)
	assert.Equal(t, targets[2], *got.Target, "the target kept")

	admin := srv.AdminClient(t)
	_, _, err = admin.Webhooks.Get(ctx, ids[0])
	assert.ErrorIs(t, err, cms.ErrNotFound, "another user's webhook")

	_, err = c.Webhooks.Delete(ctx, ids[0])
	require.NoError(t, err)
	_, _, err = c.Webhooks.Get(ctx, ids[0])
	assert.ErrorIs(t, err, cms.ErrNotFound)
}
