package refserver

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pngBytes is a w×h PNG.
func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{R: uint8(x), G: uint8(y), B: 100, A: 255})
		}
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	return buf.Bytes()
}

func TestRepresentationsField(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	pic := e.uploadFile(tok, "0", "pic.PNG", pngBytes(t, 200, 100))
	txt := e.uploadFile(tok, "0", "notes.txt", []byte("x"))

	_, m := e.doJSON("GET", e.api("/files/"+pic["id"].(string)+"?fields=representations"), tok, nil, hdr{"X-Rep-Hints": "[jpg?dimensions=1024x1024&paged=false]"})
	entries := m["representations"].(map[string]any)["entries"].([]any)
	require.NotEmpty(t, entries)
	first := entries[0].(map[string]any)
	assert.Equal(t, "jpg", first["representation"])
	assert.Equal(t, "success", first["status"].(map[string]any)["state"])
	info := first["info"].(map[string]any)["url"].(string)
	tmpl := first["content"].(map[string]any)["url_template"].(string)
	assert.Equal(t, info+"/content/{+asset_path}", tmpl)
	assert.True(t, strings.HasPrefix(info, e.api("/internal_files/"+pic["id"].(string)+"/versions/")), info)

	// As Box UI Elements load it: the template's asset path emptied for
	// jpg, the token in the query (an <img> sends no header).
	resp, body := e.do("GET", strings.Replace(tmpl, "{+asset_path}", "", 1)+"?access_token="+tok, "", nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	assert.Equal(t, "image/jpeg", resp.Header.Get("Content-Type"))
	cfg, format, err := image.DecodeConfig(bytes.NewReader(body))
	require.NoError(t, err)
	assert.Equal(t, "jpeg", format)
	assert.Equal(t, 200, cfg.Width, "not scaled up")

	// The info URL says where it stands.
	_, m = e.doJSON("GET", info, tok, nil, nil)
	assert.Equal(t, "success", m["status"].(map[string]any)["state"])

	// A kind the server does not render has none.
	_, m = e.doJSON("GET", e.api("/files/"+txt["id"].(string)+"?fields=representations"), tok, nil, nil)
	assert.Empty(t, m["representations"].(map[string]any)["entries"])

	// Another user may not read them.
	resp, _ = e.do("GET", strings.Replace(tmpl, "{+asset_path}", "", 1), e.s.AdminToken(), nil, nil)
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the admin sees every file")
}

func TestThumbnailEndpoint(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	pic := e.uploadFile(tok, "0", "pic.png", pngBytes(t, 400, 200))["id"].(string)
	txt := e.uploadFile(tok, "0", "notes.txt", []byte("x"))["id"].(string)
	url := e.api("/files/" + pic + "/thumbnail.jpg?min_width=94&max_width=94")

	// The first ask queues it: 202, Retry-After and a placeholder.
	resp, _ := e.do("GET", url, tok, nil, nil)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.NotEmpty(t, resp.Header.Get("Retry-After"))
	ph := resp.Header.Get("Location")
	require.NotEmpty(t, ph)
	resp, body := e.do("GET", ph, "", nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	_, format, err := image.DecodeConfig(bytes.NewReader(body))
	require.NoError(t, err)
	assert.Equal(t, "jpeg", format)

	// The representation of the same size waits for it (no sleeping).
	var rep string
	_, m := e.doJSON("GET", e.api("/files/"+pic+"?fields=representations"), tok, nil, nil)
	for _, ent := range m["representations"].(map[string]any)["entries"].([]any) {
		if strings.HasSuffix(ent.(map[string]any)["info"].(map[string]any)["url"].(string), "/jpg_94x94") {
			rep = ent.(map[string]any)["content"].(map[string]any)["url_template"].(string)
		}
	}
	require.NotEmpty(t, rep)
	resp, _ = e.do("GET", strings.Replace(rep, "{+asset_path}", "", 1), tok, nil, nil)
	require.Equal(t, http.StatusOK, resp.StatusCode)

	// Now ready: 200, 94 wide, the aspect ratio kept; by query token too.
	for _, r := range []struct{ url, tok string }{{url, tok}, {url + "&access_token=" + tok, ""}} {
		resp, body = e.do("GET", r.url, r.tok, nil, nil)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "image/jpeg", resp.Header.Get("Content-Type"))
		cfg, _, err := image.DecodeConfig(bytes.NewReader(body))
		require.NoError(t, err)
		assert.Equal(t, [2]int{94, 47}, [2]int{cfg.Width, cfg.Height})
	}

	// A kind it cannot render: 302 to the placeholder.
	resp, _ = e.do("GET", e.api("/files/"+txt+"/thumbnail.png"), tok, nil, nil)
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	assert.True(t, strings.HasSuffix(resp.Header.Get("Location"), "/placeholders/thumbnail.png"))

	// Sizes it does not serve; files it does not know or the caller may
	// not see.
	for _, q := range []string{"min_width=10", "max_height=400", "min_width=200&max_width=100", "min_height=x"} {
		resp, m := e.doJSON("GET", e.api("/files/"+pic+"/thumbnail.png?"+q), tok, nil, nil)
		requireAPIError(t, resp, m, 400, "requested_preview_unavailable")
	}
	resp, m = e.doJSON("GET", e.api("/files/123456789/thumbnail.png"), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	adminPic := e.uploadFile(e.s.AdminToken(), "0", "a.png", pngBytes(t, 10, 10))["id"].(string)
	resp, m = e.doJSON("GET", e.api("/files/"+adminPic+"/thumbnail.png"), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")
	resp, _ = e.do("GET", e.api("/files/"+pic+"/thumbnail.gif"), tok, nil, nil)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}
