package refserver

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// maxJSONBody bounds JSON request bodies.
const maxJSONBody = 1 << 20

// decodeJSON decodes a JSON body strictly: unknown fields, wrong types,
// trailing data and an empty body are 400 bad_request.
func decodeJSON(r io.Reader, v any) *apiError {
	lr := &io.LimitedReader{R: r, N: maxJSONBody + 1}
	dec := json.NewDecoder(lr)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if lr.N <= 0 {
			return errBadRequest("Request body too large")
		}
		if errors.Is(err, io.EOF) {
			return errBadRequest("Request body is empty")
		}
		return errBadRequest("Invalid JSON body: %s", jsonErrText(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errBadRequest("Invalid JSON body: trailing data")
	}
	return nil
}

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
