package refserver

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Collaborations (spec /collaborations, /files|folders/{id}/collaborations,
// /groups/{id}/collaborations; the collaboration guides). They are the
// access model's grants (access.go); the rules of the endpoints:
//
//   - POST /collaborations: item {type file|folder, id}, accessible_by
//     {type user|group, id or login}, role (not owner: 400 bad_request);
//     the caller must manage the item's collaborators (owner, co-owner,
//     admin: 403 access_denied_insufficient_permissions otherwise); the root
//     folder is 400 collaborations_not_available_on_root_folder; a web link
//     or another type is 400 invalid_collaboration_item; a user or group
//     that already collaborates on the item (pending or accepted), or the
//     owner, is 400 user_already_collaborator; can_view_path only on a
//     folder (400). A user of the enterprise is accepted at once; a user
//     outside it (rolled out), or a login no user has (an invitation by
//     e-mail, accessible_by null and invite_email set), is pending. A group
//     is accepted; only who may invite it can (403).
//   - PUT /collaborations/{id}: status accepted or rejected by the invitee of
//     a pending collaboration only (400 invalid_status otherwise); role,
//     expires_at (null: no expiry), can_view_path by a manager of the item;
//     role owner transfers the item to the collaborator — only the owner or
//     an admin may (403) — the old owner becomes co-owner, the collaboration
//     is replaced, and the answer is 204.
//   - DELETE /collaborations/{id}: a manager of the item, or the collaborator
//     leaving: 204; the access ends at once (404 after).
//   - GET one: its item's viewers, its collaborator, its creator; else 404.
//   - Lists: an item's own collaborations by marker (pending ones included),
//     a group's by offset (admins and the group's members), the caller's
//     pending invitations by offset (GET /collaborations?status=pending).
//   - A pending collaboration's item is null in its record (the spec).
//   - Expired collaborations grant nothing and are listed until removed.

const (
	codeAlreadyCollaborator      = "user_already_collaborator"
	codeCollabOnRoot             = "collaborations_not_available_on_root_folder"
	codeInvalidCollaborationItem = "invalid_collaboration_item"
	codeInvalidStatus            = "invalid_status"
)

// collab is a collaboration. Fields are guarded by Server.mu.
type collab struct {
	id          string
	item        *item
	user        *user  // accessible_by a user (nil for a group or an e-mail invitation)
	group       *group // accessible_by a group
	inviteEmail string
	role        string
	status      string // accepted, pending, rejected
	accessOnly  bool
	canViewPath bool
	expiresAt   time.Time
	createdBy   *user
	createdAt   time.Time
	modifiedAt  time.Time
	ackAt       time.Time
}

// collabState is the server's collaborations, guarded by Server.mu.
type collabState struct {
	byID   map[string]*collab
	byItem map[string][]*collab
}

func (s *state) initCollabs() {
	s.collabs = collabState{byID: map[string]*collab{}, byItem: map[string][]*collab{}}
}

func (s *state) addCollab(c *collab) {
	s.collabs.byID[c.id] = c
	s.collabs.byItem[c.item.id] = append(s.collabs.byItem[c.item.id], c)
	s.dirty(kCollabs, c.id)
}

func (s *state) removeCollab(c *collab) {
	delete(s.collabs.byID, c.id)
	rest := wire.RemoveFrom(s.collabs.byItem[c.item.id], c)
	if len(rest) == 0 {
		delete(s.collabs.byItem, c.item.id)
	} else {
		s.collabs.byItem[c.item.id] = rest
	}
	s.dirty(kCollabs, c.id)
}

// collabsItemPurged drops the collaborations of an item deleted for good.
func (s *state) collabsItemPurged(it *item) {
	for _, c := range slices.Clone(s.collabs.byItem[it.id]) {
		s.removeCollab(c)
	}
}

// grants reports whether c gives u its role now.
func (s *state) grants(c *collab, u *user) bool {
	if c.status != "accepted" || !c.expiresAt.IsZero() && !s.now().Before(c.expiresAt) {
		return false
	}
	return c.user != nil && c.user == u || c.group != nil && u != nil && s.groupRole(c.group, u) != ""
}

// collabRoles lists the roles u holds on it through collaborations on it
// or on a folder above it. Callers hold s.mu.
func (s *state) collabRoles(u *user, it *item) []string {
	if len(s.collabs.byID) == 0 || u == nil {
		return nil
	}
	var roles []string
	add := func(x *item) {
		for _, c := range s.collabs.byItem[x.id] {
			if s.grants(c, u) {
				roles = append(roles, c.role)
			}
		}
	}
	add(it)
	for f := range s.ancestors(it) { // tree.go
		add(f)
	}
	return roles
}

// record is the Collaboration record.
func (s *state) collabRecord(c *collab) map[string]any {
	rec := map[string]any{
		"type": "collaboration", "id": c.id, "item": nil, "accessible_by": nil, "invite_email": nil,
		"role": c.role, "expires_at": fmtTime(c.expiresAt), "is_access_only": c.accessOnly, "status": c.status,
		"acknowledged_at": fmtTime(c.ackAt), "created_by": c.createdBy.mini(),
		"created_at": fmtTime(c.createdAt), "modified_at": fmtTime(c.modifiedAt),
	}
	if c.status != "pending" {
		rec["item"] = s.mini(c.item)
	}
	switch {
	case c.user != nil:
		rec["accessible_by"] = c.user.mini()
	case c.group != nil:
		rec["accessible_by"] = c.group.mini()
	}
	if c.inviteEmail != "" {
		rec["invite_email"] = c.inviteEmail
	}
	if c.item.typ == "folder" {
		rec["can_view_path"] = c.canViewPath
	}
	return rec
}

// collabBody is the body of POST /collaborations.
type collabBody struct {
	Item *struct {
		Type *string `json:"type"`
		ID   *string `json:"id"`
	} `json:"item"`
	AccessibleBy *struct {
		Type  *string `json:"type"`
		ID    *string `json:"id"`
		Login *string `json:"login"`
	} `json:"accessible_by"`
	Role         *string `json:"role"`
	IsAccessOnly *bool   `json:"is_access_only"`
	CanViewPath  *bool   `json:"can_view_path"`
	ExpiresAt    *string `json:"expires_at"`
}

func checkRole(role string, ownerOK bool) *wire.Error {
	if _, ok := roleActions[role]; ok || ownerOK && role == "owner" {
		return nil
	}
	return wire.BadRequest("Invalid value for \"role\": editor, viewer, previewer, uploader, previewer uploader, viewer uploader or co-owner")
}

// createCollaboration serves POST /collaborations: 201 Collaboration.
func (s *Server) createCollaboration(w http.ResponseWriter, r *http.Request, p *principal) error {
	if _, aerr := wire.QueryBool(r.URL.Query(), "notify"); aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body collabBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.Item == nil || body.Item.Type == nil || body.Item.ID == nil || body.AccessibleBy == nil ||
		body.AccessibleBy.Type == nil || body.Role == nil {
		return wire.BadRequest("item (type, id), accessible_by (type, id or login) and role are required")
	}
	typ, id := *body.Item.Type, *body.Item.ID
	if typ != "file" && typ != "folder" {
		return wire.Errorf(http.StatusBadRequest, codeInvalidCollaborationItem, "A collaboration is on a file or a folder")
	}
	if typ == "folder" && id == rootID {
		return wire.Errorf(http.StatusBadRequest, codeCollabOnRoot, "Collaborations are not available on the root folder")
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
		t, err := parseRFC3339(*body.ExpiresAt)
		if err != nil || !t.After(s.now()) {
			return wire.BadRequest("Invalid value for \"expires_at\": a future RFC 3339 date-time")
		}
		expires = t
	}
	fields := parseFields(r)

	return s.change(w, func() (reply, *wire.Error) {
		return s.createCollaborationTx(id, typ, p, body, expires, ab, fields)
	})
}

// createCollaborationTx is the transaction of POST /collaborations
// (createCollaboration): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) createCollaborationTx(id string, typ string, p *principal, body collabBody, expires time.Time, ab *struct {
	Type  *string "json:\"type\""
	ID    *string "json:\"id\""
	Login *string "json:\"login\""
}, fields []string) (reply, *wire.Error) {
	if !validID(id) {
		return reply{}, wire.NotFound(typ)
	}
	it, aerr := s.lookupFor(p, typ, id, actManageCollaborators)
	if aerr != nil {
		return reply{}, aerr
	}
	now := s.nowSec()
	c := &collab{item: it, role: *body.Role, status: "accepted", expiresAt: expires, createdBy: p.user, createdAt: now, modifiedAt: now}
	if body.IsAccessOnly != nil {
		c.accessOnly = *body.IsAccessOnly
	}
	if body.CanViewPath != nil {
		c.canViewPath = *body.CanViewPath
	}
	switch {
	case *ab.Type == "group":
		g, aerr := s.lookupGroup(*ab.ID)
		if aerr != nil {
			return reply{}, aerr
		}
		if !s.canInviteGroup(g, p) {
			return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "This group cannot be invited by this user")
		}
		c.group = g
	case ab.ID != nil:
		u := s.users.byID[*ab.ID]
		if u == nil || u.deleted {
			return reply{}, wire.NotFound("user")
		}
		c.user = u
	default:
		login := strings.TrimSpace(*ab.Login)
		if !strings.Contains(login, "@") {
			return reply{}, wire.BadRequest("Invalid value for \"accessible_by.login\": an e-mail address")
		}
		if u := s.users.byLogin[strings.ToLower(login)]; u != nil && !u.deleted {
			c.user = u
		} else {
			c.inviteEmail, c.status = login, "pending"
		}
	}
	if c.user != nil && (c.user.free || s.enterpriseUser(c.user.id) == nil && c.user != s.admin && c.user != s.user) {
		c.status = "pending" // outside the enterprise: they accept or reject
	}
	if s.alreadyCollaborates(c) {
		return reply{}, wire.Errorf(http.StatusBadRequest, codeAlreadyCollaborator, "The user or group already collaborates on this item")
	}
	c.id = s.newID()
	s.addCollab(c)
	s.recordEvent(evCollabAdd, p.user, it, s.collabRecord(c))
	return reply{http.StatusCreated, pickFields(s.collabRecord(c), fields, "type", "id")}, nil
}

