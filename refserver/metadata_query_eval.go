package refserver

import (
	"bytes"
	"encoding/json"
	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/wire"
	"net/http"
	"path"
	"strings"
)

// A compiled query is a predicate over instances with SQL's three-valued
// logic: a comparison with a missing (null) value is unknown, NOT unknown
// is unknown, and only true matches.
type tri uint8

const (
	triFalse tri = iota
	triTrue
	triNull
)

type predicate func(in *mdInstance) tri

// qField is the left-hand side of a predicate: a template field or an
// item field (DG metadata/queries/item-fields).
type qField struct {
	key      string
	typ      string // a template field type; item fields are string or date
	item     bool
	sortable bool
}

// itemFieldTypes are the item fields this server answers, with their type.
// item.quick_search_content (full text) is not supported.
var itemFieldTypes = map[string]string{
	"item.type": fieldString, "item.name": fieldString, "item.description": fieldString,
	"item.extension": fieldString, "item.owned_by": fieldString, "item.owner_enterprise_id": fieldString,
	"item.created_at": fieldDate, "item.modified_at": fieldDate,
	"item.content_created_at": fieldDate, "item.content_modified_at": fieldDate,
}

// resolveField finds the left-hand side name in the template or the item
// fields; an unknown name is 400 invalid_query (DG syntax: "Any other
// field name will result in ... an error").
func resolveField(t *mdTemplate, name string) (qField, *wire.Error) {
	if typ, ok := itemFieldTypes[name]; ok {
		return qField{key: name, typ: typ, item: true, sortable: true}, nil
	}
	if _, f := t.field(name); f != nil {
		sortable := f.typ == fieldString || f.typ == fieldFloat || f.typ == fieldDate || f.typ == fieldInteger
		return qField{key: name, typ: f.typ, sortable: sortable}, nil
	}
	return qField{}, wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "%q is not a field of template %s nor a supported item field", name, t.key)
}

// value is the field's value on an instance (ok false = null).
func (s *state) fieldOf(f qField, in *mdInstance) (mdVal, bool) {
	if !f.item {
		v, ok := in.values[f.key]
		return v, ok
	}
	it := in.item
	str := func(v string) (mdVal, bool) { return mdVal{kind: valString, s: v}, true }
	date := func(tm interface{ UnixMilli() int64 }, zero bool) (mdVal, bool) {
		if zero {
			return mdVal{}, false
		}
		return mdVal{kind: valDate, f: float64(tm.UnixMilli())}, true
	}
	switch f.key {
	case "item.type":
		return str(it.typ)
	case "item.name":
		return str(it.name)
	case "item.description":
		return str(it.description)
	case "item.extension":
		if it.typ != "file" {
			return mdVal{}, false
		}
		return str(strings.TrimPrefix(path.Ext(it.name), "."))
	case "item.owned_by":
		return str("user_" + it.owner.id)
	case "item.owner_enterprise_id":
		return str(s.enterpriseID)
	case "item.created_at":
		return date(it.createdAt, it.createdAt.IsZero())
	case "item.modified_at":
		return date(it.modifiedAt, it.modifiedAt.IsZero())
	case "item.content_created_at":
		return date(it.contentCreatedAt, it.contentCreatedAt.IsZero())
	case "item.content_modified_at":
		return date(it.contentModifiedAt, it.contentModifiedAt.IsZero())
	}
	return mdVal{}, false
}

// paramValue converts a query parameter for a field. A missing parameter
// or a JSON type that does not fit the field is 400 unexpected_json_type
// (DG queries/errors; spec: "The type of each parameter ... must match the
// type of the corresponding metadata template field"). Dates are RFC 3339
// instants compared as they are.
func paramValue(f qField, name string, params map[string]any) (mdVal, *wire.Error) {
	raw, ok := params[name]
	if !ok {
		return mdVal{}, wire.Errorf(http.StatusBadRequest, codeUnexpectedJSONType, "The placeholder :%s has no value in query_params", name)
	}
	bad := wire.Errorf(http.StatusBadRequest, codeUnexpectedJSONType, "query_params.%s does not match the type %s of %s", name, f.typ, f.key)
	switch f.typ {
	case fieldFloat, fieldInteger:
		if n, ok := raw.(json.Number); ok {
			if v, ok := numberVal(n); ok {
				return v, nil
			}
		}
	case fieldDate:
		if str, ok := raw.(string); ok {
			if v, ok := instantVal(str); ok {
				return v, nil
			}
		}
	default: // string, enum, multiSelect and taxonomy options
		if str, ok := raw.(string); ok {
			return mdVal{kind: valString, s: str}, nil
		}
	}
	return mdVal{}, bad
}

