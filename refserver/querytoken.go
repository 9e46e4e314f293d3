package refserver

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
)

// queryTokenParam is the query parameter that carries an access token
// where a browser cannot send an Authorization header: a link the page
// opens, an <img> source.
const queryTokenParam = "access_token"

// queryToken returns the access token of r's query where the service
// accepts one instead of the Authorization header: the downloads
// (GET /files/{file_id}/content, documented), and the URLs Box UI Elements
// build with it, a file's thumbnail (GET /files/{file_id}/thumbnail.png,
// .jpg), a representation's content (GET /internal_files/.../content/...)
// and a user's avatar (GET /users/{user_id}/avatar). Anywhere else
// the parameter is no token (401 without an Authorization header). An
// Authorization header, when sent, is used instead (authenticate); a
// parameter given twice is none.
func queryToken(r *http.Request) (string, bool) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return "", false
	}
	rest, ok := strings.CutPrefix(r.URL.Path, state.APIRoot+"/")
	if !ok {
		return "", false
	}
	seg := strings.Split(rest, "/")
	switch {
	case len(seg) == 3 && seg[1] != "" && seg[0] == "files" && (seg[2] == "content" || seg[2] == "thumbnail.png" || seg[2] == "thumbnail.jpg"),
		len(seg) == 3 && seg[1] != "" && seg[0] == "users" && seg[2] == "avatar",
		// a representation's content (thumbnails.go): the url_template of
		// the representations field, as the elements load it in an <img>
		len(seg) >= 7 && seg[0] == "internal_files" && seg[1] != "" && seg[2] == "versions" && seg[4] == "representations" && seg[6] == "content":
	default:
		return "", false
	}
	v := r.URL.Query()[queryTokenParam]
	if len(v) != 1 || v[0] == "" {
		return "", false
	}
	return v[0], true
}

// redactQueryToken returns a raw query with the value of every
// access_token parameter replaced by "[redacted]", for the request log;
// the other parameters are kept as sent.
func redactQueryToken(raw string) string {
	if !strings.Contains(raw, queryTokenParam) && !strings.Contains(raw, "%") {
		return raw // no key that is or unescapes to access_token
	}
	parts := strings.Split(raw, "&")
	for i, p := range parts {
		k, _, _ := strings.Cut(p, "=")
		if name, err := url.QueryUnescape(k); err == nil && name == queryTokenParam || k == queryTokenParam {
			parts[i] = k + "=[redacted]"
		}
	}
	return strings.Join(parts, "&")
}
