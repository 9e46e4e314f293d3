package refserver

import (
	"net/http"
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

// inTrash reports whether it is in the trash: trashed itself, or below a
// folder in the trash. This is the one test the read paths use (lookup,
// the metadata query, the template of an instance). A folder's trashing
// marks everything below it (setTrashedWith), so the item's own mark
// answers for its ancestors too. Callers hold s.mu.
func (s *state) inTrash(it *item) bool { return it.trashed() }

// live reports whether p may read it through the endpoints of items and
// of what hangs on them (metadata, tasks, watermarks, ...): visible to p and
// not in the trash. An item in the trash answers 404 there, as it does on
// its own endpoints; only the trash endpoints read it. Callers hold s.mu.
func (s *state) live(p *principal, it *item) bool { return s.visible(p, it) && !s.inTrash(it) }

// trashPathCollection is the path_collection of an item in the trash.
func trashPathCollection() map[string]any {
	trash := map[string]any{"type": "folder", "id": trashFolderID, "sequence_id": nil, "etag": nil, "name": "Trash"}
	return map[string]any{"total_count": 1, "entries": []any{trash}}
}

// addTrashState sets trashed_at, purged_at and item_status of a record.
func (s *state) addTrashState(m map[string]any, it *item) {
	m["item_status"] = "active"
	m["trashed_at"] = nil
	m["purged_at"] = nil
	if it.trashed() {
		m["item_status"] = "trashed"
		m["trashed_at"] = fmtTime(it.trashedAt)
		m["purged_at"] = fmtTime(it.trashedAt.Add(trashRetention))
	}
}

// subItems lists every item whose parent is folderID, in the trash or not.
// Callers hold s.mu.
func (s *state) subItems(folderID string) []*item {
	var out []*item
	for _, it := range s.items {
		if it.parentID == folderID {
			out = append(out, it)
		}
	}
	return out
}

// trashItem moves an item to the trash, a folder with everything in it
// that is not in the trash already, by a user (the event's created_by).
// Callers hold s.mu.
func (s *state) trashItem(it *item, by *user) {
	now := s.nowSec()
	it.trashedAt, it.trashedWith = now, ""
	it.seq++
	s.folders.sync(it) // out of its folder's listings
	s.dirtyItem(it)
	s.setTrashedWith(it.id, now, it.id)
	if parent, ok := s.items[it.parentID]; ok {
		parent.touch(now, nil)
		s.dirtyItem(parent)
	}
	s.itemEvent(evItemTrash, it, by)
}

// setTrashedWith marks the content below folderID that is not in the trash
// as trashed with the folder root.
func (s *state) setTrashedWith(folderID string, now time.Time, root string) {
	for _, c := range s.subItems(folderID) {
		if c.trashed() {
			continue
		}
		c.trashedAt, c.trashedWith = now, root
		s.folders.sync(c)
		s.dirtyItem(c)
		s.setTrashedWith(c.id, now, root)
	}
}

// untrash takes an item out of the trash with the content trashed with it.
func (s *state) untrash(it *item, root string) {
	it.trashedAt, it.trashedWith = time.Time{}, ""
	s.folders.sync(it)
	s.dirtyItem(it)
	for _, c := range s.subItems(it.id) {
		if c.trashed() && c.trashedWith == root {
			s.untrash(c, root)
		}
	}
}

// trashedID reads {id} of a trash endpoint: a malformed id is 404.
func trashedID(r *http.Request, typ string) (string, *wire.Error) {
	id := r.PathValue("id")
	if !validID(id) || id == rootID {
		return "", wire.NotFound(typ)
	}
	return id, nil
}

// lookupTrashed returns an item of a type that p may see and that is in the
// trash itself (not with its folder). Callers hold s.mu.
func (s *state) lookupTrashed(p *principal, typ, id string) (*item, *wire.Error) {
	it, ok := s.items[id]
	if !ok || it.typ != typ || !it.trashed() || it.trashedWith != "" || !s.visible(p, it) {
		return nil, wire.Errorf(http.StatusNotFound, wire.CodeNotFound, "Not Found: no %s with this id in the trash", typ)
	}
	return it, nil
}

// getTrashed serves GET /files/{id}/trash, /folders/{id}/trash and
// /web_links/{id}/trash: 200 the trashed item.
func (s *Server) getTrashed(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		id, aerr := trashedID(r, typ)
		if aerr != nil {
			return aerr
		}
		fields := parseFields(r)
		return s.change(w, func() (reply, *wire.Error) {
			return s.getTrashedTx(p, typ, id, fields)
		})
	}
}

