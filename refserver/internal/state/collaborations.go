package state

import (
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
//     the caller must be allowed to invite (actInvite: owner, co-owner,
//     editor, admin; 403 access_denied_insufficient_permissions otherwise),
//     the folder settings must let them (collabSettingsRefuse), and a
//     co-owner or can_view_path invitation is the owner's and co-owners'
//     (403); a folder restricted to the enterprise takes users of the
//     enterprise and groups only (403); the root
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
//     expires_at (null: no expiry) by a manager of the item (owner,
//     co-owner, admin), can_view_path by the owner (or admin) only;
//     role owner transfers the item to the collaborator — only the owner or
//     an admin may (403) — the old owner becomes co-owner, the collaboration
//     is replaced, and the answer is 204.
//   - DELETE /collaborations/{id}: a manager of the item, or the collaborator
//     leaving: 204; the access ends at once (404 after).
//   - GET one: who may list the item's collaborators, its collaborator, its
//     creator; else 404.
//   - Lists: an item's own collaborations by marker (pending ones
//     included), for who may view collaborators (every role but uploader,
//     and can_non_owners_view_collaborators not false; 403 otherwise),
//     a group's by offset (admins and the group's members), the caller's
//     pending invitations by offset (GET /collaborations?status=pending).
//   - A pending collaboration's item is null in its record (the spec).
//   - An expired collaboration is gone: it grants nothing, no list shows
//     it, and its id answers 404 (Box removes the collaborator at expiry).

// The error codes of the collaboration endpoints.
const (
	CodeAlreadyCollaborator      = "user_already_collaborator"
	CodeCollabOnRoot             = "collaborations_not_available_on_root_folder"
	CodeInvalidCollaborationItem = "invalid_collaboration_item"
	CodeInvalidStatus            = "invalid_status"
)

// Collab is a collaboration. Its fields are read and changed only in a transaction.
type Collab struct {
	id          string
	item        *Item
	user        *User  // accessible_by a user (nil for a group or an e-mail invitation)
	group       *Group // accessible_by a group
	inviteEmail string
	role        string
	status      string // accepted, pending, rejected
	accessOnly  bool
	canViewPath bool
	expiresAt   time.Time
	createdBy   *User
	createdAt   time.Time
	modifiedAt  time.Time
	ackAt       time.Time
	// grantedSeq is the event position when the collaboration started to
	// grant (created accepted, or accepted): its collaborator's user
	// stream shows the item's events after it.
	grantedSeq int64
}

// collabState is the server's collaborations, reached only through a transaction.
type collabState struct {
	byID   Table[*Collab]
	byItem map[itemKey][]*Collab // by the items table's key of the item: no reference string built per check
}

// InitCollabs prepares the (empty) state of collaborations; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitCollabs() {
	s.collabs = collabState{byID: newTable[*Collab](s.Env, KCollabs), byItem: map[itemKey][]*Collab{}}
}

func (s *Tx) addCollab(c *Collab) {
	s.collabs.byID.Put(c.id, c)
	k := s.Items.keyOf(c.item)
	s.collabs.byItem[k] = append(s.collabs.byItem[k], c)
}

func (s *Tx) removeCollab(c *Collab) {
	s.collabs.byID.Delete(c.id)
	wire.RemoveKeyed(s.collabs.byItem, s.Items.keyOf(c.item), c)
}

// collabsItemPurged drops the collaborations of an item deleted for good.
func (s *Tx) collabsItemPurged(it *Item) {
	for _, c := range slices.Clone(s.collabs.byItem[s.Items.keyOf(it)]) {
		s.removeCollab(c)
	}
}

// collabsCollaboratorGone drops the collaborations of a user or a group
// (one of them nil) that is deleted: they grant nothing any more, and the
// service lists them no longer.
func (s *Tx) collabsCollaboratorGone(u *User, g *Group) {
	for _, c := range s.collabs.byID.All() {
		if u != nil && c.user == u || g != nil && c.group == g {
			s.removeCollab(c)
		}
	}
}

