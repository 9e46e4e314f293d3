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

// TestEnterpriseStreamAgainstRefserver: the admin reads the enterprise
// history page by page (limit 1) with an event_type filter, sees each
// upload's item summary and a comment's record through the typed views;
// the stream ends at its first empty page, and a later stream resumes from
// Position with nothing new; a user who is no admin gets 403.
func TestEnterpriseStreamAgainstRefserver(t *testing.T) {
	t.Parallel()
	srv := cmstest.NewInProcessServer(t, cmstest.Options{})
	user, admin := srv.Client(t), srv.AdminClient(t)
	ctx := context.Background()
	var fileID string
	for _, name := range []string{"a.txt", "b.txt"} {
		f, _, err := user.Files.Upload(ctx, "0", name, strings.NewReader(name), int64(len(name)), nil)
		require.NoError(t, err)
		fileID = f.ID
	}
	_, _, err := user.Comments.Create(ctx, &cms.CreateCommentRequest{Item: cms.ItemRef{Type: cms.ItemTypeFile, ID: fileID}, Message: "looks good"}, nil)
	require.NoError(t, err)

	var pos cms.StreamPosition
	var names, comments []string
	for e, err := range admin.Events.EnterpriseStream(ctx, &cms.EnterpriseEventsOptions{StreamPosition: "0", Limit: 1,
		EventTypes: []cms.EventType{cms.EventTypeUpload, cms.EventTypeCommentCreate}, Position: &pos}) {
		require.NoError(t, err)
		switch e.EventType {
		case cms.EventTypeUpload:
			src, ok := e.EnterpriseSource()
			require.True(t, ok, "%s", e.Source)
			assert.Equal(t, cms.ItemTypeFile, src.ItemType)
			names = append(names, src.ItemName)
		case cms.EventTypeCommentCreate:
			c, ok := e.Comment()
			require.True(t, ok, "%s", e.Source)
			comments = append(comments, c.Message)
		default:
			t.Fatalf("event type %s passed the filter", e.EventType)
		}
	}
	assert.Equal(t, []string{"a.txt", "b.txt"}, names)
	assert.Equal(t, []string{"looks good"}, comments)
	require.NotEmpty(t, pos)

	n := 0
	for _, err := range admin.Events.EnterpriseStream(ctx, &cms.EnterpriseEventsOptions{StreamType: cms.EventStreamTypeAdminLogsStreaming, StreamPosition: pos}) {
		require.NoError(t, err)
		n++
	}
	assert.Zero(t, n, "nothing after the position the first stream reached")

	var errs []error
	for _, err := range user.Events.EnterpriseStream(ctx, nil) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], cms.ErrAccessDeniedInsufficientPermissions)
}
