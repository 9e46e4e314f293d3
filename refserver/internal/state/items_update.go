package state

import (
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// PUT /files/{file_id} and PUT /folders/{folder_id} (spec put_files_id,
// put_folders_id): rename, move (parent.id), description, tags, shared
// link, a file's lock (file_locks.go) and download permission, a folder's
// sync state, upload e-mail and collaboration settings. Every check runs
// before any change, so a refused update changes nothing:
//
//   - if-match that does not match the etag: 412 precondition_failed;
//   - the root folder 0 cannot be renamed or moved (403
//     access_denied_insufficient_permissions);
//   - a name taken in the target folder (files, folders and web links share
//     names, case-insensitively): 409 item_name_in_use with the conflict;
//   - a folder moved into itself or below itself: 400
//     cyclical_folder_structure (Box's error code list);
//   - a target folder the caller cannot see: 404 not_found;
//   - rename, move or delete of a file someone else locked: 403
//     access_denied_item_locked;
//   - name rules as for uploads (item_name_invalid, item_name_too_long),
//     description at most 256 characters, tags at most 100 of at most 100
//     characters (400 bad_request);
//   - disposition_at applies to files under retention only: 403
//     access_denied_insufficient_permissions otherwise (the spec's "a file_id
//     that is not under retention"); this server does not extend
//     dispositions (400 bad_request for a retained file);
//   - collections: the caller's favorites only (collections.go), 404
//     not_found for another collection; changing them alone needs only to
//     see the item;
//   - a locked folder (folder_locks.go) cannot be moved: 403
//     access_denied_insufficient_permissions;
//   - can_non_owners_view_collaborators false needs can_non_owners_invite
//     false, set before or in the same update (the spec): 400 bad_request;
//   - what the caller may change is the access model's (access.go): a move
//     actMove, the collaboration settings actFolderSettings, the shared
//     link actShareCreate or actShareChange, the rest ActEdit: 403
//     access_denied_insufficient_permissions otherwise.
//
// A move changes the owner as an upload into the target would (the owner
// of the target folder, or the caller for their root), and the etag,
// modified_at, modified_by and sequence_id of the item and of both
// folders; every listing, size and path_collection follows at once.

const (
	maxTags      = 100
	maxTagLength = 100
)

// ItemUpdateBody is the body of PUT /files/{id} and PUT /folders/{id}.
type ItemUpdateBody struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Parent      *struct {
		ID     *string `json:"id"`
		UserID *string `json:"user_id"`
	} `json:"parent"`
	Tags        *[]string                      `json:"tags"`
	SharedLink  wire.Nullable[json.RawMessage] `json:"shared_link"`
	Collections *[]json.RawMessage             `json:"collections"`
	// files
	Lock          wire.Nullable[LockBody] `json:"lock"`
	DispositionAt *string                 `json:"disposition_at"`
	Permissions   *struct {
		CanDownload *string `json:"can_download"`
	} `json:"permissions"`
	// folders
	SyncState         *string `json:"sync_state"`
	FolderUploadEmail wire.Nullable[struct {
		Access *string `json:"access"`
	}] `json:"folder_upload_email"`
	CanNonOwnersInvite                    *bool `json:"can_non_owners_invite"`
	CanNonOwnersViewCollaborators         *bool `json:"can_non_owners_view_collaborators"`
	IsCollaborationRestrictedToEnterprise *bool `json:"is_collaboration_restricted_to_enterprise"`
}

// actions are what an update asks of the access model, besides the shared
// link (sharedLinkAction): a move is actMove, the folder's collaboration
// settings actFolderSettings, collections alone ActSee, anything else
// ActEdit.
func (b *ItemUpdateBody) actions(p *Principal, it *Item) []Action {
	var acts []Action
	if b.Name != nil || b.Description != nil || b.Tags != nil ||
		b.Lock.Present || b.DispositionAt != nil || b.Permissions != nil || b.SyncState != nil ||
		b.FolderUploadEmail.Present {
		acts = append(acts, ActEdit)
	}
	if b.Parent != nil && MovesTo(p, it, *b.Parent.ID) {
		acts = append(acts, actMove)
	}
	if b.CanNonOwnersInvite != nil || b.CanNonOwnersViewCollaborators != nil || b.IsCollaborationRestrictedToEnterprise != nil {
		acts = append(acts, actFolderSettings)
	}
	switch {
	case len(acts) > 0 || b.SharedLink.Present:
	case b.Collections != nil:
		acts = append(acts, ActSee) // favorites alone: seeing the item is enough (collections.go)
	default:
		acts = append(acts, ActEdit) // an update that asks nothing still changes the etag
	}
	return acts
}

