package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxJSONBody bounds JSON request bodies.
const MaxJSONBody = 1 << 20

// DecodeJSON decodes a JSON body strictly: unknown fields, wrong types,
// trailing data, an empty body and a body that is just null are 400
// bad_request. (encoding/json takes a top-level null as "leave v as it
// is", which would make an update that changes nothing of a client's
// mistake; no endpoint takes null for a body.)
func DecodeJSON(r io.Reader, v any) *Error {
	lr := &io.LimitedReader{R: r, N: MaxJSONBody + 1}
	dec := json.NewDecoder(lr)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if lr.N <= 0 {
			return BadRequest("Request body too large")
		}
		if errors.Is(err, io.EOF) {
			return BadRequest("Request body is empty")
		}
		return BadRequest("Invalid JSON body: %s", jsonErrText(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if lr.N <= 0 {
			return BadRequest("Request body too large")
		}
		return BadRequest("Invalid JSON body: trailing data")
	}
	if bytes.Equal(raw, []byte("null")) {
		return BadRequest("Request body is empty: null is no request")
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(v); err != nil {
		return BadRequest("Invalid JSON body: %s", jsonErrText(err))
	}
	return nil
}

// DecodeJSONObject is DecodeJSON for a JSON object body whose members may
// be null only where nullOK names them. The service gives null a meaning
// for a few members (remove a shared link, clear a due date, roll a user
// out, turn off permissions: the members nullable in the spec); for the
// others null is no value of the member's type, and taking it as "absent"
// would let a client's mistake through unseen. Such a null is 400 with
// code (the code the resource uses for an invalid value; the service
// documents none for this).
func DecodeJSONObject(r io.Reader, v any, code string, nullOK ...string) *Error {
	b, aerr := ReadBody(r)
	if aerr != nil {
		return aerr
	}
	if aerr := DecodeJSON(bytes.NewReader(b), v); aerr != nil {
		return aerr
	}
	return CheckNulls(b, code, nullOK...)
}

// CheckNulls answers 400 with code for the first member (in name order)
// of the JSON object b that is null and not named in nullOK.
func CheckNulls(b []byte, code string, nullOK ...string) *Error {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return nil // not an object: the decoder of its type has answered
	}
	names := make([]string, 0, len(m))
	for k, v := range m {
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) && !slices.Contains(nullOK, k) {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return Errorf(StatusBadRequest, code, "Invalid value for %q: null is not allowed here", names[0])
}

// Nullable is a member of a request body that may be absent, null or a
// value: the server's one tri-state type, for the members whose null means
// something (DecodeJSONObject refuses null elsewhere). A value is decoded
// strictly (unknown fields rejected), as DecodeJSON does for the body.
type Nullable[T any] struct {
	Present, Null bool
	V             T
}

// UnmarshalJSON is called only for a member that is present.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	n.Present = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		var zero T
		n.Null, n.V = true, zero
		return nil
	}
	n.Null = false
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(&n.V)
}

// Value reports the value when one is given (not absent, not null).
func (n Nullable[T]) Value() (T, bool) { return n.V, n.Present && !n.Null }

// jsonErrText describes a decoding error without echoing input bytes.
func jsonErrText(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return fmt.Sprintf("field %q must be %s", te.Field, te.Type)
	case errors.As(err, &se):
		return fmt.Sprintf("syntax error at offset %d", se.Offset)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return "unknown field " + strings.TrimPrefix(err.Error(), "json: unknown field ")
	default:
		return "malformed JSON"
	}
}

// RequireJSONContentType rejects bodies whose Content-Type header (ct)
// declares something else.
func RequireJSONContentType(ct string) *Error {
	if ct == "" {
		return nil
	}
	mt, _, _ := strings.Cut(ct, ";")
	if !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
		return BadRequest("Content-Type must be application/json")
	}
	return nil
}

// ReadBody reads a request body of at most MaxJSONBody bytes.
func ReadBody(r io.Reader) ([]byte, *Error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxJSONBody+1))
	if err != nil {
		return nil, BadRequest("Reading the request body failed")
	}
	if len(b) > MaxJSONBody {
		return nil, BadRequest("Request body too large")
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string the way encoding/json writes
// it (HTML-safe: <, > and & escaped; U+2028 and U+2029 escaped; invalid
// UTF-8 replaced by U+FFFD).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendPage appends the encoding of a list page (a map with "entries") to
// b as json.Marshal would encode it, but copies entries that are
// json.RawMessage as they are, without the scan Marshal makes of a raw
// message: a page's raw entries are the server's own compact records
// (MiniJSON). The entries may also be one json.RawMessage, the whole
// array, copied as it is.
func AppendPage(b []byte, page map[string]any) ([]byte, error) {
	var appendEntries func([]byte) ([]byte, error)
	switch e := page["entries"].(type) {
	case []any:
		appendEntries = func(b []byte) ([]byte, error) { return appendTrustedEntries(b, e) }
	case json.RawMessage: // the whole array, written by the server (mini records)
		if e != nil {
			appendEntries = func(b []byte) ([]byte, error) { return append(b, e...), nil }
		}
	}
	if appendEntries == nil {
		return AppendJSON(b, page)
	}
	return appendObjectWith(b, page, func(b []byte, key string, v any) ([]byte, error) {
		if key == "entries" {
			return appendEntries(b)
		}
		return AppendJSON(b, v)
	})
}

// appendTrustedEntries appends entries as a JSON array, copying the ones
// that are json.RawMessage unchecked.
func appendTrustedEntries(b []byte, entries []any) ([]byte, error) {
	b = append(b, '[')
	for j, e := range entries {
		if j > 0 {
			b = append(b, ',')
		}
		var err error
		if raw, isRaw := e.(json.RawMessage); isRaw && raw != nil {
			b = append(b, raw...)
		} else if b, err = AppendJSON(b, e); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}