// compileQuery turns a parsed query into a predicate for template t.
func (s *state) compileQuery(n *mdquery.Node, t *mdTemplate, params map[string]any) (predicate, *wire.Error) {
	if n == nil {
		return func(*mdInstance) tri { return triTrue }, nil
	}
	switch n.Kind {
	case "and", "or":
		kids := make([]predicate, len(n.Kids))
		for i, k := range n.Kids {
			p, aerr := s.compileQuery(k, t, params)
			if aerr != nil {
				return nil, aerr
			}
			kids[i] = p
		}
		stop, other := triFalse, triTrue
		if n.Kind == "or" {
			stop, other = triTrue, triFalse
		}
		return func(in *mdInstance) tri {
			res := other
			for _, k := range kids {
				switch k(in) {
				case stop:
					return stop
				case triNull:
					res = triNull
				}
			}
			return res
		}, nil
	case "not":
		k, aerr := s.compileQuery(n.Kids[0], t, params)
		if aerr != nil {
			return nil, aerr
		}
		return func(in *mdInstance) tri { return not(k(in)) }, nil
	}
	f, aerr := resolveField(t, n.Field)
	if aerr != nil {
		return nil, aerr
	}
	vals := make([]mdVal, len(n.Params))
	for i, name := range n.Params {
		if vals[i], aerr = paramValue(f, name, params); aerr != nil {
			return nil, aerr
		}
	}
	listField := f.typ == fieldMultiSelect || f.typ == fieldTaxonomy
	invalid := func(what string) *wire.Error {
		return wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "%s is not supported on %s (a %s field)", what, f.key, f.typ)
	}
	switch n.Kind {
	case "null":
		return func(in *mdInstance) tri {
			_, ok := s.fieldOf(f, in)
			return boolTri(ok == n.Not)
		}, nil
	case "cmp":
		if listField {
			return nil, invalid("A comparison")
		}
		want := vals[0]
		return s.valuePred(f, n.Not, func(v mdVal) bool { return cmpOp(n.Op, cmpVals(v, want)) }), nil
	case "like":
		if f.typ != fieldString {
			return nil, invalid("LIKE")
		}
		m := mdquery.Like(vals[0].s, n.Fold)
		return s.valuePred(f, n.Not, func(v mdVal) bool { return m(v.s) }), nil
	case "in":
		if f.typ == fieldMultiSelect {
			// The guides: "the IN operator isn't supported for multiselect
			// fields ... and returns a 400 error"; the issue names the code.
			return nil, wire.Errorf(http.StatusBadRequest, codeUnexpectedJSONType, "IN is not supported on the multiSelect field %s: use HASANY", f.key)
		}
		if listField {
			return nil, invalid("IN")
		}
		return s.valuePred(f, n.Not, func(v mdVal) bool {
			for _, w := range vals {
				if cmpVals(v, w) == 0 {
					return true
				}
			}
			return false
		}), nil
	case "has":
		if !listField && f.typ != fieldEnum {
			return nil, invalid("HASANY/HASALL")
		}
		return s.valuePred(f, false, func(v mdVal) bool { return hasValues(v, vals, n.All) }), nil
	}
	return nil, wire.Errorf(http.StatusBadRequest, codeInvalidQuery, "unsupported expression")
}

// valuePred is a predicate that is null on a missing value, test(value)
// otherwise, inverted by negate.
func (s *state) valuePred(f qField, negate bool, test func(mdVal) bool) predicate {
	return func(in *mdInstance) tri {
		v, ok := s.fieldOf(f, in)
		if !ok {
			return triNull
		}
		return boolTri(test(v) != negate)
	}
}

func hasValues(v mdVal, want []mdVal, all bool) bool {
	have := v.list
	if v.kind != valList {
		have = []string{v.s}
	}
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w.s {
				found = true
				break
			}
		}
		if found != all {
			return found
		}
	}
	return all
}

func boolTri(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func not(t tri) tri {
	switch t {
	case triTrue:
		return triFalse
	case triFalse:
		return triTrue
	}
	return triNull
}

func cmpOp(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "<>":
		return c != 0
	case "<":
		return c < 0
	case ">":
		return c > 0
	case "<=":
		return c <= 0
	default: // ">="
		return c >= 0
	}
}

// cmpVals orders two non-null values of one field: numbers and dates by
// value, strings (and enum keys) byte-wise, i.e. case-sensitively.
func cmpVals(a, b mdVal) int {
	if a.kind == valNumber || a.kind == valDate {
		switch {
		case a.f < b.f:
			return -1
		case a.f > b.f:
			return 1
		}
		return 0
	}
	return strings.Compare(a.s, b.s)
}

// instantVal parses an RFC 3339 instant (not truncated to the day).
func instantVal(s string) (mdVal, bool) {
	v, ok := dateVal(s)
	if !ok {
		return v, false
	}
	tm, _ := parseRFC3339(s)
	v.f = float64(tm.UnixMilli())
	return v, true
}

// decodeParams decodes query_params with numbers kept as json.Number.
func decodeParams(raw map[string]json.RawMessage) (map[string]any, *wire.Error) {
	out := make(map[string]any, len(raw))
	for k, r := range raw {
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, wire.BadRequest("Invalid query_params.%s", k)
		}
		out[k] = v
	}
	return out, nil
}
