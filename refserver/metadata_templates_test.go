package refserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMetadataGlobalPropertiesTemplate(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	resp, m := e.doJSON("GET", e.api("/metadata_templates/global/properties/schema"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "metadata_template", m["type"])
	assert.Equal(t, "global", m["scope"])
	assert.Equal(t, "properties", m["templateKey"])
	assert.Equal(t, []any{}, m["fields"])
	assert.True(t, isUUID(m["id"].(string)))

	resp, list := e.doJSON("GET", e.api("/metadata_templates/global"), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	require.Len(t, list["entries"], 1)
	assert.Equal(t, "properties", list["entries"].([]any)[0].(map[string]any)["templateKey"])
	assert.Nil(t, list["next_marker"])

	resp, byID := e.doJSON("GET", e.api("/metadata_templates/"+m["id"].(string)), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, m, byID)
}

func TestMetadataCreateTemplate(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	tmpl := e.createTemplate("contract", contractFields())
	assert.Equal(t, e.scope, tmpl["scope"])
	assert.Equal(t, "contract", tmpl["templateKey"])
	assert.Equal(t, false, tmpl["hidden"])
	assert.Equal(t, false, tmpl["copyInstanceOnItemCopy"])
	assert.Equal(t, []string{"customer", "amount", "signed", "status", "regions"}, fieldKeys(tmpl))
	assert.Equal(t, []string{"draft", "active", "closed"}, optionKeys(tmpl, "status"))
	for _, f := range tmpl["fields"].([]any) {
		assert.True(t, isUUID(f.(map[string]any)["id"].(string)))
	}

	// A key derived from displayName, made unique when taken; the full scope works too.
	for _, want := range []string{"contractDetails2", "contractDetails21"} {
		resp, m := e.doJSON("POST", e.api("/metadata_templates/schema"), e.admin,
			map[string]any{"scope": e.scope, "displayName": "Contract details 2", "hidden": true, "copyInstanceOnItemCopy": true}, nil)
		require.Equal(t, 201, resp.StatusCode, "%v", m)
		assert.Equal(t, want, m["templateKey"])
		assert.Equal(t, true, m["hidden"])
		assert.Equal(t, true, m["copyInstanceOnItemCopy"])
	}
	resp, m := e.doJSON("POST", e.api("/metadata_templates/schema"), e.admin,
		map[string]any{"scope": "enterprise", "displayName": "9 lives — of cats!"}, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Equal(t, "_9LivesOfCats", m["templateKey"])
	resp, m = e.doJSON("POST", e.api("/metadata_templates/schema"), e.admin,
		map[string]any{"scope": "enterprise", "displayName": strings.Repeat("Word ", 30)}, nil)
	require.Equal(t, 201, resp.StatusCode, "%v", m)
	assert.Len(t, m["templateKey"], 64)

	field := func(f map[string]any) string {
		return fmt.Sprintf(`{"scope":"enterprise","templateKey":"x","displayName":"X","fields":[%s]}`, strings.TrimSpace(mustJSON(t, f)))
	}
	cases := []struct {
		name   string
		token  string
		body   string
		status int
		code   string
	}{
		{"managed user", e.user, `{"scope":"enterprise","displayName":"X"}`, 403, "access_denied_insufficient_permissions"},
		{"app token", e.app, `{"scope":"enterprise","displayName":"X"}`, 403, "insufficient_scope"},
		{"global scope", e.admin, `{"scope":"global","displayName":"X"}`, 403, "access_denied_insufficient_permissions"},
		{"other enterprise", e.admin, `{"scope":"enterprise_42","displayName":"X"}`, 400, "bad_request"},
		{"no scope", e.admin, `{"displayName":"X"}`, 400, "bad_request"},
		{"no displayName", e.admin, `{"scope":"enterprise"}`, 400, "bad_request"},
		{"blank displayName", e.admin, `{"scope":"enterprise","displayName":"  "}`, 400, "bad_request"},
		{"key too long", e.admin, fmt.Sprintf(`{"scope":"enterprise","displayName":"X","templateKey":%q}`, strings.Repeat("k", 65)), 400, "bad_request"},
		{"key pattern", e.admin, `{"scope":"enterprise","displayName":"X","templateKey":"9lives"}`, 400, "bad_request"},
		{"key taken", e.admin, `{"scope":"enterprise","displayName":"X","templateKey":"contract"}`, 409, "conflict"},
		{"underivable key", e.admin, `{"scope":"enterprise","displayName":"!!!"}`, 400, "bad_request"},
		{"unknown member", e.admin, `{"scope":"enterprise","displayName":"X","color":"red"}`, 400, "bad_request"},
		{"not json", e.admin, `{"scope":`, 400, "bad_request"},
		{"integer field", e.admin, field(map[string]any{"type": "integer", "key": "n", "displayName": "N"}), 400, "bad_request"},
		{"taxonomy field", e.admin, field(map[string]any{"type": "taxonomy", "key": "n", "displayName": "N", "taxonomyKey": "geo"}), 400, "bad_request"},
		{"unknown type", e.admin, field(map[string]any{"type": "boolean", "key": "n", "displayName": "N"}), 400, "bad_request"},
		{"field without key", e.admin, field(map[string]any{"type": "string", "displayName": "N"}), 400, "bad_request"},
		{"field key too long", e.admin, field(map[string]any{"type": "string", "key": strings.Repeat("k", 257), "displayName": "N"}), 400, "bad_request"},
		{"field key $", e.admin, field(map[string]any{"type": "string", "key": "$id", "displayName": "N"}), 400, "bad_request"},
		{"options on string", e.admin, field(map[string]any{"type": "string", "key": "n", "displayName": "N", "options": []any{map[string]any{"key": "a"}}}), 400, "bad_request"},
		{"duplicate options", e.admin, field(map[string]any{"type": "enum", "key": "n", "displayName": "N", "options": []any{map[string]any{"key": "a"}, map[string]any{"key": "a"}}}), 400, "bad_request"},
		{"duplicate fields", e.admin, `{"scope":"enterprise","templateKey":"x","displayName":"X","fields":[{"type":"string","key":"a","displayName":"A"},{"type":"float","key":"a","displayName":"B"}]}`, 400, "bad_request"},
	}
	before := mdSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("POST", e.api("/metadata_templates/schema"), c.token, c.body, nil)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, mdSnapshot(e.s), "rejected requests changed state")
}

func TestMetadataGetAndListTemplates(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	tmpl := e.createTemplate("contract", contractFields())
	for _, scope := range []string{"enterprise", e.scope} {
		resp, m := e.doJSON("GET", e.api("/metadata_templates/"+scope+"/contract/schema"), e.user, nil, nil)
		require.Equal(t, 200, resp.StatusCode, "%v", m)
		assert.Equal(t, tmpl, m)
	}
	resp, m := e.doJSON("GET", e.api("/metadata_templates/"+tmpl["id"].(string)), e.user, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, tmpl, m)

	cases := []struct {
		name, path, token string
		status            int
		code              string
	}{
		{"unknown key", "/metadata_templates/enterprise/nope/schema", e.user, 404, "not_found"},
		{"other enterprise", "/metadata_templates/enterprise_42/contract/schema", e.user, 404, "not_found"},
		{"bad scope", "/metadata_templates/company/contract/schema", e.user, 400, "bad_request"},
		{"unknown id", "/metadata_templates/00000000-0000-4000-8000-000000000000", e.user, 400, "bad_request"},
		{"app token", "/metadata_templates/enterprise/contract/schema", e.app, 403, "insufficient_scope"},
		{"bad marker", "/metadata_templates/enterprise?marker=zzz", e.user, 400, "bad_request"},
		{"bad limit", "/metadata_templates/enterprise?limit=-1", e.user, 400, "bad_request"},
		{"no instance id", "/metadata_templates", e.user, 400, "bad_request"},
		{"malformed instance id", "/metadata_templates?metadata_instance_id=12", e.user, 400, "bad_request"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, m := e.doJSON("GET", e.api(c.path), c.token, nil, nil)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}

	// Marker paging over more than one page, in creation order.
	want := []string{"contract"}
	for i := range 4 {
		k := fmt.Sprintf("t%d", i)
		e.createTemplate(k, nil)
		want = append(want, k)
	}
	var got []string
	pages := 0
	for url := e.api("/metadata_templates/enterprise?limit=2"); url != ""; pages++ {
		resp, page := e.doJSON("GET", url, e.user, nil, nil)
		require.Equal(t, 200, resp.StatusCode, "%v", page)
		assert.EqualValues(t, 2, page["limit"])
		for _, en := range page["entries"].([]any) {
			got = append(got, en.(map[string]any)["templateKey"].(string))
		}
		url = ""
		if nm, _ := page["next_marker"].(string); nm != "" {
			url = e.api("/metadata_templates/enterprise?limit=2&marker=" + nm)
		}
	}
	assert.Equal(t, want, got)
	assert.Equal(t, 3, pages)
}

func TestMetadataUpdateTemplateSchema(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	e.createTemplate("contract", contractFields())
	url := e.api("/metadata_templates/enterprise/contract/schema")
	ops := []any{
		map[string]any{"op": "editTemplate", "data": map[string]any{"displayName": "Contracts", "hidden": true, "copyInstanceOnItemCopy": true}},
		map[string]any{"op": "addField", "data": map[string]any{"type": "string", "key": "owner", "displayName": "Owner", "description": "who", "hidden": true}},
		map[string]any{"op": "reorderFields", "fieldKeys": []string{"owner", "customer", "amount", "signed", "status", "regions"}},
		map[string]any{"op": "addEnumOption", "fieldKey": "status", "data": map[string]any{"key": "void"}},
		map[string]any{"op": "reorderEnumOptions", "fieldKey": "status", "enumOptionKeys": []string{"void", "draft", "active", "closed"}},
		map[string]any{"op": "addMultiSelectOption", "fieldKey": "regions", "data": map[string]any{"key": "latam"}},
		map[string]any{"op": "reorderMultiSelectOptions", "fieldKey": "regions", "multiSelectOptionKeys": []string{"latam", "amer", "apac", "emea"}},
		map[string]any{"op": "editField", "fieldKey": "customer", "data": map[string]any{"key": "client", "displayName": "Client"}},
		map[string]any{"op": "editEnumOption", "fieldKey": "status", "enumOptionKey": "draft", "data": map[string]any{"key": "proposal"}},
		map[string]any{"op": "editMultiSelectOption", "fieldKey": "regions", "multiSelectOptionKey": "amer", "data": map[string]any{"key": "na"}},
		map[string]any{"op": "removeEnumOption", "fieldKey": "status", "enumOptionKey": "closed"},
		map[string]any{"op": "removeMultiSelectOption", "fieldKey": "regions", "multiSelectOptionKey": "apac"},
		map[string]any{"op": "removeField", "fieldKey": "signed"},
	}
	resp, m := e.patch(url, e.admin, ops)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, "Contracts", m["displayName"])
	assert.Equal(t, true, m["hidden"])
	assert.Equal(t, true, m["copyInstanceOnItemCopy"])
	assert.Equal(t, []string{"owner", "client", "amount", "status", "regions"}, fieldKeys(m))
	assert.Equal(t, []string{"void", "proposal", "active"}, optionKeys(m, "status"))
	assert.Equal(t, []string{"latam", "na", "emea"}, optionKeys(m, "regions"))
	owner := m["fields"].([]any)[0].(map[string]any)
	assert.Equal(t, "who", owner["description"])
	assert.Equal(t, true, owner["hidden"])

	// The classic box-node-sdk sends the operations as application/json.
	resp, m = e.doJSON("PUT", url, e.admin, []any{map[string]any{"op": "editTemplate", "data": map[string]any{"displayName": "C2"}}}, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)

	bad := func(op map[string]any) []any {
		// A good first operation shows that a failing later one undoes it.
		return []any{map[string]any{"op": "editTemplate", "data": map[string]any{"displayName": "Changed"}}, op}
	}
	cases := []struct {
		name   string
		token  string
		url    string
		body   any
		ct     string
		status int
		code   string
	}{
		{"managed user", e.user, url, bad(map[string]any{"op": "removeField", "fieldKey": "owner"}), "", 403, "access_denied_insufficient_permissions"},
		{"app token", e.app, url, bad(map[string]any{"op": "removeField", "fieldKey": "owner"}), "", 403, "insufficient_scope"},
		{"global template", e.admin, e.api("/metadata_templates/global/properties/schema"), bad(map[string]any{"op": "editTemplate", "data": map[string]any{"hidden": true}}), "", 403, "access_denied_insufficient_permissions"},
		{"unknown template", e.admin, e.api("/metadata_templates/enterprise/nope/schema"), bad(map[string]any{"op": "removeField", "fieldKey": "owner"}), "", 404, "not_found"},
		{"text body", e.admin, url, bad(map[string]any{"op": "removeField", "fieldKey": "owner"}), "text/plain", 400, "bad_request"},
		{"empty array", e.admin, url, []any{}, "", 400, "bad_request"},
		{"not an array", e.admin, url, map[string]any{"op": "removeField"}, "", 400, "bad_request"},
		{"unknown op", e.admin, url, bad(map[string]any{"op": "dropField", "fieldKey": "owner"}), "", 400, "bad_request"},
		{"no op", e.admin, url, bad(map[string]any{"fieldKey": "owner"}), "", 400, "bad_request"},
		{"unknown member", e.admin, url, bad(map[string]any{"op": "removeField", "fieldKey": "owner", "extra": 1}), "", 400, "bad_request"},
		{"unknown field", e.admin, url, bad(map[string]any{"op": "removeField", "fieldKey": "attr5"}), "", 400, "bad_request"},
		{"no fieldKey", e.admin, url, bad(map[string]any{"op": "removeField"}), "", 400, "bad_request"},
		{"addField no data", e.admin, url, bad(map[string]any{"op": "addField"}), "", 400, "bad_request"},
		{"addField duplicate", e.admin, url, bad(map[string]any{"op": "addField", "data": map[string]any{"type": "string", "key": "owner", "displayName": "O"}}), "", 400, "bad_request"},
		{"addField integer", e.admin, url, bad(map[string]any{"op": "addField", "data": map[string]any{"type": "integer", "key": "n", "displayName": "N"}}), "", 400, "bad_request"},
		{"reorder missing key", e.admin, url, bad(map[string]any{"op": "reorderFields", "fieldKeys": []string{"owner", "client"}}), "", 400, "bad_request"},
		{"reorder unknown key", e.admin, url, bad(map[string]any{"op": "reorderFields", "fieldKeys": []string{"owner", "client", "amount", "status", "nope"}}), "", 400, "bad_request"},
		{"reorder duplicate key", e.admin, url, bad(map[string]any{"op": "reorderFields", "fieldKeys": []string{"owner", "owner", "amount", "status", "regions"}}), "", 400, "bad_request"},
		{"enum op on string", e.admin, url, bad(map[string]any{"op": "addEnumOption", "fieldKey": "owner", "data": map[string]any{"key": "x"}}), "", 400, "bad_request"},
		{"multiSelect op on enum", e.admin, url, bad(map[string]any{"op": "addMultiSelectOption", "fieldKey": "status", "data": map[string]any{"key": "x"}}), "", 400, "bad_request"},
		{"duplicate option", e.admin, url, bad(map[string]any{"op": "addEnumOption", "fieldKey": "status", "data": map[string]any{"key": "active"}}), "", 400, "bad_request"},
		{"option without key", e.admin, url, bad(map[string]any{"op": "addEnumOption", "fieldKey": "status", "data": map[string]any{}}), "", 400, "bad_request"},
		{"unknown option", e.admin, url, bad(map[string]any{"op": "removeEnumOption", "fieldKey": "status", "enumOptionKey": "nope"}), "", 400, "bad_request"},
		{"no option key", e.admin, url, bad(map[string]any{"op": "editMultiSelectOption", "fieldKey": "regions", "data": map[string]any{"key": "x"}}), "", 400, "bad_request"},
		{"rename option onto another", e.admin, url, bad(map[string]any{"op": "editEnumOption", "fieldKey": "status", "enumOptionKey": "void", "data": map[string]any{"key": "active"}}), "", 400, "bad_request"},
		{"reorder options not a permutation", e.admin, url, bad(map[string]any{"op": "reorderEnumOptions", "fieldKey": "status", "enumOptionKeys": []string{"void"}}), "", 400, "bad_request"},
		{"rename field onto another", e.admin, url, bad(map[string]any{"op": "editField", "fieldKey": "owner", "data": map[string]any{"key": "client"}}), "", 400, "bad_request"},
		{"editField unknown data", e.admin, url, bad(map[string]any{"op": "editField", "fieldKey": "owner", "data": map[string]any{"type": "float"}}), "", 400, "bad_request"},
		{"editTemplate templateKey", e.admin, url, bad(map[string]any{"op": "editTemplate", "data": map[string]any{"templateKey": "other"}}), "", 400, "bad_request"},
		{"editTemplate blank name", e.admin, url, bad(map[string]any{"op": "editTemplate", "data": map[string]any{"displayName": ""}}), "", 400, "bad_request"},
	}
	before := mdSnapshot(e.s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := hdr{"Content-Type": "application/json-patch+json"}
			if c.ct != "" {
				h["Content-Type"] = c.ct
			}
			resp, m := e.doJSON("PUT", c.url, c.token, c.body, h)
			requireAPIError(t, resp, m, c.status, c.code)
		})
	}
	assert.Equal(t, before, mdSnapshot(e.s), "rejected requests changed state")

	// editTemplate cannot rename a template (nothing documents it): the
	// answer says so rather than naming an unknown member.
	resp, m = e.doJSON("PUT", url, e.admin, bad(map[string]any{"op": "editTemplate", "data": map[string]any{"templateKey": "renamed"}}), hdr{"Content-Type": "application/json-patch+json"})
	requireAPIError(t, resp, m, 400, "bad_request")
	assert.Contains(t, m["message"], "templateKey cannot be changed")
	assert.Equal(t, before, mdSnapshot(e.s))
}

