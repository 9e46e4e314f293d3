package metadata

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// world is a state in memory with the enterprise template "contract"
// (customer string, amount float, signed date, status enum draft|final,
// regions multiSelect eu|us) and a folder of the managed user's holding
// files a, b and c.
type world struct {
	t       *testing.T
	st      *state.State
	user    *state.Principal
	scope   string
	folder  *state.Item
	a, b, c *state.Item
}

const contractFields = `[
	{"type":"string","key":"customer","displayName":"Customer"},
	{"type":"float","key":"amount","displayName":"Amount"},
	{"type":"date","key":"signed","displayName":"Signed"},
	{"type":"enum","key":"status","displayName":"Status","options":[{"key":"draft"},{"key":"final"}]},
	{"type":"multiSelect","key":"regions","displayName":"Regions","options":[{"key":"eu"},{"key":"us"}]}
]`

func newWorld(t *testing.T) *world {
	t.Helper()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	st, err := state.NewMemory(&state.Env{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, st: st}
	st.Update(func(tx *state.Tx) {
		w.user = tx.Principals[tx.Cfg.UserToken]
		w.scope = tx.EnterpriseScope()
		item := func(typ, name, parent string) *state.Item {
			u := tx.User
			it := &state.Item{Typ: typ, ID: tx.NewID(), Name: name, ParentID: parent, Owner: u, CreatedBy: u, ModBy: u, CreatedAt: now, ModifiedAt: now}
			if typ == "file" {
				it.Versions = []*state.Version{state.NewVersion(tx.NewID(), blob.RefOf(blob.Info{ID: "b" + it.ID, Size: 1}), now, u)}
			}
			tx.AddItem(it)
			return it
		}
		w.folder = item("folder", "deals", state.RootID)
		w.a, w.b, w.c = item("file", "a.pdf", w.folder.ID), item("file", "b.pdf", w.folder.ID), item("file", "c.pdf", w.folder.ID)
		var bodies []FieldBody
		if err := json.Unmarshal([]byte(contractFields), &bodies); err != nil {
			t.Fatal(err)
		}
		tmpl := &state.MDTemplate{Scope: w.scope, Key: "contract", DisplayName: "Contract"}
		for _, b := range bodies {
			f, aerr := NewField(b)
			if aerr != nil {
				t.Fatal(aerr)
			}
			tmpl.Fields = append(tmpl.Fields, f)
		}
		if _, aerr := CreateTemplate(tx, tmpl, false); aerr != nil {
			t.Fatal(aerr)
		}
	})
	return w
}

// path is the instance path of tmpl on file it, for a change.
func (w *world) path(it *state.Item, scope, key string) InstancePath {
	return InstancePath{Typ: "file", ItemID: it.ID, Scope: scope, Key: key, Edit: true}
}

// object decodes a JSON object as a request body is decoded.
func object(t *testing.T, s string) map[string]any {
	t.Helper()
	m, err := DecodeObject([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return m
}

// statusCode is the status and code of a failure of this package's
// functions: a *wire.Error or an *MDError; 0 and "" for none.
func statusCode(err error) (int, string) {
	switch e := err.(type) {
	case nil:
		return 0, ""
	case *wire.Error:
		if e == nil {
			return 0, ""
		}
		return e.Status, e.Code
	case *MDError:
		if e == nil {
			return 0, ""
		}
		return e.Status, e.Code
	}
	return -1, err.Error()
}

func werr(aerr *wire.Error) error {
	if aerr == nil {
		return nil
	}
	return aerr
}

// TestNewField: the field rules of a template body and of addField.
func TestNewField(t *testing.T) {
	for _, c := range []struct {
		name, body string
		status     int
	}{
		{"string", `{"type":"string","key":"k","displayName":"K"}`, 0},
		{"enum with options", `{"type":"enum","key":"k","displayName":"K","options":[{"key":"x"},{"key":"y"}]}`, 0},
		{"missing displayName", `{"type":"string","key":"k"}`, 400},
		{"integer is not creatable", `{"type":"integer","key":"k","displayName":"K"}`, 400},
		{"taxonomy is not creatable", `{"type":"taxonomy","key":"k","displayName":"K"}`, 400},
		{"unknown type", `{"type":"blob","key":"k","displayName":"K"}`, 400},
		{"key with $", `{"type":"string","key":"$k","displayName":"K"}`, 400},
		{"empty key", `{"type":"string","key":"","displayName":"K"}`, 400},
		{"blank displayName", `{"type":"string","key":"k","displayName":"  "}`, 400},
		{"options on a string", `{"type":"string","key":"k","displayName":"K","options":[{"key":"x"}]}`, 400},
		{"duplicate option", `{"type":"multiSelect","key":"k","displayName":"K","options":[{"key":"x"},{"key":"x"}]}`, 400},
		{"option without key", `{"type":"enum","key":"k","displayName":"K","options":[{}]}`, 400},
		{"taxonomy property on a string", `{"type":"string","key":"k","displayName":"K","namespace":"n"}`, 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b FieldBody
			if err := json.Unmarshal([]byte(c.body), &b); err != nil {
				t.Fatal(err)
			}
			f, aerr := NewField(b)
			if got, _ := statusCode(werr(aerr)); got != c.status {
				t.Fatalf("NewField(%s) = %v; want status %d", c.body, aerr, c.status)
			}
			if aerr == nil && (f.ID == "" || f.Key != "k") {
				t.Fatalf("field %+v", f)
			}
		})
	}
}

// TestUpdateTemplateSchema: each operation list applies in full or not at
// all; a rename or removal follows into the instances' values.
func TestUpdateTemplateSchema(t *testing.T) {
	for _, c := range []struct {
		name   string
		ops    string
		status int
		check  func(t *testing.T, tmpl *state.MDTemplate, in *state.MDInstance)
	}{
		{"add a field", `[{"op":"addField","data":{"type":"string","key":"owner","displayName":"Owner"}}]`, 0,
			func(t *testing.T, tmpl *state.MDTemplate, _ *state.MDInstance) {
				if _, f := tmpl.Field("owner"); f == nil {
					t.Error("the field was not added")
				}
			}},
		{"duplicate field key", `[{"op":"addField","data":{"type":"string","key":"amount","displayName":"A"}}]`, 400, nil},
		{"second op fails: none applies", `[{"op":"editTemplate","data":{"displayName":"Renamed"}},{"op":"removeField","fieldKey":"nope"}]`, 400,
			func(t *testing.T, tmpl *state.MDTemplate, _ *state.MDInstance) {
				if tmpl.DisplayName != "Contract" {
					t.Errorf("displayName %q after a failed update", tmpl.DisplayName)
				}
			}},
		{"templateKey is kept", `[{"op":"editTemplate","data":{"templateKey":"other"}}]`, 400, nil},
		{"null in data", `[{"op":"editTemplate","data":{"displayName":null}}]`, 400, nil},
		{"unknown op", `[{"op":"shuffle"}]`, 400, nil},
		{"remove a field", `[{"op":"removeField","fieldKey":"customer"}]`, 0,
			func(t *testing.T, _ *state.MDTemplate, in *state.MDInstance) {
				if _, ok := in.Values.Get("customer"); ok {
					t.Error("the removed field's value stayed on the instance")
				}
			}},
		{"rename a field", `[{"op":"editField","fieldKey":"customer","data":{"key":"client"}}]`, 0,
			func(t *testing.T, _ *state.MDTemplate, in *state.MDInstance) {
				if in.Values.Map()["client"].S != "Acme" {
					t.Errorf("values after the rename: %+v", in.Values)
				}
			}},
		{"rename an enum option", `[{"op":"editEnumOption","fieldKey":"status","enumOptionKey":"draft","data":{"key":"open"}}]`, 0,
			func(t *testing.T, _ *state.MDTemplate, in *state.MDInstance) {
				if in.Values.Map()["status"].S != "open" {
					t.Errorf("status after the rename: %+v", in.Values.Map()["status"])
				}
			}},
		{"reorder with a missing key", `[{"op":"reorderFields","fieldKeys":["amount"]}]`, 400, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.st.Update(func(tx *state.Tx) {
				in, err := CreateInstance(tx, w.path(w.a, w.scope, "contract"), w.user, object(t, `{"customer":"Acme","status":"draft"}`))
				if err != nil {
					t.Fatal(err)
				}
				var ops []SchemaOp
				if err := json.Unmarshal([]byte(c.ops), &ops); err != nil {
					t.Fatal(err)
				}
				tmpl := tx.Template(w.scope, "contract")
				version := tmpl.Version
				_, aerr := UpdateTemplate(tx, w.scope, "contract", ops)
				if got, _ := statusCode(werr(aerr)); got != c.status {
					t.Fatalf("UpdateTemplate(%s) = %v; want status %d", c.ops, aerr, c.status)
				}
				if aerr != nil && tmpl.Version != version {
					t.Error("a failed update changed the template's version")
				}
				if c.check != nil {
					c.check(t, tmpl, in)
				}
			})
		})
	}
	t.Run("global templates are not changed", func(t *testing.T) {
		w := newWorld(t)
		w.st.Update(func(tx *state.Tx) {
			_, aerr := UpdateTemplate(tx, state.ScopeGlobal, state.GlobalPropertiesKey, nil)
			if got, _ := statusCode(werr(aerr)); got != 403 {
				t.Fatalf("got %v, want 403", aerr)
			}
		})
	})
}

// TestCreateInstanceValues: values are checked against the fields' types;
// one instance of a template per item.
func TestCreateInstanceValues(t *testing.T) {
	for _, c := range []struct {
		name, values string
		status       int
		code         string
	}{
		{"typed values", `{"customer":"Acme","amount":12.5,"signed":"2025-01-02T03:04:05Z","status":"final","regions":["eu","us"]}`, 0, ""},
		{"null is no value", `{"customer":null}`, 0, ""},
		{"number as string", `{"amount":"12"}`, 400, CodeSchemaValidationFailed},
		{"date not RFC 3339", `{"signed":"yesterday"}`, 400, CodeSchemaValidationFailed},
		{"unknown enum option", `{"status":"lost"}`, 400, CodeSchemaValidationFailed},
		{"unknown multiSelect option", `{"regions":["eu","mars"]}`, 400, CodeSchemaValidationFailed},
		{"multiSelect not a list", `{"regions":"eu"}`, 400, CodeSchemaValidationFailed},
		{"unknown key", `{"colour":"red"}`, 400, CodeSchemaValidationFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.st.Update(func(tx *state.Tx) {
				in, err := CreateInstance(tx, w.path(w.a, w.scope, "contract"), w.user, object(t, c.values))
				if status, code := statusCode(err); status != c.status || code != c.code {
					t.Fatalf("got %v; want %d %s", err, c.status, c.code)
				}
				if err == nil && tx.Template(w.scope, "contract").Instances[w.a.ID] != in {
					t.Fatal("the instance is not the template's for the item")
				}
				if err != nil && tx.Template(w.scope, "contract").Instances[w.a.ID] != nil {
					t.Fatal("a refused instance was added")
				}
			})
		})
	}
	t.Run("rules of the item and the template", func(t *testing.T) {
		w := newWorld(t)
		w.st.Update(func(tx *state.Tx) {
			if _, err := CreateInstance(tx, w.path(w.a, w.scope, "contract"), w.user, nil); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				name   string
				ip     InstancePath
				p      *state.Principal
				status int
				code   string
			}{
				{"second instance", w.path(w.a, w.scope, "contract"), w.user, 409, "tuple_already_exists"},
				{"unknown template", w.path(w.b, w.scope, "nope"), w.user, 404, "instance_tuple_not_found"},
				{"root folder", InstancePath{Typ: "folder", ItemID: state.RootID, Scope: w.scope, Key: "contract", Edit: true}, w.user, 405, wire.CodeMethodNotAllowed},
				{"unknown file", InstancePath{Typ: "file", ItemID: "999", Scope: w.scope, Key: "contract", Edit: true}, w.user, 404, wire.CodeNotFound},
			} {
				_, err := CreateInstance(tx, c.ip, c.p, nil)
				if status, code := statusCode(err); status != c.status || code != c.code {
					t.Errorf("%s: got %v; want %d %s", c.name, err, c.status, c.code)
				}
			}
		})
	})
	t.Run("global.properties takes string values under free keys", func(t *testing.T) {
		w := newWorld(t)
		w.st.Update(func(tx *state.Tx) {
			ip := w.path(w.b, state.ScopeGlobal, state.GlobalPropertiesKey)
			if _, err := CreateInstance(tx, ip, w.user, object(t, `{"anything":"goes"}`)); err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{`{"n":1}`, `{"$k":"v"}`} {
				_, err := CreateInstance(tx, w.path(w.c, state.ScopeGlobal, state.GlobalPropertiesKey), w.user, object(t, bad))
				if status, code := statusCode(err); status != 400 || code != CodeSchemaValidationFailed {
					t.Errorf("%s: got %v; want 400 %s", bad, err, CodeSchemaValidationFailed)
				}
			}
		})
	})
}

