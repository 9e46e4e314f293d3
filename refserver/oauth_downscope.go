package refserver

import (
	"net/http"
	"slices"
	"strings"

	"github.com/contentapi/cms/refserver/internal/oauth"
	"github.com/contentapi/cms/refserver/internal/state"
)

// parseResource reads {base_url}/files/{id} or {base_url}/folders/{id}.
func (s *Server) parseResource(raw string) (*oauth.Resource, bool) {
	rest, ok := strings.CutPrefix(raw, s.st.BaseURL+"/")
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

// allows checks a request r against a downscoped token's scopes and resource.
func allows(rs *state.Restriction, r *http.Request) bool {
	has := func(names ...string) bool {
		for _, n := range names {
			if slices.Contains(rs.Scopes, n) {
				return true
			}
		}
		return false
	}
	if rs.Kind != "" {
		switch rs.Kind {
		case "file":
			if r.PathValue("file_id") != rs.ID {
				return false
			}
		case "folder":
			if id := r.PathValue("folder_id"); id != rs.ID {
				return false
			}
		}
	}
	if has("root_readwrite") {
		return true
	}
	path := r.URL.Path
	switch {
	case strings.HasPrefix(path, state.UploadRoot+"/"):
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
