package oauth

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"time"
)

// downscopableScopes are the scopes a downscoped token may carry (any
// subset of them); a token that is not downscoped has full access.
var downscopableScopes = []string{
	"annotation_edit", "annotation_view_all", "annotation_view_self",
	"base_explorer", "base_picker", "base_preview", "base_sidebar", "base_upload",
	"item_delete", "item_download", "item_preview", "item_rename", "item_share", "item_upload",
	"root_readonly", "root_readwrite",
}

// GrantTokenExchange answers the token exchange grant (downscoping): a new
// access token for the subject token's subject, with a subset of the
// downscopable scopes (and of the subject token's) and maybe one file or
// folder, living no longer than the subject token. Callers (Token) hold
// the service's lock.
func (o *Service[S]) GrantTokenExchange(form url.Values) (*TokenResponse, *Error) {
	if form.Get("subject_token_type") != TokenTypeAccessToken {
		return nil, errf(http.StatusBadRequest, "invalid_request", "subject_token_type must be "+TokenTypeAccessToken)
	}
	now := o.cfg.Now()
	subj := o.access.m[form.Get("subject_token")]
	if subj == nil || !now.Before(subj.Expires) {
		return nil, errf(http.StatusBadRequest, "invalid_grant", "The subject token is invalid or expired")
	}
	scopes := strings.Fields(form.Get("scope"))
	if len(scopes) == 0 {
		return nil, errf(http.StatusBadRequest, "invalid_request", "The scope parameter is missing")
	}
	for _, sc := range scopes {
		if !slices.Contains(downscopableScopes, sc) {
			return nil, errf(http.StatusBadRequest, "invalid_scope", fmt.Sprintf("The scope %q is not valid for downscoping", sc))
		}
		if subj.Scopes != nil && !slices.Contains(subj.Scopes, sc) {
			return nil, errf(http.StatusUnauthorized, "invalid_scope", fmt.Sprintf("The subject token does not have the scope %q", sc))
		}
	}
	res := subj.Resource
	if raw := form.Get("resource"); raw != "" {
		ref, ok := o.cfg.ParseResource(raw)
		if !ok {
			return nil, errf(http.StatusBadRequest, "invalid_request", "The resource must be the API URL of a file or folder")
		}
		if subj.Resource != nil && *subj.Resource != *ref {
			return nil, errf(http.StatusUnauthorized, "invalid_grant", "The subject token is restricted to another resource")
		}
		res = ref
	}
	sort.Strings(scopes)
	scopes = slices.Compact(scopes)
	at := RandomHex(16)
	exp := now.Add(o.lifetime)
	if subj.Expires.Before(exp) {
		exp = subj.Expires
	}
	o.access.put(at, &AccessToken[S]{Subject: subj.Subject, ClientID: subj.ClientID, Expires: exp, Scopes: scopes, Resource: res})
	resp := &TokenResponse{AccessToken: at, ExpiresIn: int64(exp.Sub(now) / time.Second), TokenType: "bearer", IssuedTokenType: TokenTypeAccessToken}
	for _, sc := range scopes {
		rt := RestrictedTo{Scope: sc}
		if res != nil {
			rt.Object = map[string]any{"type": res.Kind, "id": res.ID}
		}
		resp.RestrictedTo = append(resp.RestrictedTo, rt)
	}
	return resp, nil
}
