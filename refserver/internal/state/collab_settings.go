package state

import "github.com/contentapi/cms/refserver/internal/wire"

// The collaboration settings of a folder (PUT /folders/{id}:
// can_non_owners_invite, can_non_owners_view_collaborators,
// is_collaboration_restricted_to_enterprise): set by the owner only
// (actFolderSettings, access.go), and binding every other user on the
// folder and everything below it. CreateCollaboration, the lists of
// collaborations and the permissions of a record ask them here.

// settingFolders yields it when it is a folder, then the folders above it:
// the folders whose collaboration settings bind it.
func (s *ReadTx) settingFolders(it *Item, yield func(*Item) bool) {
	if it.Typ == "folder" && !yield(it) {
		return
	}
	for f := range s.ancestors(it) {
		if !yield(f) {
			return
		}
	}
}

// collabSettingsRefuse applies the folder settings to a user who is not the
// owner (nor the admin): can_non_owners_invite false, or
// can_non_owners_view_collaborators false, on the item or a folder above
// it refuses invitations (actInvite); can_non_owners_view_collaborators
// false refuses the list of collaborators (actViewCollaborators). 403
// access_denied_insufficient_permissions, or nil.
func (s *ReadTx) collabSettingsRefuse(p *Principal, it *Item, act Action) *wire.Error {
	if p.SeesAll() || p.User != nil && it.Owner == p.User {
		return nil
	}
	var refused *wire.Error
	s.settingFolders(it, func(f *Item) bool {
		noView := !f.CanNonOwnersViewCollab.Or(true)
		switch {
		case act == actInvite && (noView || !f.CanNonOwnersInvite.Or(true)):
			refused = wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the owner invites collaborators to this folder (can_non_owners_invite)")
		case act == actViewCollaborators && noView:
			refused = wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only the owner sees the collaborators of this folder (can_non_owners_view_collaborators)")
		}
		return refused == nil
	})
	return refused
}

// restrictedToEnterprise reports whether it, or a folder above it, takes
// new collaborators from the enterprise only
// (is_collaboration_restricted_to_enterprise).
func (s *ReadTx) restrictedToEnterprise(it *Item) bool {
	restricted := false
	s.settingFolders(it, func(f *Item) bool {
		restricted = f.RestrictedToEnterprise.Or(false)
		return !restricted
	})
	return restricted
}

// inEnterprise reports whether u is a user of the enterprise (not a free
// user, not rolled out).
func (s *ReadTx) inEnterprise(u *User) bool {
	return u != nil && !u.Free && (s.EnterpriseUser(u.ID) != nil || u == s.Admin || u == s.User)
}
