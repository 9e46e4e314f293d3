package cms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// collect drains an iterator.
func collect[T any](t *testing.T, seq func(yield func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		require.NoError(t, err)
		out = append(out, v)
	}
	return out
}

func requireAPICode(t *testing.T, err error, status int, code string) {
	t.Helper()
	var ae *cms.APIError
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, status, ae.StatusCode)
	assert.Equal(t, code, ae.Code)
}

func upload(t *testing.T, c *cms.Client, folderID, name, text string) *cms.File {
	t.Helper()
	f, _, err := c.Files.Upload(context.Background(), folderID, name, strings.NewReader(text), int64(len(text)), nil)
	require.NoError(t, err)
	return f
}

func TestRetentionLengthJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in         string
		days       int
		indefinite bool
	}{{`"365"`, 365, false}, {`365`, 365, false}, {`"indefinite"`, 0, true}, {`null`, 0, false}, {`""`, 0, false}} {
		var l cms.RetentionLength
		require.NoError(t, json.Unmarshal([]byte(c.in), &l), c.in)
		assert.Equal(t, c.days, l.Days(), c.in)
		assert.Equal(t, c.indefinite, l.IsIndefinite(), c.in)
	}
	for _, bad := range []string{`"ten"`, `-1`, `1.5`, `"none"`, `true`, `"99999999999"`} {
		var l cms.RetentionLength
		assert.Error(t, json.Unmarshal([]byte(bad), &l), bad)
	}
	var x cms.MaxExtensionLength
	require.NoError(t, json.Unmarshal([]byte(`"none"`), &x))
	assert.True(t, x.IsNone())
	b, _ := json.Marshal(struct {
		A cms.RetentionLength    `json:"a,omitzero"`
		B cms.RetentionLength    `json:"b,omitzero"`
		C cms.MaxExtensionLength `json:"c,omitzero"`
		D cms.MaxExtensionLength `json:"d,omitzero"`
		E cms.RetentionLength    `json:"e,omitzero"`
	}{cms.RetentionDays(30), cms.RetentionForever(), cms.NoExtension(), cms.ExtensionDays(7), cms.RetentionLength{}})
	assert.JSONEq(t, `{"a":30,"b":"indefinite","c":"none","d":7}`, string(b))
	assert.Equal(t, "30", cms.RetentionDays(30).String())
	assert.Equal(t, "indefinite", cms.RetentionForever().String())
}