// sharedLinkAction is what a change of it's shared link asks (ok false
// when there is none): removing or changing a link is actShareChange; a
// new link, or the current one unchanged, is actShareCreate when p may not
// change links and the link is view-only (the update asks no download,
// edit, password, vanity name or expiry): p gets a view-only link then
// (viewOnly).
func (s *ReadTx) sharedLinkAction(p *Principal, it *Item, removeLink bool, link *SharedLinkUpdate) (act Action, viewOnly, ok bool) {
	switch {
	case removeLink:
		return actShareChange, false, true
	case link == nil:
		return 0, false, false
	case s.Can(p, it, actShareChange):
		return actShareChange, false, true
	}
	if it.Link() != nil {
		cur, next := *it.Link(), *link.Merge(it.Link())
		next.Token = cur.Token
		if sameLink(cur, next) {
			return actShareCreate, false, true
		}
		return actShareChange, false, true
	}
	if link.CanDownload != nil && *link.CanDownload || link.CanEdit != nil && *link.CanEdit ||
		link.Password != nil && *link.Password != "" || link.VanityName != nil || link.UnsharedAt != nil {
		return actShareChange, false, true
	}
	return actShareCreate, true, true
}

// sameLink reports whether two links have the same settings.
func sameLink(a, b SharedLink) bool {
	eq := func(x, y *bool) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	return a.Token == b.Token && a.Access == b.Access && a.Password == b.Password && a.VanityName == b.VanityName &&
		a.UnsharedAt.Equal(b.UnsharedAt) && eq(a.CanDownload, b.CanDownload) && eq(a.CanEdit, b.CanEdit)
}

// checkSharedLink asks the access model for the change of it's shared
// link and checks a vanity name is free; it returns the update to apply
// (a view-only one for p who may only create links), and readOnly when p,
// who may not change links, asked for the current link unchanged: nothing
// is to change then (no new etag, no event).
func (s *ReadTx) checkSharedLink(p *Principal, it *Item, removeLink bool, link *SharedLinkUpdate) (_ *SharedLinkUpdate, readOnly bool, _ *wire.Error) {
	act, viewOnly, ok := s.sharedLinkAction(p, it, removeLink, link)
	if !ok {
		return link, false, nil
	}
	if !s.Can(p, it, act) {
		return nil, false, ErrDenied(it.Typ)
	}
	if link != nil && link.VanityName != nil {
		if aerr := s.checkVanityName(it, *link.VanityName); aerr != nil {
			return nil, false, aerr
		}
	}
	if viewOnly {
		l, off := *link, false
		l.CanDownload = &off
		return &l, false, nil
	}
	return link, act == actShareCreate, nil
}

// checkVanityName refuses a vanity name another item's shared link has
// (case ignored): 400 bad_request (the service documents no code).
func (s *ReadTx) checkVanityName(it *Item, name string) *wire.Error {
	if name == "" {
		return nil
	}
	for _, x := range s.Items.All() {
		if x != it && x.Link() != nil && strings.EqualFold(x.Link().VanityName, name) {
			return wire.BadRequest("Invalid value for shared_link.vanity_name: the name is taken by another shared link")
		}
	}
	return nil
}

