package refserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/metadata"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// renderQuery prints a parsed query back in the language, fully
// parenthesised, so that parsing it again must give the same tree.
func renderQuery(n *mdquery.Node) string {
	params := func() string {
		out := make([]string, len(n.Params))
		for i, p := range n.Params {
			out[i] = ":" + p
		}
		return "(" + strings.Join(out, ", ") + ")"
	}
	not := ""
	if n.Not {
		not = "NOT "
	}
	switch n.Kind {
	case "and", "or":
		parts := make([]string, len(n.Kids))
		for i, k := range n.Kids {
			parts[i] = groupExpr(k)
		}
		return strings.Join(parts, " "+strings.ToUpper(n.Kind)+" ")
	case "not":
		return "NOT " + groupExpr(n.Kids[0])
	case "cmp":
		return n.Field + " " + n.Op + " :" + n.Params[0]
	case "like":
		op := "LIKE"
		if n.Fold {
			op = "ILIKE"
		}
		return n.Field + " " + not + op + " :" + n.Params[0]
	case "in":
		return n.Field + " " + not + "IN " + params()
	case "has":
		op := "HASANY"
		if n.All {
			op = "HASALL"
		}
		return n.Field + " " + op + " " + params()
	case "null":
		return n.Field + " IS " + not + "NULL"
	}
	return "?"
}

// groupExpr renders a sub-expression, in parentheses when it is AND or OR.
func groupExpr(n *mdquery.Node) string {
	if n.Kind == "and" || n.Kind == "or" {
		return "(" + renderQuery(n) + ")"
	}
	return renderQuery(n)
}

// fuzzInstances are instances of the contract template to evaluate
// fuzzed queries against.
func fuzzTemplate() (*state.MDTemplate, []*state.MDInstance) {
	t := &state.MDTemplate{Key: "contract", Scope: "enterprise_1"}
	for _, fb := range contractFields() {
		b, _ := json.Marshal(fb)
		var body metadata.FieldBody
		_ = json.Unmarshal(b, &body)
		f, _ := metadata.NewField(body)
		t.Fields = append(t.Fields, f)
	}
	it := &state.Item{Typ: "file", ID: "1", Name: "a.pdf", Owner: &state.User{ID: "2"}}
	full, _ := metadata.TemplateValues(t, map[string]any{"customer": "Acme", "amount": json.Number("5"), "status": "active",
		"regions": []any{"emea"}, "signed": "2025-01-01T00:00:00Z"})
	return t, []*state.MDInstance{
		{Item: it, Tmpl: t, Values: state.NewMDValues(full)},
		{Item: it, Tmpl: t, Values: state.MDValues{}},
	}
}

func FuzzMetadataQueryParse(f *testing.F) {
	for _, s := range []string{
		"amount >= :a AND customer = :s", "NOT (status IN (:s, :t)) OR regions HASALL (:s)",
		"customer NOT ILIKE :p", "signed IS NOT NULL", "item.name LIKE :p", "((amount < :a))",
		"amount >", "a = 'x'", "x ~ :y", "NOT NOT NOT amount <> :a", "amount != :a or", ":a = amount",
	} {
		f.Add(s, "A%b_\\%")
	}
	st := state.New(&state.Env{EnterpriseID: "1"})
	tmpl, instances := fuzzTemplate()
	f.Fuzz(func(t *testing.T, query, param string) {
		n, err := mdquery.Parse(query)
		if err != nil {
			if err.Msg == "" {
				t.Fatalf("error without message for %q", query)
			}
			return
		}
		if n == nil {
			if strings.TrimSpace(query) != "" {
				t.Fatalf("non-empty query %q parsed to nothing", query)
			}
			return
		}
		again, err := mdquery.Parse(renderQuery(n))
		if err != nil && strings.Contains(err.Msg, "nests deeper") {
			return // the rendering adds parentheses the query did not need
		}
		if err != nil || !reflect.DeepEqual(n, again) {
			t.Fatalf("round trip of %q via %q: %v", query, renderQuery(n), err)
		}
		params := map[string]any{}
		var collect func(*mdquery.Node)
		collect = func(n *mdquery.Node) {
			for _, p := range n.Params {
				params[p] = param
			}
			for _, k := range n.Kids {
				collect(k)
			}
		}
		collect(n)
		tx, end := beginTx(st)
		defer end()
		pred, aerr := metadata.CompileQuery(tx, n, tmpl, params)
		if aerr != nil {
			if aerr.Code != metadata.CodeInvalidQuery && aerr.Code != metadata.CodeUnexpectedJSONType {
				t.Fatalf("compile %q: code %s", query, aerr.Code)
			}
			return
		}
		for _, in := range instances {
			if r := pred(in); r > metadata.TriNull {
				t.Fatalf("bad truth value %d", r)
			}
		}
	})
}

