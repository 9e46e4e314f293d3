package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// createInvite serves POST /invites {enterprise:{id}, actionable_by:{login}}:
// 200 Invite; 400 bad_request when a member is missing.
func (s *Server) createInvite(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body struct {
		Enterprise *struct {
			ID string `json:"id"`
		} `json:"enterprise"`
		ActionableBy *struct {
			Login string `json:"login"`
		} `json:"actionable_by"`
	}
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.Enterprise == nil || body.Enterprise.ID == "" {
		return wire.BadRequest("Missing required field: enterprise.id")
	}
	if body.ActionableBy == nil || body.ActionableBy.Login == "" {
		return wire.BadRequest("Missing required field: actionable_by.login")
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateInvite(p, body.Enterprise.ID, body.ActionableBy.Login)
	})
}

// getInvite serves GET /invites/{invite_id}: 200 Invite.
func (s *Server) getInvite(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("invite_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.GetInvite(id)
	})
}
