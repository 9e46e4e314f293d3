package cms

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cannedCollaboration is a Collaboration as the spec shapes it: on a
// folder, for a group, with the acceptance requirements.
const cannedCollaboration = `{"id":"c1","type":"collaboration",
"item":{"id":"3","type":"folder","etag":"1","sequence_id":"1","name":"Reports"},"app_item":null,
"accessible_by":{"id":"g1","type":"group","name":"Finance","group_type":"managed_group"},
"invite_email":null,"role":"viewer uploader","expires_at":"2026-06-01T00:00:00Z","is_access_only":true,"status":"accepted",
"acknowledged_at":"2026-01-02T03:04:05Z","created_by":{"id":"11","type":"user","name":"Ann","login":"ann@example.com"},
"created_at":"2026-01-02T03:04:00Z","modified_at":"2026-01-02T03:04:05Z",
"acceptance_requirements_status":{"terms_of_service_requirement":{"is_accepted":true,"terms_of_service":{"id":"t1","type":"terms_of_service"}},
"strong_password_requirement":{"enterprise_has_strong_password_required_for_external_users":true,"user_has_strong_password":true},
"two_factor_authentication_requirement":{"enterprise_has_two_factor_auth_enabled":true,"user_has_two_factor_authentication_enabled":false}}}`

// cannedPendingCollaboration is a pending invitation of a user by login on
// a file: the name is empty, the login is set.
const cannedPendingCollaboration = `{"id":"c2","type":"collaboration","item":{"id":"5","type":"file","name":"a.txt"},
"accessible_by":{"id":"13","type":"user","name":"","login":"carol@partner.example","is_active":true},
"invite_email":"carol@partner.example","role":"editor","expires_at":null,"status":"pending","created_by":{"id":"11","type":"user"}}`

func TestCollaborationCreateWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("POST /collaborations", http.StatusCreated, cannedPendingCollaboration)
	ctx := context.Background()
	cs := w.e.client.Collaborations
	expires := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)

	c, resp, err := cs.Create(ctx, &CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeFolder, ID: "3"}, User: &UserRef{ID: "12"},
		Role: CollaborationRoleCoOwner, CanViewPath: true, IsAccessOnly: true, ExpiresAt: expires},
		&CreateCollaborationOptions{Notify: Ptr(false), Fields: []string{"role", "status"}})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	got := w.last(t)
	assert.Equal(t, "/collaborations", got.Path)
	assert.Equal(t, "fields=role%2Cstatus&notify=false", got.Query)
	assert.JSONEq(t, `{"item":{"type":"folder","id":"3"},"accessible_by":{"type":"user","id":"12"},"role":"co-owner",
		"is_access_only":true,"can_view_path":true,"expires_at":"2026-06-01T00:00:00Z"}`, got.Body)

	// The pending record: empty name, the login, no expiry.
	assert.Equal(t, CollaborationStatusPending, c.Status)
	assert.Equal(t, CollaborationRoleEditor, c.Role)
	assert.Equal(t, &Collaborator{ID: "13", Type: CollaboratorTypeUser, Login: "carol@partner.example", IsActive: true}, c.AccessibleBy)
	assert.Equal(t, "file", c.Item.Type)
	assert.Equal(t, "a.txt", c.Item.File.Name)
	assert.True(t, c.ExpiresAt.IsZero())

	_, _, err = cs.Create(ctx, &CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeFile, ID: "5"}, Login: "carol@partner.example", Role: CollaborationRolePreviewerUploader}, nil)
	require.NoError(t, err)
	assert.Empty(t, w.last(t).Query, "notify left to the service")
	assert.JSONEq(t, `{"item":{"type":"file","id":"5"},"accessible_by":{"type":"user","login":"carol@partner.example"},"role":"previewer uploader"}`, w.last(t).Body)

	_, _, err = cs.Create(ctx, &CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeFolder, ID: "3"}, Group: &GroupRef{ID: "g1"}, Role: CollaborationRoleViewer},
		&CreateCollaborationOptions{Notify: Ptr(true)})
	require.NoError(t, err)
	assert.Equal(t, "notify=true", w.last(t).Query)
	assert.JSONEq(t, `{"item":{"type":"folder","id":"3"},"accessible_by":{"type":"group","id":"g1"},"role":"viewer"}`, w.last(t).Body)

	n := w.count()
	folder := ItemRef{Type: ItemTypeFolder, ID: "3"}
	for _, c := range []struct {
		name string
		body *CreateCollaborationRequest
		want error
	}{
		{"nil", nil, ErrInvalidArgument},
		{"no item type", &CreateCollaborationRequest{Item: ItemRef{ID: "3"}, User: &UserRef{ID: "1"}, Role: CollaborationRoleEditor}, ErrInvalidArgument},
		{"comment item", &CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeComment, ID: "3"}, User: &UserRef{ID: "1"}, Role: CollaborationRoleEditor}, ErrInvalidArgument},
		{"no item id", &CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeFile}, User: &UserRef{ID: "1"}, Role: CollaborationRoleEditor}, ErrMissingID},
		{"root folder", &CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeFolder, ID: "0"}, User: &UserRef{ID: "1"}, Role: CollaborationRoleEditor}, ErrInvalidArgument},
		{"nobody", &CreateCollaborationRequest{Item: folder, Role: CollaborationRoleEditor}, ErrInvalidArgument},
		{"two collaborators", &CreateCollaborationRequest{Item: folder, User: &UserRef{ID: "1"}, Group: &GroupRef{ID: "2"}, Role: CollaborationRoleEditor}, ErrInvalidArgument},
		{"user and login", &CreateCollaborationRequest{Item: folder, User: &UserRef{ID: "1"}, Login: "a@b.example", Role: CollaborationRoleEditor}, ErrInvalidArgument},
		{"user without id", &CreateCollaborationRequest{Item: folder, User: &UserRef{}, Role: CollaborationRoleEditor}, ErrMissingID},
		{"group bad id", &CreateCollaborationRequest{Item: folder, Group: &GroupRef{ID: "../2"}, Role: CollaborationRoleEditor}, ErrInvalidID},
		{"not a login", &CreateCollaborationRequest{Item: folder, Login: "carol", Role: CollaborationRoleEditor}, ErrInvalidArgument},
		{"login with a line break", &CreateCollaborationRequest{Item: folder, Login: "a@b\r\n.example", Role: CollaborationRoleEditor}, ErrInvalidArgument},
		{"no role", &CreateCollaborationRequest{Item: folder, User: &UserRef{ID: "1"}}, ErrInvalidArgument},
		{"owner", &CreateCollaborationRequest{Item: folder, User: &UserRef{ID: "1"}, Role: CollaborationRoleOwner}, ErrInvalidArgument},
		{"unknown role", &CreateCollaborationRequest{Item: folder, User: &UserRef{ID: "1"}, Role: "Co-owner"}, ErrInvalidArgument},
		{"can_view_path on a file", &CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeFile, ID: "5"}, User: &UserRef{ID: "1"}, Role: CollaborationRoleEditor, CanViewPath: true}, ErrInvalidArgument},
	} {
		_, _, err := cs.Create(ctx, c.body, nil)
		var ae *ArgError
		assert.ErrorAs(t, err, &ae, c.name)
		assert.ErrorIs(t, err, c.want, c.name)
	}
	assert.Equal(t, n, w.count(), "nothing was sent")
}

func TestCollaborationRecordAndChangesWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("GET /collaborations/{id}", http.StatusOK, cannedCollaboration)
	w.serve("PUT /collaborations/{id}", func(rw http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "owner" {
			rw.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(rw, http.StatusOK, []byte(cannedCollaboration))
	})
	w.answer("DELETE /collaborations/{id}", http.StatusNoContent, "")
	w.answer("POST /collaborations", http.StatusBadRequest, `{"type":"error","status":400,"code":"user_already_collaborator","message":"User is already a collaborator"}`)
	ctx := context.Background()
	cs := w.e.client.Collaborations

	c, _, err := cs.Get(ctx, "c1", &FieldsOptions{Fields: []string{"acceptance_requirements_status"}})
	require.NoError(t, err)
	assert.Equal(t, "fields=acceptance_requirements_status", w.last(t).Query)
	assert.Equal(t, "folder", c.Item.Type)
	assert.Equal(t, "Reports", c.Item.Folder.Name)
	assert.Nil(t, c.AppItem)
	assert.Equal(t, &Collaborator{ID: "g1", Type: CollaboratorTypeGroup, Name: "Finance", GroupType: GroupTypeManaged}, c.AccessibleBy)
	assert.Equal(t, CollaborationRoleViewerUploader, c.Role)
	assert.Equal(t, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), c.ExpiresAt)
	assert.True(t, c.IsAccessOnly)
	assert.Equal(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), c.AcknowledgedAt)
	require.NotNil(t, c.AcceptanceRequirementsStatus)
	assert.True(t, c.AcceptanceRequirementsStatus.TermsOfServiceRequirement.IsAccepted)
	assert.Equal(t, "t1", c.AcceptanceRequirementsStatus.TermsOfServiceRequirement.TermsOfService.ID)
	assert.False(t, c.AcceptanceRequirementsStatus.TwoFactorAuthenticationRequirement.UserHasTwoFactorAuthenticationEnabled)

	_, _, err = cs.Update(ctx, "c1", &UpdateCollaborationRequest{Role: CollaborationRoleViewer, ExpiresAt: Null[time.Time](), CanViewPath: Ptr(false)}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"role":"viewer","expires_at":null,"can_view_path":false}`, w.last(t).Body, "expires_at null: the collaboration lasts")

	_, _, err = cs.Update(ctx, "c1", &UpdateCollaborationRequest{ExpiresAt: Set(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"expires_at":"2026-07-01T00:00:00Z"}`, w.last(t).Body)

	c, resp, err := cs.Update(ctx, "owner", &UpdateCollaborationRequest{Role: CollaborationRoleOwner}, nil)
	require.NoError(t, err)
	assert.Nil(t, c, "an ownership transfer answers 204")
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.JSONEq(t, `{"role":"owner"}`, w.last(t).Body)

	_, _, err = cs.Accept(ctx, "c2")
	require.NoError(t, err)
	assert.Equal(t, "/collaborations/c2", w.last(t).Path)
	assert.JSONEq(t, `{"status":"accepted"}`, w.last(t).Body)
	_, _, err = cs.Reject(ctx, "c2")
	require.NoError(t, err)
	assert.JSONEq(t, `{"status":"rejected"}`, w.last(t).Body)

	_, err = cs.Delete(ctx, "c1")
	require.NoError(t, err)
	assert.Equal(t, http.MethodDelete, w.last(t).Method)

	_, _, err = cs.Create(ctx, &CreateCollaborationRequest{Item: ItemRef{Type: ItemTypeFolder, ID: "3"}, User: &UserRef{ID: "12"}, Role: CollaborationRoleEditor}, nil)
	assert.ErrorIs(t, err, ErrUserAlreadyCollaborator)
	assert.ErrorIs(t, err, ErrBadRequest)

	n := w.count()
	_, _, err = cs.Update(ctx, "c1", &UpdateCollaborationRequest{Role: "boss"}, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.Update(ctx, "c1", &UpdateCollaborationRequest{Status: "maybe"}, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.Update(ctx, "c1", nil, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.Accept(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	_, err = cs.Delete(ctx, "a?b")
	assert.ErrorIs(t, err, ErrInvalidID)
	_, _, err = cs.Get(ctx, "", nil)
	assert.ErrorIs(t, err, ErrMissingID)
	assert.Equal(t, n, w.count(), "nothing was sent")
}

// markerPages serves total entries made by entry(i), limit at a time,
// with the next marker "m<next index>".
func markerPages(total int, entry func(i int) string) func(rw http.ResponseWriter, r *http.Request) {
	return func(rw http.ResponseWriter, r *http.Request) {
		start := 0
		if m := r.URL.Query().Get("marker"); m != "" {
			start, _ = strconv.Atoi(m[1:])
		}
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		if limit == 0 {
			limit = 100
		}
		body := `{"limit":` + strconv.Itoa(limit) + `,"entries":[`
		end := min(start+limit, total)
		for i := start; i < end; i++ {
			if i > start {
				body += ","
			}
			body += entry(i)
		}
		next := "null"
		if end < total {
			next = `"m` + strconv.Itoa(end) + `"`
		}
		writeJSON(rw, http.StatusOK, []byte(body+`],"next_marker":`+next+`}`))
	}
}

func TestCollaborationListsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	collab := func(i int) string {
		return fmt.Sprintf(`{"id":"c%d","type":"collaboration","role":"editor","status":"accepted","accessible_by":{"id":"%d","type":"user"}}`, i, i)
	}
	w.serve("GET /files/{id}/collaborations", markerPages(5, collab))
	w.serve("GET /folders/{id}/collaborations", markerPages(3, collab))
	w.serve("GET /groups/{id}/collaborations", offsetPages(5, collab))
	w.serve("GET /collaborations", offsetPages(3, collab))
	ctx := context.Background()
	cs := w.e.client.Collaborations
	ids := func(seq func(func(*Collaboration, error) bool)) []string {
		var out []string
		for c, err := range seq {
			require.NoError(t, err)
			out = append(out, c.ID)
		}
		return out
	}
	queries := func(from int) []string {
		var out []string
		for _, c := range w.all()[from:] {
			out = append(out, c.Path+"?"+c.Query)
		}
		return out
	}

	page, resp, err := cs.ListByFile(ctx, "5", &ListItemCollaborationsOptions{Limit: 2, Fields: []string{"role"}})
	require.NoError(t, err)
	assert.Equal(t, "m2", resp.NextMarker)
	assert.Len(t, page.Entries, 2)
	assert.Equal(t, "fields=role&limit=2", w.last(t).Query)

	n := w.count()
	opts := &ListItemCollaborationsOptions{Limit: 2}
	assert.Equal(t, []string{"c0", "c1", "c2", "c3", "c4"}, ids(cs.ListByFileIter(ctx, "5", opts)))
	assert.Equal(t, []string{"/files/5/collaborations?limit=2", "/files/5/collaborations?limit=2&marker=m2", "/files/5/collaborations?limit=2&marker=m4"}, queries(n))
	assert.Equal(t, &ListItemCollaborationsOptions{Limit: 2}, opts, "opts unchanged")

	n = w.count()
	assert.Equal(t, []string{"c0", "c1", "c2"}, ids(cs.ListByFolderIter(ctx, "3", &ListItemCollaborationsOptions{Limit: 2})))
	assert.Equal(t, []string{"/folders/3/collaborations?limit=2", "/folders/3/collaborations?limit=2&marker=m2"}, queries(n))
	p := cs.NewListByFolderPaginator("3", &ListItemCollaborationsOptions{Limit: 1})
	pages := 0
	for p.HasMorePages() {
		_, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		pages++
	}
	assert.Equal(t, 3, pages)
	fp := cs.NewListByFilePaginator("5", &ListItemCollaborationsOptions{Limit: 2, Marker: "m1"})
	pg, _, err := fp.NextPage(ctx)
	require.NoError(t, err)
	assert.Equal(t, "c1", pg.Entries[0].ID, "starts at opts.Marker")
	assert.Equal(t, "m3", fp.NextMarker())

	n = w.count()
	assert.Equal(t, []string{"c0", "c1", "c2", "c3", "c4"}, ids(cs.ListByGroupIter(ctx, "g1", &ListCollaborationsOptions{Limit: 2})))
	assert.Equal(t, []string{"/groups/g1/collaborations?limit=2", "/groups/g1/collaborations?limit=2&offset=2", "/groups/g1/collaborations?limit=2&offset=4"}, queries(n))
	gp := cs.NewListByGroupPaginator("g1", &ListCollaborationsOptions{Limit: 3})
	pages = 0
	for gp.HasMorePages() {
		_, _, err := gp.NextPage(ctx)
		require.NoError(t, err)
		pages++
	}
	assert.Equal(t, 2, pages)

	n = w.count()
	assert.Equal(t, []string{"c0", "c1", "c2"}, ids(cs.ListPendingIter(ctx, &ListCollaborationsOptions{Limit: 2, Fields: []string{"item"}})))
	assert.Equal(t, []string{"/collaborations?fields=item&limit=2&status=pending", "/collaborations?fields=item&limit=2&offset=2&status=pending"}, queries(n))
	pp := cs.NewListPendingPaginator(nil)
	pgp, _, err := pp.NextPage(ctx)
	require.NoError(t, err)
	assert.Len(t, pgp.Entries, 3)
	assert.False(t, pp.HasMorePages())
	assert.Equal(t, "status=pending", w.last(t).Query)
	page2, _, err := cs.ListPending(ctx, &ListCollaborationsOptions{Offset: 1})
	require.NoError(t, err)
	assert.Equal(t, 3, page2.TotalCount)
	assert.Equal(t, "offset=1&status=pending", w.last(t).Query)

	n = w.count()
	_, _, err = cs.ListByFile(ctx, "", nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = cs.ListByFolder(ctx, "3", &ListItemCollaborationsOptions{Limit: -1})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.ListByGroup(ctx, "g1", &ListCollaborationsOptions{Offset: -1})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.ListPending(ctx, &ListCollaborationsOptions{Offset: 10001})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, n, w.count(), "nothing was sent")
}
