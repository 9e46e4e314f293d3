package state

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"
)

// MDVal is one custom value of an instance, kept in the form the query
// engine compares (numbers parsed once) and the wire needs (the number's
// own text, so that no precision is lost on the way back).
type MDVal struct {
	Kind byte     // valString, valNumber, valDate, valList
	S    string   // string, enum option key, date (normalised), number text
	F    float64  // number; date as Unix milliseconds
	List []string // multiSelect, taxonomy
}

const (
	valString byte = iota + 1
	ValNumber
	valDate
	valList
)

// dateLayout is how dates are stored and answered: the service keeps the
// day and sets the time part to T00:00:00.000Z (DG metadata date fields).
const dateLayout = "2006-01-02T00:00:00.000Z"

// JSON is the wire form of the value.
func (v MDVal) JSON() any {
	switch v.Kind {
	case ValNumber:
		return json.Number(v.S)
	case valList:
		return v.List
	default:
		return v.S
	}
}

func (v MDVal) equal(o MDVal) bool {
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

// numberVal parses a JSON number into a value.
func numberVal(n json.Number) (MDVal, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return MDVal{}, false
	}
	return MDVal{Kind: ValNumber, S: string(n), F: f}, true
}

// dateVal parses an RFC 3339 date-time into a date value (time part
// dropped, as the service does).
func dateVal(s string) (MDVal, bool) {
	t, err := ParseRFC3339(s)
	if err != nil {
		return MDVal{}, false
	}
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return MDVal{Kind: valDate, S: day.Format(dateLayout), F: float64(day.UnixMilli())}, true
}

// fieldValue checks a decoded JSON value (numbers as json.Number) against
// a field of a template and converts it. Field rules: string → JSON
// string; float → JSON number; integer → JSON integer; date → RFC 3339
// string; enum → one option key; multiSelect → array of option keys;
// taxonomy → array of node id strings.
func fieldValue(f *MDField, v any) (MDVal, error) {
	switch f.Typ {
	case fieldString:
		if s, ok := v.(string); ok {
			return MDVal{Kind: valString, S: s}, nil
		}
	case fieldFloat, fieldInteger:
		if n, ok := v.(json.Number); ok {
			if val, ok := numberVal(n); ok && (f.Typ == fieldFloat || val.F == math.Trunc(val.F)) {
				return val, nil
			}
		}
	case fieldDate:
		if s, ok := v.(string); ok {
			if val, ok := dateVal(s); ok {
				return val, nil
			}
			return MDVal{}, fmt.Errorf("value of %q is not an RFC 3339 date-time", f.Key)
		}
	case fieldEnum:
		if s, ok := v.(string); ok {
			if _, o := f.option(s); o != nil {
				return MDVal{Kind: valString, S: s}, nil
			}
			return MDVal{}, fmt.Errorf("%q is not an option of field %q", s, f.Key)
		}
	case fieldMultiSelect, fieldTaxonomy:
		list, ok := StringList(v)
		if !ok {
			break
		}
		if f.Typ == fieldMultiSelect {
			for _, s := range list {
				if _, o := f.option(s); o == nil {
					return MDVal{}, fmt.Errorf("%q is not an option of field %q", s, f.Key)
				}
			}
		}
		return MDVal{Kind: valList, List: list}, nil
	}
	return MDVal{}, fmt.Errorf("value of %q does not match its field type %s", f.Key, f.Typ)
}

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

// TemplateValues checks a whole set of custom values against a template:
// every key must be a field of the template (global.properties takes any
// key that does not start with "$", with string values only). A failure
// is 400 schema_validation_failed.
func TemplateValues(t *MDTemplate, raw map[string]any) (map[string]MDVal, *MDError) {
	out := make(map[string]MDVal, len(raw))
	for k, v := range raw {
		if v == nil {
			continue // null: no value
		}
		if t.freeForm() {
			s, ok := v.(string)
			if k == "" || k[0] == '$' || !ok {
				return nil, MDErrf(400, CodeSchemaValidationFailed, "global.properties takes string values under keys not starting with $ (key %q)", k)
			}
			out[k] = MDVal{Kind: valString, S: s}
			continue
		}
		_, f := t.Field(k)
		if f == nil {
			return nil, MDErrf(400, CodeSchemaValidationFailed, "%q is not a field of template %s", k, t.Key)
		}
		val, err := fieldValue(f, v)
		if err != nil {
			return nil, MDErrf(400, CodeSchemaValidationFailed, "%s", err.Error())
		}
		out[k] = val
	}
	return out, nil
}

// ParseRFC3339 parses an RFC 3339 date-time (fractional seconds optional).
func ParseRFC3339(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }
