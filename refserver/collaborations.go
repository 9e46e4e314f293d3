package refserver

import (
	"net/http"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func checkRole(role string, ownerOK bool) *wire.Error {
	if _, ok := state.RoleActions[role]; ok || ownerOK && role == "owner" {
		return nil
	}
	return wire.BadRequest("Invalid value for \"role\": editor, viewer, previewer, uploader, previewer uploader, viewer uploader or co-owner")
}

// createCollaboration serves POST /collaborations: 201 Collaboration.
func (s *Server) createCollaboration(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if _, aerr := wire.QueryBool(r.URL.Query(), "notify"); aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.CollabBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.Item == nil || body.Item.Type == nil || body.Item.ID == nil || body.AccessibleBy == nil ||
		body.AccessibleBy.Type == nil || body.Role == nil {
		return wire.BadRequest("item (type, id), accessible_by (type, id or login) and role are required")
	}
	typ, id := *body.Item.Type, *body.Item.ID
	if typ != "file" && typ != "folder" {
		return wire.Errorf(http.StatusBadRequest, state.CodeInvalidCollaborationItem, "A collaboration is on a file or a folder")
	}
	if typ == "folder" && id == state.RootID {
		return wire.Errorf(http.StatusBadRequest, state.CodeCollabOnRoot, "Collaborations are not available on the root folder")
	}
	if aerr := checkRole(*body.Role, false); aerr != nil {
		return aerr
	}
	ab := body.AccessibleBy
	if *ab.Type != "user" && *ab.Type != "group" || (ab.ID == nil) == (ab.Login == nil) || *ab.Type == "group" && ab.Login != nil {
		return wire.BadRequest("accessible_by names one user by id or login, or one group by id")
	}
	if body.CanViewPath != nil && typ != "folder" {
		return wire.BadRequest("can_view_path applies to folders")
	}
	var expires time.Time
	if body.ExpiresAt != nil {
		t, err := state.ParseRFC3339(*body.ExpiresAt)
		if err != nil || !t.After(s.st.Now()) {
			return wire.BadRequest("Invalid value for \"expires_at\": a future RFC 3339 date-time")
		}
		expires = t
	}
	fields := parseFields(r)

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateCollaboration(id, typ, p, body, expires, fields)
	})
}

// getCollaboration serves GET /collaborations/{collaboration_id}.
func (s *Server) getCollaboration(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	fields := parseFields(r)
	collabID := r.PathValue("collaboration_id")
	return replyRecord(s, w, func(tx *state.Tx) (*state.Collab, *wire.Error) { return tx.CollabFor(collabID, p) },
		func(tx *state.Tx, c *state.Collab) map[string]any {
			return state.PickFields(tx.CollabRecord(c), fields, "type", "id")
		})
}

// updateCollaboration serves PUT /collaborations/{collaboration_id}.
func (s *Server) updateCollaboration(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body state.CollabUpdateBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest, "expires_at"); aerr != nil {
		return aerr
	}
	if body.Role != nil {
		if aerr := checkRole(*body.Role, true); aerr != nil {
			return aerr
		}
	}
	if body.Status != nil && *body.Status != "accepted" && *body.Status != "rejected" && *body.Status != "pending" {
		return wire.BadRequest("Invalid value for \"status\": accepted or rejected")
	}
	var expires time.Time
	if e := body.ExpiresAt; e.Present && !e.Null {
		t, err := state.ParseRFC3339(e.V)
		if err != nil || !t.After(s.st.Now()) {
			return wire.BadRequest("Invalid value for \"expires_at\": a future RFC 3339 date-time")
		}
		expires = t
	}
	fields := parseFields(r)

	collabID := r.PathValue("collaboration_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateCollaboration(collabID, p, body, expires, fields)
	})
}

// deleteCollaboration serves DELETE /collaborations/{collaboration_id}.
func (s *Server) deleteCollaboration(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	collabID := r.PathValue("collaboration_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.DeleteCollaboration(collabID, p)
	})
}

// listItemCollaborations serves GET /files|folders/{id}/collaborations:
// the item's own collaborations by id, marker paged.
func (s *Server) listItemCollaborations(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		id := r.PathValue(typ + "_id")
		if !state.ValidID(id) {
			return wire.NotFound(typ)
		}
		q, aerr := wire.ParseMarkerPage(r.URL.Query())
		if aerr != nil {
			return aerr
		}
		fields := parseFields(r)
		return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
			return tx.ListItemCollaborations(p, typ, id, q, fields)
		})
	}
}

// listGroupCollaborations serves GET /groups/{group_id}/collaborations.
func (s *Server) listGroupCollaborations(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	gid, aerr := groupID(r)
	if aerr != nil {
		return aerr
	}
	q, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListGroupCollaborations(gid, p, q)
	})
}

// listPendingCollaborations serves GET /collaborations?status=pending:
// the caller's pending invitations.
func (s *Server) listPendingCollaborations(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if r.URL.Query().Get("status") != "pending" {
		return wire.BadRequest("Invalid value for \"status\": pending (the only one)")
	}
	q, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListPendingCollaborations(p, q, fields)
	})
}