func FuzzMetadataPatchDecode(f *testing.F) {
	for _, s := range []string{
		`[{"op":"add","path":"/customer","value":"x"}]`,
		`[{"op":"test","path":"/amount","value":5},{"op":"remove","path":"/amount"}]`,
		`[{"op":"move","from":"/customer","path":"/a~1b"}]`,
		`[{"op":"copy","from":"/regions","path":"/regions"}]`,
		`[{"op":"add","path":"/regions/-","value":"apac"}]`,
		`[{"op":"replace","path":"/$id","value":"x"}]`,
		`{"op":"add"}`, `[]`, `null`, `[{"op":"add","path":"/x","value":{"a":1}}]`,
	} {
		f.Add([]byte(s))
	}
	_, instances := fuzzTemplate()
	f.Fuzz(func(t *testing.T, b []byte) {
		patch, aerr := decodeInstancePatch(b)
		if aerr != nil {
			if aerr.Status != 400 || aerr.Code != wire.CodeBadRequest {
				t.Fatalf("decode error %d %s", aerr.Status, aerr.Code)
			}
			return
		}
		for _, op := range patch {
			path, err := op.Path()
			if err != nil || !strings.HasPrefix(path, "/") || strings.HasPrefix(path, "/$") {
				t.Fatalf("accepted path %q (%v)", path, err)
			}
		}
		for _, in := range instances {
			values, err := metadata.ApplyInstancePatch(in, patch)
			if err != nil {
				me, ok := err.(*metadata.MDError)
				if !ok || me.Code != metadata.CodeFailedJSONPatch && me.Code != metadata.CodeSchemaValidationFailed {
					t.Fatalf("apply: %v", err)
				}
				continue
			}
			for k := range values {
				if _, f := in.Tmpl.Field(k); f == nil {
					t.Fatalf("patched in unknown key %q", k)
				}
			}
		}
	})
}

// fuzzMDServer is an in-process server with the contract template applied
// to one file, for fuzzing the metadata endpoints over the wire.
type fuzzMDServer struct {
	s    *Server
	h    http.Handler
	file string
}

func newFuzzMDServer(f *testing.F) *fuzzMDServer {
	f.Helper()
	s, err := New(Options{AdminToken: "adm", UserToken: "usr", AppToken: "app"})
	if err != nil {
		f.Fatal(err)
	}
	z := &fuzzMDServer{s: s, h: s.Handler()}
	body, ct := multipartBody(f, `{"name":"c.pdf","parent":{"id":"0"}}`, []byte("c"))
	rec := z.send(http.MethodPost, "http://"+state.InProcessUploadHost+state.UploadRoot+"/files/content", "usr", ct, body)
	var files struct{ Entries []struct{ ID string } }
	if rec.Code != http.StatusCreated || json.Unmarshal(rec.Body.Bytes(), &files) != nil || len(files.Entries) != 1 {
		f.Fatalf("upload: %d %s", rec.Code, rec.Body)
	}
	z.file = files.Entries[0].ID
	if err := z.reset(); err != nil {
		f.Fatal(err)
	}
	return z
}

func (z *fuzzMDServer) send(method, url, token, ct string, body io.Reader) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, url, body)
	req.Header.Set("Authorization", "Bearer "+token)
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	rec := httptest.NewRecorder()
	z.h.ServeHTTP(rec, req)
	return rec
}

func (z *fuzzMDServer) api(path string) string {
	return "http://" + state.InProcessAPIHost + state.APIRoot + path
}