// CheckShape applies the rules that need no state.
func (b *ItemUpdateBody) CheckShape(typ string) *wire.Error {
	if b.Name != nil {
		if aerr := CheckName(*b.Name); aerr != nil {
			return aerr
		}
	}
	if b.Description != nil {
		if aerr := CheckDescription(*b.Description); aerr != nil {
			return aerr
		}
	}
	if b.Parent != nil && (b.Parent.ID == nil || *b.Parent.ID == "") {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if b.Tags != nil {
		if len(*b.Tags) > maxTags {
			return wire.BadRequest("An item has at most %d tags", maxTags)
		}
		for _, t := range *b.Tags {
			if t == "" || utf8.RuneCountInString(t) > maxTagLength {
				return wire.BadRequest("A tag has 1 to %d characters", maxTagLength)
			}
		}
	}
	if b.Collections != nil {
		if _, aerr := ParseCollections(*b.Collections); aerr != nil {
			return aerr
		}
	}
	if typ == "file" {
		if b.SyncState != nil || b.FolderUploadEmail.Present || b.CanNonOwnersInvite != nil ||
			b.CanNonOwnersViewCollaborators != nil || b.IsCollaborationRestrictedToEnterprise != nil {
			return wire.BadRequest("A file has no folder settings")
		}
		if b.Permissions != nil && b.Permissions.CanDownload != nil && *b.Permissions.CanDownload != "open" && *b.Permissions.CanDownload != "company" {
			return wire.BadRequest("Invalid value for \"permissions.can_download\": open or company")
		}
		return nil
	}
	if b.Lock.Present || b.DispositionAt != nil || b.Permissions != nil {
		return wire.BadRequest("A folder has no lock, disposition_at or permissions")
	}
	if b.SyncState != nil && *b.SyncState != "synced" && *b.SyncState != "not_synced" && *b.SyncState != "partially_synced" {
		return wire.BadRequest("Invalid value for \"sync_state\": synced, not_synced or partially_synced")
	}
	if e := b.FolderUploadEmail; e.Present && !e.Null && (e.V.Access == nil || *e.V.Access != "open" && *e.V.Access != "collaborators") {
		return wire.BadRequest("Invalid value for folder_upload_email.access: open or collaborators")
	}
	return nil
}

// UpdateItem serves PUT /files/{file_id} and PUT /folders/{folder_id}
// (refserver's updateItem) under the rules above: every check first, then
// the changes (lock and unlock: the parsed lock member; removeLink and
// link: the parsed shared_link), at now; 200 with the item's record.
func (s *Tx) UpdateItem(id string, body ItemUpdateBody, p *Principal, typ string, ifMatch string, lock *FileLock, unlock bool, now time.Time, removeLink bool, link *SharedLinkUpdate, fields []string) (Reply, *wire.Error) {
	if id == RootID {
		if body.Name != nil || body.Parent != nil {
			return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The root folder cannot be renamed or moved")
		}
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The root folder cannot be changed")
	}
	it, aerr := s.Lookup(p, typ, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	if aerr := CheckIfMatch(ifMatch, it.Etag()); aerr != nil {
		return Reply{}, aerr
	}
	acts := body.actions(p, it)
	for _, need := range acts {
		if !s.Can(p, it, need) {
			return Reply{}, ErrDenied(typ)
		}
	}
	link, readOnly, aerr := s.checkSharedLink(p, it, removeLink, link)
	if aerr != nil {
		return Reply{}, aerr
	}
	if readOnly && len(acts) == 0 {
		return Reply{wire.StatusOK, s.Render(it, fields, p)}, nil // the current link, read
	}
	target, owner, name := it.ParentID, it.Owner, it.Name
	moving := body.Parent != nil && MovesTo(p, it, *body.Parent.ID)
	if moving {
		target = *body.Parent.ID
		parent, aerr := s.ParentFolder(p, target)
		if aerr != nil {
			return Reply{}, aerr
		}
		if typ == "folder" && s.IsWithin(target, it.ID) {
			return Reply{}, wire.Errorf(wire.StatusBadRequest, wire.CodeCyclicalFolderStructure, "Folder move creates cyclical folder structure")
		}
		owner = OwnerIn(p, parent)
	}
	if body.Name != nil {
		name = *body.Name
	}
	renaming := name != it.Name
	if moving {
		if aerr := s.FolderLockRefuses(it, "move"); aerr != nil { // folder_locks.go
			return Reply{}, aerr
		}
	}
	if moving || renaming {
		if aerr := s.LockRefuses(p, it, ActEdit); aerr != nil {
			return Reply{}, aerr
		}
		if c := s.Conflict(target, owner, name, it); c != nil {
			return Reply{}, s.ErrNameInUse(c)
		}
	}
	if v := body.CanNonOwnersViewCollaborators; v != nil && !*v {
		invite := it.CanNonOwnersInvite.Or(true)
		if body.CanNonOwnersInvite != nil {
			invite = *body.CanNonOwnersInvite
		}
		if invite {
			// The spec: setting it false "is required to also set
			// can_non_owners_invite_collaborators to false if it has not
			// already been set".
			return Reply{}, wire.BadRequest("can_non_owners_view_collaborators false needs can_non_owners_invite false")
		}
	}
	if body.DispositionAt != nil {
		if s.retentionBlocksPurge(it) == nil {
			return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The file is not under retention: disposition_at applies to retained files")
		}
		return Reply{}, wire.BadRequest("This server does not change the disposition of a retained file")
	}
	if body.Lock.Present {
		if aerr := s.applyLock(p, it, lock, unlock); aerr != nil {
			return Reply{}, aerr
		}
	}
	setCollections, aerr := s.applyCollections(p, body.Collections) // collections.go
	if aerr != nil {
		return Reply{}, aerr
	}

	// Every check passed: apply.
	hadLink := it.Link() != nil
	s.Items.Update(it.Typ, it.ID, func(it *Item) {
		it.ModBy = p.User
		if moving {
			old := s.Items.At("folder", it.ParentID)
			it.ParentID = target
			s.setOwnerTree(it, owner)
			s.cascadeInto(it)
			for _, f := range []*Item{old, s.Items.At("folder", target)} {
				if f != nil {
					s.touchItem(f, now, nil)
				}
			}
		}
		it.Name = name
		if body.Description != nil {
			it.SetDescription(*body.Description)
		}
		if body.Tags != nil {
			it.SetTags(append([]string{}, *body.Tags...))
		}
		switch {
		case removeLink:
			it.SetLink(nil)
		case link != nil:
			it.SetLink(link.Merge(it.Link()))
		}
		if body.Permissions != nil && body.Permissions.CanDownload != nil {
			it.CompanyDownloads = *body.Permissions.CanDownload == "company"
		}
		body.applyFolderSettings(it)
		setCollections(it)
		it.touch(now, p.User)
	})
	s.sharedLinkEvent(it, p.User, hadLink, removeLink, link != nil)
	if body.Lock.Present {
		ev := evLockCreate
		if unlock {
			ev = evLockDestroy
		}
		s.ItemEvent(ev, it, p.User)
	}
	return Reply{wire.StatusOK, s.Render(it, fields, p)}, nil
}

// sharedLinkEvent records the change of an item's shared link by an
// update (the events guide): ITEM_SHARED_CREATE for a new link,
// ITEM_SHARED_UPDATE for a change of one, ITEM_SHARED_UNSHARE for its
// removal; nothing when no link was there to remove.
func (s *Tx) sharedLinkEvent(it *Item, by *User, hadLink, removed, changed bool) {
	switch {
	case removed && hadLink:
		s.ItemEvent(evSharedUnshare, it, by)
	case changed && !hadLink:
		s.ItemEvent(evSharedCreate, it, by)
	case changed:
		s.ItemEvent(evSharedUpdate, it, by)
	}
}

// applyFolderSettings sets the folder members of an update.
func (b *ItemUpdateBody) applyFolderSettings(it *Item) {
	if b.SyncState != nil {
		it.SetSyncState(*b.SyncState)
	}
	if e := b.FolderUploadEmail; e.Present {
		it.SetUploadEmail("")
		if !e.Null {
			it.SetUploadEmail(*e.V.Access)
		}
	}
	set := func(dst *OptBool, v *bool) {
		if v != nil {
			*dst = OptBoolOf(v)
		}
	}
	set(&it.CanNonOwnersInvite, b.CanNonOwnersInvite)
	set(&it.CanNonOwnersViewCollab, b.CanNonOwnersViewCollaborators)
	set(&it.RestrictedToEnterprise, b.IsCollaborationRestrictedToEnterprise)
}

// MovesTo reports whether parent id is another folder than it's: "0" is
// the caller's root, another folder than the owner's root for a caller
// who is not the owner.
func MovesTo(p *Principal, it *Item, id string) bool {
	return id != it.ParentID || id == RootID && p.User != it.Owner
}

// IsWithin reports whether folder id is folder root or below it.
func (s *ReadTx) IsWithin(id, root string) bool {
	if id == root {
		return true
	}
	f, ok := s.Items.Get("folder", id)
	return ok && root != RootID && s.IsUnder(f, root) // tree.go
}

// setOwnerTree gives an item and everything below it a new owner (a move
// into another user's folder).
func (s *Tx) setOwnerTree(it *Item, owner *User) {
	if it.Owner != owner {
		s.Items.Update(it.Typ, it.ID, func(it *Item) { it.Owner = owner })
		if it.Typ == "folder" {
			for _, c := range s.subItems(it) {
				s.setOwnerTree(c, owner)
			}
		}
	}
	s.Folders.Sync(it)
}

// itemSettings renders the members this file adds to a record when asked
// by fields (content.go's Extra). ok is false for other fields.
func (s *Tx) itemSettings(it *Item, field string) (any, bool) {
	switch field {
	case "tags":
		return append([]string{}, it.Tags()...), true
	case "lock":
		if it.Typ == "file" {
			return s.lockRecord(it), true
		}
	case "can_non_owners_invite":
		return it.CanNonOwnersInvite.Or(true), it.Typ == "folder"
	case "can_non_owners_view_collaborators":
		return it.CanNonOwnersViewCollab.Or(true), it.Typ == "folder"
	case "is_collaboration_restricted_to_enterprise":
		return it.RestrictedToEnterprise.Or(false), it.Typ == "folder"
	}
	return nil, false
}
