package refserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// mdVal is one custom value of an instance, kept in the form the query
// engine compares (numbers parsed once) and the wire needs (the number's
// own text, so that no precision is lost on the way back).
type mdVal struct {
	kind byte     // valString, valNumber, valDate, valList
	s    string   // string, enum option key, date (normalised), number text
	f    float64  // number; date as Unix milliseconds
	list []string // multiSelect, taxonomy
}

const (
	valString byte = iota + 1
	valNumber
	valDate
	valList
)

// dateLayout is how dates are stored and answered: the service keeps the
// day and sets the time part to T00:00:00.000Z (DG metadata date fields).
const dateLayout = "2006-01-02T00:00:00.000Z"

// json is the wire form of the value.
func (v mdVal) json() any {
	switch v.kind {
	case valNumber:
		return json.Number(v.s)
	case valList:
		return v.list
	default:
		return v.s
	}
}

func (v mdVal) equal(o mdVal) bool {
	if v.kind != o.kind || v.s != o.s || len(v.list) != len(o.list) {
		return false
	}
	for i := range v.list {
		if v.list[i] != o.list[i] {
			return false
		}
	}
	return true
}

// numberVal parses a JSON number into a value.
func numberVal(n json.Number) (mdVal, bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return mdVal{}, false
	}
	return mdVal{kind: valNumber, s: string(n), f: f}, true
}

// dateVal parses an RFC 3339 date-time into a date value (time part
// dropped, as the service does).
func dateVal(s string) (mdVal, bool) {
	t, err := parseRFC3339(s)
	if err != nil {
		return mdVal{}, false
	}
	t = t.UTC()
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	return mdVal{kind: valDate, s: day.Format(dateLayout), f: float64(day.UnixMilli())}, true
}

// fieldValue checks a decoded JSON value (numbers as json.Number) against
// a field of a template and converts it. Field rules: string → JSON
// string; float → JSON number; integer → JSON integer; date → RFC 3339
// string; enum → one option key; multiSelect → array of option keys;
// taxonomy → array of node id strings.
func fieldValue(f *mdField, v any) (mdVal, error) {
	switch f.typ {
	case fieldString:
		if s, ok := v.(string); ok {
			return mdVal{kind: valString, s: s}, nil
		}
	case fieldFloat, fieldInteger:
		if n, ok := v.(json.Number); ok {
			if val, ok := numberVal(n); ok && (f.typ == fieldFloat || val.f == math.Trunc(val.f)) {
				return val, nil
			}
		}
	case fieldDate:
		if s, ok := v.(string); ok {
			if val, ok := dateVal(s); ok {
				return val, nil
			}
			return mdVal{}, fmt.Errorf("value of %q is not an RFC 3339 date-time", f.key)
		}
	case fieldEnum:
		if s, ok := v.(string); ok {
			if _, o := f.option(s); o != nil {
				return mdVal{kind: valString, s: s}, nil
			}
			return mdVal{}, fmt.Errorf("%q is not an option of field %q", s, f.key)
		}
	case fieldMultiSelect, fieldTaxonomy:
		list, ok := stringList(v)
		if !ok {
			break
		}
		if f.typ == fieldMultiSelect {
			for _, s := range list {
				if _, o := f.option(s); o == nil {
					return mdVal{}, fmt.Errorf("%q is not an option of field %q", s, f.key)
				}
			}
		}
		return mdVal{kind: valList, list: list}, nil
	}
	return mdVal{}, fmt.Errorf("value of %q does not match its field type %s", f.key, f.typ)
}

func stringList(v any) ([]string, bool) {
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

// templateValues checks a whole set of custom values against a template:
// every key must be a field of the template (global.properties takes any
// key that does not start with "$", with string values only). A failure
// is 400 schema_validation_failed.
func templateValues(t *mdTemplate, raw map[string]any) (map[string]mdVal, *mdError) {
	out := make(map[string]mdVal, len(raw))
	for k, v := range raw {
		if v == nil {
			continue // null: no value
		}
		if t.freeForm() {
			s, ok := v.(string)
			if k == "" || k[0] == '$' || !ok {
				return nil, mdErrf(400, codeSchemaValidationFailed, "global.properties takes string values under keys not starting with $ (key %q)", k)
			}
			out[k] = mdVal{kind: valString, s: s}
			continue
		}
		_, f := t.field(k)
		if f == nil {
			return nil, mdErrf(400, codeSchemaValidationFailed, "%q is not a field of template %s", k, t.key)
		}
		val, err := fieldValue(f, v)
		if err != nil {
			return nil, mdErrf(400, codeSchemaValidationFailed, "%s", err.Error())
		}
		out[k] = val
	}
	return out, nil
}

// decodeObject decodes a JSON object with numbers kept as json.Number.
func decodeObject(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data")
	}
	if m == nil {
		return nil, errors.New("not an object")
	}
	return m, nil
}

// parseRFC3339 parses an RFC 3339 date-time (fractional seconds optional).
func parseRFC3339(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }
