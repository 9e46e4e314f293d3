package cms

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nullableFields are the request fields typed Nullable, each with where
// the wire gives its explicit null a meaning. A field whose null means
// nothing (or "no change") is a plain omitzero field or a pointer.
var nullableFields = map[string]string{
	"UpdateUserRequest.Enterprise":                              "OAS put_users_id: null rolls the user out of the enterprise",
	"UpdateUserRequest.NotificationEmail":                       "OAS put_users_id: null removes the address",
	"CreateGroupMembershipRequest.ConfigurablePermissions":      "OAS post_group_memberships: null turns every permission off",
	"UpdateGroupMembershipRequest.ConfigurablePermissions":      "OAS put_group_memberships_id: null turns every permission off",
	"SharedLinkRequest.Password":                                "OAS put_web_links_id shared_link.password: null removes it",
	"UpdateWebLinkRequest.SharedLink":                           "shared_link: null removes the shared link",
	"UpdateRetentionPolicyRequest.Description":                  "OAS put_retention_policies_id: nullable; null clears it",
	"UpdateRetentionPolicyRequest.CustomNotificationRecipients": "OAS put_retention_policies_id: nullable; null empties the list",
	"UpdateFileRequest.Lock":                                    "OAS put_files_id lock: null removes the lock",
	"UpdateFileRequest.SharedLink":                              "OAS put_files_id shared_link: null removes the shared link",
	"UpdateFolderRequest.SharedLink":                            "OAS put_folders_id#remove_shared_link: null removes the shared link",
	"UpdateFolderRequest.FolderUploadEmail":                     "OAS put_folders_id folder_upload_email: null turns upload by e-mail off",
	"UpdateCollaborationRequest.ExpiresAt":                      "OAS Collaboration.expires_at: null is no expiry",
}

// TestNullableOnlyWhereNullMeansSomething finds every struct field typed
// Nullable in the package's source and checks it is one of
// nullableFields.
func TestNullableOnlyWhereNullMeansSomething(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	found := map[string]bool{}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				return true
			}
			for _, fld := range st.Fields.List {
				ix, ok := fld.Type.(*ast.IndexExpr)
				if !ok {
					continue
				}
				if id, ok := ix.X.(*ast.Ident); !ok || id.Name != "Nullable" {
					continue
				}
				for _, name := range fld.Names {
					found[ts.Name.Name+"."+name.Name] = true
				}
			}
			return true
		})
	}
	assert.Equal(t, slices.Sorted(maps.Keys(nullableFields)), slices.Sorted(maps.Keys(found)))
}

// TestUpdateRequestNulls pins each decision on the wire: the kept Nullable
// fields send null, the others send a value (a pointer to the zero value
// where zero is a change) and never null.
func TestUpdateRequestNulls(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		// Kept: null means something.
		{"user roll-out", UpdateUserRequest{Enterprise: Null[string]()}, `{"enterprise":null}`},
		{"user notification e-mail removed", UpdateUserRequest{NotificationEmail: Null[NotificationEmailRequest]()}, `{"notification_email":null}`},
		{"membership permissions off", CreateGroupMembershipRequest{User: UserRef{ID: "1"}, Group: GroupRef{ID: "2"}, ConfigurablePermissions: Null[map[GroupAdminPermission]bool]()},
			`{"user":{"id":"1"},"group":{"id":"2"},"configurable_permissions":null}`},
		{"membership update permissions off", UpdateGroupMembershipRequest{ConfigurablePermissions: Null[map[GroupAdminPermission]bool]()}, `{"configurable_permissions":null}`},
		{"web link shared link removed", UpdateWebLinkRequest{SharedLink: Null[SharedLinkRequest]()}, `{"shared_link":null}`},
		{"shared link password removed", UpdateWebLinkRequest{SharedLink: Set(SharedLinkRequest{Password: Null[string]()})}, `{"shared_link":{"password":null}}`},
		{"retention description cleared", UpdateRetentionPolicyRequest{Description: Null[string]()}, `{"description":null}`},
		{"retention recipients emptied", UpdateRetentionPolicyRequest{CustomNotificationRecipients: Null[[]*UserMini]()}, `{"custom_notification_recipients":null}`},

		// Not Nullable: zero is left out, a pointer sends the zero value.
		{"web link description cleared", UpdateWebLinkRequest{Description: Ptr("")}, `{"description":""}`},
		{"web link description kept", UpdateWebLinkRequest{Name: "n"}, `{"name":"n"}`},
		{"task message cleared", UpdateTaskRequest{Message: Ptr("")}, `{"message":""}`},
		{"task due date moved", UpdateTaskRequest{DueAt: due}, `{"due_at":"2026-01-02T03:04:05Z"}`},
		{"task unchanged", UpdateTaskRequest{}, `{}`},
		{"template shown", TemplateChanges{Hidden: Ptr(false), CopyInstanceOnItemCopy: Ptr(true)}, `{"hidden":false,"copyInstanceOnItemCopy":true}`},
		{"template renamed only", TemplateChanges{DisplayName: "D"}, `{"displayName":"D"}`},
		{"field description cleared, shown", FieldChanges{Description: Ptr(""), Hidden: Ptr(false)}, `{"description":"","hidden":false}`},
		{"retention plain fields", UpdateRetentionPolicyRequest{PolicyName: "P", DispositionAction: DispositionActionRemoveRetention, RetentionType: RetentionTypeNonModifiable, Status: RetentionPolicyStatusRetired},
			`{"policy_name":"P","disposition_action":"remove_retention","retention_type":"non_modifiable","status":"retired"}`},
		{"retention flags off", UpdateRetentionPolicyRequest{CanOwnerExtendRetention: Ptr(false), AreOwnersNotified: Ptr(false)},
			`{"can_owner_extend_retention":false,"are_owners_notified":false}`},
		{"retention unchanged", UpdateRetentionPolicyRequest{}, `{}`},
	} {
		b, err := json.Marshal(c.v)
		require.NoError(t, err, c.name)
		assert.JSONEq(t, c.want, string(b), c.name)
	}
}

// TestTemplateChangesKeys: an editTemplate sends only the template
// properties the service documents for it (displayName, hidden,
// copyInstanceOnItemCopy); the reference server refuses any other key.
func TestTemplateChangesKeys(t *testing.T) {
	t.Parallel()
	var c TemplateChanges
	v := reflect.ValueOf(&c).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			t.Fatalf("unexpected field %s", v.Type().Field(i).Name)
		}
	}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	var keys map[string]any
	require.NoError(t, json.Unmarshal(b, &keys))
	assert.ElementsMatch(t, []string{"displayName", "hidden", "copyInstanceOnItemCopy"}, slices.Collect(maps.Keys(keys)))
}
