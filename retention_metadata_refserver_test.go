package cms_test

// Retention assigned to a metadata template, through the SDK against the
// reference server: the assignment names the template, a filter field and
// option and a start date field by their ids; files come under retention
// when they carry a matching instance, counted from the date in the start
// date field.

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRefserverRetentionOnMetadataTemplate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := cmstest.NewServer(t, cmstest.Options{})
	admin, user := srv.AdminClient(t), srv.Client(t)
	scope := cms.EnterpriseScope(srv.EnterpriseID())

	tpl, _, err := admin.MetadataTemplates.Create(ctx, contractTemplate("contract"))
	require.NoError(t, err)
	field := func(key string) *cms.MetadataField {
		for _, f := range tpl.Fields {
			if f.Key == key {
				return f
			}
		}
		t.Fatalf("no field %s", key)
		return nil
	}
	status, expires := field("status"), field("expires")
	signed := status.Options[1]
	require.Equal(t, "signed", signed.Key)
	pol, _, err := admin.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
		PolicyName: "Signed contracts", PolicyType: cms.RetentionPolicyTypeFinite,
		DispositionAction: cms.DispositionActionPermanentlyDelete, RetentionLength: cms.RetentionDays(30),
	})
	require.NoError(t, err)

	// Wrong names are refused: the template, field and option go by id.
	_, _, err = admin.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: pol.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeMetadataTemplate, ID: string(scope) + ".contract"},
	})
	assert.True(t, errors.Is(err, cms.ErrNotFound), "%v", err)
	_, _, err = admin.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: pol.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeMetadataTemplate, ID: tpl.ID},
		FilterFields: []cms.MetadataFilterField{{Field: "status", Value: "signed"}},
	})
	requireAPICode(t, err, http.StatusBadRequest, "bad_request")
	_, _, err = admin.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: pol.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeMetadataTemplate, ID: tpl.ID},
		StartDateField: "expires",
	})
	requireAPICode(t, err, http.StatusBadRequest, "bad_request")

	a, _, err := admin.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: pol.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeMetadataTemplate, ID: tpl.ID},
		FilterFields:   []cms.MetadataFilterField{{Field: status.ID, Value: signed.ID}},
		StartDateField: expires.ID,
	})
	require.NoError(t, err)
	assert.Equal(t, cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeMetadataTemplate, ID: tpl.ID}, a.AssignedTo)
	assert.Equal(t, expires.ID, a.StartDateField)

	// A signed contract is retained at once, counted from its expiry date.
	end := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	done := upload(t, user, "0", "done.pdf", "done")
	_, _, err = user.Metadata.Create(ctx, cms.OnFile(done.ID), scope, "contract", contract{Amount: 1, Status: "signed", Expires: end})
	require.NoError(t, err)
	fvrs := collect(t, admin.FileVersionRetentions.ListIter(ctx, &cms.ListFileVersionRetentionsOptions{FileID: done.ID}))
	require.Len(t, fvrs, 1)
	assert.Equal(t, done.FileVersion.ID, fvrs[0].FileVersion.ID)
	assert.Equal(t, end.AddDate(0, 0, 30), fvrs[0].DispositionAt.UTC())
	assert.Equal(t, pol.ID, fvrs[0].WinningRetentionPolicy.ID)

	// A draft is not, until it is signed.
	draft := upload(t, user, "0", "draft.pdf", "draft")
	_, _, err = user.Metadata.Create(ctx, cms.OnFile(draft.ID), scope, "contract", contract{Amount: 2, Status: "draft"})
	require.NoError(t, err)
	assert.Empty(t, collect(t, admin.FileVersionRetentions.ListIter(ctx, &cms.ListFileVersionRetentionsOptions{FileID: draft.ID})))
	_, _, err = user.Metadata.Update(ctx, cms.OnFile(draft.ID), scope, "contract", cms.NewMetadataPatch().Replace("status", "signed"))
	require.NoError(t, err)
	under := collect(t, admin.RetentionPolicyAssignments.ListFilesUnderRetentionIter(ctx, a.ID, &cms.GovernancePageOptions{Limit: 1}))
	require.Len(t, under, 2)
	assert.Equal(t, []string{done.ID, draft.ID}, []string{under[0].ID, under[1].ID})

	// Removing the metadata does not lift the retention: the file goes to
	// the trash but cannot be deleted for good.
	_, err = user.Metadata.Delete(ctx, cms.OnFile(done.ID), scope, "contract")
	require.NoError(t, err)
	_, err = user.Files.Delete(ctx, done.ID, nil)
	require.NoError(t, err)
	_, err = user.Trash.PurgeFile(ctx, done.ID)
	requireAPICode(t, err, http.StatusForbidden, "access_denied_insufficient_permissions")
	assert.Len(t, collect(t, admin.RetentionPolicyAssignments.ListFilesUnderRetentionIter(ctx, a.ID, nil)), 2)
}
