package refserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireMDError checks a MetadataError body: status from HTTP, code,
// message and request_id, and no type, status or help_url.
func requireMDError(t *testing.T, resp *http.Response, body map[string]any, status int, code string) {
	t.Helper()
	require.Equal(t, status, resp.StatusCode, "body: %v", body)
	require.Equal(t, code, body["code"], "body: %v", body)
	require.NotEmpty(t, body["message"])
	require.NotEmpty(t, body["request_id"])
	require.Equal(t, body["request_id"], resp.Header.Get("box-request-id"))
	for _, k := range []string{"type", "status", "help_url"} {
		require.NotContains(t, body, k)
	}
}

// mdSnapshot fingerprints the metadata state (templates, instances, the
// item index and the instance ids) to check that rejections change nothing.
func mdSnapshot(s *Server) string {
	tx, end := beginTx(s.st)
	defer end()
	var lines []string
	for k, t := range tx.Metadata.Templates {
		b, _ := json.Marshal(t.Record())
		lines = append(lines, fmt.Sprintf("template %s %s v%d %d", k, b, t.Version, len(t.BySeq)))
		for _, in := range t.BySeq {
			b, _ := json.Marshal(in.Record())
			lines = append(lines, fmt.Sprintf("instance %s %s", in.Item.ID, b))
		}
	}
	for id, list := range tx.Metadata.ByItem {
		lines = append(lines, fmt.Sprintf("item %s %d", id, len(list)))
	}
	lines = append(lines, fmt.Sprintf("ids %d order %d", tx.Metadata.ByInstID.Len(), len(tx.Metadata.Order)))
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// mdEnv is a server with helpers for metadata requests.
type mdEnv struct {
	*env
	admin, user, app string
	scope            string // enterprise_<id>
}

func newMDEnv(t *testing.T) *mdEnv {
	e := newEnv(t, Options{})
	return &mdEnv{env: e, admin: e.s.AdminToken(), user: e.s.UserToken(), app: e.s.AppToken(), scope: "enterprise_" + e.s.EnterpriseID()}
}

// patch sends a JSON body as application/json-patch+json.
func (e *mdEnv) patch(url, token string, body any) (*http.Response, map[string]any) {
	e.t.Helper()
	return e.doJSON("PUT", url, token, body, hdr{"Content-Type": "application/json-patch+json"})
}

// contractFields is the schema most tests use.
func contractFields() []any {
	return []any{
		map[string]any{"type": "string", "key": "customer", "displayName": "Customer"},
		map[string]any{"type": "float", "key": "amount", "displayName": "Amount"},
		map[string]any{"type": "date", "key": "signed", "displayName": "Signed"},
		map[string]any{"type": "enum", "key": "status", "displayName": "Status",
			"options": []any{map[string]any{"key": "draft"}, map[string]any{"key": "active"}, map[string]any{"key": "closed"}}},
		map[string]any{"type": "multiSelect", "key": "regions", "displayName": "Regions",
			"options": []any{map[string]any{"key": "emea"}, map[string]any{"key": "apac"}, map[string]any{"key": "amer"}}},
	}
}

// createTemplate creates an enterprise template as the admin.
func (e *mdEnv) createTemplate(key string, fields []any) map[string]any {
	e.t.Helper()
	body := map[string]any{"scope": "enterprise", "templateKey": key, "displayName": "T " + key, "fields": fields}
	resp, m := e.doJSON("POST", e.api("/metadata_templates/schema"), e.admin, body, nil)
	require.Equal(e.t, http.StatusCreated, resp.StatusCode, "%v", m)
	return m
}

// fieldKeys lists the keys of a template record's fields.
func fieldKeys(tmpl map[string]any) []string {
	var out []string
	for _, f := range tmpl["fields"].([]any) {
		out = append(out, f.(map[string]any)["key"].(string))
	}
	return out
}

// optionKeys lists the option keys of one field of a template record.
func optionKeys(tmpl map[string]any, field string) []string {
	var out []string
	for _, f := range tmpl["fields"].([]any) {
		fm := f.(map[string]any)
		if fm["key"] != field {
			continue
		}
		for _, o := range fm["options"].([]any) {
			out = append(out, o.(map[string]any)["key"].(string))
		}
	}
	return out
}
