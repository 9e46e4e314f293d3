package refserver

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
)

func (s *Server) grantTokenExchange(form url.Values) (*tokenResponse, *oauthError) {
	if form.Get("subject_token_type") != tokenTypeAccessToken {
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "subject_token_type must be "+tokenTypeAccessToken)
	}
	subj := s.oauth.access[form.Get("subject_token")]
	if subj == nil || !s.now().Before(subj.expires) {
		return nil, oauthErr(http.StatusBadRequest, "invalid_grant", "The subject token is invalid or expired")
	}
	scopes := strings.Fields(form.Get("scope"))
	if len(scopes) == 0 {
		return nil, oauthErr(http.StatusBadRequest, "invalid_request", "The scope parameter is missing")
	}
	for _, sc := range scopes {
		if !slices.Contains(downscopableScopes, sc) {
			return nil, oauthErr(http.StatusBadRequest, "invalid_scope", fmt.Sprintf("The scope %q is not valid for downscoping", sc))
		}
		if subj.scopes != nil && !slices.Contains(subj.scopes, sc) {
			return nil, oauthErr(http.StatusUnauthorized, "invalid_scope", fmt.Sprintf("The subject token does not have the scope %q", sc))
		}
	}
	res := subj.resource
	if raw := form.Get("resource"); raw != "" {
		ref, ok := s.parseResource(raw)
		if !ok {
			return nil, oauthErr(http.StatusBadRequest, "invalid_request", "The resource must be the API URL of a file or folder")
		}
		if subj.resource != nil && *subj.resource != *ref {
			return nil, oauthErr(http.StatusUnauthorized, "invalid_grant", "The subject token is restricted to another resource")
		}
		res = ref
	}
	sort.Strings(scopes)
	scopes = slices.Compact(scopes)
	at := randomHex(16)
	exp := s.now().Add(s.oauth.lifetime)
	if subj.expires.Before(exp) {
		exp = subj.expires
	}
	s.oauth.access[at] = &issued{principal: subj.principal, clientID: subj.clientID, expires: exp, scopes: scopes, resource: res}
	s.dirty(kAccessTokens, at)
	resp := &tokenResponse{AccessToken: at, ExpiresIn: int64(exp.Sub(s.now()) / time.Second), TokenType: "bearer", IssuedTokenType: tokenTypeAccessToken}
	for _, sc := range scopes {
		rt := restrictedTo{Scope: sc}
		if res != nil {
			rt.Object = map[string]any{"type": res.kind, "id": res.id}
		}
		resp.RestrictedTo = append(resp.RestrictedTo, rt)
	}
	return resp, nil
}

// parseResource reads {base_url}/files/{id} or {base_url}/folders/{id}.
func (s *Server) parseResource(raw string) (*resourceRef, bool) {
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
		return &resourceRef{kind: "file", id: id}, true
	case "folders":
		return &resourceRef{kind: "folder", id: id}, true
	}
	return nil, false
}

// restriction limits a downscoped token to scopes and maybe one item.
type restriction struct {
	scopes   []string
	resource *resourceRef
}

// allows checks a request against a downscoped token's scopes and resource.
func (rs *restriction) allows(r *http.Request) bool {
	has := func(names ...string) bool {
		for _, n := range names {
			if slices.Contains(rs.scopes, n) {
				return true
			}
		}
		return false
	}
	if rs.resource != nil {
		switch rs.resource.kind {
		case "file":
			if r.PathValue("file_id") != rs.resource.id {
				return false
			}
		case "folder":
			if id := r.PathValue("folder_id"); id != rs.resource.id {
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
