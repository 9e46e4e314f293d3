package metadata

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// A compiled query is a predicate over instances with SQL's three-valued
// logic: a comparison with a missing (null) value is unknown, NOT unknown
// is unknown, and only true matches.
type tri uint8

// The values of tri: false, true and unknown (null).
const (
	triFalse tri = iota
	triTrue
	TriNull
)

type predicate func(in *state.MDInstance) tri

// QField is the left-hand side of a predicate: a template field or an
// item field (DG metadata/queries/item-fields).
type QField struct {
	Key      string
	typ      string // a template field type; item fields are string or date
	item     bool
	sortable bool
}

// itemFieldTypes are the item fields this server answers, with their type.
// item.quick_search_content (full text) is not supported.
var itemFieldTypes = map[string]string{
	"item.type": state.FieldString, "item.name": state.FieldString, "item.description": state.FieldString,
	"item.extension": state.FieldString, "item.owned_by": state.FieldString, "item.owner_enterprise_id": state.FieldString,
	"item.created_at": state.FieldDate, "item.modified_at": state.FieldDate,
	"item.content_created_at": state.FieldDate, "item.content_modified_at": state.FieldDate,
}

// resolveField finds the left-hand side name in the template or the item
// fields; an unknown name is 400 invalid_query (DG syntax: "Any other
// field name will result in ... an error").
func resolveField(t *state.MDTemplate, name string) (QField, *wire.Error) {
	if typ, ok := itemFieldTypes[name]; ok {
		return QField{Key: name, typ: typ, item: true, sortable: true}, nil
	}
	if _, f := t.Field(name); f != nil {
		return QField{Key: name, typ: f.Typ, sortable: sortableType(f.Typ)}, nil
	}
	return QField{}, wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "%q is not a field of template %s nor a supported item field", name, t.Key)
}

// FieldOf is the field's value on an instance (ok false = null).
func FieldOf(s *state.Tx, f QField, in *state.MDInstance) (state.MDVal, bool) {
	if !f.item {
		v, ok := in.Values.Get(f.Key)
		return v, ok
	}
	it := in.Item
	str := func(v string) (state.MDVal, bool) { return state.MDVal{Kind: state.ValString, S: v}, true }
	date := func(tm interface{ UnixMilli() int64 }, zero bool) (state.MDVal, bool) {
		if zero {
			return state.MDVal{}, false
		}
		return state.MDVal{Kind: state.ValDate, F: float64(tm.UnixMilli())}, true
	}
	switch f.Key {
	case "item.type":
		return str(it.Typ)
	case "item.name":
		return str(it.Name)
	case "item.description":
		return str(it.Description())
	case "item.extension":
		if it.Typ != "file" {
			return state.MDVal{}, false
		}
		return str(strings.TrimPrefix(path.Ext(it.Name), "."))
	case "item.owned_by":
		return str("user_" + it.Owner.ID)
	case "item.owner_enterprise_id":
		return str(s.EnterpriseID)
	case "item.created_at":
		return date(it.CreatedAt, it.CreatedAt.IsZero())
	case "item.modified_at":
		return date(it.ModifiedAt, it.ModifiedAt.IsZero())
	case "item.content_created_at":
		return date(it.ContentCreatedAt, it.ContentCreatedAt.IsZero())
	case "item.content_modified_at":
		return date(it.ContentModifiedAt, it.ContentModifiedAt.IsZero())
	}
	return state.MDVal{}, false
}

// paramValue converts a query parameter for a field. A missing parameter
// or a JSON type that does not fit the field is 400 unexpected_json_type
// (DG queries/errors; spec: "The type of each parameter ... must match the
// type of the corresponding metadata template field"). Dates are RFC 3339
// instants compared as they are.
func paramValue(f QField, name string, params map[string]any) (state.MDVal, *wire.Error) {
	raw, ok := params[name]
	if !ok {
		return state.MDVal{}, wire.Errorf(wire.StatusBadRequest, CodeUnexpectedJSONType, "The placeholder :%s has no value in query_params", name)
	}
	bad := wire.Errorf(wire.StatusBadRequest, CodeUnexpectedJSONType, "query_params.%s does not match the type %s of %s", name, f.typ, f.Key)
	switch f.typ {
	case state.FieldFloat, state.FieldInteger:
		if n, ok := raw.(json.Number); ok {
			if v, ok := state.NumberVal(n); ok {
				return v, nil
			}
		}
	case state.FieldDate:
		if str, ok := raw.(string); ok {
			if v, ok := instantVal(str); ok {
				return v, nil
			}
		}
	default: // string, enum, multiSelect and taxonomy options
		if str, ok := raw.(string); ok {
			return state.MDVal{Kind: state.ValString, S: str}, nil
		}
	}
	return state.MDVal{}, bad
}

