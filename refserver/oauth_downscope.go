package refserver

import (
	"net/http"
	"slices"
	"strings"

	"github.com/contentapi/cms/refserver/internal/oauth"
)

// parseResource reads {base_url}/files/{id} or {base_url}/folders/{id}.
func (s *Server) parseResource(raw string) (*oauth.Resource, bool) {
	rest, ok := strings.CutPrefix(raw, s.baseURL+"/")
	if !ok {
		return nil, false
	}
	kind, id, ok := strings.Cut(rest, "/")
	if !ok || id == "" || strings.Contains(id, "/") {
		return nil, false
	}
	switch kind {
	case "files":
		return &oauth.Resource{Kind: "file", ID: id}, true
	case "folders":
		return &oauth.Resource{Kind: "folder", ID: id}, true
	}
	return nil, false
}

// restriction limits a downscoped token to scopes and maybe one item.
type restriction struct {
	scopes []string
	// kind and id name the one file or folder the token is limited to
	// (kind "" for none).
	kind, id string
}

// allows checks a request r against a downscoped token's scopes and resource.
func allows(rs *restriction, r *http.Request) bool {
	has := func(names ...string) bool {
		for _, n := range names {
			if slices.Contains(rs.scopes, n) {
				return true
			}
		}
		return false
	}
	if rs.kind != "" {
		switch rs.kind {
		case "file":
			if r.PathValue("file_id") != rs.id {
				return false
			}
		case "folder":
			if id := r.PathValue("folder_id"); id != rs.id {
				return false
			}
		}
	}
	if has("root_readwrite") {
		return true
	}
	path := r.URL.Path
	switch {
	case strings.HasPrefix(path, uploadRoot+"/"):
		return has("item_upload", "base_upload")
	case r.Method == http.MethodGet && strings.HasSuffix(path, "/content"):
		return has("item_download")
	case r.Method == http.MethodGet || r.Method == http.MethodHead:
		return has("item_preview", "base_preview", "base_explorer", "base_picker", "base_sidebar", "root_readonly")
	case r.Method == http.MethodDelete:
		return has("item_delete")
	case r.Method == http.MethodPut:
		return has("item_rename")
	}
	return false
}
