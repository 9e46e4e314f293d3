package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// The trash. DELETE of a file, folder or web link moves it here: it keeps
// its id, parent and content, answers 404 through the normal endpoints and
// is gone from listings, but can be read, restored or deleted for good
// through the trash endpoints. A folder takes its content along; the
// content comes back with it and is not listed in the trash on its own (the
// service answers 404 for an item whose parent folder is in the trash).

// trashRetention is how long an item stays in the trash before the service
// would purge it; purged_at of a trashed item is trashed_at plus this.
const trashRetention = 30 * 24 * time.Hour

// trashFolderID is the id the service shows for the trash in the
// path_collection of a trashed item.
const trashFolderID = "1"

// codeParentUnavailable answers a restore whose original parent folder is
// gone (in the trash or deleted) when no other parent was given. The
// service documents no code for it; 409, like a name clash, because the
// item cannot go back to where it was, and the caller can retry with a
// parent.
const codeParentUnavailable = "parent_folder_unavailable"

// InTrash reports whether it is in the trash: trashed itself, or below a
// folder in the trash. This is the one test the read paths use (lookup,
// the metadata query, the template of an instance). A folder's trashing
// marks everything below it (setTrashedWith), so the item's own mark
// answers for its ancestors too.
func (s *ReadTx) InTrash(it *Item) bool { return it.Trashed() }

// Live reports whether p may read it through the endpoints of items and
// of what hangs on them (metadata, tasks, watermarks, ...): visible to p and
// not in the trash. An item in the trash answers 404 there, as it does on
// its own endpoints; only the trash endpoints read it.
func (s *ReadTx) Live(p *Principal, it *Item) bool { return s.visible(p, it) && !s.InTrash(it) }

// trashPathCollection is the path_collection of an item in the trash.
func trashPathCollection() map[string]any {
	trash := map[string]any{"type": "folder", "id": trashFolderID, "sequence_id": nil, "etag": nil, "name": "Trash"}
	return map[string]any{"total_count": 1, "entries": []any{trash}}
}

// addTrashState sets trashed_at, purged_at and item_status of a record.
func (s *Tx) addTrashState(m map[string]any, it *Item) {
	m["item_status"] = "active"
	m["trashed_at"] = nil
	m["purged_at"] = nil
	if it.Trashed() {
		m["item_status"] = "trashed"
		m["trashed_at"] = FmtTime(it.TrashedAt())
		m["purged_at"] = FmtTime(it.TrashedAt().Add(trashRetention))
	}
}

// subItems lists every item whose parent is f, in the trash or not: none
// unless f is a folder (a file may share a folder's id: SeparateIDSpaces).
func (s *Tx) subItems(f *Item) []*Item {
	if f.Typ != "folder" {
		return nil
	}
	var out []*Item
	for _, it := range s.Items.All() {
		if it.ParentID == f.ID {
			out = append(out, it)
		}
	}
	return out
}

// TrashItem moves an item to the trash, a folder with everything in it
// that is not in the trash already, by a user (the event's created_by).
func (s *Tx) TrashItem(it *Item, by *User) {
	now := s.NowSec()
	s.Items.Update(it.Typ, it.ID, func(it *Item) {
		it.SetTrash(now, "")
		it.Seq++
	})
	s.Folders.Sync(it) // out of its folder's listings
	s.setTrashedWith(it, now, it.ID)
	if parent, ok := s.Items.Get("folder", it.ParentID); ok {
		s.touchItem(parent, now, nil)
	}
	s.ItemEvent(evItemTrash, it, by)
}

// setTrashedWith marks the content below folder f that is not in the
// trash as trashed with the folder root.
func (s *Tx) setTrashedWith(f *Item, now time.Time, root string) {
	for _, c := range s.subItems(f) {
		if c.Trashed() {
			continue
		}
		s.Items.Update(c.Typ, c.ID, func(c *Item) { c.SetTrash(now, root) })
		s.Folders.Sync(c)
		s.setTrashedWith(c, now, root)
	}
}

// untrash takes an item out of the trash with the content trashed with it.
func (s *Tx) untrash(it *Item, root string) {
	s.Items.Update(it.Typ, it.ID, func(it *Item) { it.SetTrash(time.Time{}, "") })
	s.Folders.Sync(it)
	for _, c := range s.subItems(it) {
		if c.Trashed() && c.TrashedWith() == root {
			s.untrash(c, root)
		}
	}
}

// LookupTrashed returns an item of a type that is in the trash itself (not
// with its folder) and whose trash p may read: the trash is the owner's
// and the admin's (actTrash, access.go); collaborators, whatever their
// role, neither see, restore nor purge it (404).
func (s *Tx) LookupTrashed(p *Principal, typ, id string) (*Item, *wire.Error) {
	it, ok := s.Items.Get(typ, id)
	if !ok || it.Typ != typ || !it.Trashed() || it.TrashedWith() != "" || !s.Can(p, it, actTrash) {
		return nil, wire.Errorf(wire.StatusNotFound, wire.CodeNotFound, "Not Found: no %s with this id in the trash", typ)
	}
	return it, nil
}