// bindInvitations gives a new user the pending invitations sent to their
// login: they stay pending until the user accepts or rejects them.
// Callers hold s.mu.
func (s *state) bindInvitations(u *user) {
	for _, c := range s.collabs.byID {
		if c.user == nil && c.group == nil && strings.EqualFold(c.inviteEmail, u.login) {
			c.user = u
			s.dirty(kCollabs, c.id)
		}
	}
}

// alreadyCollaborates reports whether c's collaborator already has a
// pending or accepted collaboration on c's item, or owns it.
func (s *state) alreadyCollaborates(c *collab) bool {
	if c.user != nil && c.user == c.item.owner {
		return true
	}
	for _, o := range s.collabs.byItem[c.item.id] {
		if o.status == "rejected" {
			continue
		}
		if c.user != nil && o.user == c.user || c.group != nil && o.group == c.group ||
			c.inviteEmail != "" && strings.EqualFold(o.inviteEmail, c.inviteEmail) {
			return true
		}
	}
	return false
}

// collabFor finds the collaboration of the path that p may read: a
// viewer of its item, its collaborator or its creator. Callers hold s.mu.
func (s *state) collabFor(id string, p *principal) (*collab, *wire.Error) {
	c, ok := s.collabs.byID[id]
	if !ok || !(s.visible(p, c.item) || c.user == p.user || c.createdBy == p.user) {
		return nil, wire.NotFound("collaboration")
	}
	return c, nil
}