// reset (re)creates the contract template and its instance on the file.
func (z *fuzzMDServer) reset() error {
	z.send(http.MethodDelete, z.api("/metadata_templates/enterprise/contract/schema"), "adm", "", nil)
	tmpl, _ := json.Marshal(map[string]any{"scope": "enterprise", "templateKey": "contract", "displayName": "Contract", "fields": contractFields()})
	if rec := z.send(http.MethodPost, z.api("/metadata_templates/schema"), "adm", "application/json", bytes.NewReader(tmpl)); rec.Code != http.StatusCreated {
		return fmt.Errorf("create template: %d %s", rec.Code, rec.Body)
	}
	values := `{"customer":"Acme","amount":5,"status":"active","regions":["emea","apac"],"signed":"2025-01-01T00:00:00Z"}`
	if rec := z.send(http.MethodPost, z.api("/files/"+z.file+"/metadata/enterprise/contract"), "usr", "application/json", strings.NewReader(values)); rec.Code != http.StatusCreated {
		return fmt.Errorf("create instance: %d %s", rec.Code, rec.Body)
	}
	return nil
}

// FuzzSchemaUpdate feeds untrusted bodies of PUT
// /metadata_templates/{scope}/{key}/schema to decodeSchemaOps and
// schemaDraft.apply, and over the wire: no panic, a refusal is 400
// bad_request, the draft never touches the template it was cloned from,
// an accepted draft keeps keys unique, no answer is 5xx, and a refused
// update leaves the state as it was.
func FuzzSchemaUpdate(f *testing.F) {
	for _, s := range []string{
		`[{"op":"editTemplate","data":{"displayName":"C","hidden":true,"copyInstanceOnItemCopy":false}}]`,
		`[{"op":"addField","data":{"type":"enum","key":"k","displayName":"K","options":[{"key":"a"},{"key":"a"}]}}]`,
		`[{"op":"editField","fieldKey":"customer","data":{"key":"amount"}}]`,
		`[{"op":"editField","fieldKey":"customer","data":{"key":"client","description":null}}]`,
		`[{"op":"reorderFields","fieldKeys":["regions","status","signed","amount","customer"]}]`,
		`[{"op":"removeField","fieldKey":"status"},{"op":"addEnumOption","fieldKey":"status","data":{"key":"x"}}]`,
		`[{"op":"editEnumOption","fieldKey":"status","enumOptionKey":"draft","data":{"key":"active"}}]`,
		`[{"op":"removeMultiSelectOption","fieldKey":"regions","multiSelectOptionKey":"apac"}]`,
		`[{"op":"reorderMultiSelectOptions","fieldKey":"regions","multiSelectOptionKeys":["amer","apac","emea"]}]`,
		`[{"op":"editTemplate","data":{"templateKey":"other"}}]`, `[{"op":"editTemplate","data":null}]`,
		`[]`, `{}`, `null`, `[null]`, `[{"op":"nope"}]`, `[{"op":"editTemplate"}]`,
	} {
		f.Add([]byte(s))
	}
	tmpl, _ := fuzzTemplate()
	z := newFuzzMDServer(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		if ops, aerr := decodeSchemaOps(bytes.NewReader(b)); aerr != nil {
			if aerr.Status != http.StatusBadRequest || aerr.Code != wire.CodeBadRequest {
				t.Fatalf("decode: %d %s", aerr.Status, aerr.Code)
			}
		} else {
			orig, _ := json.Marshal(tmpl.Record())
			d := &metadata.SchemaDraft{DisplayName: tmpl.DisplayName, Fields: metadata.CloneFields(tmpl.Fields)}
			failed := false
			for _, op := range ops {
				if aerr := d.Apply(op); aerr != nil {
					if aerr.Status != http.StatusBadRequest || aerr.Code != wire.CodeBadRequest {
						t.Fatalf("apply: %d %s", aerr.Status, aerr.Code)
					}
					failed = true
					break
				}
			}
			if now, _ := json.Marshal(tmpl.Record()); !bytes.Equal(orig, now) {
				t.Fatal("the draft changed the template it was cloned from")
			}
			if !failed {
				checkDraft(t, d)
			}
		}

		before := mdSnapshot(z.s)
		rec := z.send(http.MethodPut, z.api("/metadata_templates/enterprise/contract/schema"), "adm", state.ContentTypeJSONPatch, bytes.NewReader(b))
		switch {
		case rec.Code >= 500:
			t.Fatalf("%d %s", rec.Code, rec.Body)
		case rec.Code == http.StatusOK:
			if err := z.reset(); err != nil {
				t.Fatal(err)
			}
		case mdSnapshot(z.s) != before:
			t.Fatalf("refused with %d, yet the state changed", rec.Code)
		}
	})
}

