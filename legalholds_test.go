package cms_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testClock is a settable server clock.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func TestLegalHoldPoliciesService(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &testClock{t: time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)}
	srv := cmstest.NewServer(t, cmstest.Options{Now: clock.Now, LegalHoldReleaseDelay: time.Minute})
	c := srv.AdminClient(t)

	var ids []string
	for i := range 3 {
		p, _, err := c.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{PolicyName: fmt.Sprintf("Case %d", i), IsOngoing: true})
		require.NoError(t, err)
		assert.Equal(t, cms.LegalHoldPolicyStatusApplying, p.Status)
		ids = append(ids, p.ID)
	}
	dated, _, err := c.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{
		PolicyName: "Audit", Description: "2024 audit",
		FilterStartedAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), FilterEndedAt: time.Date(2024, 12, 31, 0, 0, 0, 0, time.UTC),
	})
	require.NoError(t, err)
	assert.Equal(t, 2024, dated.FilterStartedAt.Year())
	ids = append(ids, dated.ID)
	_, _, err = c.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{PolicyName: "case 0", IsOngoing: true})
	assert.ErrorIs(t, err, cms.ErrConflict)

	all := collect(t, c.LegalHoldPolicies.ListIter(ctx, &cms.ListLegalHoldPoliciesOptions{Limit: 3}))
	require.Len(t, all, 4)
	assert.Equal(t, ids[3], all[3].ID)
	page, resp, err := c.LegalHoldPolicies.List(ctx, &cms.ListLegalHoldPoliciesOptions{PolicyName: "case", Limit: 2})
	require.NoError(t, err)
	assert.Len(t, page.Entries, 2)
	assert.NotEmpty(t, resp.NextMarker)
	assert.Len(t, collect(t, c.LegalHoldPolicies.ListIter(ctx, &cms.ListLegalHoldPoliciesOptions{PolicyName: "CASE", Limit: 1})), 3)

	clock.Advance(time.Minute)
	up, _, err := c.LegalHoldPolicies.Update(ctx, ids[0], &cms.UpdateLegalHoldPolicyRequest{PolicyName: "Case zero", ReleaseNotes: "settled"})
	require.NoError(t, err)
	assert.Equal(t, "Case zero", up.PolicyName)
	assert.Equal(t, "settled", up.ReleaseNotes)
	assert.Equal(t, cms.LegalHoldPolicyStatusActive, up.Status)
	_, _, err = c.LegalHoldPolicies.Update(ctx, ids[0], &cms.UpdateLegalHoldPolicyRequest{PolicyName: "Audit"})
	assert.ErrorIs(t, err, cms.ErrConflict)
	// A description is set, left alone when omitted, and cleared with "".
	up, _, err = c.LegalHoldPolicies.Update(ctx, ids[0], &cms.UpdateLegalHoldPolicyRequest{Description: cms.Ptr("Q3 audit")})
	require.NoError(t, err)
	assert.Equal(t, "Q3 audit", up.Description)
	up, _, err = c.LegalHoldPolicies.Update(ctx, ids[0], &cms.UpdateLegalHoldPolicyRequest{ReleaseNotes: "still settled"})
	require.NoError(t, err)
	assert.Equal(t, "Q3 audit", up.Description)
	up, _, err = c.LegalHoldPolicies.Update(ctx, ids[0], &cms.UpdateLegalHoldPolicyRequest{Description: cms.Ptr("")})
	require.NoError(t, err)
	assert.Empty(t, up.Description)

	// Release: 202, releasing, then released; the wait helper polls.
	del, resp, err := c.LegalHoldPolicies.Delete(ctx, ids[0])
	require.NoError(t, err)
	assert.True(t, del.Accepted)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	got, _, err := c.LegalHoldPolicies.Get(ctx, ids[0])
	require.NoError(t, err)
	assert.Equal(t, cms.LegalHoldPolicyStatusReleasing, got.Status)
	assert.Equal(t, clock.Now(), got.DeletedAt)
	_, _, err = c.LegalHoldPolicies.WaitForStatus(ctx, ids[0], cms.LegalHoldPolicyStatusActive, &cms.PollOptions{Interval: time.Millisecond})
	assert.ErrorIs(t, err, cms.ErrWaitStopped)
	done := make(chan error, 1)
	go func() {
		_, _, err := c.LegalHoldPolicies.WaitForStatus(ctx, ids[0], cms.LegalHoldPolicyStatusReleased, &cms.PollOptions{Interval: time.Millisecond})
		done <- err
	}()
	clock.Advance(time.Minute)
	require.NoError(t, <-done)

	_, _, err = srv.Client(t).LegalHoldPolicies.Get(ctx, ids[1])
	requireAPICode(t, err, http.StatusForbidden, "access_denied_insufficient_permissions")
	_, _, err = srv.AppClient(t).LegalHoldPolicies.Delete(ctx, ids[1])
	requireAPICode(t, err, http.StatusForbidden, "insufficient_scope")

	for name, req := range map[string]*cms.CreateLegalHoldPolicyRequest{
		"nil":       nil,
		"no name":   {IsOngoing: true},
		"long name": {PolicyName: strings.Repeat("n", 255), IsOngoing: true},
		"long desc": {PolicyName: "x", IsOngoing: true, Description: strings.Repeat("d", 501)},
		"no dates":  {PolicyName: "x"},
		"one date":  {PolicyName: "x", FilterStartedAt: time.Now()},
		"reversed":  {PolicyName: "x", FilterStartedAt: time.Now(), FilterEndedAt: time.Now().Add(-time.Hour)},
	} {
		_, _, err := c.LegalHoldPolicies.Create(ctx, req)
		var ae *cms.ArgError
		assert.ErrorAs(t, err, &ae, name)
	}
}