// getCollaboration serves GET /collaborations/{collaboration_id}.
func (s *Server) getCollaboration(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	collabID := r.PathValue("collaboration_id")
	return replyRecord(s, w, func() (*collab, *wire.Error) { return s.collabFor(collabID, p) },
		func(c *collab) map[string]any { return pickFields(s.collabRecord(c), fields, "type", "id") })
}

// collabUpdateBody is the body of PUT /collaborations/{id}.
type collabUpdateBody struct {
	Role        *string               `json:"role"`
	Status      *string               `json:"status"`
	ExpiresAt   wire.Nullable[string] `json:"expires_at"`
	CanViewPath *bool                 `json:"can_view_path"`
}

// updateCollaboration serves PUT /collaborations/{collaboration_id}.
func (s *Server) updateCollaboration(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body collabUpdateBody
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
		t, err := parseRFC3339(e.V)
		if err != nil || !t.After(s.now()) {
			return wire.BadRequest("Invalid value for \"expires_at\": a future RFC 3339 date-time")
		}
		expires = t
	}
	fields := parseFields(r)

	collabID := r.PathValue("collaboration_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateCollaborationTx(collabID, p, body, expires, fields)
	})
}

// updateCollaborationTx is the transaction of PUT
// /collaborations/{collaboration_id} (updateCollaboration): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) updateCollaborationTx(collabID string, p *principal, body collabUpdateBody, expires time.Time, fields []string) (reply, *wire.Error) {
	c, aerr := s.collabFor(collabID, p)
	if aerr != nil {
		return reply{}, aerr
	}
	now := s.nowSec()
	if body.Status != nil {
		if c.status != "pending" || c.user != p.user || *body.Status == "pending" {
			return reply{}, wire.Errorf(http.StatusBadRequest, codeInvalidStatus, "Only the invitee accepts or rejects a pending collaboration")
		}
	}
	changesGrant := body.Role != nil || body.ExpiresAt.Present || body.CanViewPath != nil
	if changesGrant && !s.can(p, c.item, actManageCollaborators) {
		return reply{}, errDenied("collaboration")
	}
	if body.Role != nil && *body.Role == "owner" {
		if !s.can(p, c.item, actOwn) {
			return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Only the owner may transfer the item")
		}
		if c.user == nil || c.status != "accepted" {
			return reply{}, wire.BadRequest("Ownership goes to a user whose collaboration is accepted")
		}
		s.transferOwnership(c, p, now)
		return reply{status: http.StatusNoContent}, nil
	}
	if body.Status != nil {
		c.status, c.ackAt = *body.Status, now
	}
	if body.Role != nil {
		c.role = *body.Role
	}
	if body.ExpiresAt.Present {
		c.expiresAt = expires
	}
	if body.CanViewPath != nil {
		c.canViewPath = *body.CanViewPath
	}
	c.modifiedAt = now
	s.dirty(kCollabs, c.id)
	return reply{http.StatusOK, pickFields(s.collabRecord(c), fields, "type", "id")}, nil
}

