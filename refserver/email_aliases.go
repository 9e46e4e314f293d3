package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// listEmailAliases serves GET /users/{user_id}/email_aliases: 200
// {total_count, entries}.
func (s *Server) listEmailAliases(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("user_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListEmailAliases(p, id)
	})
}

// createEmailAlias serves POST /users/{user_id}/email_aliases {email,
// is_confirmed (optional)}: 201
// EmailAlias; 400 bad_request without an email.
func (s *Server) createEmailAlias(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body struct {
		Email       *string `json:"email"`
		IsConfirmed *bool   `json:"is_confirmed"` // an admin's false leaves the alias unconfirmed
	}
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.Email == nil {
		return wire.BadRequest("Missing required field: email")
	}
	id := r.PathValue("user_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateEmailAlias(p, id, *body.Email, body.IsConfirmed)
	})
}

// deleteEmailAlias serves DELETE /users/{user_id}/email_aliases/{email_alias_id}: 204.
func (s *Server) deleteEmailAlias(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, alias := r.PathValue("user_id"), r.PathValue("email_alias_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.DeleteEmailAlias(p, id, alias)
	})
}
