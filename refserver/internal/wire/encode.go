package wire

import (
	"encoding/json"
	"slices"
	"strconv"
)

// Marshal encodes v as json.Marshal does, byte for byte, faster for the
// values the server's records are built of: maps with string keys, slices,
// strings, integers, booleans and nil are written directly (map keys in
// sorted order, strings HTML-safe, as encoding/json writes them); any
// other value (structs, floats, pointers, types with their own
// MarshalJSON) is handed to encoding/json. A json.RawMessage is copied as
// it is when one scan shows encoding/json's compaction would not change it
// (no space between tokens, nothing HTML-unsafe): the server's own records
// always are; a raw message kept from a request body may not be.
func Marshal(v any) ([]byte, error) {
	return AppendJSON(make([]byte, 0, 512), v)
}

// AppendJSON appends the encoding of v (as Marshal) to b.
func AppendJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return AppendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case int32:
		return strconv.AppendInt(b, int64(x), 10), nil
	case uint64:
		return strconv.AppendUint(b, x, 10), nil
	case json.RawMessage:
		if x == nil {
			return append(b, "null"...), nil
		}
		if compactAndSafe(x) {
			return append(b, x...), nil
		}
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		return appendObject(b, x)
	case map[string]string:
		if x == nil {
			return append(b, "null"...), nil
		}
		return appendObject(b, x)
	case []any:
		if x == nil {
			return append(b, "null"...), nil
		}
		return appendArray(b, x)
	case []map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		return appendArray(b, x)
	case []string:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, e)
		}
		return append(b, ']'), nil
	}
	enc, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, enc...), nil
}

// appendArray writes xs as a JSON array, each element as AppendJSON does.
func appendArray[T any](b []byte, xs []T) ([]byte, error) {
	b = append(b, '[')
	for i, e := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = AppendJSON(b, e); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// appendObject writes m's members in key order, as encoding/json does.
func appendObject[V any](b []byte, m map[string]V) ([]byte, error) {
	return appendObjectWith(b, m, func(b []byte, _ string, v V) ([]byte, error) {
		return AppendJSON(b, v)
	})
}

// appendObjectWith appends m as a JSON object with its keys in byte
// order, each value written by appendValue.
func appendObjectWith[V any](b []byte, m map[string]V, appendValue func(b []byte, key string, v V) ([]byte, error)) ([]byte, error) {
	b = append(b, '{')
	// The keys of a record (most have fewer than smallObject) are sorted
	// in an array on this frame's stack: no allocation per object, where
	// a slice made for them was a quarter of what a search page allocated
	// (BenchmarkSearch100k).
	var small [smallObject]string
	for i, k := range sortedKeys(small[:0], m) {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendString(b, k)
		b = append(b, ':')
		var err error
		if b, err = appendValue(b, k, m[k]); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

// smallObject is how many keys appendObjectWith sorts without allocating.
const smallObject = 24

// sortedKeys is m's keys in byte order: slices.Sorted(maps.Keys(m)),
// but in buf when they fit, else in one slice of the right size (the
// iterator's version grows its slice from nothing: five times the
// allocations of a record's encoding).
func sortedKeys[V any](buf []string, m map[string]V) []string {
	keys := buf[:0]
	if len(m) > cap(buf) {
		keys = make([]string, 0, len(m))
	}
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// rawSpecial marks the bytes compactAndSafe must look at; every other
// byte is copied as it is whether or not it is inside a string.
var rawSpecial = func() (t [256]bool) {
	for _, c := range []byte{'<', '>', '&', 0xE2, '"', '\\', ' ', '\t', '\n', '\r'} {
		t[c] = true
	}
	return t
}()

// compactAndSafe reports whether raw (valid JSON) has no whitespace
// between tokens and no byte encoding/json escapes when it compacts a raw
// message (<, >, &, U+2028, U+2029), so that it can be copied unchanged.
func compactAndSafe(raw []byte) bool {
	inString, escaped := false, false
	for _, c := range raw {
		if escaped {
			escaped = false
			continue
		}
		if !rawSpecial[c] {
			continue
		}
		switch c {
		case '<', '>', '&', 0xE2:
			return false // 0xE2 may start U+2028 or U+2029: let encoding/json decide
		case '"':
			inString = !inString
		case '\\':
			escaped = inString
		default: // whitespace
			if !inString {
				return false
			}
		}
	}
	return true
}