// transferOwnership gives c's item (and what is below it) to c's user; the
// old owner becomes a co-owner in a new collaboration that replaces c.
// Callers hold s.mu.
func (s *state) transferOwnership(c *collab, p *principal, now time.Time) {
	old := c.item.owner
	s.removeCollab(c)
	s.setOwnerTree(c.item, c.user)
	c.item.touch(now, p.user)
	s.dirtyItem(c.item)
	if old != nil {
		s.addCollab(&collab{id: s.newID(), item: c.item, user: old, role: "co-owner", status: "accepted",
			createdBy: p.user, createdAt: now, modifiedAt: now})
	}
}

// deleteCollaboration serves DELETE /collaborations/{collaboration_id}.
func (s *Server) deleteCollaboration(w http.ResponseWriter, r *http.Request, p *principal) error {
	collabID := r.PathValue("collaboration_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.deleteCollaborationTx(collabID, p)
	})
}

// deleteCollaborationTx is the transaction of DELETE
// /collaborations/{collaboration_id}. (deleteCollaboration): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) deleteCollaborationTx(collabID string, p *principal) (reply, *wire.Error) {
	c, aerr := s.collabFor(collabID, p)
	if aerr != nil {
		return reply{}, aerr
	}
	if c.user != p.user && !s.can(p, c.item, actManageCollaborators) {
		return reply{}, errDenied("collaboration")
	}
	s.removeCollab(c)
	s.recordEvent(evCollabRemove, p.user, c.item, s.collabRecord(c))
	return reply{status: http.StatusNoContent}, nil
}

// listItemCollaborations serves GET /files|folders/{id}/collaborations:
// the item's own collaborations by id, marker paged.
func (s *Server) listItemCollaborations(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		id := r.PathValue(typ + "_id")
		if !validID(id) {
			return wire.NotFound(typ)
		}
		q, aerr := wire.ParseMarkerPage(r.URL.Query())
		if aerr != nil {
			return aerr
		}
		fields := parseFields(r)
		return s.change(w, func() (reply, *wire.Error) {
			return s.listItemCollaborationsTx(p, typ, id, q, fields)
		})
	}
}

// listItemCollaborationsTx is the transaction of GET
// /files|folders/{id}/collaborations (listItemCollaborations): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) listItemCollaborationsTx(p *principal, typ string, id string, q wire.Page, fields []string) (reply, *wire.Error) {
	it, aerr := s.lookup(p, typ, id)
	if aerr != nil {
		return reply{}, aerr
	}
	list := slices.Clone(s.collabs.byItem[it.id])
	slices.SortFunc(list, func(a, b *collab) int { return wire.CompareIDs(a.id, b.id) })
	return reply{http.StatusOK, wire.MarkerEntries(list, q, func(c *collab) int64 { return numID(c.id) },
		func(c *collab) any { return pickFields(s.collabRecord(c), fields, "type", "id") })}, nil
}

