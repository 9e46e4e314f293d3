package cms

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEscapeHatchPerFamily calls one endpoint of each family of issue #34
// through the escape hatch (NewRequest, Do) and through the family's own
// service, against the same fake service: the escape hatch puts exactly
// the pinned request on the wire (method, path, query, JSON body, the
// client's token and As-User) — the same as the service's method — and
// decodes the same record.
func TestEscapeHatchPerFamily(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const (
		cannedZip = `{"download_url":"https://dl.cms.example/zip/z1/content","status_url":"https://api.cms.example/2.0/zip_downloads/z1/status",
"expires_at":"2026-01-02T03:04:05Z","name_conflicts":[[{"id":"1","type":"file","original_name":"a.txt","download_name":"a (1).txt"},
{"id":"2","type":"file","original_name":"a.txt","download_name":"a (2).txt"}]]}`
		cannedCollection = `{"id":"c9","type":"collection","name":"Favorites","collection_type":"favorites"}`
		cannedRecent     = `{"entries":[{"type":"recent_item","item":{"id":"5","type":"file","name":"a.txt","etag":"1"},
"interaction_type":"item_upload","interacted_at":"2026-01-02T03:04:05Z","interaction_shared_link":"https://cms.example/s/x"}],"limit":1,"next_marker":"m2"}`
		cannedAlias = `{"id":"a1","type":"email_alias","email":"ann@boxdemo.com","is_confirmed":true}`
		avatar      = "\x89PNG\r\n\x1a\nimage bytes"
	)
	cases := []struct {
		family       string
		method, path string // the escape hatch's arguments
		body         any
		pattern      string // the fake service's route
		status       int
		answer       string
		wantPath     string
		wantQuery    string
		wantBody     string // JSON, or "" for none
		into         func() any
		typed        func(c *Client) (any, error)
	}{
		{family: "zip downloads", method: http.MethodPost, path: "zip_downloads",
			body:    map[string]any{"items": []map[string]string{{"type": "file", "id": "1"}, {"type": "folder", "id": "7"}}, "download_file_name": "bundle"},
			pattern: "POST /zip_downloads", status: http.StatusAccepted, answer: cannedZip,
			wantPath: "/zip_downloads", wantBody: `{"items":[{"type":"file","id":"1"},{"type":"folder","id":"7"}],"download_file_name":"bundle"}`,
			into: func() any { return new(ZipDownload) },
			typed: func(c *Client) (any, error) {
				z, _, err := c.ZipDownloads.Create(ctx, &CreateZipDownloadRequest{Items: []ZipItem{ZipFile("1"), ZipFolder("7")}, DownloadFileName: "bundle"})
				return z, err
			}},
		{family: "folder locks", method: http.MethodPost, path: "folder_locks",
			body:    json.RawMessage(`{"locked_operations":{"move":true,"delete":true},"folder":{"type":"folder","id":"12"}}`),
			pattern: "POST /folder_locks", status: http.StatusOK, answer: cannedFolderLock,
			wantPath: "/folder_locks", wantBody: `{"folder":{"type":"folder","id":"12"},"locked_operations":{"move":true,"delete":true}}`,
			into:  func() any { return new(FolderLock) },
			typed: func(c *Client) (any, error) { l, _, err := c.FolderLocks.Create(ctx, "12"); return l, err }},
		{family: "collections", method: http.MethodGet, path: "collections/c9",
			pattern: "GET /collections/{id}", status: http.StatusOK, answer: cannedCollection,
			wantPath: "/collections/c9",
			into:     func() any { return new(UserCollection) },
			typed:    func(c *Client) (any, error) { v, _, err := c.Collections.Get(ctx, "c9"); return v, err }},
		{family: "recent items", method: http.MethodGet, path: "recent_items?limit=1",
			pattern: "GET /recent_items", status: http.StatusOK, answer: cannedRecent,
			wantPath: "/recent_items", wantQuery: "limit=1",
			into: func() any { return new(MarkerPage[*RecentItem]) },
			typed: func(c *Client) (any, error) {
				v, _, err := c.RecentItems.List(ctx, &ListRecentItemsOptions{Limit: 1})
				return v, err
			}},
		{family: "classifications", method: http.MethodGet, path: "metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema",
			pattern: "GET /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema", status: http.StatusOK, answer: cannedClassificationTemplate,
			wantPath: "/metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema",
			into:     func() any { return new(ClassificationTemplate) },
			typed:    func(c *Client) (any, error) { v, _, err := c.Classifications.GetTemplate(ctx); return v, err }},
		{family: "metadata cascade policies", method: http.MethodGet, path: "metadata_cascade_policies/p1",
			pattern: "GET /metadata_cascade_policies/{id}", status: http.StatusOK, answer: cannedCascadePolicy,
			wantPath: "/metadata_cascade_policies/p1",
			into:     func() any { return new(MetadataCascadePolicy) },
			typed:    func(c *Client) (any, error) { v, _, err := c.MetadataCascadePolicies.Get(ctx, "p1"); return v, err }},
		{family: "owned-folder transfer", method: http.MethodPut, path: "users/11/folders/0?notify=false",
			body:    map[string]any{"owned_by": map[string]string{"id": "12"}},
			pattern: "PUT /users/{id}/folders/0", status: http.StatusOK, answer: cannedFolder,
			wantPath: "/users/11/folders/0", wantQuery: "notify=false", wantBody: `{"owned_by":{"id":"12"}}`,
			into: func() any { return new(Folder) },
			typed: func(c *Client) (any, error) {
				no := false
				v, _, err := c.Users.TransferOwnedFolder(ctx, "11", &TransferOwnedFolderRequest{OwnedBy: UserRef{ID: "12"}}, &TransferOwnedFolderOptions{Notify: &no})
				return v, err
			}},
		{family: "file requests", method: http.MethodGet, path: "file_requests/r1",
			pattern: "GET /file_requests/{id}", status: http.StatusOK, answer: cannedFileRequest,
			wantPath: "/file_requests/r1",
			into:     func() any { return new(FileRequest) },
			typed:    func(c *Client) (any, error) { v, _, err := c.FileRequests.Get(ctx, "r1"); return v, err }},
		{family: "avatars", method: http.MethodGet, path: "users/11/avatar",
			pattern: "GET /users/{id}/avatar", status: http.StatusOK, answer: avatar,
			wantPath: "/users/11/avatar",
			into:     func() any { return new([]byte) },
			typed: func(c *Client) (any, error) {
				rc, _, err := c.Avatars.Get(ctx, "11")
				if err != nil {
					return nil, err
				}
				defer rc.Close()
				b, err := io.ReadAll(rc)
				return &b, err
			}},
		{family: "email aliases", method: http.MethodPost, path: "users/11/email_aliases",
			body:    &CreateEmailAliasRequest{Email: "ann@boxdemo.com"},
			pattern: "POST /users/{id}/email_aliases", status: http.StatusCreated, answer: cannedAlias,
			wantPath: "/users/11/email_aliases", wantBody: `{"email":"ann@boxdemo.com"}`,
			into: func() any { return new(EmailAlias) },
			typed: func(c *Client) (any, error) {
				v, _, err := c.EmailAliases.Create(ctx, "11", &CreateEmailAliasRequest{Email: "ann@boxdemo.com"})
				return v, err
			}},
		{family: "invites", method: http.MethodPost, path: "invites",
			body:    map[string]any{"enterprise": map[string]string{"id": "42"}, "actionable_by": map[string]string{"login": "bob@other.example"}},
			pattern: "POST /invites", status: http.StatusOK, answer: cannedInvite,
			wantPath: "/invites", wantBody: `{"enterprise":{"id":"42"},"actionable_by":{"login":"bob@other.example"}}`,
			into: func() any { return new(Invite) },
			typed: func(c *Client) (any, error) {
				v, _, err := c.Invites.Create(ctx, &CreateInviteRequest{Enterprise: EnterpriseRef{ID: "42"}, ActionableBy: InviteeRef{Login: "bob@other.example"}}, nil)
				return v, err
			}},
	}
	for _, tc := range cases {
		t.Run(tc.family, func(t *testing.T) {
			t.Parallel()
			w := newWireLog(t, WithAsUser("77"))
			if tc.family == "avatars" {
				w.serve(tc.pattern, func(rw http.ResponseWriter, _ *http.Request) {
					rw.Header().Set("Content-Type", "image/png")
					io.WriteString(rw, tc.answer)
				})
			} else {
				w.answer(tc.pattern, tc.status, tc.answer)
			}
			c := w.e.client

			req, err := c.NewRequest(tc.method, tc.path, tc.body)
			require.NoError(t, err)
			got := tc.into()
			resp, err := c.Do(ctx, req, got)
			require.NoError(t, err)
			assert.Equal(t, tc.status, resp.StatusCode)
			call := w.last(t)
			assert.Equal(t, tc.method, call.Method)
			assert.Equal(t, tc.wantPath, call.Path)
			assert.Equal(t, tc.wantQuery, call.Query)
			if tc.wantBody == "" {
				assert.Empty(t, call.Body)
			} else {
				assert.JSONEq(t, tc.wantBody, call.Body)
				assert.Equal(t, "application/json", call.Header.Get("Content-Type"))
			}
			assert.NotEmpty(t, call.Header.Get("Authorization"), "the client's token")
			assert.Equal(t, "77", call.Header.Get("As-User"), "the client's As-User")

			// The family's own method: the same request, the same record.
			want, err := tc.typed(c)
			require.NoError(t, err)
			typedCall := w.last(t)
			assert.Equal(t, typedCall.Method, call.Method)
			assert.Equal(t, typedCall.Path, call.Path)
			assert.Equal(t, typedCall.Query, call.Query)
			if tc.wantBody != "" {
				assert.JSONEq(t, typedCall.Body, call.Body)
			}
			assert.Equal(t, want, got)
			assert.NotZero(t, got)
		})
	}
}
