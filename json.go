package cms

import (
	"bytes"
	"io"

	gojson "github.com/goccy/go-json"
)

// decodeJSON decodes the JSON of a response (or of an entry inside one)
// into v. It uses github.com/goccy/go-json, a maintained drop-in for
// encoding/json's decoding (same tags, Unmarshaler methods and results):
// measured on a page of 1000 folder entries it decodes 2.3 times as fast
// (BenchmarkDecodeItemsPage), and decoding is most of the client's time when
// it lists large folders. Requests are still encoded with encoding/json.
func decodeJSON(b []byte, v any) error { return gojson.Unmarshal(b, v) }

// readBody reads a response body whole, sized by its Content-Length when
// the server sent one (capped, so a wrong header cannot allocate much).
func readBody(r io.Reader, contentLength int64) ([]byte, error) {
	var buf bytes.Buffer
	if contentLength > 0 {
		buf.Grow(int(min(contentLength, 8<<20)) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}
