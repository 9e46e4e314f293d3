package cms

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// FuzzCheckResponse feeds arbitrary error bodies and headers: the parser
// must never panic, always return an *APIError for a non-2xx status, and
// keep the body within its cap.
func FuzzCheckResponse(f *testing.F) {
	f.Add(409, `{"type":"error","code":"item_name_in_use","context_info":{"conflicts":{"id":"1","type":"file"}}}`, "5")
	f.Add(409, `{"context_info":{"conflicts":[{"id":"1"},{"id":"2"}]}}`, "Wed, 21 Oct 2015 07:28:00 GMT")
	f.Add(400, `{"error":"invalid_grant","error_description":"x"}`, "")
	f.Add(500, `not json`, "-1")
	f.Add(404, `{"context_info":null,"code":5}`, "")
	f.Fuzz(func(t *testing.T, status int, body, retryAfter string) {
		if status < 100 || status > 999 {
			status = 500
		}
		r := &http.Response{StatusCode: status, Header: http.Header{"Retry-After": {retryAfter}}, Body: io.NopCloser(strings.NewReader(body))}
		err := CheckResponse(r)
		if status >= 200 && status < 300 {
			if err != nil {
				t.Fatalf("2xx gave %v", err)
			}
			return
		}
		var ae *APIError
		if !errors.As(err, &ae) {
			t.Fatalf("status %d gave %T", status, err)
		}
		if len(ae.Body) > maxErrorBody || ae.RetryAfter < 0 {
			t.Fatalf("body %d bytes, retry after %v", len(ae.Body), ae.RetryAfter)
		}
		_ = ae.Error()
		_ = ae.Conflicts()
	})
}

// FuzzDecodeListPages decodes arbitrary list responses into the page and
// item types: no panic, and a decoded item's type matches its record.
func FuzzDecodeListPages(f *testing.F) {
	f.Add(`{"entries":[{"type":"file","id":"1","size":3},{"type":"folder","id":"2"},{"type":"web_link","id":"3"}],"next_marker":77,"limit":"100"}`)
	f.Add(`{"entries":[{"type":"other"}],"next_marker":null}`)
	f.Add(`{"entries":null,"total_count":5,"offset":0,"limit":2}`)
	f.Fuzz(func(t *testing.T, body string) {
		var mp MarkerPage[*Item]
		if json.Unmarshal([]byte(body), &mp) == nil {
			for _, it := range mp.Entries {
				if it == nil {
					continue
				}
				if (it.File != nil && it.Type != "file") || (it.Folder != nil && it.Type != "folder") || (it.WebLink != nil && it.Type != "web_link") {
					t.Fatalf("item type %q decoded into the wrong record", it.Type)
				}
				if _, err := json.Marshal(it); err != nil {
					t.Fatalf("re-encoding: %v", err)
				}
			}
		}
		var op OffsetPage[*Item]
		_ = json.Unmarshal([]byte(body), &op)
	})
}
