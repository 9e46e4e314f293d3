package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// The access model: who may do what to which item, in one place. Handlers
// ask s.can(p, it, action) (or s.lookupFor, which answers the refusal);
// nothing else decides access to an item.
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

// action is one thing a principal may do to an item.
type action int

const (
	// actSee: the item exists for the caller (reads its record; 404 otherwise).
	actSee action = iota
	// actPreview: previews the content, reads comments and versions.
	actPreview
	// actDownload: downloads the content (and copies it).
	actDownload
	// actUpload: uploads into a folder or a new version of a file.
	actUpload
	// actEdit: renames, moves, changes the description, tags or lock,
	// creates and edits metadata and tasks.
	actEdit
	// actDelete: moves the item to the trash.
	actDelete
	// actShare: creates or changes the item's shared link.
	actShare
	// actManageCollaborators: adds, changes and removes collaborations.
	actManageCollaborators
	// actOwn: what only the owner does (transfers ownership).
	actOwn
)

// roleActions are the actions of each collaboration role (besides actSee,
// which every role has).
var roleActions = map[string][]action{
	"co-owner":           {actPreview, actDownload, actUpload, actEdit, actDelete, actShare, actManageCollaborators},
	"editor":             {actPreview, actDownload, actUpload, actEdit, actDelete, actShare},
	"viewer uploader":    {actPreview, actDownload, actUpload, actShare},
	"previewer uploader": {actPreview, actUpload},
	"viewer":             {actPreview, actDownload, actShare},
	"previewer":          {actPreview},
	"uploader":           {actUpload},
}

// can reports whether p may do act to it. Callers hold s.mu.
func (s *state) can(p *principal, it *item, act action) bool {
	if p.seesAll() {
		return true
	}
	if it.hidden {
		return false
	}
	if it.owner == p.user {
		return true
	}
	if act == actOwn {
		return false
	}
	for _, role := range s.collabRoles(p.user, it) {
		if act == actSee {
			return true
		}
		for _, a := range roleActions[role] {
			if a == act {
				return true
			}
		}
	}
	return false
}

// visible reports whether p may access it (actSee). Callers hold s.mu.
func (s *state) visible(p *principal, it *item) bool {
	return s.can(p, it, actSee)
}

// lookupFor returns the item of a type visible to p (as lookup) when p may
// do act to it; an item p sees but may not act on is 403
// access_denied_insufficient_permissions. Callers hold s.mu.
func (s *state) lookupFor(p *principal, typ, id string, act action) (*item, *wire.Error) {
	it, aerr := s.lookup(p, typ, id)
	if aerr != nil {
		return nil, aerr
	}
	if !s.can(p, it, act) {
		return nil, errDenied(typ)
	}
	return it, nil
}

// errDenied is the refusal of an action on an item the caller sees.
func errDenied(typ string) *wire.Error {
	return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Access denied - insufficient permission for this %s", typ)
}
