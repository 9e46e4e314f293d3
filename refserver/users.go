package refserver

import (
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// userID reads {user_id}; a malformed id is 404 (no such user).
func userID(r *http.Request) (string, *wire.Error) { return pathID(r, "user_id", "user") }

// listUsers serves GET /users: offset pages by default, marker pages with
// usemarker=true; users in id order.
func (s *Server) listUsers(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q := r.URL.Query()
	userType := q.Get("user_type")
	switch userType {
	case "", "all", "managed", "external":
	default:
		return wire.BadRequest("Invalid value for \"user_type\": all, managed or external")
	}
	filter := strings.ToLower(q.Get("filter_term"))
	extID := q.Get("external_app_user_id")
	pq, aerr := wire.ParseListPage(r.URL.Query(), true)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListUsers(p, userType, extID, filter, fields, pq)
	})
}

// createUser serves POST /users: 201 with the new managed user or app user.
func (s *Server) createUser(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.CreateUserBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter); aerr != nil {
		return aerr
	}
	appUser := body.IsPlatformAccessOnly != nil && *body.IsPlatformAccessOnly
	switch {
	case body.Name == nil:
		return wire.BadRequest("Missing required field: name")
	case body.Login == nil && !appUser:
		return wire.BadRequest("Missing required field: login (required unless is_platform_access_only is true)")
	case body.ExternalAppUserID != nil && !appUser:
		return wire.InvalidParam("external_app_user_id is only for app users (is_platform_access_only)")
	}
	if aerr := body.Check(); aerr != nil {
		return aerr
	}
	fields := parseFields(r)

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateUser(body, appUser, fields)
	})
}

// getUserMe serves GET /users/me: the user the token (or As-User) acts as.
func (s *Server) getUserMe(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return state.Reply{Status: http.StatusOK, Body: tx.RenderUser(p.User, fields, tx.SpaceUsed()[p.User])}, nil
	})
}

// getUser serves GET /users/{user_id}. A user may always read themselves.
func (s *Server) getUser(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := userID(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.GetUser(id, p, fields)
	})
}

// updateUser serves PUT /users/{user_id}: 200 with the user. enterprise:
// null rolls the user out of the enterprise into a free user.
func (s *Server) updateUser(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := userID(r)
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.UpdateUserBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter, "enterprise", "notification_email"); aerr != nil {
		return aerr
	}
	if aerr := body.Check(); aerr != nil {
		return aerr
	}
	ne := body.NotificationEmail
	if ne.Present && !ne.Null && !state.ValidEmail(ne.V.Email) {
		return wire.InvalidParam("notification_email.email must be an e-mail address")
	}
	if body.Enterprise.Present && !body.Enterprise.Null && body.Enterprise.V != s.st.EnterpriseID {
		return wire.InvalidParam("enterprise must be null (roll the user out) or the id of the user's enterprise")
	}
	fields := parseFields(r)

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateUser(id, body, ne, fields)
	})
}

// deleteUser serves DELETE /users/{user_id}?notify&force: 204. A user who
// owns items is only deleted with force=true, and then the items go too.
func (s *Server) deleteUser(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := userID(r)
	if aerr != nil {
		return aerr
	}
	if _, aerr := wire.QueryBool(r.URL.Query(), "notify"); aerr != nil {
		return aerr
	}
	force, aerr := wire.QueryBool(r.URL.Query(), "force")
	if aerr != nil {
		return aerr
	}
	s.st.Update(func(tx *state.Tx) { aerr = tx.DeleteUser(p, id, force) })
	if aerr != nil {
		return aerr
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
