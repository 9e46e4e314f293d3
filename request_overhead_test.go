package cms

// Tests of what was changed to make a call cheaper (perf_calls_bench_test.go
// measures it): each checks behaviour, not speed.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-querystring/query"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/oauth2"
)

func TestNoQueryAgreesWithQueryValues(t *testing.T) {
	assert.True(t, noQuery(nil))
	assert.True(t, noQuery((*GetFileOptions)(nil)), "a nil options pointer gives no query")
	assert.True(t, noQuery(&GetFileOptions{}))
	assert.False(t, noQuery(&GetFileOptions{IfNoneMatch: "e"}), "a non-zero value goes through query.Values")
	assert.False(t, noQuery(&GetFileOptions{Fields: []string{"name"}}))
	assert.False(t, noQuery(&markerItemsQuery{}), "usemarker has no omitempty: its zero value is sent")

	// For every kind of value, noQuery(v) implies query.Values(v) is empty.
	for _, v := range []any{
		&GetFileOptions{}, &GetFileOptions{Fields: []string{"a", "b"}}, &ListItemsOptions{}, &ListItemsOptions{Limit: 5},
		&markerItemsQuery{}, &markerItemsQuery{UseMarker: true}, &DownloadOptions{}, &DownloadOptions{Version: "1"},
		&DeleteFileOptions{}, &FieldsOptions{}, struct{}{},
	} {
		q, err := query.Values(v)
		require.NoError(t, err)
		if noQuery(v) {
			assert.Empty(t, q, "%T %+v", v, v)
		}
		if len(q) > 0 {
			assert.False(t, noQuery(v), "%T %+v", v, v)
		}
	}
}

func TestRequestQueryAndPathOnTheWire(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.RequestURI()+" inm="+r.Header.Get("If-None-Match")+" as="+r.Header.Get("As-User")+" auth="+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":"file","id":"12","name":"a"}`)
	}))
	defer srv.Close()
	c, err := NewClient(WithToken("tok"), WithBaseURL(srv.URL+"/2.0"), WithUploadURL(srv.URL+"/up"))
	require.NoError(t, err)
	ctx := context.Background()
	_, _, err = c.Files.Get(ctx, "12", &GetFileOptions{IfNoneMatch: "e1", Fields: []string{"name", "size"}})
	require.NoError(t, err)
	_, _, err = c.Files.Get(ctx, "12", nil)
	require.NoError(t, err)
	as, err := c.AsUser("77")
	require.NoError(t, err)
	_, _, err = as.Files.Get(ctx, "12", &GetFileOptions{})
	require.NoError(t, err)
	r, err := c.newRequest(http.MethodGet, c.cfg.baseURL, nil, "x", "a b/ü")
	require.NoError(t, err)
	_, err = c.do(ctx, r, new(File))
	require.NoError(t, err)
	assert.Equal(t, []string{
		"GET /2.0/files/12?fields=name%2Csize inm=e1 as= auth=Bearer tok",
		"GET /2.0/files/12 inm= as= auth=Bearer tok", // the first call's header did not stay
		"GET /2.0/files/12 inm= as=77 auth=Bearer tok",
		"GET /2.0/x/a%20b%2F%C3%BC inm= as= auth=Bearer tok",
	}, seen)
}

func TestHeaderWithCopies(t *testing.T) {
	h := http.Header{"Accept": {"application/json"}, "X-Two": {"a", "b"}, "Authorization": {"Bearer old"}, "User-Agent": nil}
	got := headerWith(h, "Authorization", "Bearer new")
	assert.Equal(t, http.Header{"Accept": {"application/json"}, "X-Two": {"a", "b"}, "Authorization": {"Bearer new"}, "User-Agent": nil}, got)
	_, kept := got["User-Agent"]
	assert.True(t, kept, "a nil value (suppress the header) is kept")
	assert.Equal(t, []string{"Bearer old"}, h["Authorization"], "the original is unchanged")
	got["X-Two"] = append(got["X-Two"], "c") // must not write into the next key's values
	got.Add("Accept", "text/plain")
	assert.Equal(t, []string{"a", "b"}, h["X-Two"])
	assert.Equal(t, []string{"Bearer new"}, got["Authorization"])
	assert.Equal(t, http.Header{"Authorization": {"v"}}, headerWith(nil, "Authorization", "v"))
}

// seqTokens hands out tok1, tok2, ... one per Token call.
type seqTokens struct {
	mu sync.Mutex
	n  int
}

func (s *seqTokens) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	return &oauth2.Token{AccessToken: fmt.Sprintf("tok%d", s.n)}, nil
}

func TestAuthTransportSendsTheCurrentToken(t *testing.T) {
	var (
		mu   sync.Mutex
		auth []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		_, _ = io.WriteString(w, `{"id":"1"}`)
	}))
	defer srv.Close()
	c, err := NewClient(WithTokenSource(&seqTokens{}), WithBaseURL(srv.URL), WithUploadURL(srv.URL))
	require.NoError(t, err)
	for range 3 {
		_, _, err := c.Files.Get(context.Background(), "1", nil)
		require.NoError(t, err)
	}
	assert.Equal(t, []string{"Bearer tok1", "Bearer tok2", "Bearer tok3"}, auth, "a token change is never hidden by the kept header value")
}

func TestPooledBodiesDoNotLeakIntoResults(t *testing.T) {
	// Bodies of different sizes and contents, decoded concurrently: each
	// result must be its own, including a metadata field kept raw, after
	// the buffers went back to the pool and were reused.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := strings.TrimPrefix(r.URL.Path, "/files/")
		pad := strings.Repeat("x", len(id)*97)
		fmt.Fprintf(w, `{"type":"file","id":%q,"name":"n-%s-%s","metadata":{"global":{"properties":{"k":"v-%s"}}}}`, id, id, pad, id)
	}))
	defer srv.Close()
	c, err := NewClient(WithToken("t"), WithBaseURL(srv.URL), WithUploadURL(srv.URL))
	require.NoError(t, err)
	type res struct {
		id string
		f  *File
	}
	out := make(chan res, 8*40)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 40 {
				id := fmt.Sprint(1 + g*1000 + k*7)
				f, _, err := c.Files.Get(context.Background(), id, nil)
				if !assert.NoError(t, err) {
					return
				}
				out <- res{id, f}
			}
		}()
	}
	wg.Wait()
	close(out)
	n := 0
	for r := range out {
		n++
		assert.Equal(t, r.id, r.f.ID)
		assert.Equal(t, "n-"+r.id+"-"+strings.Repeat("x", len(r.id)*97), r.f.Name)
		assert.JSONEq(t, `{"k":"v-`+r.id+`"}`, string(r.f.Metadata["global"]["properties"]), "raw metadata kept intact")
	}
	assert.Equal(t, 8*40, n)
}