// GetTrashed serves GET /files/{id}/trash, /folders/{id}/trash and
// /web_links/{id}/trash (refserver's getTrashed): an item in the trash
// itself, as p sees it.
func (s *Tx) GetTrashed(p *Principal, typ string, id string, fields []string) (Reply, *wire.Error) {
	it, aerr := s.LookupTrashed(p, typ, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, s.Render(it, fields, p)}, nil
}

// RestoreBody is the body of POST /files/{id}, /folders/{id} and
// /web_links/{id}.
type RestoreBody struct {
	Name   *string `json:"name"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
}

// RestoreItem serves POST /files/{id}, /folders/{id} and /web_links/{id}
// (restoreHandler): the item in the trash comes back with what was trashed
// with it, to its parent or, when that is gone, to body's (409
// parent_folder_unavailable without one), under body's name if given; 201
// with its record, shared_link null.
func (s *Tx) RestoreItem(p *Principal, typ string, id string, body RestoreBody, fields []string) (Reply, *wire.Error) {
	it, aerr := s.LookupTrashed(p, typ, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	target, aerr := s.restoreTarget(p, it, body)
	if aerr != nil {
		return Reply{}, aerr
	}
	name := it.Name
	if body.Name != nil {
		name = *body.Name
	}
	owner := it.Owner
	if target != it.ParentID {
		parent, _ := s.ParentFolder(p, target)
		owner = OwnerIn(p, parent)
	}
	if c := s.Conflict(target, owner, name, it); c != nil {
		return Reply{}, s.ErrNameInUse(c)
	}
	now := s.NowSec()
	s.untrash(it, it.ID)
	s.Items.Update(it.Typ, it.ID, func(it *Item) { it.Name, it.ParentID = name, target })
	s.setOwnerTree(it, owner) // a folder's content with it, as a move does
	s.touchItem(it, now, p.User)
	if parent, ok := s.Items.Get("folder", target); ok {
		s.touchItem(parent, now, nil)
	}
	s.ItemEvent(evItemUndelete, it, p.User)
	out := s.Render(it, fields, p)
	if _, ok := out["shared_link"]; ok {
		// The restored records (TrashFileRestored, ...) say shared_link
		// is null after a restore, "even though the original shared link
		// does become active again"; box-typescript-sdk-gen rejects an
		// object there.
		out["shared_link"] = nil
	}
	return Reply{wire.StatusCreated, out}, nil
}

// restoreTarget picks the folder a restored item goes to.
func (s *Tx) restoreTarget(p *Principal, it *Item, body RestoreBody) (string, *wire.Error) {
	orig := it.ParentID
	if orig == RootID {
		return orig, nil
	}
	if f, ok := s.Items.Get("folder", orig); ok && !f.Trashed() {
		return orig, nil
	}
	if body.Parent == nil {
		return "", wire.Errorf(wire.StatusConflict, codeParentUnavailable, "The parent folder of the item is no longer available; give a parent to restore it to")
	}
	if _, aerr := s.ParentFolder(p, *body.Parent.ID); aerr != nil {
		return "", aerr
	}
	return *body.Parent.ID, nil
}

// ListTrash serves GET /folders/trash/items (listTrash): a page of the
// items in the trash themselves, p's own (everyone's for a principal who
// sees every item).
func (s *Tx) ListTrash(p *Principal, q CollectionQuery, fields []string) (Reply, *wire.Error) {
	// The trash index of p's own items, or of everyone's for a principal
	// who sees every item (folderindex.go): a page costs O(log n + page).
	// Items p owns but may not see (HideFromUsers) keep their place in the
	// pages, as in a folder listing; trashPage leaves them out.
	owner := p.User
	if p.SeesAll() {
		owner = nil
	}
	return Reply{wire.StatusOK, s.trashPage(s.Folders.trash(owner), q, fields, p)}, nil
}

// trashPage pages the trash index fx like a folder listing (indexPage);
// offset pages also give their order.
func (s *Tx) trashPage(fx *folderIndex, q CollectionQuery, fields []string, p *Principal) map[string]any {
	out := s.indexPage(fx, q, fields, p, func(it *Item) bool { return s.Can(p, it, actTrash) })
	if !q.UseMarker {
		dir := "ASC"
		if q.Desc {
			dir = "DESC"
		}
		out["order"] = []any{map[string]any{"by": q.Key, "direction": dir}}
	}
	return out
}

// PurgeTrashed serves DELETE /files/{id}/trash, /folders/{id}/trash and
// /web_links/{id}/trash: the item (a folder with its content) is gone for
// good, unless PurgeBlocked reports a retention or a hold. Its blobs are
// deleted once the change is committed (the outbox).
func (s *Tx) PurgeTrashed(p *Principal, typ, id string) *wire.Error {
	it, aerr := s.LookupTrashed(p, typ, id)
	if aerr == nil {
		aerr = s.PurgeBlocked(it)
	}
	if aerr != nil {
		return aerr
	}
	// Deleted for good: FILE.DELETED or FOLDER.DELETED, which the user
	// stream records no event for (the events guide lists none).
	switch it.Typ {
	case "file":
		s.fireTrigger(it, "FILE.DELETED", p.User, RecordJSON(s.Standard(it)))
	case "folder":
		s.fireTrigger(it, "FOLDER.DELETED", p.User, RecordJSON(s.Standard(it)))
	}
	s.out.deleteBlobs(s.RemoveItem(it))
	return nil
}
