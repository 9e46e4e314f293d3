package cms

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// MetadataInstance is a template's values on a file or folder
// (Metadata--Full). The system keys ($parent, $template, ...) are typed
// fields; every custom key is kept in Values as the exact JSON the service
// sent, so nothing is dropped or rounded, and the record marshals back to
// the same keys and values. Read values with the typed getters (String,
// Float64, Number, Time, Strings) or bind them to a struct with Decode.
type MetadataInstance struct {
	// Parent is the item, "file_<id>" or "folder_<id>" ($parent).
	Parent string
	// Template is the template key ($template).
	Template string
	// Scope is global or enterprise_<id> ($scope).
	Scope MetadataScope
	// Version starts at 0 and grows with each change of a value ($version).
	Version int64
	// CanEdit says whether the caller may change the instance ($canEdit).
	CanEdit bool
	// ID is the instance's id, a UUID ($id).
	ID string
	// Type and TypeVersion are the service's internal names ($type,
	// $typeVersion).
	Type        string
	TypeVersion int64
	// Values holds the custom keys, raw.
	Values map[string]json.RawMessage

	// present marks the system keys the record had, so that false and 0
	// round-trip; other holds unknown "$" keys.
	present map[string]bool
	other   map[string]json.RawMessage
}

// ErrMetadataValueNotSet is returned by the typed getters of
// MetadataInstance for a key that is absent or null.
var ErrMetadataValueNotSet = errors.New("cms: metadata value not set")

// systemKeys are the "$" keys MetadataInstance types, in the order they are
// written.
var systemKeys = []string{"$id", "$type", "$parent", "$scope", "$template", "$version", "$typeVersion", "$canEdit"}

// UnmarshalJSON keeps the system keys typed and the custom keys raw.
func (m *MetadataInstance) UnmarshalJSON(b []byte) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	if all == nil {
		return errors.New("cms: metadata instance is not a JSON object")
	}
	*m = MetadataInstance{Values: map[string]json.RawMessage{}, present: map[string]bool{}}
	for k, v := range all {
		if !strings.HasPrefix(k, "$") {
			m.Values[k] = v
			continue
		}
		var err error
		switch k {
		case "$id":
			err = unmarshalLenient(v, (*flexString)(&m.ID))
		case "$type":
			err = unmarshalLenient(v, (*flexString)(&m.Type))
		case "$parent":
			err = unmarshalLenient(v, (*flexString)(&m.Parent))
		case "$scope":
			err = unmarshalLenient(v, (*flexString)(&m.Scope))
		case "$template":
			err = unmarshalLenient(v, (*flexString)(&m.Template))
		case "$version":
			err = unmarshalLenient(v, (*flexInt64)(&m.Version))
		case "$typeVersion":
			err = unmarshalLenient(v, (*flexInt64)(&m.TypeVersion))
		case "$canEdit":
			err = unmarshalLenient(v, &m.CanEdit)
		default:
			if m.other == nil {
				m.other = map[string]json.RawMessage{}
			}
			m.other[k] = v
			continue
		}
		if err != nil {
			return fmt.Errorf("cms: metadata instance %s: %w", k, err)
		}
		m.present[k] = true
	}
	return nil
}

func unmarshalLenient(b []byte, v any) error {
	if string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, v)
}

// flexInt64 decodes a JSON number or numeric string.
type flexInt64 int64

func (i *flexInt64) UnmarshalJSON(b []byte) error {
	var s flexString
	if err := s.UnmarshalJSON(b); err != nil {
		return err
	}
	n, err := strconv.ParseInt(string(s), 10, 64)
	if err != nil {
		return err
	}
	*i = flexInt64(n)
	return nil
}