// CompileQuery turns a parsed query into a predicate for template t.
func CompileQuery(s *state.Tx, n *mdquery.Node, t *state.MDTemplate, params map[string]any) (predicate, *wire.Error) {
	if n == nil {
		return func(*state.MDInstance) tri { return triTrue }, nil
	}
	switch n.Kind {
	case "and", "or":
		kids := make([]predicate, len(n.Kids))
		for i, k := range n.Kids {
			p, aerr := CompileQuery(s, k, t, params)
			if aerr != nil {
				return nil, aerr
			}
			kids[i] = p
		}
		stop, other := triFalse, triTrue
		if n.Kind == "or" {
			stop, other = triTrue, triFalse
		}
		return func(in *state.MDInstance) tri {
			res := other
			for _, k := range kids {
				switch k(in) {
				case stop:
					return stop
				case TriNull:
					res = TriNull
				}
			}
			return res
		}, nil
	case "not":
		k, aerr := CompileQuery(s, n.Kids[0], t, params)
		if aerr != nil {
			return nil, aerr
		}
		return func(in *state.MDInstance) tri { return not(k(in)) }, nil
	}
	f, aerr := resolveField(t, n.Field)
	if aerr != nil {
		return nil, aerr
	}
	vals := make([]state.MDVal, len(n.Params))
	for i, name := range n.Params {
		if vals[i], aerr = paramValue(f, name, params); aerr != nil {
			return nil, aerr
		}
	}
	listField := f.typ == state.FieldMultiSelect || f.typ == state.FieldTaxonomy
	invalid := func(what string) *wire.Error {
		return wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "%s is not supported on %s (a %s field)", what, f.Key, f.typ)
	}
	switch n.Kind {
	case "null":
		return func(in *state.MDInstance) tri {
			_, ok := FieldOf(s, f, in)
			return boolTri(ok == n.Not)
		}, nil
	case "cmp":
		if listField {
			return nil, invalid("A comparison")
		}
		want := vals[0]
		return ValuePred(s, f, n.Not, func(v state.MDVal) bool { return cmpOp(n.Op, state.CmpVals(v, want)) }), nil
	case "like":
		if f.typ != state.FieldString {
			return nil, invalid("LIKE")
		}
		m := mdquery.Like(vals[0].S, n.Fold)
		return ValuePred(s, f, n.Not, func(v state.MDVal) bool { return m(v.S) }), nil
	case "in":
		if f.typ == state.FieldMultiSelect {
			// The guides: "the IN operator isn't supported for multiselect
			// fields ... and returns a 400 error"; the issue names the code.
			return nil, wire.Errorf(wire.StatusBadRequest, CodeUnexpectedJSONType, "IN is not supported on the multiSelect field %s: use HASANY", f.Key)
		}
		if listField {
			return nil, invalid("IN")
		}
		return ValuePred(s, f, n.Not, func(v state.MDVal) bool {
			for _, w := range vals {
				if state.CmpVals(v, w) == 0 {
					return true
				}
			}
			return false
		}), nil
	case "has":
		if !listField && f.typ != state.FieldEnum {
			return nil, invalid("HASANY/HASALL")
		}
		return ValuePred(s, f, false, func(v state.MDVal) bool { return hasValues(v, vals, n.All) }), nil
	}
	return nil, wire.Errorf(wire.StatusBadRequest, CodeInvalidQuery, "unsupported expression")
}

// ValuePred is a predicate that is null on a missing value, test(value)
// otherwise, inverted by negate.
func ValuePred(s *state.Tx, f QField, negate bool, test func(state.MDVal) bool) predicate {
	return func(in *state.MDInstance) tri {
		v, ok := FieldOf(s, f, in)
		if !ok {
			return TriNull
		}
		return boolTri(test(v) != negate)
	}
}

func hasValues(v state.MDVal, want []state.MDVal, all bool) bool {
	have := v.List
	if v.Kind != state.ValList {
		have = []string{v.S}
	}
	for _, w := range want {
		found := false
		for _, h := range have {
			if h == w.S {
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
	return TriNull
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

// instantVal parses an RFC 3339 instant (not truncated to the day).
func instantVal(s string) (state.MDVal, bool) {
	v, ok := state.DateVal(s)
	if !ok {
		return v, false
	}
	tm, _ := state.ParseRFC3339(s)
	v.F = float64(tm.UnixMilli())
	return v, true
}

// sortableType reports whether values of a template field type have one
// order an order_by can follow (strings, numbers, dates).
func sortableType(typ string) bool {
	switch typ {
	case state.FieldString, state.FieldFloat, state.FieldInteger, state.FieldDate:
		return true
	}
	return false
}
