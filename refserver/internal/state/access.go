package state

import (
	"github.com/contentapi/cms/refserver/internal/wire"
)

// The access model: who may do what to which item, in one place. The
// transactions ask s.Can(p, it, action) (or s.LookupFor, which returns the
// refusal); nothing else decides access to an item.
//
//   - The enterprise admin and the app token may do everything.
//   - The owner may do everything to what they own (unless HideFromUsers
//     hid the item).
//   - A collaboration (collaborations.go) on an item or on a folder above it
//     gives its user — or the members of its group — the actions of its role,
//     as Box's collaborator permission levels list them, while it is
//     accepted and not expired:
//     co-owner: everything but transferring ownership; editor: preview,
//     download, upload, edit, delete, share; viewer uploader: preview,
//     download, upload, share; previewer uploader: preview, upload; viewer:
//     preview, download, share; previewer: preview; uploader: upload (and
//     see names). Every role sees the item. Roles add up.
//   - A lock (file_locks.go) may refuse what the role allows, with its own
//     code; it is checked where the change is made.

// Action is one thing a principal may do to an item.
type Action int

const (
	// ActSee: the item exists for the caller (reads its record; 404 otherwise).
	ActSee Action = iota
	// ActPreview: previews the content, reads comments and versions.
	ActPreview
	// ActDownload: downloads the content (and copies it).
	ActDownload
	// ActUpload: uploads into a folder or a new version of a file.
	ActUpload
	// ActEdit: renames, moves, changes the description, tags or lock,
	// creates and edits metadata and tasks.
	ActEdit
	// ActDelete: moves the item to the trash.
	ActDelete
	// actShare: creates or changes the item's shared link.
	actShare
	// actManageCollaborators: adds, changes and removes collaborations.
	actManageCollaborators
	// actOwn: what only the owner does (transfers ownership).
	actOwn
)

// RoleActions are the actions of each collaboration role (besides ActSee,
// which every role has).
var RoleActions = map[string][]Action{
	"co-owner":           {ActPreview, ActDownload, ActUpload, ActEdit, ActDelete, actShare, actManageCollaborators},
	"editor":             {ActPreview, ActDownload, ActUpload, ActEdit, ActDelete, actShare},
	"viewer uploader":    {ActPreview, ActDownload, ActUpload, actShare},
	"previewer uploader": {ActPreview, ActUpload},
	"viewer":             {ActPreview, ActDownload, actShare},
	"previewer":          {ActPreview},
	"uploader":           {ActUpload},
}

// Can reports whether p may do act to it.
func (s *ReadTx) Can(p *Principal, it *Item, act Action) bool {
	if p.SeesAll() {
		return true
	}
	if it.Hidden {
		return false
	}
	if it.Owner == p.User {
		return true
	}
	if act == actOwn {
		return false
	}
	for _, role := range s.collabRoles(p.User, it) {
		if act == ActSee {
			return true
		}
		for _, a := range RoleActions[role] {
			if a == act {
				return true
			}
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