func TestRetentionPoliciesService(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.AdminClient(t)

	var ids []string
	for i := range 5 {
		p, _, err := c.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
			PolicyName: fmt.Sprintf("Keep %d", i), PolicyType: cms.RetentionPolicyTypeFinite,
			DispositionAction: cms.DispositionActionRemoveRetention, RetentionLength: cms.RetentionDays(30 + i),
		})
		require.NoError(t, err)
		ids = append(ids, p.ID)
	}
	forever, _, err := c.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
		PolicyName: "Forever", PolicyType: cms.RetentionPolicyTypeIndefinite, DispositionAction: cms.DispositionActionRemoveRetention,
		RetentionType: cms.RetentionTypeNonModifiable, Description: "legal",
		CustomNotificationRecipients: []*cms.UserMini{{ID: srv.UserID(), Type: "user"}},
	})
	require.NoError(t, err)
	assert.True(t, forever.RetentionLength.IsIndefinite())
	assert.Equal(t, cms.RetentionTypeNonModifiable, forever.RetentionType)
	assert.Equal(t, srv.UserID(), forever.CustomNotificationRecipients[0].ID)
	assert.True(t, forever.MaxExtensionLength.IsNone())
	ids = append(ids, forever.ID)

	_, _, err = c.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
		PolicyName: "keep 0", PolicyType: cms.RetentionPolicyTypeIndefinite, DispositionAction: cms.DispositionActionRemoveRetention,
	})
	assert.ErrorIs(t, err, cms.ErrConflict)

	got, _, err := c.RetentionPolicies.Get(ctx, ids[1], nil)
	require.NoError(t, err)
	assert.Equal(t, 31, got.RetentionLength.Days())
	assert.Equal(t, cms.RetentionPolicyStatusActive, got.Status)
	assert.Equal(t, srv.AdminUserID(), got.CreatedBy.ID)

	// Pages and the iterator over more than one page, with filters.
	page, resp, err := c.RetentionPolicies.List(ctx, &cms.ListRetentionPoliciesOptions{Limit: 2})
	require.NoError(t, err)
	assert.Len(t, page.Entries, 2)
	assert.NotEmpty(t, resp.NextMarker)
	var all []string
	for p, err := range c.RetentionPolicies.ListIter(ctx, &cms.ListRetentionPoliciesOptions{Limit: 2}) {
		require.NoError(t, err)
		all = append(all, p.ID)
	}
	assert.Equal(t, ids, all)
	opts := &cms.ListRetentionPoliciesOptions{Limit: 2, PolicyName: "Keep", PolicyType: cms.RetentionPolicyTypeFinite, CreatedByUserID: srv.AdminUserID()}
	assert.Len(t, collect(t, c.RetentionPolicies.ListIter(ctx, opts)), 5)
	assert.Empty(t, opts.Marker, "opts unchanged")

	// Update: nullable fields, retire, non-modifiable rules.
	up, _, err := c.RetentionPolicies.Update(ctx, ids[0], &cms.UpdateRetentionPolicyRequest{
		PolicyName: "Keep zero", Description: cms.Set("d"), RetentionLength: cms.RetentionDays(10),
		AreOwnersNotified: cms.Ptr(true), CustomNotificationRecipients: cms.Set([]*cms.UserMini{{ID: srv.AdminUserID()}}),
	})
	require.NoError(t, err)
	assert.Equal(t, "Keep zero", up.PolicyName)
	assert.Equal(t, 10, up.RetentionLength.Days())
	assert.True(t, up.AreOwnersNotified)
	up, _, err = c.RetentionPolicies.Update(ctx, ids[0], &cms.UpdateRetentionPolicyRequest{
		Description: cms.Null[string](), CustomNotificationRecipients: cms.Null[[]*cms.UserMini](),
	})
	require.NoError(t, err)
	assert.Equal(t, "Keep zero", up.PolicyName)
	assert.Empty(t, up.Description)
	assert.Empty(t, up.CustomNotificationRecipients)
	_, _, err = c.RetentionPolicies.Update(ctx, forever.ID, &cms.UpdateRetentionPolicyRequest{RetentionLength: cms.RetentionDays(3)})
	requireAPICode(t, err, http.StatusBadRequest, "bad_request")
	retired, _, err := c.RetentionPolicies.Retire(ctx, ids[2])
	require.NoError(t, err)
	assert.Equal(t, cms.RetentionPolicyStatusRetired, retired.Status)
	nm, _, err := c.RetentionPolicies.Update(ctx, ids[3], &cms.UpdateRetentionPolicyRequest{RetentionType: cms.RetentionTypeNonModifiable})
	require.NoError(t, err)
	assert.Equal(t, cms.RetentionTypeNonModifiable, nm.RetentionType)
	_, _, err = c.RetentionPolicies.Update(ctx, ids[3], &cms.UpdateRetentionPolicyRequest{RetentionLength: cms.RetentionDays(1)})
	requireAPICode(t, err, http.StatusForbidden, "forbidden")

	// Delete.
	_, err = c.RetentionPolicies.Delete(ctx, ids[4])
	require.NoError(t, err)
	_, _, err = c.RetentionPolicies.Get(ctx, ids[4], nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)
	_, err = c.RetentionPolicies.Delete(ctx, forever.ID)
	assert.ErrorIs(t, err, cms.ErrForbidden)

	// Only the admin.
	_, _, err = srv.Client(t).RetentionPolicies.List(ctx, nil)
	requireAPICode(t, err, http.StatusForbidden, "access_denied_insufficient_permissions")
	_, _, err = srv.AppClient(t).RetentionPolicies.Get(ctx, ids[0], nil)
	requireAPICode(t, err, http.StatusForbidden, "insufficient_scope")
}