// MarshalJSON writes the system keys (those the record had or that are
// set), then the unknown "$" keys and the custom keys in key order.
func (m MetadataInstance) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	first := true
	write := func(k string, v any) error {
		raw, ok := v.(json.RawMessage)
		if !ok {
			var err error
			if raw, err = json.Marshal(v); err != nil {
				return err
			}
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(raw)
		return nil
	}
	sys := map[string]any{"$id": m.ID, "$type": m.Type, "$parent": m.Parent, "$scope": m.Scope, "$template": m.Template, "$version": m.Version, "$typeVersion": m.TypeVersion, "$canEdit": m.CanEdit}
	for _, k := range systemKeys {
		v := sys[k]
		if m.present[k] || !isZeroValue(v) {
			if err := write(k, v); err != nil {
				return nil, err
			}
		}
	}
	for _, src := range []map[string]json.RawMessage{m.other, m.Values} {
		for _, k := range slices.Sorted(maps.Keys(src)) {
			if !json.Valid(src[k]) {
				return nil, fmt.Errorf("cms: metadata value %q is not valid JSON", k)
			}
			if err := write(k, src[k]); err != nil {
				return nil, err
			}
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func isZeroValue(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case MetadataScope:
		return x == ""
	case int64:
		return x == 0
	case bool:
		return !x
	}
	return false
}

// Decode binds the instance to v (a pointer to a struct or map), as
// json.Unmarshal would bind the instance's JSON: custom keys by their json
// tags, and system keys too for fields tagged "$version", "$id", ....
func (m *MetadataInstance) Decode(v any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// Raw returns the JSON of a custom key, and whether the key is present.
func (m *MetadataInstance) Raw(key string) (json.RawMessage, bool) {
	v, ok := m.Values[key]
	return v, ok
}

// value decodes key into v; absent and null give ErrMetadataValueNotSet.
func (m *MetadataInstance) value(key string, v any) error {
	raw, ok := m.Values[key]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return fmt.Errorf("%w: %q", ErrMetadataValueNotSet, key)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("cms: metadata value %q: %w", key, err)
	}
	return nil
}

// String returns a string or enum value.
func (m *MetadataInstance) String(key string) (string, error) {
	var s string
	return s, m.value(key, &s)
}

// Number returns a float (or integer) value exactly as the service sent it.
func (m *MetadataInstance) Number(key string) (json.Number, error) {
	var n json.Number
	return n, m.value(key, &n)
}

// Float64 returns a float (or integer) value, parsed from its exact text
// (the nearest float64, no float32 step in between).
func (m *MetadataInstance) Float64(key string) (float64, error) {
	n, err := m.Number(key)
	if err != nil {
		return 0, err
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil {
		return 0, fmt.Errorf("cms: metadata value %q: %w", key, err)
	}
	return f, nil
}

// Int64 returns an integer value: the deprecated integer field type, or a
// float value written without fraction or exponent.
func (m *MetadataInstance) Int64(key string) (int64, error) {
	n, err := m.Number(key)
	if err != nil {
		return 0, err
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("cms: metadata value %q: %w", key, err)
	}
	return i, nil
}

// Time returns a date value (RFC 3339).
func (m *MetadataInstance) Time(key string) (time.Time, error) {
	s, err := m.String(key)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("cms: metadata value %q: %w", key, err)
	}
	return t, nil
}

// Strings returns a multiSelect value (a list of option keys).
func (m *MetadataInstance) Strings(key string) ([]string, error) {
	var ss []string
	return ss, m.value(key, &ss)
}

// Set sets a custom key to value, encoded as MetadataValue encodes it.
func (m *MetadataInstance) Set(key string, value any) error {
	if key == "" || strings.HasPrefix(key, "$") {
		return invalidArg("metadata key", quoteArg(key)+" is empty or a system key")
	}
	raw, err := MetadataValue(value)
	if err != nil {
		return err
	}
	if m.Values == nil {
		m.Values = map[string]json.RawMessage{}
	}
	m.Values[key] = raw
	return nil
}

// metadataDateLayout is how dates are sent: RFC 3339 with milliseconds.
const metadataDateLayout = "2006-01-02T15:04:05.000Z07:00"

// MetadataValue encodes one value for an instance or a patch: a time.Time
// becomes an RFC 3339 date with milliseconds (the service's form), a
// json.RawMessage is kept (it must be valid JSON), anything else is
// json.Marshal'ed (strings, numbers, []string, ...).
func MetadataValue(v any) (json.RawMessage, error) {
	switch x := v.(type) {
	case time.Time:
		return json.Marshal(x.Format(metadataDateLayout))
	case *time.Time:
		if x == nil {
			return json.RawMessage("null"), nil
		}
		return json.Marshal(x.Format(metadataDateLayout))
	case json.RawMessage:
		if !json.Valid(x) {
			return nil, invalidArg("metadata value", "not valid JSON")
		}
		return slices.Clone(x), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &ArgError{Arg: "metadata value", Reason: err.Error(), Err: ErrInvalidArgument}
	}
	return b, nil
}

// MetadataValues turns v into the custom keys of an instance: v is a
// struct (json tags name the keys), a map with string keys, a
// *MetadataInstance (its Values) or anything that marshals to a JSON
// object. Keys starting with "$" are left out.
func MetadataValues(v any) (map[string]json.RawMessage, error) {
	switch x := v.(type) {
	case nil:
		return map[string]json.RawMessage{}, nil
	case *MetadataInstance:
		if x == nil {
			return map[string]json.RawMessage{}, nil
		}
		return maps.Clone(x.Values), nil
	case MetadataInstance:
		return maps.Clone(x.Values), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, &ArgError{Arg: "metadata values", Reason: err.Error(), Err: ErrInvalidArgument}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return nil, invalidArg("metadata values", "not a JSON object")
	}
	for k := range m {
		if strings.HasPrefix(k, "$") {
			delete(m, k)
		}
	}
	return m, nil
}