// TestApplyInstancePatch: a JSON Patch applies to a copy of the values;
// a failed test or path is 409 failed_json_patch_application, a result
// the template refuses 400 schema_validation_failed, and the instance
// keeps its values either way.
func TestApplyInstancePatch(t *testing.T) {
	for _, c := range []struct {
		name, patch string
		status      int
		code        string
		want        map[string]any
	}{
		{"replace", `[{"op":"replace","path":"/amount","value":20}]`, 0, "", map[string]any{"customer": "Acme", "amount": 20.0}},
		{"test then add", `[{"op":"test","path":"/customer","value":"Acme"},{"op":"add","path":"/status","value":"final"}]`, 0, "",
			map[string]any{"customer": "Acme", "amount": 10.0, "status": "final"}},
		{"remove", `[{"op":"remove","path":"/amount"}]`, 0, "", map[string]any{"customer": "Acme"}},
		{"failed test", `[{"op":"test","path":"/customer","value":"Other"}]`, 409, CodeFailedJSONPatch, nil},
		{"remove a missing value", `[{"op":"remove","path":"/signed"}]`, 409, CodeFailedJSONPatch, nil},
		{"replace the whole document", `[{"op":"replace","path":"","value":[1]}]`, 409, CodeFailedJSONPatch, nil},
		{"value of the wrong type", `[{"op":"replace","path":"/amount","value":"twenty"}]`, 400, CodeSchemaValidationFailed, nil},
		{"unknown field", `[{"op":"add","path":"/colour","value":"red"}]`, 400, CodeSchemaValidationFailed, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.st.Update(func(tx *state.Tx) {
				in, err := CreateInstance(tx, w.path(w.a, w.scope, "contract"), w.user, object(t, `{"customer":"Acme","amount":10}`))
				if err != nil {
					t.Fatal(err)
				}
				patch, err := jsonpatch.DecodePatch([]byte(c.patch))
				if err != nil {
					t.Fatal(err)
				}
				values, err := ApplyInstancePatch(in, patch)
				if status, code := statusCode(err); status != c.status || code != c.code {
					t.Fatalf("got %v; want %d %s", err, c.status, c.code)
				}
				if in.Values.Map()["customer"].S != "Acme" || in.Values.Map()["amount"].F != 10 || in.Values.Len() != 2 {
					t.Fatalf("the instance changed: %+v", in.Values)
				}
				if c.want == nil {
					return
				}
				got := map[string]any{}
				for k, v := range values {
					switch v.Kind {
					case state.ValString:
						got[k] = v.S
					default:
						got[k] = v.F
					}
				}
				if len(got) != len(c.want) {
					t.Fatalf("values %v, want %v", got, c.want)
				}
				for k, v := range c.want {
					if got[k] != v {
						t.Fatalf("values %v, want %v", got, c.want)
					}
				}
			})
		})
	}
}

// TestScopes: the scopes a path names, the scope a template is created
// in (the enterprise's), and the from of a query (the full enterprise
// scope only).
func TestScopes(t *testing.T) {
	w := newWorld(t)
	env := w.st.Env
	for _, c := range []struct{ scope, want string }{
		{"global", state.ScopeGlobal},
		{"enterprise", w.scope},
		{w.scope, w.scope},
		{"enterprise_42", "other"},
		{"enterprise_x", ""},
		{"team", ""},
	} {
		if got := env.ScopeKind(c.scope); got != c.want {
			t.Errorf("ScopeKind(%q) = %q, want %q", c.scope, got, c.want)
		}
	}
	for _, c := range []struct {
		scope  string
		status int
	}{
		{"enterprise", 0}, {w.scope, 0}, {"global", 403}, {"enterprise_42", 400}, {"team", 400},
	} {
		got, aerr := CreationScope(env, c.scope)
		if st, _ := statusCode(werr(aerr)); st != c.status || aerr == nil && got != w.scope {
			t.Errorf("CreationScope(%q) = %q, %v; want status %d", c.scope, got, aerr, c.status)
		}
	}
	for _, c := range []struct {
		from   string
		status int
	}{
		{w.scope + ".contract", 0},
		{"enterprise.contract", 400},
		{"global.properties", 400},
		{w.scope, 400},
		{w.scope + ".", 400},
		{"team.contract", 400},
	} {
		scope, key, aerr := ParseFrom(env, c.from)
		if got, code := statusCode(werr(aerr)); got != c.status || aerr != nil && code != CodeInvalidQuery {
			t.Errorf("ParseFrom(%q) = %v; want status %d %s", c.from, aerr, c.status, CodeInvalidQuery)
		}
		if aerr == nil && (scope != w.scope || key != "contract") {
			t.Errorf("ParseFrom(%q) = %q, %q", c.from, scope, key)
		}
	}
}

