package state

import (
	"fmt"
	"slices"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Transfer of an owned folder (PUT /users/{user_id}/folders/0, the
// offboarding step): everything the source user owns in their root moves
// into a new folder in the receiver's root, named "<source name>'s Files
// and Folders" (with " (n)" when the receiver has that name already),
// owned by the receiver, with the items' shared links and collaborations
// kept. Only the admin transfers (403 access_denied_insufficient_permissions
// otherwise); the admin's or a co-admin's files cannot be transferred
// ("higher privileged accounts", 403); an unknown user is 404 not_found; a
// transfer to oneself is 400 bad_request.

// TransferOwnedFolder serves PUT /users/{user_id}/folders/0 (refserver's
// transferOwnedFolder): 200 with the new folder.
func (s *Tx) TransferOwnedFolder(p *Principal, fromID, toID string, fields []string) (Reply, *wire.Error) {
	if !p.IsAdmin() {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Only an admin transfers a user's files")
	}
	from, ok := s.Users.ByID.Get(fromID)
	if !ok || from.Deleted() {
		return Reply{}, wire.NotFound("user")
	}
	to, ok := s.Users.ByID.Get(toID)
	if !ok || to.Deleted() {
		return Reply{}, wire.NotFound("user")
	}
	if from.Role == UserRoleAdmin || from.Role == userRoleCoadmin {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Cannot transfer files from/to higher privileged accounts")
	}
	if from == to {
		return Reply{}, wire.BadRequest("The files are transferred to another user")
	}
	base := from.Name + "'s Files and Folders"
	name := base
	for n := 2; s.Conflict(RootID, to, name, nil) != nil; n++ {
		name = fmt.Sprintf("%s (%d)", base, n)
	}
	now := s.NowSec()
	f := &Item{
		Typ: "folder", ID: s.NewFolderID(), Name: name, ParentID: RootID,
		Owner: to, CreatedBy: p.User, ModBy: p.User,
		CreatedAt: now, ModifiedAt: now, ContentCreatedAt: now, ContentModifiedAt: now,
	}
	s.AddItem(f)
	for _, it := range slices.Clone(s.Children(RootID, from)) {
		s.Items.Update(it.Typ, it.ID, func(it *Item) {
			it.ParentID = f.ID
			it.ModBy = p.User
		})
		s.setOwnerTree(it, to) // items_update.go: files the item anew
		s.Folders.Sync(it)
	}
	return Reply{wire.StatusOK, s.Render(f, fields, p)}, nil
}
