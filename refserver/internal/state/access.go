package state

import (
	"github.com/contentapi/cms/refserver/internal/wire"
)

// The access model: who may do what to which item, in one place. Every
// transaction asks s.Can(p, it, action) (or s.LookupFor, which returns the
// refusal); nothing else decides access to an item. docs/collab.md shows
// the table with its sources (Box's "Understanding Collaborator Permission
// Levels" chart and its footnotes, the API reference).
//
//   - The enterprise admin and the app token may do everything to every
//     item. The service account (client credentials, box_subject_type
//     enterprise) is a user of its own: it owns what it creates and reaches
//     what is shared with it; it reaches other users' content only As-User
//     (PrincipalForUser).
//   - The owner may do everything to what they own (unless HideFromUsers
//     hid the item).
//   - A collaboration (collaborations.go) on an item or on a folder above it
//     gives its user — or the members of its group — the actions of its
//     role in RoleActions, while it is accepted and not expired. Roles add
//     up. Every role sees the item (the uploader sees names only).
//   - Moving, copying and deleting an item take a role that comes from a
//     collaboration on a folder above it: the top-level item of a
//     collaboration is moved, copied and deleted by its owner only (the
//     chart: an editor does not copy, delete or move root-level folders;
//     the stricter answer for co-owners and files).
//   - The trash is the owner's (and the admin's): only they see, restore
//     and purge an item in it (actTrash is in no role).
//   - Folder settings (can_non_owners_invite,
//     can_non_owners_view_collaborators,
//     is_collaboration_restricted_to_enterprise) and can_view_path of an
//     existing collaboration are the owner's (actFolderSettings is in no
//     role); the settings bind every other user (collabSettingsRefuse).
//   - A shared link: roles with actShareCreate make a view-only link where
//     the item has none (or read the current one unchanged); changing or
//     removing a link takes actShareChange.
//   - A lock (file_locks.go) may refuse what the role allows, with its own
//     code; it is checked where the change is made, a copy included.
//   - Through a shared link (LookupVia), a link holder reads and previews,
//     and downloads where the link allows; a stranger gets 404.

// Action is one thing a principal may do to an item.
type Action int

const (
	// ActSee: the item exists for the caller (reads its record; 404 otherwise).
	ActSee Action = iota
	// ActPreview: previews the content, reads and writes comments, reads
	// versions.
	ActPreview
	// ActDownload: downloads the content.
	ActDownload
	// ActUpload: uploads into a folder or a new version of a file.
	ActUpload
	// ActEdit: renames, changes the description, tags or lock, creates and
	// edits metadata and tasks.
	ActEdit
	// ActDelete: moves the item to the trash (top-level rule).
	ActDelete
	// actMove: moves the item to another folder (top-level rule).
	actMove
	// actCopy: copies the item (top-level rule; it needs download rights).
	actCopy
	// actShareCreate: creates a view-only shared link where the item has
	// none, or reads the current one unchanged.
	actShareCreate
	// actShareChange: creates, changes or removes the item's shared link.
	actShareChange
	// actInvite: invites new collaborators (POST /collaborations).
	actInvite
	// actViewCollaborators: lists the item's collaborations.
	actViewCollaborators
	// actManageCollaborators: changes and removes others' collaborations,
	// invites as co-owner.
	actManageCollaborators
	// actFolderSettings: sets the folder's collaboration settings and
	// can_view_path of its collaborations.
	actFolderSettings
	// actTrash: sees, restores and purges the item in the trash.
	actTrash
	// actOwn: what only the owner does (transfers ownership).
	actOwn
)

// RoleActions are the actions of each collaboration role (besides ActSee,
// which every role has): Box's collaborator permission levels.
var RoleActions = map[string][]Action{
	"co-owner": {ActPreview, ActDownload, ActUpload, ActEdit, ActDelete, actMove, actCopy,
		actShareCreate, actShareChange, actInvite, actViewCollaborators, actManageCollaborators},
	"editor": {ActPreview, ActDownload, ActUpload, ActEdit, ActDelete, actMove, actCopy,
		actShareCreate, actShareChange, actInvite, actViewCollaborators},
	"viewer uploader":    {ActPreview, ActDownload, ActUpload, actCopy, actShareCreate, actViewCollaborators},
	"previewer uploader": {ActPreview, ActUpload, actViewCollaborators},
	"viewer":             {ActPreview, ActDownload, actCopy, actShareCreate, actViewCollaborators},
	"previewer":          {ActPreview, actViewCollaborators},
	"uploader":           {ActUpload},
}

// topLevelRule lists the actions a role grants only from a collaboration
// on a folder above the item.
func topLevelRule(act Action) bool { return act == ActDelete || act == actMove || act == actCopy }

// roleHas reports whether role grants act.
func roleHas(role string, act Action) bool {
	if act == ActSee {
		_, ok := RoleActions[role]
		return ok
	}
	for _, a := range RoleActions[role] {
		if a == act {
			return true
		}
	}
	return false
}

// Can reports whether p may do act to it.
func (s *ReadTx) Can(p *Principal, it *Item, act Action) bool {
	if p.SeesAll() {
		return true
	}
	if it.Hidden {
		return false
	}
	if p.User != nil && it.Owner == p.User {
		return true
	}
	switch act {
	case actOwn, actTrash, actFolderSettings:
		return false
	}
	if act == actCopy && !s.Can(p, it, ActDownload) {
		return false
	}
	if topLevelRule(act) {
		for f := range s.ancestors(it) {
			for _, role := range s.ownRoles(p.User, f) {
				if roleHas(role, act) {
					return true
				}
			}
		}
		return false
	}
	for _, role := range s.collabRoles(p.User, it) {
		if roleHas(role, act) {
			return true
		}
	}
	return false
}

// visible reports whether p may access it (ActSee).
func (s *ReadTx) visible(p *Principal, it *Item) bool {
	return s.Can(p, it, ActSee)
}

// LookupFor returns the item of a type visible to p (as Lookup) when p may
// do act to it; an item p sees but may not act on is 403
// access_denied_insufficient_permissions.
func (s *ReadTx) LookupFor(p *Principal, typ, id string, act Action) (*Item, *wire.Error) {
	it, aerr := s.Lookup(p, typ, id)
	if aerr != nil {
		return nil, aerr
	}
	if !s.Can(p, it, act) {
		return nil, ErrDenied(typ)
	}
	return it, nil
}

// ErrDenied is the refusal of an action on an item the caller sees.
func ErrDenied(typ string) *wire.Error {
	return wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "Access denied - insufficient permission for this %s", typ)
}

// callerPermissions is the permissions object of it's record: what p may
// do to it (File--Full and Folder--Full permissions).
func (s *ReadTx) callerPermissions(p *Principal, it *Item) map[string]any {
	can := func(a Action) bool { return s.Can(p, it, a) }
	perms := map[string]any{
		"can_delete": can(ActDelete), "can_download": can(ActDownload) && s.LockRefuses(p, it, ActDownload) == nil,
		"can_invite_collaborator": it.Typ != "web_link" && s.collabSettingsRefuse(p, it, actInvite) == nil && can(actInvite),
		"can_rename":              can(ActEdit), "can_set_share_access": can(actShareChange),
		"can_share": can(actShareCreate), "can_upload": can(ActUpload),
	}
	if it.Typ == "file" {
		perms["can_annotate"] = false
		perms["can_comment"] = can(ActPreview)
		perms["can_preview"] = can(ActPreview)
		perms["can_view_annotations_all"] = false
		perms["can_view_annotations_self"] = false
		perms["can_apply_watermark"] = false
	}
	return perms
}
