package cms

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// QueryField names a template field key (or an item field such as
// "item.name") on the left of a metadata query condition. Its methods make
// conditions whose values travel as :placeholders in query_params, never
// inline in the query text.
func QueryField(key string) QueryFieldRef { return QueryFieldRef{key} }

// QueryFieldRef is a field of a metadata query; see QueryField.
type QueryFieldRef struct{ key string }

// QueryCond is a condition of a metadata query, built from QueryField and
// combined with QueryAnd, QueryOr and QueryNot.
type QueryCond struct {
	build func(*queryParams) (string, error)
}

// queryParams allocates placeholder names and holds their typed values.
type queryParams struct {
	values map[string]json.RawMessage
}

func (qp *queryParams) add(v any) (string, error) {
	raw, err := queryParamValue(v)
	if err != nil {
		return "", err
	}
	name := fmt.Sprintf("p%d", len(qp.values)+1)
	qp.values[name] = raw
	return ":" + name, nil
}

// fieldKeyRE is what may stand on the left of a condition: a field key or
// item.<field>.
var fieldKeyRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$`)

func (f QueryFieldRef) cond(op string, values ...any) QueryCond {
	return QueryCond{func(qp *queryParams) (string, error) {
		if !fieldKeyRE.MatchString(f.key) {
			return "", invalidArg("query field", quoteArg(f.key))
		}
		names := make([]string, len(values))
		for i, v := range values {
			n, err := qp.add(v)
			if err != nil {
				return "", err
			}
			names[i] = n
		}
		switch {
		case op == "IS NULL" || op == "IS NOT NULL":
			return f.key + " " + op, nil
		case strings.HasSuffix(op, "IN") || strings.HasPrefix(op, "HAS"):
			if len(names) == 0 {
				return "", invalidArg("query "+op, "no values for "+f.key)
			}
			return f.key + " " + op + " (" + strings.Join(names, ", ") + ")", nil
		}
		return f.key + " " + op + " " + names[0], nil
	}}
}

// Eq, Ne, Lt, Le, Gt and Ge compare the field with a value: a string (also
// for enum fields), a number (float fields) or a time.Time (date fields).
func (f QueryFieldRef) Eq(v any) QueryCond { return f.cond("=", v) }

// Ne is field <> v.
func (f QueryFieldRef) Ne(v any) QueryCond { return f.cond("<>", v) }

// Lt is field < v.
func (f QueryFieldRef) Lt(v any) QueryCond { return f.cond("<", v) }

// Le is field <= v.
func (f QueryFieldRef) Le(v any) QueryCond { return f.cond("<=", v) }

// Gt is field > v.
func (f QueryFieldRef) Gt(v any) QueryCond { return f.cond(">", v) }

// Ge is field >= v.
func (f QueryFieldRef) Ge(v any) QueryCond { return f.cond(">=", v) }

// Like matches a string field against a pattern: % is any run of
// characters, _ one character, and a backslash escapes them (see
// LikeEscape).
func (f QueryFieldRef) Like(pattern string) QueryCond { return f.cond("LIKE", pattern) }

// NotLike is the negation of Like.
func (f QueryFieldRef) NotLike(pattern string) QueryCond { return f.cond("NOT LIKE", pattern) }

// ILike is Like ignoring case.
func (f QueryFieldRef) ILike(pattern string) QueryCond { return f.cond("ILIKE", pattern) }

// NotILike is the negation of ILike.
func (f QueryFieldRef) NotILike(pattern string) QueryCond { return f.cond("NOT ILIKE", pattern) }

// In matches when the field equals one of the values (not for multiSelect
// fields: use HasAny).
func (f QueryFieldRef) In(values ...any) QueryCond { return f.cond("IN", values...) }

// NotIn is the negation of In.
func (f QueryFieldRef) NotIn(values ...any) QueryCond { return f.cond("NOT IN", values...) }

// HasAny matches a multiSelect field holding any of the option keys.
func (f QueryFieldRef) HasAny(options ...string) QueryCond { return f.cond("HASANY", anys(options)...) }

// HasAll matches a multiSelect field holding all of the option keys.
func (f QueryFieldRef) HasAll(options ...string) QueryCond { return f.cond("HASALL", anys(options)...) }

// IsNull matches items whose field has no value.
func (f QueryFieldRef) IsNull() QueryCond { return f.cond("IS NULL") }

// IsNotNull matches items whose field has a value.
func (f QueryFieldRef) IsNotNull() QueryCond { return f.cond("IS NOT NULL") }

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// QueryAnd matches when every condition does.
func QueryAnd(conds ...QueryCond) QueryCond { return join("AND", conds) }

// QueryOr matches when any condition does.
func QueryOr(conds ...QueryCond) QueryCond { return join("OR", conds) }

func join(op string, conds []QueryCond) QueryCond {
	return QueryCond{func(qp *queryParams) (string, error) {
		if len(conds) == 0 {
			return "", invalidArg("query "+op, "no conditions")
		}
		parts := make([]string, len(conds))
		for i, c := range conds {
			s, err := c.text(qp)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		if len(parts) == 1 {
			return parts[0], nil
		}
		return "(" + strings.Join(parts, " "+op+" ") + ")", nil
	}}
}

// QueryNot matches when the condition does not.
func QueryNot(c QueryCond) QueryCond {
	return QueryCond{func(qp *queryParams) (string, error) {
		s, err := c.text(qp)
		if err != nil {
			return "", err
		}
		return "NOT (" + s + ")", nil
	}}
}

func (c QueryCond) text(qp *queryParams) (string, error) {
	if c.build == nil {
		return "", invalidArg("query condition", "zero QueryCond")
	}
	return c.build(qp)
}

// LikeEscape escapes %, _ and backslash in s so that a Like pattern matches
// them literally: QueryField("name").Like(cms.LikeEscape(prefix) + "%").
func LikeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// queryParamValue encodes a query parameter: a string, a number (Go
// integer or float types, json.Number) or a time.Time (RFC 3339 with
// milliseconds). Other types are rejected, since the service matches the
// parameter's JSON type against the field's type.
func queryParamValue(v any) (json.RawMessage, error) {
	switch x := v.(type) {
	case string, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return json.Marshal(x)
	case json.Number:
		if _, err := x.Float64(); err != nil {
			return nil, invalidArg("query parameter", "json.Number "+quoteArg(string(x)))
		}
		return json.RawMessage(x), nil
	case time.Time:
		return json.Marshal(x.Format(metadataDateLayout))
	}
	return nil, invalidArg("query parameter", fmt.Sprintf("%T is not a string, number or time.Time", v))
}

// placeholderRE finds the :name placeholders of a query text.
var placeholderRE = regexp.MustCompile(`:([A-Za-z_][A-Za-z0-9_]*)`)

// literalRE finds inline literals: quotes, or a number standing alone.
var literalRE = regexp.MustCompile(`['"]|(^|[^A-Za-z0-9_.:])[0-9]`)

// rawQuery checks a hand-written query: every placeholder has a value,
// every value a placeholder, no literal is inline, and each value is typed.
func rawQuery(query string, params map[string]any) (map[string]json.RawMessage, error) {
	if strings.TrimSpace(query) == "" {
		return nil, invalidArg("query", "empty")
	}
	if literalRE.MatchString(query) {
		return nil, invalidArg("query", "inline literal: pass values as :placeholders in params")
	}
	used := map[string]bool{}
	for _, m := range placeholderRE.FindAllStringSubmatch(query, -1) {
		if _, ok := params[m[1]]; !ok {
			return nil, invalidArg("query", "placeholder :"+m[1]+" has no value in params")
		}
		used[m[1]] = true
	}
	out := make(map[string]json.RawMessage, len(params))
	for name, v := range params {
		if !used[name] {
			return nil, invalidArg("query params", quoteArg(name)+" is not used in the query")
		}
		raw, err := queryParamValue(v)
		if err != nil {
			return nil, err
		}
		out[name] = raw
	}
	return out, nil
}
