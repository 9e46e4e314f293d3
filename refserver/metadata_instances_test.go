package refserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mdItems creates a template "contract", a file and a folder of the managed user.
func mdItems(t *testing.T) (*mdEnv, string, string) {
	e := newMDEnv(t)
	e.createTemplate("contract", contractFields())
	folder := e.createFolder(e.user, "0", "Deals")["id"].(string)
	file := e.uploadFile(e.user, folder, "deal.pdf", []byte("pdf"))["id"].(string)
	return e, file, folder
}

func (e *mdEnv) instanceURL(typ, id, scope, key string) string {
	return e.api(fmt.Sprintf("/%ss/%s/metadata/%s/%s", typ, id, scope, key))
}

func (e *mdEnv) createInstance(typ, id, scope, key string, values any) map[string]any {
	e.t.Helper()
	resp, m := e.doJSON("POST", e.instanceURL(typ, id, scope, key), e.user, values, nil)
	require.Equal(e.t, http.StatusCreated, resp.StatusCode, "%v", m)
	return m
}

func TestMetadataCreateInstance(t *testing.T) {
	t.Parallel()
	e, file, folder := mdItems(t)
	resp, raw := e.do("POST", e.instanceURL("file", file, "enterprise", "contract"), e.user,
		strings.NewReader(`{"customer":"Acme","amount":12345678.123456789,"signed":"2025-03-04T15:04:05+02:00","status":"active","regions":["emea","apac"]}`),
		hdr{"Content-Type": "application/json"})
	require.Equal(t, 201, resp.StatusCode, "%s", raw)
	assert.Contains(t, string(raw), `"amount":12345678.123456789`, "a float comes back as sent")
	m := decodeMap(t, raw)
	assert.Equal(t, "file_"+file, m["$parent"])
	assert.Equal(t, "contract", m["$template"])
	assert.Equal(t, e.scope, m["$scope"])
	assert.EqualValues(t, 0, m["$version"])
	assert.Equal(t, true, m["$canEdit"])
	assert.True(t, isUUID(m["$id"].(string)))
	assert.True(t, strings.HasPrefix(m["$type"].(string), "contract-"))
	assert.EqualValues(t, 0, m["$typeVersion"])
	assert.Equal(t, "Acme", m["customer"])
	assert.Equal(t, "2025-03-04T00:00:00.000Z", m["signed"], "dates keep the day only")
	assert.Equal(t, "active", m["status"])
	assert.Equal(t, []any{"emea", "apac"}, m["regions"])

	fm := e.createInstance("folder", folder, e.scope, "contract", map[string]any{})
	assert.Equal(t, "folder_"+folder, fm["$parent"])
	pm := e.createInstance("file", file, "global", "properties", map[string]any{"anything": "goes", "x y": ""})
	assert.Equal(t, "global", pm["$scope"])
	assert.Equal(t, "goes", pm["anything"])

	adminFile := e.uploadFile(e.admin, "0", "secret.txt", []byte("s"))["id"].(string)
	url := e.instanceURL("file", file, "enterprise", "contract")
	cases := []struct {
		name   string
		token  string
		url    string
		body   string
		ct     string
		status int
		code   string
		md     bool // MetadataError body
	}{
		{"exists", e.user, url, `{}`, "", 409, "tuple_already_exists", true},
		{"unknown template", e.user, e.instanceURL("file", file, "enterprise", "nope"), `{}`, "", 404, "instance_tuple_not_found", true},
		{"other enterprise", e.user, e.instanceURL("file", file, "enterprise_42", "contract"), `{}`, "", 404, "instance_tuple_not_found", true},
		{"unknown global", e.user, e.instanceURL("file", file, "global", "contract"), `{}`, "", 404, "instance_tuple_not_found", true},
		{"bad scope", e.user, e.instanceURL("file", file, "company", "contract"), `{}`, "", 400, "bad_request", false},
		{"unknown file", e.user, e.instanceURL("file", "999999", "enterprise", "contract"), `{}`, "", 404, "not_found", false},
		{"other user's file", e.user, e.instanceURL("file", adminFile, "enterprise", "contract"), `{}`, "", 404, "not_found", false},
		{"malformed file id", e.user, e.instanceURL("file", "abc", "enterprise", "contract"), `{}`, "", 405, "method_not_allowed", false},
		{"root folder", e.user, e.instanceURL("folder", "0", "enterprise", "contract"), `{}`, "", 405, "method_not_allowed", false},
		{"app token", e.app, e.instanceURL("folder", folder, "global", "properties"), `{}`, "", 403, "insufficient_scope", false},
		{"text body", e.user, e.instanceURL("folder", folder, "global", "properties"), `{}`, "text/plain", 400, "bad_request", false},
		{"not an object", e.user, e.instanceURL("folder", folder, "global", "properties"), `["a"]`, "", 400, "bad_request", true},
		{"not json", e.user, e.instanceURL("folder", folder, "global", "properties"), `{"a":`, "", 400, "bad_request", true},
	}
	fresh := e.createFolder(e.user, "0", "Fresh")["id"].(string)
	furl := e.instanceURL("folder", fresh, "enterprise", "contract")
	for _, bad := range []struct{ name, body string }{
		{"unknown field", `{"color":"red"}`},
		{"system key", `{"$version":3}`},
		{"float as string", `{"amount":"100"}`},
		{"string as number", `{"customer":5}`},
		{"bad date", `{"signed":"1/1/2020"}`},
		{"date without zone", `{"signed":"2020-01-01T00:00:00"}`},
		{"enum not an option", `{"status":"lost"}`},
		{"enum as list", `{"status":["active"]}`},
		{"multiSelect not an option", `{"regions":["emea","mars"]}`},
		{"multiSelect as string", `{"regions":"emea"}`},
		{"multiSelect of numbers", `{"regions":[1]}`},
	} {
		cases = append(cases, struct {
			name   string
			token  string
			url    string
			body   string
			ct     string
			status int
			code   string
			md     bool
		}{bad.name, e.user, furl, bad.body, "", 400, "schema_validation_failed", true})
	}
	cases = append(cases, struct {
		name   string
		token  string
		url    string
		body   string
		ct     string
		status int
		code   string
		md     bool
	}{"properties number", e.user, e.instanceURL("folder", fresh, "global", "properties"), `{"n":1}`, "", 400, "schema_validation_failed", true})

	before := mdSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := hdr{"Content-Type": "application/json"}
			if c.ct != "" {
				h["Content-Type"] = c.ct
			}
			resp, m := e.doJSON("POST", c.url, c.token, c.body, h)
			if c.md {
				requireMDError(t, resp, m, c.status, c.code)
			} else {
				requireAPIError(t, resp, m, c.status, c.code)
			}
		})
	}
	assert.Equal(t, before, mdSnapshot(e.s), "rejected requests changed state")
}