// checkDraft checks the invariants of an accepted schema: unique field
// keys, unique option keys, options only on enum and multiSelect fields.
func checkDraft(t *testing.T, d *metadata.SchemaDraft) {
	t.Helper()
	keys := map[string]bool{}
	for _, fd := range d.Fields {
		if keys[fd.Key] {
			t.Fatalf("duplicate field key %q", fd.Key)
		}
		keys[fd.Key] = true
		if len(fd.Options) > 0 && !fd.HasOptions() {
			t.Fatalf("options on a %s field", fd.Typ)
		}
		opts := map[string]bool{}
		for _, o := range fd.Options {
			if opts[o.Key] {
				t.Fatalf("duplicate option %q on %q", o.Key, fd.Key)
			}
			opts[o.Key] = true
		}
	}
}

// FuzzQueryMarker feeds untrusted next_marker values (base64 JSON from the
// client) to decodeQueryMarker and to the query endpoint: no panic, a
// refusal is 400 bad_request or invalid_query, an accepted marker encodes
// back to a marker that decodes the same, and the endpoint answers 200 or
// 400, never 5xx.
func FuzzQueryMarker(f *testing.F) {
	hash := bodyHash([]byte(`{"from":"x"}`))
	pos := state.Position{Vals: []state.MDVal{{Kind: state.ValNumber, S: "5", F: 5}, {}}, Oks: []bool{true, false}, Seq: 7}
	for _, s := range []string{
		metadata.EncodeQueryMarker(hash, pos), metadata.EncodeQueryMarker(hash, state.Position{Seq: -1}), metadata.EncodeQueryMarker("other", pos),
		"", "!!", "e30", "eyJoIjoieCJ9", "bnVsbA", "W10",
		base64.RawURLEncoding.EncodeToString([]byte(`{"h":"` + hash + `","v":[{"k":9,"l":[]}],"q":99999999999}`)),
	} {
		f.Add(s)
	}
	z := newFuzzMDServer(f)
	from := "enterprise_" + z.s.EnterpriseID() + ".contract"
	f.Fuzz(func(t *testing.T, marker string) {
		for keys := range 3 {
			p, aerr := metadata.DecodeQueryMarker(marker, hash, keys)
			if aerr != nil {
				if aerr.Status != http.StatusBadRequest || aerr.Code != wire.CodeBadRequest && aerr.Code != metadata.CodeInvalidQuery {
					t.Fatalf("decode: %d %s", aerr.Status, aerr.Code)
				}
				continue
			}
			if len(p.Vals) != keys || len(p.Oks) != keys {
				t.Fatalf("a marker of %d keys decoded to %d", keys, len(p.Vals))
			}
			once := metadata.EncodeQueryMarker(hash, *p)
			q, aerr := metadata.DecodeQueryMarker(once, hash, keys)
			if aerr != nil {
				t.Fatalf("re-encoded marker refused: %v", aerr)
			}
			if twice := metadata.EncodeQueryMarker(hash, *q); twice != once {
				t.Fatalf("marker round trip: %s then %s", once, twice)
			}
		}
		for _, order := range []string{``, `,"order_by":[{"field_key":"amount","direction":"DESC"}]`, `,"order_by":[{"field_key":"customer"},{"field_key":"signed"}]`} {
			m, _ := json.Marshal(marker)
			body := `{"from":"` + from + `","ancestor_folder_id":"0","limit":1,"marker":` + string(m) + order + `}`
			rec := z.send(http.MethodPost, z.api("/metadata_queries/execute_read"), "usr", "application/json", strings.NewReader(body))
			if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest {
				t.Fatalf("%s: %d %s", body, rec.Code, rec.Body)
			}
		}
	})
}
