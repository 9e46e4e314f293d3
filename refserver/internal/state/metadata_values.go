package state

import (
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MDVal is one custom value of an instance, kept in the form the query
// engine compares (numbers parsed once) and the wire needs (the number's
// own text, so that no precision is lost on the way back).
type MDVal struct {
	Kind byte     // ValString, ValNumber, ValDate, ValList
	S    string   // string, enum option key, date (normalised), number text
	F    float64  // number; date as Unix milliseconds
	List []string // multiSelect, taxonomy
}

// The kinds of a value (MDVal.Kind).
const (
	ValString byte = iota + 1
	ValNumber
	ValDate
	ValList
)

// dateLayout is how dates are stored and answered: the service keeps the
// day and sets the time part to T00:00:00.000Z (DG metadata date fields).
const dateLayout = "2006-01-02T00:00:00.000Z"

// JSON is the wire form of the value.
func (v MDVal) JSON() any {
	switch v.Kind {
	case ValNumber:
		return json.Number(v.S)
	case ValList:
		return v.List
	default:
		return v.S
	}
}

// Equal reports whether v and o are the same value: the same kind, text
// (a number's own text, a date normalised) and list.
func (v MDVal) Equal(o MDVal) bool {
	if v.Kind != o.Kind || v.S != o.S || len(v.List) != len(o.List) {
		return false
	}
	for i := range v.List {
		if v.List[i] != o.List[i] {
			return false
		}
	}
	return true
}

// NumberVal parses a JSON number into a value.
func NumberVal(n json.Number) (MDVal, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return MDVal{}, false
	}
	return MDVal{Kind: ValNumber, S: string(n), F: f}, true
}

// DateVal parses an RFC 3339 date-time into a date value (time part
// dropped, as the service does).
func DateVal(s string) (MDVal, bool) {
	t, err := ParseRFC3339(s)
	if err != nil {
		return MDVal{}, false
	}
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return MDVal{Kind: ValDate, S: day.Format(dateLayout), F: float64(day.UnixMilli())}, true
}

// FieldValue checks a decoded JSON value (numbers as json.Number) against
// a field of a template and converts it. Field rules: string → JSON
// string; float → JSON number; integer → JSON integer; date → RFC 3339
// string; enum → one option key; multiSelect → array of option keys;
// taxonomy → array of node id strings.
func FieldValue(f *MDField, v any) (MDVal, error) {
	switch f.Typ {
	case FieldString:
		if s, ok := v.(string); ok {
			return MDVal{Kind: ValString, S: s}, nil
		}
	case FieldFloat, FieldInteger:
		if n, ok := v.(json.Number); ok {
			if val, ok := NumberVal(n); ok && (f.Typ == FieldFloat || val.F == math.Trunc(val.F)) {
				return val, nil
			}
		}
	case FieldDate:
		if s, ok := v.(string); ok {
			if val, ok := DateVal(s); ok {
				return val, nil
			}
			return MDVal{}, fmt.Errorf("value of %q is not an RFC 3339 date-time", f.Key)
		}
	case FieldEnum:
		if s, ok := v.(string); ok {
			if _, o := f.Option(s); o != nil {
				return MDVal{Kind: ValString, S: s}, nil
			}
			return MDVal{}, fmt.Errorf("%q is not an option of field %q", s, f.Key)
		}
	case FieldMultiSelect, FieldTaxonomy:
		list, ok := StringList(v)
		if !ok {
			break
		}
		if f.Typ == FieldMultiSelect {
			for _, s := range list {
				if _, o := f.Option(s); o == nil {
					return MDVal{}, fmt.Errorf("%q is not an option of field %q", s, f.Key)
				}
			}
		}
		return MDVal{Kind: ValList, List: list}, nil
	}
	return MDVal{}, fmt.Errorf("value of %q does not match its field type %s", f.Key, f.Typ)
}

// StringList returns the strings of a JSON array (decoded as []any); false
// when v is not one or holds something else.
func StringList(v any) ([]string, bool) {
	arr, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// ParseRFC3339 parses an RFC 3339 date-time (fractional seconds optional).
func ParseRFC3339(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// MDValues is an instance's values by field key: a slice sorted by key, not
// a map. A Go map of a few values takes a whole group of eight slots (~640
// bytes with MDVal's 56); a hundred thousand instances' maps were ~70 MB.
// Set and Delete never change an array another MDValues may share: they
// make a new one, but for a value replaced in place (as a shared map's).
type MDValues struct {
	fields []mdField
}

// mdField is one value of an MDValues.
type mdField struct {
	key string
	val MDVal
}

// NewMDValues holds the values of m.
func NewMDValues(m map[string]MDVal) MDValues {
	return MDValuesOf(m, func(v MDVal) MDVal { return v })
}

// MDValuesOf holds the values of m, each made an MDVal by val (a record's
// values, as a load restores them).
func MDValuesOf[V any](m map[string]V, val func(V) MDVal) MDValues {
	if len(m) == 0 {
		return MDValues{}
	}
	fs := make([]mdField, 0, len(m))
	for k, v := range m {
		fs = append(fs, mdField{k, val(v)})
	}
	slices.SortFunc(fs, func(a, b mdField) int { return strings.Compare(a.key, b.key) })
	return MDValues{fs}
}

// find is where key is, or would be, and whether it is there.
func (vs MDValues) find(key string) (int, bool) {
	return slices.BinarySearchFunc(vs.fields, key, func(f mdField, k string) int { return strings.Compare(f.key, k) })
}

// Get is the value of key.
func (vs MDValues) Get(key string) (MDVal, bool) {
	if i, ok := vs.find(key); ok {
		return vs.fields[i].val, true
	}
	return MDVal{}, false
}

// Len is the number of values.
func (vs MDValues) Len() int { return len(vs.fields) }

// All is the keys and values, sorted by key.
func (vs MDValues) All() iter.Seq2[string, MDVal] {
	return func(yield func(string, MDVal) bool) {
		for _, f := range vs.fields {
			if !yield(f.key, f.val) {
				return
			}
		}
	}
}

// Map is the values in a new map.
func (vs MDValues) Map() map[string]MDVal {
	m := make(map[string]MDVal, len(vs.fields))
	for _, f := range vs.fields {
		m[f.key] = f.val
	}
	return m
}

// Set makes v the value of key.
func (vs *MDValues) Set(key string, v MDVal) {
	i, ok := vs.find(key)
	if ok {
		vs.fields[i].val = v
		return
	}
	vs.fields = slices.Insert(slices.Clip(vs.fields), i, mdField{key, v})
}

// Delete removes the value of key.
func (vs *MDValues) Delete(key string) {
	if i, ok := vs.find(key); ok {
		vs.fields = slices.Concat(vs.fields[:i], vs.fields[i+1:])
	}
}