// getTrashedTx is the transaction of GET /files/{id}/trash (getTrashed): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) getTrashedTx(p *principal, typ string, id string, fields []string) (reply, *wire.Error) {
	it, aerr := s.lookupTrashed(p, typ, id)
	if aerr != nil {
		return reply{}, aerr
	}
	return reply{http.StatusOK, s.render(it, fields, p)}, nil
}

// purgeTrashed serves DELETE /files/{id}/trash, /folders/{id}/trash and
// /web_links/{id}/trash: 204, the item (a folder with its content) is gone
// for good. What purgeBlocked reports (a retention or a hold) keeps it.
func (s *Server) purgeTrashed(typ string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		id, aerr := trashedID(r, typ)
		if aerr != nil {
			return aerr
		}
		s.mu.Lock()
		it, aerr := s.lookupTrashed(p, typ, id)
		if aerr == nil {
			aerr = s.purgeBlocked(it)
		}
		if aerr != nil {
			s.mu.Unlock()
			return aerr
		}
		blobs := s.removeItem(it)
		s.mu.Unlock()
		s.deleteBlobs(r, blobs)
		w.WriteHeader(http.StatusNoContent)
		return nil
	}
}

// restoreBody is the body of POST /files/{id}, /folders/{id} and
// /web_links/{id}.
type restoreBody struct {
	Name   *string `json:"name"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
}

// restoreHandler serves POST /files/{id}, /folders/{id} and /web_links/{id}:
// 201 the restored item. It goes back to its parent folder; the parent of
// the body is used only when that folder is gone (in the trash or deleted),
// and without one the restore is 409 parent_folder_unavailable. The name of
// the body renames it; a name taken in the folder is 409 item_name_in_use.
// The body is optional.
func (s *Server) restoreHandler(typ, pathKey string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *principal) error {
		id := r.PathValue(pathKey)
		if !validID(id) || id == rootID {
			return wire.NotFound(typ)
		}
		if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
			return aerr
		}
		var body restoreBody
		if aerr := decodeOptionalJSON(r, &body); aerr != nil {
			return aerr
		}
		if body.Name != nil {
			check := checkName
			if typ == "web_link" {
				check = checkWebLinkName
			}
			if aerr := check(*body.Name); aerr != nil {
				return aerr
			}
		}
		if body.Parent != nil && (body.Parent.ID == nil || *body.Parent.ID == "") {
			return wire.BadRequest("Missing required field: parent.id")
		}
		fields := parseFields(r)
		return s.change(w, func() (reply, *wire.Error) {
			return s.restoreItemTx(p, typ, id, body, fields)
		})
	}
}

// restoreItemTx is the transaction of POST /files/{id} (restoreHandler): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) restoreItemTx(p *principal, typ string, id string, body restoreBody, fields []string) (reply, *wire.Error) {
	it, aerr := s.lookupTrashed(p, typ, id)
	if aerr != nil {
		return reply{}, aerr
	}
	target, aerr := s.restoreTarget(p, it, body)
	if aerr != nil {
		return reply{}, aerr
	}
	name := it.name
	if body.Name != nil {
		name = *body.Name
	}
	owner := it.owner
	if target != it.parentID {
		parent, _ := s.parentFolder(p, target)
		owner = ownerIn(p, parent)
	}
	if c := s.conflict(target, owner, name, it); c != nil {
		return reply{}, s.errNameInUse(c)
	}
	now := s.nowSec()
	s.untrash(it, it.id)
	it.name, it.parentID, it.owner = name, target, owner
	it.touch(now, p.user)
	s.dirtyItem(it)
	if parent, ok := s.items[target]; ok {
		parent.touch(now, nil)
		s.dirtyItem(parent)
	}
	s.itemEvent(evItemUndelete, it, p.user)
	out := s.render(it, fields, p)
	if _, ok := out["shared_link"]; ok {
		// The restored records (TrashFileRestored, ...) say shared_link
		// is null after a restore, "even though the original shared link
		// does become active again"; box-typescript-sdk-gen rejects an
		// object there.
		out["shared_link"] = nil
	}
	return reply{http.StatusCreated, out}, nil
}

// restoreTarget picks the folder a restored item goes to. Callers hold s.mu.
func (s *state) restoreTarget(p *principal, it *item, body restoreBody) (string, *wire.Error) {
	orig := it.parentID
	if orig == rootID {
		return orig, nil
	}
	if f, ok := s.items[orig]; ok && !f.trashed() {
		return orig, nil
	}
	if body.Parent == nil {
		return "", wire.Errorf(http.StatusConflict, codeParentUnavailable, "The parent folder of the item is no longer available; give a parent to restore it to")
	}
	if _, aerr := s.parentFolder(p, *body.Parent.ID); aerr != nil {
		return "", aerr
	}
	return *body.Parent.ID, nil
}

// parseTrashQuery reads the query of GET /folders/trash/items. Marker
// paging (usemarker=true) takes no sort, direction or offset, and a marker
// needs usemarker=true: 400 invalid_parameter otherwise, as the spec says.
// An offset above 10000 is 400 bad_request (wire.QueryOffset, shared with the
// other offset-paged lists).
func parseTrashQuery(r *http.Request) (collectionQuery, *wire.Error) {
	v := r.URL.Query()
	q := collectionQuery{key: "name"}
	var aerr *wire.Error
	if q.useMarker, aerr = wire.QueryBool(r.URL.Query(), "usemarker"); aerr != nil {
		return q, aerr
	}
	invalid := func(format string, args ...any) *wire.Error {
		return wire.Errorf(http.StatusBadRequest, wire.CodeInvalidParameter, format, args...)
	}
	if q.useMarker {
		for _, name := range []string{"sort", "direction", "offset"} {
			if v.Has(name) {
				return q, invalid("%q cannot be used with marker-based paging", name)
			}
		}
	} else if v.Has("marker") {
		return q, invalid("\"marker\" needs usemarker=true")
	}
	switch s := v.Get("sort"); s {
	case "":
	case "name", "date", "size":
		q.key = s
	default:
		return q, invalid("Invalid value for \"sort\"")
	}
	switch d := v.Get("direction"); d {
	case "", "ASC":
	case "DESC":
		q.desc = true
	default:
		return q, invalid("Invalid value for \"direction\"")
	}
	if q.offset, aerr = wire.QueryOffset(r.URL.Query()); aerr != nil {
		return q, aerr
	}
	if q.limit, aerr = wire.PageLimit(r.URL.Query(), 100, 1000); aerr != nil {
		return q, aerr
	}
	if m := v.Get("marker"); m != "" {
		pos, ok := wire.DecodeMarker(m)
		if !ok {
			return q, invalid("Invalid value for \"marker\"")
		}
		q.marker = pos
	}
	return q, nil
}

// listTrash serves GET /folders/trash/items: the items p may see that are
// in the trash themselves, offset- or marker-paged, mini records unless
// fields says otherwise.
func (s *Server) listTrash(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := parseTrashQuery(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.listTrashTx(p, q, fields)
	})
}

// listTrashTx is the transaction of GET /folders/trash/items (listTrash): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) listTrashTx(p *principal, q collectionQuery, fields []string) (reply, *wire.Error) {
	// The trash index of p's own items, or of everyone's for a principal
	// who sees every item (folderindex.go): a page costs O(log n + page).
	// Items p owns but may not see (HideFromUsers) keep their place in the
	// pages, as in a folder listing; trashPage leaves them out.
	owner := p.user
	if p.seesAll() {
		owner = nil
	}
	return reply{http.StatusOK, s.trashPage(s.folders.trash(owner), q, fields, p)}, nil
}

// trashPage pages the trash index fx like a folder listing (listing in
// folders.go): offset pages carry total_count and offset, marker pages
// next_marker and prev_marker. Callers hold s.mu.
func (s *state) trashPage(fx *folderIndex, q collectionQuery, fields []string, p *principal) map[string]any {
	total := int64(fx.len())
	start := q.offset
	if q.useMarker {
		start = q.marker
	}
	start = min(start, total)
	end := min(start+q.limit, total)
	entries := make([]any, 0, end-start)
	for _, it := range fx.page(sortKeyIndex(q.key), q.desc, int(start), int(end)) {
		if !s.visible(p, it) {
			continue
		}
		if fields == nil {
			entries = append(entries, s.miniJSON(it))
		} else {
			entries = append(entries, s.render(it, fields, p))
		}
	}
	out := map[string]any{"entries": entries, "limit": q.limit}
	if !q.useMarker {
		dir := "ASC"
		if q.desc {
			dir = "DESC"
		}
		out["order"] = []any{map[string]any{"by": q.key, "direction": dir}}
		out["total_count"] = total
		out["offset"] = q.offset
		return out
	}
	out["next_marker"] = nil
	if end < total {
		out["next_marker"] = wire.EncodeMarker(end)
	}
	out["prev_marker"] = nil
	if start > 0 {
		out["prev_marker"] = wire.EncodeMarker(max(start-q.limit, 0))
	}
	return out
}