func TestMetadataDeleteTemplate(t *testing.T) {
	t.Parallel()
	e := newMDEnv(t)
	e.createTemplate("contract", contractFields())
	url := e.api("/metadata_templates/enterprise/contract/schema")
	before := mdSnapshot(e.s)
	for _, c := range []struct {
		name, token, url string
		status           int
		code             string
	}{
		{"managed user", e.user, url, 403, "access_denied_insufficient_permissions"},
		{"app token", e.app, url, 403, "insufficient_scope"},
		{"global", e.admin, e.api("/metadata_templates/global/properties/schema"), 403, "access_denied_insufficient_permissions"},
		{"unknown", e.admin, e.api("/metadata_templates/enterprise/nope/schema"), 404, "not_found"},
		{"bad scope", e.admin, e.api("/metadata_templates/x/contract/schema"), 400, "bad_request"},
	} {
		resp, m := e.doJSON("DELETE", c.url, c.token, nil, nil)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	assert.Equal(t, before, mdSnapshot(e.s))

	resp, _ := e.do("DELETE", url, e.admin, nil, nil)
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	resp, m := e.doJSON("GET", url, e.admin, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, m = e.doJSON("GET", e.api("/metadata_templates/enterprise"), e.admin, nil, nil)
	require.Equal(t, 200, resp.StatusCode)
	assert.Empty(t, m["entries"])
	// The key is free again.
	e.createTemplate("contract", nil)
}

func TestTemplateKeyFrom(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Test Name (with-special_) Characters": "testNameWithspecialCharacters", // Box's guide
		"Product Info":                         "productInfo",
		"product_info":                         "productinfo",
		"Tab\tseparated":                       "tabSeparated",
		"a - b":                                "aB",
		"  Lead  space":                        "leadSpace",
		"ABC def":                              "aBCDef",
		"2024 Budget":                          "_2024Budget",
		"Über Größe":                           "berGre",
		"":                                     "",
		"already camelCase!":                   "alreadyCamelCase",
	} {
		assert.Equal(t, want, templateKeyFrom(in), in)
	}
}