func TestLegalHoldAssignmentsAndHolds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clock := &testClock{t: time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)}
	srv := cmstest.NewServer(t, cmstest.Options{Now: clock.Now, LegalHoldReleaseDelay: time.Minute})
	c, user := srv.AdminClient(t), srv.Client(t)
	hp, _, err := c.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{PolicyName: "Case", IsOngoing: true})
	require.NoError(t, err)
	folder, _, err := user.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Evidence", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	var files []*cms.File
	for i := range 3 {
		files = append(files, upload(t, user, folder.ID, fmt.Sprintf("e%d.txt", i), "v1"))
	}
	fa, _, err := c.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{
		PolicyID: hp.ID, AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFile, ID: files[0].ID},
	})
	require.NoError(t, err)
	assert.Equal(t, hp.ID, fa.LegalHoldPolicy.ID)
	folderA, _, err := c.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{
		PolicyID: hp.ID, AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFolder, ID: folder.ID},
	})
	require.NoError(t, err)
	_, _, err = c.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{
		PolicyID: hp.ID, AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeOwnership, ID: srv.UserID()},
	})
	require.NoError(t, err)
	_, _, err = c.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{
		PolicyID: hp.ID, AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFile, ID: "999"},
	})
	assert.ErrorIs(t, err, cms.ErrNotFound)

	got, _, err := c.LegalHoldPolicies.Get(ctx, hp.ID)
	require.NoError(t, err)
	assert.Equal(t, cms.LegalHoldAssignmentCounts{File: 1, Folder: 1, Ownership: 1}, *got.AssignmentCounts)
	list := collect(t, c.LegalHoldPolicyAssignments.ListByPolicyIter(ctx, hp.ID, &cms.ListLegalHoldPolicyAssignmentsOptions{Limit: 2}))
	assert.Len(t, list, 3)
	pg, _, err := c.LegalHoldPolicyAssignments.ListByPolicy(ctx, hp.ID, &cms.ListLegalHoldPolicyAssignmentsOptions{AssignToType: cms.LegalHoldAssignmentTypeFile, AssignToID: files[0].ID})
	require.NoError(t, err)
	require.Len(t, pg.Entries, 1)
	assert.Equal(t, fa.ID, pg.Entries[0].ID)
	one, _, err := c.LegalHoldPolicyAssignments.Get(ctx, fa.ID, nil)
	require.NoError(t, err)
	assert.Equal(t, cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFile, ID: files[0].ID}, one.AssignedTo)

	// A new version is held and the old one stays held.
	_, _, err = user.Files.UploadVersion(ctx, files[0].ID, strings.NewReader("v2"), 2, nil)
	require.NoError(t, err)
	onHold := collect(t, c.LegalHoldPolicyAssignments.ListFilesOnHoldIter(ctx, folderA.ID, &cms.OnHoldOptions{Limit: 2}))
	assert.Len(t, onHold, 3)
	p1, _, err := c.LegalHoldPolicyAssignments.ListFilesOnHold(ctx, fa.ID, nil)
	require.NoError(t, err)
	assert.Len(t, p1.Entries, 1)
	versions := collect(t, c.LegalHoldPolicyAssignments.ListFileVersionsOnHoldIter(ctx, fa.ID, &cms.OnHoldOptions{Limit: 1}))
	require.Len(t, versions, 1)
	assert.Equal(t, files[0].FileVersion.ID, versions[0].ID)
	assert.Equal(t, "1", versions[0].VersionNumber)
	p2, _, err := c.LegalHoldPolicyAssignments.ListFileVersionsOnHold(ctx, fa.ID, nil)
	require.NoError(t, err)
	assert.Len(t, p2.Entries, 1)

	holds := collect(t, c.FileVersionLegalHolds.ListByPolicyIter(ctx, hp.ID, &cms.GovernancePageOptions{Limit: 3}))
	require.Len(t, holds, 4)
	assert.Equal(t, "file_version_legal_hold", holds[0].Type)
	assert.Equal(t, files[0].FileVersion.ID, holds[0].FileVersion.ID)
	assert.Len(t, holds[0].LegalHoldPolicyAssignments, 3)
	h, _, err := c.FileVersionLegalHolds.Get(ctx, holds[0].ID)
	require.NoError(t, err)
	assert.Equal(t, holds[0].File.ID, h.File.ID)
	hpage, _, err := c.FileVersionLegalHolds.ListByPolicy(ctx, hp.ID, &cms.GovernancePageOptions{Limit: 3})
	require.NoError(t, err)
	assert.Len(t, hpage.Entries, 3)

	// Held files go to the trash but cannot be deleted for good.
	_, err = user.Files.Delete(ctx, files[1].ID, nil)
	require.NoError(t, err)
	_, err = user.Trash.PurgeFile(ctx, files[1].ID)
	requireAPICode(t, err, http.StatusForbidden, "access_denied_insufficient_permissions")
	_, _, err = user.Trash.RestoreFile(ctx, files[1].ID, nil, nil)
	require.NoError(t, err)

	// Deleting an assignment is accepted and finishes later.
	del, resp, err := c.LegalHoldPolicyAssignments.Delete(ctx, fa.ID)
	require.NoError(t, err)
	assert.True(t, del.Accepted)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	pending, _, err := c.LegalHoldPolicyAssignments.Get(ctx, fa.ID, nil)
	require.NoError(t, err)
	assert.False(t, pending.DeletedAt.IsZero())
	done := make(chan error, 1)
	go func() {
		_, err := c.LegalHoldPolicyAssignments.WaitDeleted(ctx, fa.ID, &cms.PollOptions{Interval: time.Millisecond})
		done <- err
	}()
	clock.Advance(time.Minute)
	require.NoError(t, <-done)

	// Releasing the policy lifts every hold.
	del, _, err = c.LegalHoldPolicies.Delete(ctx, hp.ID)
	require.NoError(t, err)
	assert.True(t, del.Accepted)
	clock.Advance(time.Minute)
	assert.Empty(t, collect(t, c.FileVersionLegalHolds.ListByPolicyIter(ctx, hp.ID, nil)))
	_, err = user.Files.Delete(ctx, files[1].ID, nil)
	require.NoError(t, err)

	for i, err := range []error{
		second(c.LegalHoldPolicyAssignments.Create(ctx, nil)),
		second(c.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{PolicyID: "1", AssignTo: cms.LegalHoldAssignTo{Type: "interaction", ID: "1"}})),
		second(c.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{PolicyID: "1", AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFile}})),
		second(c.LegalHoldPolicyAssignments.ListByPolicy(ctx, "", nil)),
		second(c.FileVersionLegalHolds.ListByPolicy(ctx, "", nil)),
		second(c.LegalHoldPolicyAssignments.ListFilesOnHold(ctx, "", nil)),
		second(c.LegalHoldPolicies.Update(ctx, "1", &cms.UpdateLegalHoldPolicyRequest{ReleaseNotes: strings.Repeat("r", 501)})),
	} {
		var ae *cms.ArgError
		assert.ErrorAs(t, err, &ae, "check %d", i)
	}
}