func TestRetentionArgumentsCheckedBeforeSending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := cmstest.NewServer(t, cmstest.Options{})
	c := srv.AdminClient(t)
	srv.ResetRequests()
	finite := func(mod func(*cms.CreateRetentionPolicyRequest)) *cms.CreateRetentionPolicyRequest {
		r := &cms.CreateRetentionPolicyRequest{PolicyName: "p", PolicyType: cms.RetentionPolicyTypeFinite, DispositionAction: cms.DispositionActionPermanentlyDelete, RetentionLength: cms.RetentionDays(1)}
		mod(r)
		return r
	}
	for name, req := range map[string]*cms.CreateRetentionPolicyRequest{
		"nil":               nil,
		"no name":           finite(func(r *cms.CreateRetentionPolicyRequest) { r.PolicyName = "" }),
		"bad type":          finite(func(r *cms.CreateRetentionPolicyRequest) { r.PolicyType = "forever" }),
		"bad disposition":   finite(func(r *cms.CreateRetentionPolicyRequest) { r.DispositionAction = "shred" }),
		"finite no length":  finite(func(r *cms.CreateRetentionPolicyRequest) { r.RetentionLength = cms.RetentionLength{} }),
		"finite indefinite": finite(func(r *cms.CreateRetentionPolicyRequest) { r.RetentionLength = cms.RetentionForever() }),
		"indefinite days":   finite(func(r *cms.CreateRetentionPolicyRequest) { r.PolicyType = cms.RetentionPolicyTypeIndefinite }),
		"long description":  finite(func(r *cms.CreateRetentionPolicyRequest) { r.Description = strings.Repeat("x", 501) }),
		"extension": finite(func(r *cms.CreateRetentionPolicyRequest) {
			r.DispositionAction, r.MaxExtensionLength = cms.DispositionActionRemoveRetention, cms.ExtensionDays(3)
		}),
		"bad retention type": finite(func(r *cms.CreateRetentionPolicyRequest) { r.RetentionType = "frozen" }),
	} {
		_, _, err := c.RetentionPolicies.Create(ctx, req)
		var ae *cms.ArgError
		assert.ErrorAs(t, err, &ae, name)
	}
	checks := []error{
		second(c.RetentionPolicies.Get(ctx, "", nil)),
		second(c.RetentionPolicies.Get(ctx, "../x", nil)),
		second(c.RetentionPolicies.Update(ctx, "1", nil)),
		second(c.RetentionPolicies.Update(ctx, "1", &cms.UpdateRetentionPolicyRequest{Status: cms.RetentionPolicyStatusActive})),
		second(c.RetentionPolicies.Update(ctx, "1", &cms.UpdateRetentionPolicyRequest{RetentionType: cms.RetentionTypeModifiable})),
		second(c.RetentionPolicies.Update(ctx, "1", &cms.UpdateRetentionPolicyRequest{DispositionAction: "archive"})),
		second(c.RetentionPolicies.List(ctx, &cms.ListRetentionPoliciesOptions{Limit: -1})),
		second(c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{PolicyID: "1", AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeEnterprise, ID: "5"}})),
		second(c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{PolicyID: "1", AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeFolder}})),
		second(c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{PolicyID: "1", AssignTo: cms.RetentionAssignTo{Type: "user", ID: "1"}})),
		second(c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{PolicyID: "1", AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeFolder, ID: "5"}, StartDateField: "x"})),
		second(c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeEnterprise}})),
		second(c.RetentionPolicyAssignments.ListFilesUnderRetention(ctx, "", nil)),
		second(c.FileVersionRetentions.Get(ctx, "")),
	}
	for i, err := range checks {
		var ae *cms.ArgError
		assert.ErrorAs(t, err, &ae, "check %d", i)
	}
	_, err := c.RetentionPolicies.Delete(ctx, "")
	assert.ErrorIs(t, err, cms.ErrMissingID)
	assert.Empty(t, srv.Requests(), "nothing was sent")
}

// second returns the error of a three-result call.
func second[A, B any](_ A, _ B, err error) error { return err }

