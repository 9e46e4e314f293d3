package refserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/contentapi/cms/refserver/internal/governance"
	"github.com/contentapi/cms/refserver/internal/state"
)

// FuzzParseDays: retention_length and max_extension_length accept only 1 to
// MaxInt32 days or their word, and never panic.
func FuzzParseDays(f *testing.F) {
	for _, s := range []string{`"365"`, `365`, `"indefinite"`, `"none"`, `0`, `-1`, `1.5`, `1e3`, `"2147483648"`, `" 7"`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		days, word, aerr := governance.ParseDays(json.RawMessage(b), "retention_length", "indefinite")
		if aerr == nil && !word && (days < 1 || days > 1<<31-1) {
			t.Fatalf("accepted %d days from %q", days, b)
		}
	})
}

// FuzzRetentionPolicyBody sends any body to POST /retention_policies and
// POST /legal_hold_policies: the answer is 201 or a 4xx error, never a
// panic or a 500.
func FuzzRetentionPolicyBody(f *testing.F) {
	for _, s := range []string{
		`{"policy_name":"a","policy_type":"finite","disposition_action":"remove_retention","retention_length":"3"}`,
		`{"policy_name":"a","policy_type":"indefinite","disposition_action":"permanently_delete","max_extension_length":"none"}`,
		`{"policy_name":"a","is_ongoing":true}`, `{"policy_name":"a","filter_started_at":"2025-01-01T00:00:00Z","filter_ended_at":"2025-01-02T00:00:00Z"}`,
		`{}`, `null`, `[]`, `{"policy_name":null}`,
	} {
		f.Add([]byte(s))
	}
	s, err := New(Options{})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, path := range []string{"/retention_policies", "/legal_hold_policies", "/retention_policy_assignments", "/legal_hold_policy_assignments"} {
			req := httptest.NewRequest(http.MethodPost, "http://"+state.InProcessAPIHost+state.APIRoot+path, bytes.NewReader(b))
			req.Header.Set("Authorization", "Bearer "+s.AdminToken())
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code >= 500 || rec.Code < 200 {
				t.Fatalf("%s %q: %d %s", path, b, rec.Code, rec.Body)
			}
		}
	})
}
