package refserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repNames is the names (jpg_320x320) of a representations field's entries.
func repNames(t *testing.T, item map[string]any) []string {
	t.Helper()
	reps, ok := item["representations"].(map[string]any)
	require.True(t, ok, "representations in %v", item)
	names := []string{}
	for _, e := range reps["entries"].([]any) {
		m := e.(map[string]any)
		names = append(names, m["representation"].(string)+"_"+m["properties"].(map[string]any)["dimensions"].(string))
	}
	return names
}

func TestRepHintsFilterRepresentations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	pic := e.uploadFile(tok, "0", "hints.png", pngBytes(t, 40, 20))["id"].(string)
	all := []string{"jpg_1024x1024", "jpg_320x320", "jpg_160x160", "jpg_94x94", "jpg_32x32", "png_1024x1024", "png_2048x2048"}
	for _, tc := range []struct {
		name, hints string
		want        []string
	}{
		{"absent: every one", "", all},
		{"one size", "[jpg?dimensions=32x32]", []string{"jpg_32x32"}},
		{"two hints, in their order", "[png?dimensions=2048x2048][jpg?dimensions=94x94]", []string{"png_2048x2048", "jpg_94x94"}},
		{"the first available alternative", "[jpg?dimensions=2048x2048,png?dimensions=2048x2048]", []string{"png_2048x2048"}},
		{"first alternative wins", "[jpg?dimensions=320x320,png?dimensions=1024x1024]", []string{"jpg_320x320"}},
		{"Box UI Elements' folder hint", "[jpg?dimensions=1024x1024&paged=false,png?dimensions=1024x1024][pdf][text]", []string{"jpg_1024x1024"}},
		{"Box UI Elements' preview hint", "[3d][pdf][text][mp3][json][jpg?dimensions=1024x1024&paged=false][webp?dimensions=1024x1024][jpg?dimensions=2048x2048,png?dimensions=2048x2048][dash,mp4][filmstrip]", []string{"jpg_1024x1024", "png_2048x2048"}},
		{"a comma list of dimensions", "[jpg?dimensions=32x32,94x94]", []string{"jpg_32x32", "jpg_94x94"}},
		{"a kind without dimensions: every size", "[png]", []string{"png_1024x1024", "png_2048x2048"}},
		{"each entry once", "[jpg?dimensions=32x32][jpg?dimensions=32x32]", []string{"jpg_32x32"}},
		{"a size the server does not make", "[jpg?dimensions=64x64]", []string{}},
		{"a kind the server does not make", "[pdf]", []string{}},
		{"extracted text of an image", "[extracted_text]", []string{}},
		{"paged=true matches no image", "[jpg?dimensions=32x32&paged=true]", []string{}},
		{"spaces between hints", " [jpg?dimensions=32x32] [png?dimensions=1024x1024] ", []string{"jpg_32x32", "png_1024x1024"}},
	} {
		h := hdr{}
		if tc.hints != "" {
			h["X-Rep-Hints"] = tc.hints
		}
		resp, m := e.doJSON("GET", e.api("/files/"+pic+"?fields=representations"), tok, nil, h)
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %v", tc.name, m)
		assert.Equal(t, tc.want, repNames(t, m), tc.name)
	}
}

func TestRepHintsMalformed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	pic := e.uploadFile(tok, "0", "bad.png", pngBytes(t, 40, 20))["id"].(string)
	for _, hints := range []string{
		"jpg", "[jpg", "[]", "[jpg,]", "[jpg?]", "[jpg?dimensions]", "[jpg?dimensions=big]",
		"[jpg?dimensions=32x32&dimensions=94x94]", "[jpg?paged=maybe]", "[jpg] x", "[j.pg]", "[[jpg]]",
	} {
		for _, url := range []string{
			"/files/" + pic + "?fields=representations",
			"/folders/0/items?fields=representations",
			"/folders/0?fields=representations",
			"/search?query=bad&fields=representations",
			"/recent_items?fields=representations",
		} {
			resp, m := e.doJSON("GET", e.api(url), tok, nil, hdr{"X-Rep-Hints": hints})
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode, "%q %s", hints, url)
			assert.Equal(t, "bad_request", m["code"], "%q %s", hints, url)
		}
	}
}

// The lists Box UI Elements read thumbnails from (the folder's items, the
// folder's item_collection, search, recent items) take the hints too.
func TestRepHintsOnLists(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	pic := e.uploadFile(tok, "0", "listed.png", pngBytes(t, 40, 20))["id"].(string)
	hint := hdr{"X-Rep-Hints": "[jpg?dimensions=94x94][png?dimensions=1024x1024]"}
	want := []string{"jpg_94x94", "png_1024x1024"}
	find := func(entries []any, item string) map[string]any {
		for _, x := range entries {
			m := x.(map[string]any)
			if it, ok := m["item"].(map[string]any); ok && item == "item" {
				m = it
			}
			if m["id"] == pic {
				return m
			}
		}
		t.Fatalf("%s not in %v", pic, entries)
		return nil
	}

	_, m := e.doJSON("GET", e.api("/folders/0/items?fields=representations"), tok, nil, hint)
	assert.Equal(t, want, repNames(t, find(m["entries"].([]any), "")), "folder items")

	_, m = e.doJSON("GET", e.api("/folders/0?fields=item_collection,representations"), tok, nil, hint)
	assert.Equal(t, want, repNames(t, find(m["item_collection"].(map[string]any)["entries"].([]any), "")), "item_collection")

	_, m = e.doJSON("GET", e.api("/recent_items?fields=representations"), tok, nil, hint)
	assert.Equal(t, want, repNames(t, find(m["entries"].([]any), "item")), "recent items")

	_, m = e.doJSON("GET", e.api("/search?query=listed&fields=representations"), tok, nil, hint)
	assert.Equal(t, want, repNames(t, find(m["entries"].([]any), "")), "search")
}
