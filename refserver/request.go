package refserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// maxJSONBody bounds JSON request bodies.
const maxJSONBody = 1 << 20

// decodeJSON decodes a JSON body strictly: unknown fields, wrong types,
// trailing data, an empty body and a body that is just null are 400
// bad_request. (encoding/json takes a top-level null as "leave v as it
// is", which would make an update that changes nothing of a client's
// mistake; no endpoint takes null for a body.)
func decodeJSON(r io.Reader, v any) *apiError {
	lr := &io.LimitedReader{R: r, N: maxJSONBody + 1}
	dec := json.NewDecoder(lr)
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if lr.N <= 0 {
			return errBadRequest("Request body too large")
		}
		if errors.Is(err, io.EOF) {
			return errBadRequest("Request body is empty")
		}
		return errBadRequest("Invalid JSON body: %s", jsonErrText(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if lr.N <= 0 {
			return errBadRequest("Request body too large")
		}
		return errBadRequest("Invalid JSON body: trailing data")
	}
	if bytes.Equal(raw, []byte("null")) {
		return errBadRequest("Request body is empty: null is no request")
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(v); err != nil {
		return errBadRequest("Invalid JSON body: %s", jsonErrText(err))
	}
	return nil
}

// decodeJSONObject is decodeJSON for a JSON object body whose members may
// be null only where nullOK names them. The service gives null a meaning
// for a few members (remove a shared link, clear a due date, roll a user
// out, turn off permissions: the members nullable in the spec); for the
// others null is no value of the member's type, and taking it as "absent"
// would let a client's mistake through unseen. Such a null is 400 with
// code (the code the resource uses for an invalid value; the service
// documents none for this).
func decodeJSONObject(r io.Reader, v any, code string, nullOK ...string) *apiError {
	b, aerr := readBody(r)
	if aerr != nil {
		return aerr
	}
	if aerr := decodeJSON(bytes.NewReader(b), v); aerr != nil {
		return aerr
	}
	return checkNulls(b, code, nullOK...)
}

// checkNulls answers 400 with code for the first member (in name order)
// of the JSON object b that is null and not named in nullOK.
func checkNulls(b []byte, code string, nullOK ...string) *apiError {
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
	return errf(http.StatusBadRequest, code, "Invalid value for %q: null is not allowed here", names[0])
}

// nullable is a member of a request body that may be absent, null or a
// value: the server's one tri-state type, for the members whose null means
// something (decodeJSONObject refuses null elsewhere). A value is decoded
// strictly (unknown fields rejected), as decodeJSON does for the body.
type nullable[T any] struct {
	present, null bool
	v             T
}

// UnmarshalJSON is called only for a member that is present.
func (n *nullable[T]) UnmarshalJSON(b []byte) error {
	n.present = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		var zero T
		n.null, n.v = true, zero
		return nil
	}
	n.null = false
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(&n.v)
}

// value reports the value when one is given (not absent, not null).
func (n nullable[T]) value() (T, bool) { return n.v, n.present && !n.null }

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

// requireJSONContentType rejects bodies that are declared as something else.
func requireJSONContentType(r *http.Request) *apiError {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, _ := strings.Cut(ct, ";")
	if !strings.EqualFold(strings.TrimSpace(mt), "application/json") {
		return errBadRequest("Content-Type must be application/json")
	}
	return nil
}

// queryInt reads an optional non-negative integer query parameter.
func queryInt(r *http.Request, name string, def int64) (int64, *apiError) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, errBadRequest("Invalid value for %q", name)
	}
	return n, nil
}

// pageLimit reads limit with a default and a maximum (a larger value is
// lowered to the maximum).
func pageLimit(r *http.Request, def, max int64) (int64, *apiError) {
	n, aerr := queryInt(r, "limit", def)
	if aerr != nil {
		return 0, aerr
	}
	if n == 0 {
		return 0, errBadRequest("Invalid value for \"limit\"")
	}
	return min(n, max), nil
}

// queryBool reads an optional boolean query parameter.
func queryBool(r *http.Request, name string) (bool, *apiError) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, errBadRequest("Invalid value for %q", name)
	}
	return b, nil
}

// encodeMarker and decodeMarker make an opaque marker from a position.
func encodeMarker(pos int64) string {
	return base64.RawURLEncoding.EncodeToString([]byte("pos:" + strconv.FormatInt(pos, 10)))
}

func decodeMarker(m string) (int64, bool) {
	b, err := base64.RawURLEncoding.DecodeString(m)
	if err != nil || !bytes.HasPrefix(b, []byte("pos:")) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(b[4:]), 10, 64)
	return n, err == nil && n >= 0
}

// compareIDs orders numeric ids as numbers (shorter first, then by digits),
// for lists sorted by id.
func compareIDs(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}