// TestQueryFilters runs the query engine's filters on three instances:
// a (Acme, 100, final, eu), b (Beta, 50, draft, eu+us), c (acme ltd, no
// amount, no status, us).
func TestQueryFilters(t *testing.T) {
	w := newWorld(t)
	w.st.Update(func(tx *state.Tx) {
		for it, v := range map[*state.Item]string{
			w.a: `{"customer":"Acme","amount":100,"status":"final","regions":["eu"],"signed":"2025-01-10T00:00:00Z"}`,
			w.b: `{"customer":"Beta","amount":50,"status":"draft","regions":["eu","us"],"signed":"2025-02-10T00:00:00Z"}`,
			w.c: `{"customer":"acme ltd","regions":["us"]}`,
		} {
			if _, err := CreateInstance(tx, w.path(it, w.scope, "contract"), w.user, object(t, v)); err != nil {
				t.Fatal(err)
			}
		}
	})
	names := map[string]string{w.a.ID: "a", w.b.ID: "b", w.c.ID: "c"}
	for _, c := range []struct {
		query  string
		params string
		want   []string
		status int
	}{
		{"", `{}`, []string{"a", "b", "c"}, 0},
		{"amount >= :n", `{"n":60}`, []string{"a"}, 0},
		{"amount < :n", `{"n":60}`, []string{"b"}, 0},
		{"status = :s", `{"s":"draft"}`, []string{"b"}, 0},
		{"status IN (:s, :t)", `{"s":"draft","t":"final"}`, []string{"a", "b"}, 0},
		{"regions HASANY (:r)", `{"r":"us"}`, []string{"b", "c"}, 0},
		{"regions HASALL (:r, :s)", `{"r":"us","s":"eu"}`, []string{"b"}, 0},
		{"customer ILIKE :p", `{"p":"acme%"}`, []string{"a", "c"}, 0},
		{"customer LIKE :p", `{"p":"acme%"}`, []string{"c"}, 0},
		{"amount IS NULL", `{}`, []string{"c"}, 0},
		{"NOT (status = :s)", `{"s":"draft"}`, []string{"a"}, 0}, // c has no status: unknown, and NOT unknown is unknown
		{"status <> :s", `{"s":"draft"}`, []string{"a"}, 0},
		{"amount > :n OR regions HASANY (:r)", `{"n":75,"r":"us"}`, []string{"a", "b", "c"}, 0},
		{"signed > :d", `{"d":"2025-02-01T00:00:00Z"}`, []string{"b"}, 0},
		{"amount > :missing", `{}`, nil, 400},
		{"nofield = :s", `{"s":"x"}`, nil, 400},
		{"amount = :s", `{"s":"text"}`, nil, 400},
	} {
		t.Run(c.query, func(t *testing.T) {
			tree, perr := mdquery.Parse(c.query)
			if perr != nil {
				t.Fatalf("parse: %v", perr)
			}
			params := map[string]any{}
			dec := json.NewDecoder(bytesReader(c.params))
			dec.UseNumber()
			if err := dec.Decode(&params); err != nil {
				t.Fatal(err)
			}
			from, ancestor := w.scope+".contract", w.folder.ID
			body := QueryBody{From: &from, AncestorFolderID: &ancestor}
			w.st.Update(func(tx *state.Tx) {
				reply, aerr := ExecuteMetadataQuery(tx, w.scope, "contract", body, tree, params, w.user, "h", 100)
				if got, _ := statusCode(werr(aerr)); got != c.status {
					t.Fatalf("got %v; want status %d", aerr, c.status)
				}
				if aerr != nil {
					return
				}
				var got []string
				for _, e := range reply.Body.(map[string]any)["entries"].([]any) {
					got = append(got, names[e.(map[string]any)["id"].(string)])
				}
				slices.Sort(got)
				if !slices.Equal(got, c.want) {
					t.Fatalf("results %v, want %v", got, c.want)
				}
			})
		})
	}
}

func bytesReader(s string) *strings.Reader { return strings.NewReader(s) }