func TestMetadataGetListDeleteInstance(t *testing.T) {
	t.Parallel()
	e, file, folder := mdItems(t)
	created := e.createInstance("file", file, "enterprise", "contract", map[string]any{"customer": "Acme"})
	e.createInstance("file", file, "global", "properties", map[string]any{"k": "v"})
	e.createInstance("folder", folder, "enterprise", "contract", map[string]any{"amount": 5})

	resp, m := e.doJSON("GET", e.instanceURL("file", file, e.scope, "contract"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, created, m)
	resp, m = e.doJSON("GET", e.api("/files/"+file+"/metadata"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	require.Len(t, m["entries"], 2)
	assert.Equal(t, created, m["entries"].([]any)[0])
	assert.EqualValues(t, 100, m["limit"])
	resp, m = e.doJSON("GET", e.api("/folders/"+folder+"/metadata"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Len(t, m["entries"], 1)

	// The template of an instance, by its $id.
	resp, m = e.doJSON("GET", e.api("/metadata_templates?metadata_instance_id="+created["$id"].(string)), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	require.Len(t, m["entries"], 1)
	assert.Equal(t, "contract", m["entries"].([]any)[0].(map[string]any)["templateKey"])
	resp, m = e.doJSON("GET", e.api("/metadata_templates?metadata_instance_id=00000000-0000-4000-8000-000000000000"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Empty(t, m["entries"])

	before := mdSnapshot(e.s)
	for _, c := range []struct {
		name, method, url, token string
		status                   int
		code                     string
		md                       bool
	}{
		{"get not applied", "GET", e.instanceURL("folder", folder, "global", "properties"), e.user, 404, "instance_not_found", true},
		{"get unknown template", "GET", e.instanceURL("folder", folder, "enterprise", "nope"), e.user, 404, "instance_not_found", true},
		{"get root", "GET", e.instanceURL("folder", "0", "enterprise", "contract"), e.user, 405, "method_not_allowed", false},
		{"get malformed", "GET", e.instanceURL("file", "1x", "enterprise", "contract"), e.user, 405, "method_not_allowed", false},
		{"get app", "GET", e.instanceURL("file", file, "enterprise", "contract"), e.app, 403, "insufficient_scope", false},
		{"list root", "GET", e.api("/folders/0/metadata"), e.user, 403, "forbidden", false},
		{"list unknown file", "GET", e.api("/files/999999/metadata"), e.user, 404, "not_found", false},
		{"list app", "GET", e.api("/files/" + file + "/metadata"), e.app, 403, "insufficient_scope", false},
		{"delete not applied", "DELETE", e.instanceURL("folder", folder, "global", "properties"), e.user, 404, "instance_not_found", true},
		{"delete root", "DELETE", e.instanceURL("folder", "0", "global", "properties"), e.user, 405, "method_not_allowed", false},
		{"delete bad scope", "DELETE", e.instanceURL("file", file, "x", "contract"), e.user, 400, "bad_request", false},
		{"delete app", "DELETE", e.instanceURL("file", file, "enterprise", "contract"), e.app, 403, "insufficient_scope", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON(c.method, c.url, c.token, nil, nil)
			if c.md {
				requireMDError(t, resp, m, c.status, c.code)
			} else {
				requireAPIError(t, resp, m, c.status, c.code)
			}
		})
	}
	assert.Equal(t, before, mdSnapshot(e.s), "rejected requests changed state")

	resp, _ = e.do("DELETE", e.instanceURL("file", file, "enterprise", "contract"), e.user, nil, nil)
	require.Equal(t, 204, resp.StatusCode)
	resp, m = e.doJSON("GET", e.instanceURL("file", file, "enterprise", "contract"), e.user, nil, nil)
	requireMDError(t, resp, m, 404, "instance_not_found")
	resp, m = e.doJSON("GET", e.api("/metadata_templates?metadata_instance_id="+created["$id"].(string)), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Empty(t, m["entries"])
}

func TestMetadataUpdateInstance(t *testing.T) {
	t.Parallel()
	e, file, _ := mdItems(t)
	url := e.instanceURL("file", file, "enterprise", "contract")
	e.createInstance("file", file, "enterprise", "contract", map[string]any{"customer": "Acme", "amount": 10, "regions": []string{"emea"}})

	resp, m := e.patch(url, e.user, []any{
		map[string]any{"op": "test", "path": "/customer", "value": "Acme"},
		map[string]any{"op": "replace", "path": "/customer", "value": "Acme Corp"},
		map[string]any{"op": "add", "path": "/status", "value": "draft"},
		map[string]any{"op": "add", "path": "/regions/-", "value": "apac"},
		map[string]any{"op": "remove", "path": "/amount"},
		map[string]any{"op": "add", "path": "/signed", "value": "2025-01-31T00:00:00Z"},
	})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.EqualValues(t, 1, m["$version"])
	assert.Equal(t, "Acme Corp", m["customer"])
	assert.Equal(t, "draft", m["status"])
	assert.Equal(t, []any{"emea", "apac"}, m["regions"])
	assert.NotContains(t, m, "amount")
	assert.Equal(t, "2025-01-31T00:00:00.000Z", m["signed"])

	// A patch of tests only changes nothing, not even $version.
	resp, m = e.patch(url, e.user, []any{map[string]any{"op": "test", "path": "/status", "value": "draft"}})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.EqualValues(t, 1, m["$version"])
	// move and copy between fields of one type.
	resp, m = e.patch(url, e.user, []any{
		map[string]any{"op": "copy", "from": "/status", "path": "/status"},
		map[string]any{"op": "move", "from": "/customer", "path": "/customer"},
	})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.EqualValues(t, 1, m["$version"])

	type tc struct {
		name   string
		token  string
		url    string
		body   any
		ct     string
		status int
		code   string
		md     bool
	}
	op := func(kv ...any) []any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return []any{map[string]any{"op": "replace", "path": "/customer", "value": "Changed"}, m}
	}
	cases := []tc{
		{"test fails", e.user, url, op("op", "test", "path", "/customer", "value", "Acme"), "", 409, "failed_json_patch_application", true},
		{"replace missing", e.user, url, op("op", "replace", "path", "/amount", "value", 1), "", 409, "failed_json_patch_application", true},
		{"remove missing", e.user, url, op("op", "remove", "path", "/amount"), "", 409, "failed_json_patch_application", true},
		{"move missing", e.user, url, op("op", "move", "from", "/amount", "path", "/customer"), "", 409, "failed_json_patch_application", true},
		{"into a string", e.user, url, op("op", "add", "path", "/customer/x", "value", "y"), "", 409, "failed_json_patch_application", true},
		{"unknown key", e.user, url, op("op", "add", "path", "/color", "value", "red"), "", 400, "schema_validation_failed", true},
		{"enum not an option", e.user, url, op("op", "replace", "path", "/status", "value", "lost"), "", 400, "schema_validation_failed", true},
		{"float as string", e.user, url, op("op", "add", "path", "/amount", "value", "12"), "", 400, "schema_validation_failed", true},
		{"copy across types", e.user, url, op("op", "copy", "from", "/customer", "path", "/amount"), "", 400, "schema_validation_failed", true},
		{"multiSelect not an option", e.user, url, op("op", "add", "path", "/regions/-", "value", "mars"), "", 400, "schema_validation_failed", true},
		{"not applied", e.user, e.instanceURL("file", file, "global", "properties"), op("op", "remove", "path", "/x"), "", 404, "instance_not_found", true},
		{"unknown template", e.user, e.instanceURL("file", file, "enterprise", "nope"), op("op", "remove", "path", "/x"), "", 404, "instance_not_found", true},
		{"json content type", e.user, url, op("op", "remove", "path", "/status"), "application/json", 400, "bad_request", false},
		{"no content type", e.user, url, op("op", "remove", "path", "/status"), "-", 400, "bad_request", false},
		{"not an array", e.user, url, map[string]any{"op": "remove", "path": "/status"}, "", 400, "bad_request", false},
		{"null", e.user, url, "null", "", 400, "bad_request", false},
		{"unknown op", e.user, url, op("op", "merge", "path", "/status"), "", 400, "bad_request", false},
		{"no path", e.user, url, op("op", "remove"), "", 400, "bad_request", false},
		{"root path", e.user, url, op("op", "add", "path", "", "value", "x"), "", 400, "bad_request", false},
		{"relative path", e.user, url, op("op", "add", "path", "status", "value", "x"), "", 400, "bad_request", false},
		{"bad escape", e.user, url, op("op", "add", "path", "/a~2b", "value", "x"), "", 400, "bad_request", false},
		{"system key", e.user, url, op("op", "replace", "path", "/$version", "value", 9), "", 400, "bad_request", false},
		{"system key from", e.user, url, op("op", "copy", "from", "/$id", "path", "/customer"), "", 400, "bad_request", false},
		{"no value", e.user, url, op("op", "add", "path", "/status"), "", 400, "bad_request", false},
		{"null value", e.user, url, op("op", "add", "path", "/status", "value", nil), "", 400, "bad_request", false},
		{"object value", e.user, url, op("op", "add", "path", "/status", "value", map[string]any{}), "", 400, "bad_request", false},
		{"mixed list value", e.user, url, op("op", "add", "path", "/regions", "value", []any{"emea", 1}), "", 400, "bad_request", false},
		{"value on remove", e.user, url, op("op", "remove", "path", "/status", "value", "x"), "", 400, "bad_request", false},
		{"no from", e.user, url, op("op", "move", "path", "/status"), "", 400, "bad_request", false},
		{"from on add", e.user, url, op("op", "add", "path", "/status", "value", "draft", "from", "/x"), "", 400, "bad_request", false},
		{"unknown member", e.user, url, op("op", "remove", "path", "/status", "note", "x"), "", 400, "bad_request", false},
		{"root folder", e.user, e.instanceURL("folder", "0", "enterprise", "contract"), op("op", "remove", "path", "/status"), "", 405, "method_not_allowed", false},
		{"app token", e.app, url, op("op", "remove", "path", "/status"), "", 403, "insufficient_scope", false},
		{"unknown file", e.user, e.instanceURL("file", "999999", "enterprise", "contract"), op("op", "remove", "path", "/status"), "", 404, "not_found", false},
	}
	before := mdSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := hdr{"Content-Type": "application/json-patch+json"}
			switch c.ct {
			case "":
			case "-":
				h = hdr{"Content-Type": ""}
			default:
				h["Content-Type"] = c.ct
			}
			resp, m := e.doJSON("PUT", c.url, c.token, c.body, h)
			if c.md {
				requireMDError(t, resp, m, c.status, c.code)
			} else {
				requireAPIError(t, resp, m, c.status, c.code)
			}
		})
	}
	assert.Equal(t, before, mdSnapshot(e.s), "rejected requests changed state")

	// Keys with "/" and "~" in global.properties, escaped per RFC 6901.
	purl := e.instanceURL("file", file, "global", "properties")
	e.createInstance("file", file, "global", "properties", map[string]any{"a/b": "1", "c~d": "2"})
	resp, m = e.patch(purl, e.user, []any{
		map[string]any{"op": "replace", "path": "/a~1b", "value": "x"},
		map[string]any{"op": "remove", "path": "/c~0d"},
	})
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "x", m["a/b"])
	assert.NotContains(t, m, "c~d")
}

func TestMetadataInstanceLimitPerItem(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	folder := e.createFolder(e.user, "0", "Busy")["id"].(string)
	for i := range state.MaxInstancesPerItem {
		key := fmt.Sprintf("t%03d", i)
		e.createTemplate(key, nil)
		e.createInstance("folder", folder, "enterprise", key, map[string]any{})
	}
	e.createTemplate("one_more", nil)
	before := mdSnapshot(e.s)
	resp, m := e.doJSON("POST", e.instanceURL("folder", folder, "enterprise", "one_more"), e.user, map[string]any{}, nil)
	requireMDError(t, resp, m, 400, "bad_request")
	assert.Equal(t, before, mdSnapshot(e.s))
}

func TestMetadataSchemaEffectsOnInstances(t *testing.T) {
	t.Parallel()
	e, file, folder := mdItems(t)
	fileURL := e.instanceURL("file", file, "enterprise", "contract")
	folderURL := e.instanceURL("folder", folder, "enterprise", "contract")
	e.createInstance("file", file, "enterprise", "contract",
		map[string]any{"customer": "Acme", "amount": 1, "status": "active", "regions": []string{"emea", "apac"}})
	e.createInstance("folder", folder, "enterprise", "contract",
		map[string]any{"customer": "Beta", "status": "draft", "regions": []string{"amer"}})

	resp, m := e.patch(e.api("/metadata_templates/enterprise/contract/schema"), e.admin, []any{
		map[string]any{"op": "removeField", "fieldKey": "amount"},
		map[string]any{"op": "removeEnumOption", "fieldKey": "status", "enumOptionKey": "active"},
		map[string]any{"op": "editEnumOption", "fieldKey": "status", "enumOptionKey": "draft", "data": map[string]any{"key": "proposal"}},
		map[string]any{"op": "removeMultiSelectOption", "fieldKey": "regions", "multiSelectOptionKey": "apac"},
		map[string]any{"op": "editMultiSelectOption", "fieldKey": "regions", "multiSelectOptionKey": "amer", "data": map[string]any{"key": "na"}},
		map[string]any{"op": "editField", "fieldKey": "customer", "data": map[string]any{"key": "client"}},
	})
	require.Equal(t, 200, resp.StatusCode, "%v", m)

	_, f := e.doJSON("GET", fileURL, e.user, nil, nil)
	assert.Equal(t, "Acme", f["client"])
	assert.NotContains(t, f, "customer")
	assert.NotContains(t, f, "amount", "removeField drops the values")
	assert.NotContains(t, f, "status", "removeEnumOption resets the value to null")
	assert.Equal(t, []any{"emea"}, f["regions"])
	assert.EqualValues(t, 1, f["$version"])
	assert.EqualValues(t, 1, f["$typeVersion"])

	_, d := e.doJSON("GET", folderURL, e.user, nil, nil)
	assert.Equal(t, "Beta", d["client"])
	assert.Equal(t, "proposal", d["status"])
	assert.Equal(t, []any{"na"}, d["regions"])

	// The renamed values are patched under their new names.
	resp, m = e.patch(folderURL, e.user, []any{map[string]any{"op": "test", "path": "/client", "value": "Beta"}})
	require.Equal(t, 200, resp.StatusCode, "%v", m)

	// Deleting the template deletes its instances.
	resp, _ = e.do("DELETE", e.api("/metadata_templates/enterprise/contract/schema"), e.admin, nil, nil)
	require.Equal(t, 204, resp.StatusCode)
	resp, m = e.doJSON("GET", e.api("/files/"+file+"/metadata"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Empty(t, m["entries"])
	e.createTemplate("contract", contractFields())
	resp, m = e.doJSON("GET", fileURL, e.user, nil, nil)
	requireMDError(t, resp, m, 404, "instance_not_found")
}

func TestMetadataDroppedWithItem(t *testing.T) {
	t.Parallel()
	e, file, folder := mdItems(t)
	e.createInstance("file", file, "enterprise", "contract", map[string]any{"customer": "Acme"})
	e.createInstance("folder", folder, "enterprise", "contract", map[string]any{"customer": "Beta"})
	e.createInstance("folder", folder, "global", "properties", map[string]any{"a": "b"})
	resp, _ := e.do("DELETE", e.api("/folders/"+folder+"?recursive=true"), e.user, nil, nil)
	require.Equal(t, 204, resp.StatusCode)
	// In the trash the instances stay (a restore brings them back); they go
	// when the folder is deleted for good.
	tx, end := beginTx(e.s.st)
	require.NotEmpty(t, tx.Metadata.ByItem)
	end()
	resp, _ = e.do("DELETE", e.api("/folders/"+folder+"/trash"), e.user, nil, nil)
	require.Equal(t, 204, resp.StatusCode)
	tx, end = beginTx(e.s.st)
	defer end()
	assert.Empty(t, tx.Metadata.ByItem)
	assert.Zero(t, tx.Metadata.ByInstID.Len())
	for _, tm := range tx.Metadata.Templates {
		assert.Empty(t, tm.BySeq)
		assert.Empty(t, tm.Instances)
	}
}

func TestMetadataInItemFields(t *testing.T) {
	t.Parallel()
	e, file, folder := mdItems(t)
	inst := e.createInstance("file", file, "enterprise", "contract", map[string]any{"customer": "Acme", "amount": 2.5})
	fi := e.createInstance("folder", folder, "global", "properties", map[string]any{"k": "v"})
	resp, m := e.doJSON("GET", e.api("/files/"+file+"?fields=name,metadata."+e.scope+".contract,metadata.global.properties,metadata.enterprise.nope"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "deal.pdf", m["name"])
	assert.Equal(t, map[string]any{e.scope: map[string]any{"contract": inst}}, m["metadata"], "full instance records, nested by scope and key")
	resp, m = e.doJSON("GET", e.api("/folders/"+folder+"?fields=metadata.global.properties"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, map[string]any{"global": map[string]any{"properties": fi}}, m["metadata"])
	resp, m = e.doJSON("GET", e.api("/files/"+file), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.NotContains(t, m, "metadata", "only when requested")
}