func TestRetentionAssignmentsAndFileVersionRetentions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := cmstest.NewServer(t, cmstest.Options{})
	c, user := srv.AdminClient(t), srv.Client(t)
	pol, _, err := c.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
		PolicyName: "Contracts", PolicyType: cms.RetentionPolicyTypeFinite, DispositionAction: cms.DispositionActionPermanentlyDelete,
		RetentionLength: cms.RetentionDays(7),
	})
	require.NoError(t, err)
	folder, _, err := user.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Contracts", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	a, _, err := c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: pol.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeFolder, ID: folder.ID},
	})
	require.NoError(t, err)
	assert.Equal(t, folder.ID, a.AssignedTo.ID)
	assert.Equal(t, 7, a.RetentionPolicy.RetentionLength.Days())
	ent, _, err := c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: pol.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeEnterprise},
	})
	require.NoError(t, err)
	assert.Equal(t, cms.RetentionAssignmentTypeEnterprise, ent.AssignedTo.Type)
	assert.Empty(t, ent.AssignedTo.ID)
	_, _, err = c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: pol.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeFolder, ID: folder.ID},
	})
	assert.ErrorIs(t, err, cms.ErrConflict)
	// A metadata template is named by its id, a filter by field and option ids.
	tpl, _, err := c.MetadataTemplates.Create(ctx, contractTemplate("contract"))
	require.NoError(t, err)
	status := tpl.Fields[3]
	filter := []cms.MetadataFilterField{{Field: status.ID, Value: status.Options[1].ID}}
	mt, _, err := c.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: pol.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeMetadataTemplate, ID: tpl.ID},
		FilterFields: filter, StartDateField: cms.StartDateUploadDate,
	})
	require.NoError(t, err)
	assert.Equal(t, filter, mt.FilterFields)

	got, _, err := c.RetentionPolicyAssignments.Get(ctx, a.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, a.ID, got.ID)
	all := collect(t, c.RetentionPolicyAssignments.ListByPolicyIter(ctx, pol.ID, &cms.ListRetentionPolicyAssignmentsOptions{Limit: 1}))
	assert.Len(t, all, 3)
	page, _, err := c.RetentionPolicyAssignments.ListByPolicy(ctx, pol.ID, &cms.ListRetentionPolicyAssignmentsOptions{Type: cms.RetentionAssignmentTypeFolder})
	require.NoError(t, err)
	require.Len(t, page.Entries, 1)
	assert.Equal(t, a.ID, page.Entries[0].ID)

	// Files uploaded there are retained, each version on its own.
	var files []*cms.File
	for i := range 3 {
		files = append(files, upload(t, user, folder.ID, fmt.Sprintf("c%d.pdf", i), "v1"))
	}
	v2, _, err := user.Files.UploadVersion(ctx, files[0].ID, strings.NewReader("v2"), 2, nil)
	require.NoError(t, err)
	under := collect(t, c.RetentionPolicyAssignments.ListFilesUnderRetentionIter(ctx, a.ID, &cms.GovernancePageOptions{Limit: 2}))
	assert.Len(t, under, 3)
	old := collect(t, c.RetentionPolicyAssignments.ListFileVersionsUnderRetentionIter(ctx, a.ID, &cms.GovernancePageOptions{Limit: 1}))
	require.Len(t, old, 1)
	assert.Equal(t, files[0].FileVersion.ID, old[0].FileVersion.ID)
	p1, _, err := c.RetentionPolicyAssignments.ListFilesUnderRetention(ctx, a.ID, &cms.GovernancePageOptions{Limit: 2})
	require.NoError(t, err)
	assert.Len(t, p1.Entries, 2)
	p2, _, err := c.RetentionPolicyAssignments.ListFileVersionsUnderRetention(ctx, a.ID, nil)
	require.NoError(t, err)
	assert.Len(t, p2.Entries, 1)

	fvrs := collect(t, c.FileVersionRetentions.ListIter(ctx, &cms.ListFileVersionRetentionsOptions{Limit: 1, FileID: files[0].ID}))
	require.Len(t, fvrs, 2)
	assert.Equal(t, files[0].FileVersion.ID, fvrs[0].FileVersion.ID)
	assert.Equal(t, v2.FileVersion.ID, fvrs[1].FileVersion.ID)
	assert.Equal(t, fvrs[0].AppliedAt.AddDate(0, 0, 7), fvrs[0].DispositionAt)
	assert.Equal(t, pol.ID, fvrs[0].WinningRetentionPolicy.ID)
	one, _, err := c.FileVersionRetentions.Get(ctx, fvrs[0].ID)
	require.NoError(t, err)
	assert.Equal(t, fvrs[0].FileVersion.ID, one.FileVersion.ID)
	for _, o := range []*cms.ListFileVersionRetentionsOptions{
		{PolicyID: pol.ID}, {DispositionAction: cms.DispositionActionPermanentlyDelete},
		{DispositionBefore: time.Now().AddDate(0, 0, 8)}, {DispositionAfter: time.Now().AddDate(0, 0, 6).In(time.FixedZone("X", 3600))},
	} {
		assert.Len(t, collect(t, c.FileVersionRetentions.ListIter(ctx, o)), 4)
	}
	pg, _, err := c.FileVersionRetentions.List(ctx, &cms.ListFileVersionRetentionsOptions{FileVersionID: v2.FileVersion.ID})
	require.NoError(t, err)
	assert.Len(t, pg.Entries, 1)
	assert.Empty(t, collect(t, c.FileVersionRetentions.ListIter(ctx, &cms.ListFileVersionRetentionsOptions{DispositionAction: cms.DispositionActionRemoveRetention})))

	// A retained file goes to the trash but cannot be deleted for good.
	_, err = user.Files.Delete(ctx, files[1].ID, nil)
	require.NoError(t, err)
	_, err = user.Trash.PurgeFile(ctx, files[1].ID)
	requireAPICode(t, err, http.StatusForbidden, "access_denied_insufficient_permissions")
	_, _, err = user.Trash.GetFile(ctx, files[1].ID, nil)
	require.NoError(t, err)
	_, _, err = user.Trash.RestoreFile(ctx, files[1].ID, nil, nil)
	require.NoError(t, err)

	// Assignments of a modifiable policy can be deleted.
	_, err = c.RetentionPolicyAssignments.Delete(ctx, mt.ID)
	require.NoError(t, err)
	_, _, err = c.RetentionPolicyAssignments.Get(ctx, mt.ID, nil)
	assert.True(t, errors.Is(err, cms.ErrNotFound))
}
