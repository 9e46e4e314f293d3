package refserver

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// renderQuery prints a parsed query back in the language, fully
// parenthesised, so that parsing it again must give the same tree.
func renderQuery(n *qNode) string {
	params := func() string {
		out := make([]string, len(n.params))
		for i, p := range n.params {
			out[i] = ":" + p
		}
		return "(" + strings.Join(out, ", ") + ")"
	}
	not := ""
	if n.not {
		not = "NOT "
	}
	switch n.kind {
	case "and", "or":
		parts := make([]string, len(n.kids))
		for i, k := range n.kids {
			parts[i] = groupExpr(k)
		}
		return strings.Join(parts, " "+strings.ToUpper(n.kind)+" ")
	case "not":
		return "NOT " + groupExpr(n.kids[0])
	case "cmp":
		return n.field + " " + n.op + " :" + n.params[0]
	case "like":
		op := "LIKE"
		if n.fold {
			op = "ILIKE"
		}
		return n.field + " " + not + op + " :" + n.params[0]
	case "in":
		return n.field + " " + not + "IN " + params()
	case "has":
		op := "HASANY"
		if n.all {
			op = "HASALL"
		}
		return n.field + " " + op + " " + params()
	case "null":
		return n.field + " IS " + not + "NULL"
	}
	return "?"
}

// groupExpr renders a sub-expression, in parentheses when it is AND or OR.
func groupExpr(n *qNode) string {
	if n.kind == "and" || n.kind == "or" {
		return "(" + renderQuery(n) + ")"
	}
	return renderQuery(n)
}

// fuzzInstances are instances of the contract template to evaluate
// fuzzed queries against.
func fuzzTemplate() (*mdTemplate, []*mdInstance) {
	t := &mdTemplate{key: "contract", scope: "enterprise_1"}
	for _, fb := range contractFields() {
		b, _ := json.Marshal(fb)
		var body fieldBody
		_ = json.Unmarshal(b, &body)
		f, _ := newField(body)
		t.fields = append(t.fields, f)
	}
	it := &item{typ: "file", id: "1", name: "a.pdf", owner: &user{id: "2"}}
	full, _ := templateValues(t, map[string]any{"customer": "Acme", "amount": json.Number("5"), "status": "active",
		"regions": []any{"emea"}, "signed": "2025-01-01T00:00:00Z"})
	return t, []*mdInstance{
		{item: it, tmpl: t, values: full},
		{item: it, tmpl: t, values: map[string]mdVal{}},
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
	s := &Server{enterpriseID: "1"}
	tmpl, instances := fuzzTemplate()
	f.Fuzz(func(t *testing.T, query, param string) {
		n, err := parseMetadataQuery(query)
		if err != nil {
			if err.msg == "" {
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
		again, err := parseMetadataQuery(renderQuery(n))
		if err != nil && strings.Contains(err.msg, "nests deeper") {
			return // the rendering adds parentheses the query did not need
		}
		if err != nil || !reflect.DeepEqual(n, again) {
			t.Fatalf("round trip of %q via %q: %v", query, renderQuery(n), err)
		}
		params := map[string]any{}
		var collect func(*qNode)
		collect = func(n *qNode) {
			for _, p := range n.params {
				params[p] = param
			}
			for _, k := range n.kids {
				collect(k)
			}
		}
		collect(n)
		pred, aerr := s.compileQuery(n, tmpl, params)
		if aerr != nil {
			if aerr.Code != codeInvalidQuery && aerr.Code != codeUnexpectedJSONType {
				t.Fatalf("compile %q: code %s", query, aerr.Code)
			}
			return
		}
		for _, in := range instances {
			if r := pred(in); r > triNull {
				t.Fatalf("bad truth value %d", r)
			}
		}
	})
}

func FuzzLikePattern(f *testing.F) {
	for _, s := range []string{"%", "_", "a%b", `20\%`, `\\`, `%a%a%a%`, "x_y"} {
		f.Add(s, "a20%b")
	}
	f.Fuzz(func(t *testing.T, pattern, text string) {
		if !utf8.ValidString(pattern) || !utf8.ValidString(text) {
			return
		}
		_ = compileLike(pattern, true)(text)
		if !strings.ContainsAny(pattern, `%_\`) && !compileLike(pattern, false)(pattern) {
			t.Fatalf("plain pattern %q does not match itself", pattern)
		}
		escaped := strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(text)
		if !compileLike(escaped, false)(text) || !compileLike("%"+escaped+"%", false)(text) {
			t.Fatalf("escaped %q does not match itself", text)
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
			if aerr.Status != 400 || aerr.Code != codeBadRequest {
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
			values, err := applyInstancePatch(in, patch)
			if err != nil {
				me, ok := err.(*mdError)
				if !ok || me.code != codeFailedJSONPatch && me.code != codeSchemaValidationFailed {
					t.Fatalf("apply: %v", err)
				}
				continue
			}
			for k := range values {
				if _, f := in.tmpl.field(k); f == nil {
					t.Fatalf("patched in unknown key %q", k)
				}
			}
		}
	})
}
