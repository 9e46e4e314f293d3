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

func TestClassificationsRefserver(t *testing.T) {
	t.Parallel()
	srv, user := refServer(t, cmstest.Options{})
	admin := srv.AdminClient(t)
	ctx := context.Background()

	_, _, err := admin.Classifications.GetTemplate(ctx)
	require.ErrorIs(t, err, cms.ErrNotFound)
	tpl, _, err := admin.Classifications.CreateTemplate(ctx, &cms.CreateClassificationTemplateRequest{})
	require.NoError(t, err)
	assert.Equal(t, cms.ClassificationTemplateKey, tpl.TemplateKey)
	assert.Equal(t, "Classification", tpl.DisplayName)
	assert.Empty(t, tpl.Labels())
	tpl, _, err = admin.Classifications.AddLabels(ctx, cms.ClassificationLabel{Key: "Public"},
		cms.ClassificationLabel{Key: "Confidential", Definition: "Staff only", ColorID: cms.Ptr(2)})
	require.NoError(t, err)
	require.Len(t, tpl.Labels(), 2)
	conf := tpl.Label("Confidential")
	require.NotNil(t, conf)
	require.NotNil(t, conf.StaticConfig)
	assert.Equal(t, "Staff only", conf.StaticConfig.Classification.Definition)
	assert.Equal(t, 2, *conf.StaticConfig.Classification.ColorID)
	assert.NotEmpty(t, conf.ID)
	got, _, err := user.Classifications.GetTemplate(ctx)
	require.NoError(t, err)
	assert.Equal(t, tpl.ID, got.ID)

	// Only the admin changes the labels; a duplicate or unknown label is 400.
	_, _, err = user.Classifications.AddLabels(ctx, cms.ClassificationLabel{Key: "Secret"})
	require.Error(t, err)
	_, _, err = admin.Classifications.AddLabels(ctx, cms.ClassificationLabel{Key: "Public"})
	apiCode(t, err, 400, "bad_request")
	_, _, err = admin.Classifications.DeleteLabels(ctx, "Nope")
	apiCode(t, err, 400, "bad_request")

	// A classification on a file is a metadata instance.
	f, _, err := user.Files.Upload(ctx, "0", "plan.txt", strings.NewReader("plan"), 4, nil)
	require.NoError(t, err)
	_, _, err = user.Classifications.Get(ctx, cms.OnFile(f.ID))
	apiCode(t, err, 404, "instance_not_found")
	cl, resp, err := user.Classifications.Add(ctx, cms.OnFile(f.ID), "Public")
	require.NoError(t, err)
	assert.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, "Public", cl.Key)
	_, _, err = user.Classifications.Add(ctx, cms.OnFile(f.ID), "Public")
	apiCode(t, err, 409, "tuple_already_exists")
	_, _, err = user.Classifications.Update(ctx, cms.OnFile(f.ID), "Unknown")
	apiCode(t, err, 400, "schema_validation_failed")
	cl, _, err = user.Classifications.Update(ctx, cms.OnFile(f.ID), "Confidential")
	require.NoError(t, err)
	assert.Equal(t, "Confidential", cl.Key)
	list, _, err := user.Metadata.ListByItem(ctx, cms.OnFile(f.ID))
	require.NoError(t, err)
	require.Len(t, list.Entries, 1)

	// Renaming a label renames it on the items.
	_, _, err = admin.Classifications.UpdateLabels(ctx, cms.ClassificationLabelChange{Key: "Confidential", Label: cms.ClassificationLabel{Key: "Internal"}})
	require.NoError(t, err)
	cl, _, err = user.Classifications.Get(ctx, cms.OnFile(f.ID))
	require.NoError(t, err)
	assert.Equal(t, "Internal", cl.Key)

	// A stranger neither reads nor classifies it.
	other, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Other", Login: "other@cms.test"}, nil)
	require.NoError(t, err)
	stranger, err := admin.AsUser(other.ID)
	require.NoError(t, err)
	_, _, err = stranger.Classifications.Get(ctx, cms.OnFile(f.ID))
	apiCode(t, err, 404, "not_found")

	resp, err = user.Classifications.Remove(ctx, cms.OnFile(f.ID))
	require.NoError(t, err)
	assert.Equal(t, 204, resp.StatusCode)
	_, err = user.Classifications.Remove(ctx, cms.OnFile(f.ID))
	apiCode(t, err, 404, "instance_not_found")
}