// expired reports whether c's expires_at has passed: it grants nothing
// and is gone (Box removes the collaborator when it expires): no list
// shows it, its id answers 404, and it no longer counts as the user's
// collaboration on the item.
func (s *ReadTx) expired(c *Collab) bool {
	return !c.expiresAt.IsZero() && !s.Now().Before(c.expiresAt)
}

// grants reports whether c gives u its role now.
func (s *ReadTx) grants(c *Collab, u *User) bool {
	if c.status != "accepted" || s.expired(c) {
		return false
	}
	return c.user != nil && c.user == u || c.group != nil && u != nil && s.groupRole(c.group, u) != ""
}

// collabRoles lists the roles u holds on it through collaborations on it
// or on a folder above it.
func (s *ReadTx) collabRoles(u *User, it *Item) []string {
	if s.collabs.byID.Len() == 0 || u == nil {
		return nil
	}
	var roles []string
	add := func(x *Item) {
		for _, c := range s.collabs.byItem[s.Items.keyOf(x)] {
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

// grantedAt reports whether p had access to it when e was recorded: the
// owner, the admin and the app always; a collaborator when one of the
// collaborations that give them it now had started to grant (created
// accepted, or accepted) before e, on it or on a folder it was below at
// e's time. (A member of a group counts from the group's collaboration,
// not from joining.)
func (s *ReadTx) grantedAt(p *Principal, it *Item, e *Event) bool {
	if p.SeesAll() || it.Owner == p.User || p.User == nil || s.collabs.byID.Len() == 0 {
		return true
	}
	granted := func(x *Item) bool {
		for _, c := range s.collabs.byItem[s.Items.keyOf(x)] {
			if s.grants(c, p.User) && c.grantedSeq < e.Seq {
				return true
			}
		}
		return false
	}
	if granted(it) {
		return true
	}
	for f := range s.ancestors(it) { // tree.go
		if (e.Under == nil || slices.Contains(e.Under, f.ID)) && granted(f) {
			return true
		}
	}
	return false
}

// ownRoles lists the roles u holds through collaborations on it itself.
func (s *ReadTx) ownRoles(u *User, it *Item) []string {
	if s.collabs.byID.Len() == 0 || u == nil {
		return nil
	}
	var roles []string
	for _, c := range s.collabs.byItem[s.Items.keyOf(it)] {
		if s.grants(c, u) {
			roles = append(roles, c.role)
		}
	}
	return roles
}

// hasCollaborations reports whether it has collaborations of its own that
// are not rejected (has_collaborations).
func (s *ReadTx) hasCollaborations(it *Item) bool {
	for _, c := range s.collabs.byItem[s.Items.keyOf(it)] {
		if c.status != "rejected" && !s.expired(c) {
			return true
		}
	}
	return false
}

// CollabRecord is c's Collaboration record (its item null while pending).
func (s *Tx) CollabRecord(c *Collab) map[string]any {
	rec := map[string]any{
		"type": "collaboration", "id": c.id, "item": nil, "accessible_by": nil, "invite_email": nil,
		"role": c.role, "expires_at": FmtTime(c.expiresAt), "is_access_only": c.accessOnly, "status": c.status,
		"acknowledged_at": FmtTime(c.ackAt), "created_by": c.createdBy.Mini(),
		"created_at": FmtTime(c.createdAt), "modified_at": FmtTime(c.modifiedAt),
	}
	if c.status != "pending" {
		rec["item"] = s.Mini(c.item)
	}
	switch {
	case c.user != nil:
		ab := c.user.Mini()
		if c.status == "pending" {
			ab["name"] = "" // the spec (User--Collaborations): "an empty string" while pending
		}
		rec["accessible_by"] = ab
	case c.group != nil:
		rec["accessible_by"] = c.group.Mini()
	}
	if c.inviteEmail != "" {
		rec["invite_email"] = c.inviteEmail
	}
	if c.item.Typ == "folder" {
		rec["can_view_path"] = c.canViewPath
	}
	return rec
}

// Collaborator is the accessible_by of a new collaboration: a group by
// id, a user by id, or a login.
type Collaborator struct {
	Type  *string `json:"type"`
	ID    *string `json:"id"`
	Login *string `json:"login"`
}

// CollabBody is the body of POST /collaborations.
type CollabBody struct {
	Item *struct {
		Type *string `json:"type"`
		ID   *string `json:"id"`
	} `json:"item"`
	AccessibleBy *Collaborator `json:"accessible_by"`
	Role         *string       `json:"role"`
	IsAccessOnly *bool         `json:"is_access_only"`
	CanViewPath  *bool         `json:"can_view_path"`
	ExpiresAt    *string       `json:"expires_at"`
}

// CreateCollaboration serves POST /collaborations (refserver's
// createCollaboration): it gives body.AccessibleBy (a group, a user by id,
// or a login) the role on the item typ id, accepted at once or pending,
// and returns 201 with its record.
func (s *Tx) CreateCollaboration(id string, typ string, p *Principal, body CollabBody, expires time.Time, fields []string) (Reply, *wire.Error) {
	ab := body.AccessibleBy
	if !ValidID(id) {
		return Reply{}, wire.NotFound(typ)
	}
	it, aerr := s.LookupFor(p, typ, id, actInvite)
	if aerr != nil {
		return Reply{}, aerr
	}
	if aerr := s.collabSettingsRefuse(p, it, actInvite); aerr != nil {
		return Reply{}, aerr
	}
	// Inviting as co-owner, or with can_view_path, is the owner's and the
	// co-owners' (the spec's can_view_path; an editor invites editors and
	// lower roles).
	if (*body.Role == "co-owner" || body.CanViewPath != nil && *body.CanViewPath) && !s.Can(p, it, actManageCollaborators) {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the owner and co-owners invite co-owners or give can_view_path")
	}
	now := s.NowSec()
	c := &Collab{item: it, role: *body.Role, status: "accepted", expiresAt: expires, createdBy: p.User, createdAt: now, modifiedAt: now}
	if body.IsAccessOnly != nil {
		c.accessOnly = *body.IsAccessOnly
	}
	if body.CanViewPath != nil {
		c.canViewPath = *body.CanViewPath
	}
	switch {
	case *ab.Type == "group":
		g, aerr := s.LookupGroup(*ab.ID)
		if aerr != nil {
			return Reply{}, aerr
		}
		if !s.canInviteGroup(g, p) {
			return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "This group cannot be invited by this user")
		}
		c.group = g
	case ab.ID != nil:
		u := s.Users.ByID.At(*ab.ID)
		if u == nil || u.Deleted() {
			return Reply{}, wire.NotFound("user")
		}
		c.user = u
	default:
		login := strings.TrimSpace(*ab.Login)
		if !strings.Contains(login, "@") {
			return Reply{}, wire.BadRequest("Invalid value for \"accessible_by.login\": an e-mail address")
		}
		if u := s.Users.ByLogin[strings.ToLower(login)]; u != nil && !u.Deleted() {
			c.user = u
		} else {
			c.inviteEmail, c.status = login, "pending"
		}
	}
	if c.user != nil && !s.inEnterprise(c.user) {
		c.status = "pending" // outside the enterprise: they accept or reject
	}
	if c.group == nil && !s.inEnterprise(c.user) && s.restrictedToEnterprise(it) {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Collaboration on this folder is restricted to the users of the enterprise (is_collaboration_restricted_to_enterprise)")
	}
	if s.alreadyCollaborates(c) {
		return Reply{}, wire.Errorf(wire.StatusBadRequest, CodeAlreadyCollaborator, "The user or group already collaborates on this item")
	}
	c.id = s.NewID()
	if c.status == "accepted" {
		c.grantedSeq = s.Events.Head
	}
	s.addCollab(c)
	s.RecordEvent(evCollabAdd, p.User, it, s.CollabRecord(c))
	return Reply{wire.StatusCreated, PickFields(s.CollabRecord(c), fields, "type", "id")}, nil
}

// bindInvitations gives a new user the pending invitations sent to their
// login: they stay pending until the user accepts or rejects them.
func (s *Tx) bindInvitations(u *User) {
	for _, c := range s.collabs.byID.All() {
		if c.user == nil && c.group == nil && strings.EqualFold(c.inviteEmail, u.Login) {
			s.collabs.byID.Update(c.id, func(c *Collab) { c.user = u })
		}
	}
}

// alreadyCollaborates reports whether c's collaborator already has a
// pending or accepted collaboration on c's item, or owns it.
func (s *Tx) alreadyCollaborates(c *Collab) bool {
	if c.user != nil && c.user == c.item.Owner {
		return true
	}
	for _, o := range s.collabs.byItem[s.Items.keyOf(c.item)] {
		if o.status == "rejected" || s.expired(o) {
			continue
		}
		if c.user != nil && o.user == c.user || c.group != nil && o.group == c.group ||
			c.inviteEmail != "" && strings.EqualFold(o.inviteEmail, c.inviteEmail) {
			return true
		}
	}
	return false
}

// CollabFor finds the collaboration of the path that p may read: a
// viewer of its item, its collaborator or its creator.
func (s *Tx) CollabFor(id string, p *Principal) (*Collab, *wire.Error) {
	c, ok := s.collabs.byID.Get(id)
	if !ok || s.expired(c) || !(s.mayListCollaborators(p, c.item) || c.user == p.User || c.createdBy == p.User) {
		return nil, wire.NotFound("collaboration")
	}
	return c, nil
}

// mayListCollaborators reports whether p reads the collaborations of it:
// a role that views collaborators, and the folder settings allowing.
func (s *ReadTx) mayListCollaborators(p *Principal, it *Item) bool {
	return s.Can(p, it, actViewCollaborators) && s.collabSettingsRefuse(p, it, actViewCollaborators) == nil
}

// CollabUpdateBody is the body of PUT /collaborations/{id}.
type CollabUpdateBody struct {
	Role        *string               `json:"role"`
	Status      *string               `json:"status"`
	ExpiresAt   wire.Nullable[string] `json:"expires_at"`
	CanViewPath *bool                 `json:"can_view_path"`
}

// UpdateCollaboration serves PUT /collaborations/{collaboration_id}
// (updateCollaboration): the invitee accepts or rejects it, a manager of
// the item changes its role, expiry or can_view_path, and role owner
// transfers the item (204).
func (s *Tx) UpdateCollaboration(collabID string, p *Principal, body CollabUpdateBody, expires time.Time, fields []string) (Reply, *wire.Error) {
	c, aerr := s.CollabFor(collabID, p)
	if aerr != nil {
		return Reply{}, aerr
	}
	now := s.NowSec()
	if body.Status != nil {
		if c.status != "pending" || c.user != p.User || *body.Status == "pending" {
			return Reply{}, wire.Errorf(wire.StatusBadRequest, CodeInvalidStatus, "Only the invitee accepts or rejects a pending collaboration")
		}
	}
	changesGrant := body.Role != nil || body.ExpiresAt.Present || body.CanViewPath != nil
	if changesGrant && !s.Can(p, c.item, actManageCollaborators) {
		return Reply{}, ErrDenied("collaboration")
	}
	if body.CanViewPath != nil && !s.Can(p, c.item, actFolderSettings) {
		// "Only an owner can update can_view_path on existing collaborations."
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the owner changes can_view_path of a collaboration")
	}
	if body.Role != nil && *body.Role == "owner" {
		if !s.Can(p, c.item, actOwn) {
			return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the owner may transfer the item")
		}
		if c.user == nil || c.status != "accepted" {
			return Reply{}, wire.BadRequest("Ownership goes to a user whose collaboration is accepted")
		}
		s.transferOwnership(c, p, now)
		return Reply{Status: wire.StatusNoContent}, nil
	}
	roleChanged := body.Role != nil && *body.Role != c.role
	grantChanged := roleChanged || body.ExpiresAt.Present && !expires.Equal(c.expiresAt) ||
		body.CanViewPath != nil && *body.CanViewPath != c.canViewPath
	s.collabs.byID.Update(c.id, func(c *Collab) {
		if body.Status != nil {
			c.status, c.ackAt = *body.Status, now
			if c.status == "accepted" {
				c.grantedSeq = s.Events.Head
			}
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
	})
	s.collabChanged(c, p.User, body.Status != nil, roleChanged, grantChanged)
	return Reply{wire.StatusOK, PickFields(s.CollabRecord(c), fields, "type", "id")}, nil
}

// collabChanged records what a PUT changed in c (the events guide, the
// webhooks guide's triggers): accepted (COLLABORATION.ACCEPTED) or rejected
// (COLLABORATION.REJECTED) by its invitee; a new role is COLLAB_ROLE_CHANGE
// (COLLABORATION.UPDATED); another change of the grant (expiry,
// can_view_path) has no user stream event and fires COLLABORATION.UPDATED.
func (s *Tx) collabChanged(c *Collab, by *User, statusSet, roleChanged, grantChanged bool) {
	src := RecordJSON(s.CollabRecord(c))
	if statusSet {
		trigger := "COLLABORATION.ACCEPTED"
		if c.status == "rejected" {
			trigger = "COLLABORATION.REJECTED"
		}
		s.fireTrigger(c.item, trigger, by, src)
	}
	switch {
	case roleChanged:
		s.RecordEvent(evCollabRoleChange, by, c.item, s.CollabRecord(c))
	case grantChanged:
		s.fireTrigger(c.item, "COLLABORATION.UPDATED", by, src)
	}
}

// transferOwnership gives c's item (and what is below it) to c's user; the
// old owner becomes a co-owner in a new collaboration that replaces c.
func (s *Tx) transferOwnership(c *Collab, p *Principal, now time.Time) {
	old := c.item.Owner
	s.removeCollab(c)
	s.setOwnerTree(c.item, c.user)
	s.touchItem(c.item, now, p.User)
	if old != nil {
		s.addCollab(&Collab{id: s.NewID(), item: c.item, user: old, role: "co-owner", status: "accepted",
			createdBy: p.User, createdAt: now, modifiedAt: now})
	}
}

// DeleteCollaboration serves DELETE /collaborations/{collaboration_id}
// (deleteCollaboration): a manager of the item, or the collaborator
// leaving, removes it (204).
func (s *Tx) DeleteCollaboration(collabID string, p *Principal) (Reply, *wire.Error) {
	c, aerr := s.CollabFor(collabID, p)
	if aerr != nil {
		return Reply{}, aerr
	}
	if c.user != p.User && !s.Can(p, c.item, actManageCollaborators) {
		return Reply{}, ErrDenied("collaboration")
	}
	s.removeCollab(c)
	s.RecordEvent(evCollabRemove, p.User, c.item, s.CollabRecord(c))
	return Reply{Status: wire.StatusNoContent}, nil
}

// ListItemCollaborations serves GET /files|folders/{id}/collaborations
// (listItemCollaborations): a marker page of the item's collaborations,
// pending ones included.
func (s *Tx) ListItemCollaborations(p *Principal, typ string, id string, q wire.Page, fields []string) (Reply, *wire.Error) {
	it, aerr := s.Lookup(p, typ, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	if !s.Can(p, it, actViewCollaborators) {
		return Reply{}, ErrDenied(typ)
	}
	if aerr := s.collabSettingsRefuse(p, it, actViewCollaborators); aerr != nil {
		return Reply{}, aerr
	}
	var list []*Collab
	for _, c := range s.collabs.byItem[s.Items.keyOf(it)] {
		if !s.expired(c) {
			list = append(list, c)
		}
	}
	slices.SortFunc(list, func(a, b *Collab) int { return wire.CompareIDs(a.id, b.id) })
	return Reply{wire.StatusOK, wire.MarkerEntries(list, q, func(c *Collab) int64 { return NumID(c.id) },
		func(c *Collab) any { return PickFields(s.CollabRecord(c), fields, "type", "id") })}, nil
}

// ListGroupCollaborations serves GET /groups/{group_id}/collaborations
// (listGroupCollaborations): an offset page of the group's collaborations,
// for admins and the group's members (403 for others).
func (s *Tx) ListGroupCollaborations(gid string, p *Principal, q wire.Page) (Reply, *wire.Error) {
	g, aerr := s.LookupGroup(gid)
	if aerr != nil {
		return Reply{}, aerr
	}
	if !p.IsAdmin() && s.groupRole(g, p.User) == "" {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the admin and the group's members see its collaborations")
	}
	var list []*Collab
	for _, c := range s.collabs.byID.All() {
		if c.group == g && !s.expired(c) {
			list = append(list, c)
		}
	}
	slices.SortFunc(list, func(a, b *Collab) int { return wire.CompareIDs(a.id, b.id) })
	return Reply{wire.StatusOK, wire.OffsetEntries(list, q, func(*Collab) bool { return false }, func(c *Collab) any { return s.CollabRecord(c) })}, nil
}

// ListPendingCollaborations serves GET /collaborations?status=pending
// (listPendingCollaborations): an offset page of the caller's pending
// invitations.
func (s *Tx) ListPendingCollaborations(p *Principal, q wire.Page, fields []string) (Reply, *wire.Error) {
	var list []*Collab
	for _, c := range s.collabs.byID.All() {
		if c.status == "pending" && c.user != nil && c.user == p.User && !s.expired(c) {
			list = append(list, c)
		}
	}
	slices.SortFunc(list, func(a, b *Collab) int { return wire.CompareIDs(a.id, b.id) })
	return Reply{wire.StatusOK, wire.OffsetEntries(list, q, func(*Collab) bool { return false },
		func(c *Collab) any { return PickFields(s.CollabRecord(c), fields, "type", "id") })}, nil
}

// CollabFields is a collaboration as plain data: what the persistence
// stores (internal/persist builds its record from it) and gives back on a
// restore (RestoreCollab).
type CollabFields struct {
	ID                                      string
	Item                                    *Item
	User                                    *User  // nil for a group or an e-mail invitation
	Group                                   *Group // nil for a user
	InviteEmail, Role, Status               string
	AccessOnly, CanViewPath                 bool
	ExpiresAt, CreatedAt, ModifiedAt, AckAt time.Time
	CreatedBy                               *User
	GrantedSeq                              int64
}

// CollabIDs lists the ids of the collaborations, sorted.
func (s *ReadTx) CollabIDs() []string { return s.collabs.byID.Keys() }

// CollabFields is collaboration id as plain data, false when it is gone.
func (s *ReadTx) CollabFields(id string) (CollabFields, bool) {
	c, ok := s.collabs.byID.Get(id)
	if !ok {
		return CollabFields{}, false
	}
	return CollabFields{ID: c.id, Item: c.item, User: c.user, Group: c.group, InviteEmail: c.inviteEmail,
		Role: c.role, Status: c.status, AccessOnly: c.accessOnly, CanViewPath: c.canViewPath,
		ExpiresAt: c.expiresAt, CreatedAt: c.createdAt, ModifiedAt: c.modifiedAt, AckAt: c.ackAt,
		CreatedBy: c.createdBy, GrantedSeq: c.grantedSeq}, true
}

// RestoreCollab files a collaboration given back by the persistence, on
// a restore (after the items, users and groups it points to).
func (s *Tx) RestoreCollab(f CollabFields) {
	c := &Collab{id: f.ID, item: f.Item, user: f.User, group: f.Group, inviteEmail: f.InviteEmail, role: f.Role,
		status: f.Status, accessOnly: f.AccessOnly, canViewPath: f.CanViewPath, expiresAt: f.ExpiresAt,
		createdBy: f.CreatedBy, createdAt: f.CreatedAt, modifiedAt: f.ModifiedAt, ackAt: f.AckAt, grantedSeq: f.GrantedSeq}
	s.addCollab(c)
}