// listGroupCollaborations serves GET /groups/{group_id}/collaborations.
func (s *Server) listGroupCollaborations(w http.ResponseWriter, r *http.Request, p *principal) error {
	gid, aerr := groupID(r)
	if aerr != nil {
		return aerr
	}
	q, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.listGroupCollaborationsTx(gid, p, q)
	})
}

// listGroupCollaborationsTx is the transaction of GET
// /groups/{group_id}/collaborations. (listGroupCollaborations): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) listGroupCollaborationsTx(gid string, p *principal, q wire.Page) (reply, *wire.Error) {
	g, aerr := s.lookupGroup(gid)
	if aerr != nil {
		return reply{}, aerr
	}
	if !p.isAdmin() && s.groupRole(g, p.user) == "" {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Only the admin and the group's members see its collaborations")
	}
	var list []*collab
	for _, c := range s.collabs.byID {
		if c.group == g {
			list = append(list, c)
		}
	}
	slices.SortFunc(list, func(a, b *collab) int { return wire.CompareIDs(a.id, b.id) })
	return reply{http.StatusOK, wire.OffsetEntries(list, q, func(*collab) bool { return false }, func(c *collab) any { return s.collabRecord(c) })}, nil
}

// listPendingCollaborations serves GET /collaborations?status=pending:
// the caller's pending invitations.
func (s *Server) listPendingCollaborations(w http.ResponseWriter, r *http.Request, p *principal) error {
	if r.URL.Query().Get("status") != "pending" {
		return wire.BadRequest("Invalid value for \"status\": pending (the only one)")
	}
	q, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.listPendingCollaborationsTx(p, q, fields)
	})
}

// listPendingCollaborationsTx is the transaction of GET
// /collaborations?status=pending (listPendingCollaborations): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) listPendingCollaborationsTx(p *principal, q wire.Page, fields []string) (reply, *wire.Error) {
	var list []*collab
	for _, c := range s.collabs.byID {
		if c.status == "pending" && c.user != nil && c.user == p.user {
			list = append(list, c)
		}
	}
	slices.SortFunc(list, func(a, b *collab) int { return wire.CompareIDs(a.id, b.id) })
	return reply{http.StatusOK, wire.OffsetEntries(list, q, func(*collab) bool { return false },
		func(c *collab) any { return pickFields(s.collabRecord(c), fields, "type", "id") })}, nil
}

// recCollab is a collaboration.
type recCollab struct {
	Item, User, Group, InviteEmail, Role, Status string
	AccessOnly, CanViewPath                      bool
	ExpiresAt, CreatedAt, ModifiedAt, AckAt      time.Time
	CreatedBy                                    string
}

func (s *state) collabKeys() []string { return sortedKeys(s.collabs.byID) }

func (s *state) collabRec(id string) (recCollab, bool) {
	c, ok := s.collabs.byID[id]
	if !ok {
		return recCollab{}, false
	}
	r := recCollab{Item: c.item.id, User: uid(c.user), InviteEmail: c.inviteEmail, Role: c.role, Status: c.status,
		AccessOnly: c.accessOnly, CanViewPath: c.canViewPath, ExpiresAt: utc(c.expiresAt), CreatedAt: utc(c.createdAt),
		ModifiedAt: utc(c.modifiedAt), AckAt: utc(c.ackAt), CreatedBy: uid(c.createdBy)}
	if c.group != nil {
		r.Group = c.group.id
	}
	return r, true
}

func (s *state) loadCollab(id string, r recCollab) error {
	it, ok := s.items[r.Item]
	if !ok {
		return errString("refserver: collaboration " + id + " on a missing item " + r.Item)
	}
	us, err := s.usersByRef(r.User, r.CreatedBy)
	if err != nil {
		return err
	}
	c := &collab{id: id, item: it, user: us[0], inviteEmail: r.InviteEmail, role: r.Role, status: r.Status,
		accessOnly: r.AccessOnly, canViewPath: r.CanViewPath, expiresAt: r.ExpiresAt, createdBy: us[1],
		createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt, ackAt: r.AckAt}
	if r.Group != "" {
		if c.group = s.groups.byID[r.Group]; c.group == nil {
			return errString("refserver: collaboration " + id + " of a missing group " + r.Group)
		}
	}
	s.collabs.byID[id] = c
	s.collabs.byItem[it.id] = append(s.collabs.byItem[it.id], c)
	return nil
}
