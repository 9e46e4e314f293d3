package refserver

import "fmt"

// Role names one of the server's three principals, for Endpoint.
//
// What each may call:
//   - RoleAdmin, the enterprise admin: everything — content, collaborations,
//     comments, shared links, webhooks, search, the event streams (the
//     user's and the enterprise's), metadata templates (create, update,
//     delete), retention and legal holds, users, groups and memberships,
//     device pins.
//   - RoleUser, a managed user of the enterprise: their own content and
//     what is shared with them (files, folders, uploads, copies, locks,
//     versions, web links, trash, tasks, comments, collaborations, shared
//     links, webhooks, metadata instances and queries, watermarks), search,
//     their event stream, reading templates, themselves (GET /users/me),
//     the groups they belong to. Templates, governance, administration and
//     the enterprise's event streams answer 403.
//   - RoleApp, an app's service account token: only upload, download, get
//     and delete a file (the four app-token operations).
type Role string

// The principals.
const (
	RoleAdmin Role = "admin"
	RoleUser  Role = "user"
	RoleApp   Role = "app"
)

// Endpoint is what a client needs to reach the server as one principal: the
// API root, the upload root and a bearer token. With the SDK:
//
//	ep, _ := srv.Endpoint(refserver.RoleUser)
//	client, err := cms.NewClient(cms.WithURLs(ep.BaseURL, ep.UploadURL), cms.WithToken(ep.Token))
//
// (refserver does not import the SDK, so that it keeps catching the SDK's
// bugs; cmstest hands out ready clients in tests.)
type Endpoint struct {
	// BaseURL is the API root (…/2.0).
	BaseURL string
	// UploadURL is the upload root (…/api/2.0).
	UploadURL string
	// Token is the principal's bearer token. Keep it out of logs.
	Token string
}

// String describes the endpoint without its token.
func (e Endpoint) String() string {
	return fmt.Sprintf("refserver.Endpoint{BaseURL: %q, UploadURL: %q, Token: [redacted]}", e.BaseURL, e.UploadURL)
}

// Endpoint returns the roots and token of role, for a program (not a test)
// that embeds the server and connects a client to it. An unknown role is an
// error.
func (s *Server) Endpoint(role Role) (Endpoint, error) {
	ep := Endpoint{BaseURL: s.BaseURL(), UploadURL: s.UploadURL()}
	switch role {
	case RoleAdmin:
		ep.Token = s.AdminToken()
	case RoleUser:
		ep.Token = s.UserToken()
	case RoleApp:
		ep.Token = s.AppToken()
	default:
		return Endpoint{}, fmt.Errorf("refserver: unknown role %q (want %q, %q or %q)", role, RoleAdmin, RoleUser, RoleApp)
	}
	return ep, nil
}
