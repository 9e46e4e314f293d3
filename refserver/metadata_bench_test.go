package refserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/metadata"
	"github.com/contentapi/cms/refserver/internal/state"
)

// benchServer is an in-process server holding a template "contract" with
// n instances on n files of the admin (amount 0..n-1, scrambled).
func benchServer(b *testing.B, n int) (*Server, []*state.Item) {
	b.Helper()
	return benchServerCoded(b, n, false)
}

// benchServerCoded is benchServer; coded adds a string field "code",
// "c%05d" of amount/10, so that every code is on exactly 10 instances.
func benchServerCoded(b *testing.B, n int, coded bool) (*Server, []*state.Item) {
	b.Helper()
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	t := &state.MDTemplate{Scope: s.st.EnterpriseScope(), Key: "contract", DisplayName: "Contract"}
	fields := contractFields()
	if coded {
		fields = append(fields, map[string]any{"type": "string", "key": "code", "displayName": "Code"})
	}
	for _, fb := range fields {
		raw, _ := json.Marshal(fb)
		var body metadata.FieldBody
		_ = json.Unmarshal(raw, &body)
		f, aerr := metadata.NewField(body)
		if aerr != nil {
			b.Fatal(aerr)
		}
		t.Fields = append(t.Fields, f)
	}
	tx, end := beginTx(s.st)
	defer end()
	tx.AddTemplate(t)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	statuses := []string{"draft", "active", "closed"}
	items := make([]*state.Item, n)
	for i := range n {
		it := &state.Item{Typ: "file", ID: tx.NewID(), Name: fmt.Sprintf("f%05d.pdf", i), ParentID: state.RootID,
			Owner: tx.Admin, CreatedBy: tx.Admin, ModBy: tx.Admin, CreatedAt: now, ModifiedAt: now,
			Versions: []*state.Version{state.NewVersion(tx.NewID(), blob.Ref{}, now, tx.Admin)}}
		tx.AddItem(it)
		items[i] = it
		amount := (i * 7919) % n // a permutation of 0..n-1
		raw := map[string]any{
			"customer": fmt.Sprintf("Customer %05d", amount), "amount": json.Number(strconv.Itoa(amount)),
			"status": statuses[i%3], "regions": []any{"emea"},
		}
		if coded {
			raw["code"] = fmt.Sprintf("c%05d", amount/10)
		}
		values, merr := metadata.TemplateValues(t, raw)
		if merr != nil {
			b.Fatal(merr)
		}
		tx.AddInstance(t, it, values)
	}
	return s, items
}

func benchDo(b *testing.B, h http.Handler, method, path, token, ct, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, "http://"+state.InProcessAPIHost+state.APIRoot+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", ct)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusOK {
		b.Fatalf("%s %s: %d %s", method, path, w.Code, w.Body)
	}
	return w
}

// BenchmarkMetadataQueryPage serves a page of 100 entries (one filter, one
// sort key) from 10,000 instances of one template, through the handler
// (target: under 5 ms).
func BenchmarkMetadataQueryPage(b *testing.B) {
	s, _ := benchServer(b, 10_000)
	h := s.Handler()
	body := fmt.Sprintf(`{"from":"%s.contract","ancestor_folder_id":"0","query":"amount >= :a","query_params":{"a":2000},
		"order_by":[{"field_key":"amount","direction":"DESC"}],"limit":100}`, s.st.EnterpriseScope())
	benchDo(b, h, "POST", "/metadata_queries/execute_read", s.AdminToken(), "application/json", body) // builds the index
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		benchDo(b, h, "POST", "/metadata_queries/execute_read", s.AdminToken(), "application/json", body)
	}
	b.StopTimer()
	s.ResetRequests()
}

// BenchmarkMetadataQueryLaterPage serves the page after a marker deep in
// the same query (page 50 of 80).
func BenchmarkMetadataQueryLaterPage(b *testing.B) {
	s, _ := benchServer(b, 10_000)
	h := s.Handler()
	body := fmt.Sprintf(`{"from":"%s.contract","ancestor_folder_id":"0","query":"amount >= :a","query_params":{"a":2000},
		"order_by":[{"field_key":"amount","direction":"DESC"}],"limit":100}`, s.st.EnterpriseScope())
	var marker string
	for range 50 {
		paged := body
		if marker != "" {
			paged = strings.TrimSuffix(body, "}") + `,"marker":"` + marker + `"}`
		}
		var out struct {
			NextMarker string `json:"next_marker"`
		}
		w := benchDo(b, h, "POST", "/metadata_queries/execute_read", s.AdminToken(), "application/json", paged)
		_ = json.Unmarshal(w.Body.Bytes(), &out)
		marker = out.NextMarker
	}
	body = strings.TrimSuffix(body, "}") + `,"marker":"` + marker + `"}`
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		benchDo(b, h, "POST", "/metadata_queries/execute_read", s.AdminToken(), "application/json", body)
	}
	b.StopTimer()
	s.ResetRequests()
}

// BenchmarkMetadataInstanceUpdate applies a JSON Patch that changes an
// indexed (sorted-by) value of one of 10,000 instances, through the
// handler (target: under 100 µs).
func BenchmarkMetadataInstanceUpdate(b *testing.B) {
	s, items := benchServer(b, 10_000)
	h := s.Handler()
	warm := fmt.Sprintf(`{"from":"%s.contract","ancestor_folder_id":"0","order_by":[{"field_key":"amount","direction":"ASC"}],"limit":1}`, s.st.EnterpriseScope())
	benchDo(b, h, "POST", "/metadata_queries/execute_read", s.AdminToken(), "application/json", warm)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		path := "/files/" + items[i%len(items)].ID + "/metadata/enterprise/contract"
		patch := `[{"op":"replace","path":"/amount","value":` + strconv.Itoa(20_000+i) + `}]`
		benchDo(b, h, "PUT", path, s.AdminToken(), state.ContentTypeJSONPatch, patch)
	}
	b.StopTimer()
	s.ResetRequests()
}

// BenchmarkMetadataInstanceUpdateState is the same update without HTTP:
// patch decoding, atomic application, validation and the index update.
func BenchmarkMetadataInstanceUpdateState(b *testing.B) {
	s, items := benchServer(b, 10_000)
	tx, end := beginTx(s.st)
	defer end()
	t := tx.Template(tx.EnterpriseScope(), "contract")
	t.Index("amount")
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		patch, aerr := decodeInstancePatch([]byte(`[{"op":"replace","path":"/amount","value":` + strconv.Itoa(20_000+i) + `}]`))
		if aerr != nil {
			b.Fatal(aerr)
		}
		in := t.Instances[items[i%len(items)].ID]
		values, err := metadata.ApplyInstancePatch(in, patch)
		if err != nil {
			b.Fatal(err)
		}
		metadata.SetValues(tx, in, values)
	}
}
