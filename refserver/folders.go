package refserver

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// createFolderBody is the body of POST /folders.
type createFolderBody struct {
	Name   *string `json:"name"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	FolderUploadEmail *struct {
		Access string `json:"access"`
	} `json:"folder_upload_email"`
	SyncState *string `json:"sync_state"`
}

// createFolder serves POST /folders: 201 Folder--Full.
func (s *Server) createFolder(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body createFolderBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Name == nil {
		return wire.BadRequest("Missing required field: name")
	}
	if body.Parent == nil || body.Parent.ID == nil {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if aerr := checkName(*body.Name); aerr != nil {
		return aerr
	}
	syncState := "not_synced"
	if body.SyncState != nil {
		switch *body.SyncState {
		case "synced", "not_synced", "partially_synced":
			syncState = *body.SyncState
		default:
			return wire.BadRequest("Invalid value for sync_state")
		}
	}
	uploadEmail := ""
	if body.FolderUploadEmail != nil {
		switch body.FolderUploadEmail.Access {
		case "open", "collaborators":
			uploadEmail = body.FolderUploadEmail.Access
		default:
			return wire.BadRequest("Invalid value for folder_upload_email.access")
		}
	}
	fields := parseFields(r)

	return s.change(w, func() (reply, *wire.Error) {
		return s.createFolderTx(p, body, syncState, uploadEmail, fields)
	})
}

// createFolderTx is the transaction of POST /folders (createFolder): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) createFolderTx(p *principal, body createFolderBody, syncState string, uploadEmail string, fields []string) (reply, *wire.Error) {
	parent, aerr := s.parentFolder(p, *body.Parent.ID)
	if aerr != nil {
		return reply{}, aerr
	}
	if c := s.conflict(*body.Parent.ID, ownerIn(p, parent), *body.Name, nil); c != nil {
		return reply{}, s.errNameInUse(c)
	}
	now := s.nowSec()
	f := &item{
		typ: "folder", id: s.newID(), name: *body.Name, parentID: *body.Parent.ID,
		owner: ownerIn(p, parent), createdBy: p.user, modBy: p.user,
		createdAt: now, modifiedAt: now, contentCreatedAt: now, contentModifiedAt: now,
		syncState: syncState, uploadEmail: uploadEmail,
	}
	s.addItem(f)
	if parent != nil {
		parent.touch(now, nil)
	}
	s.dirtyItem(f, parent)
	out := s.render(f, fields, p)
	s.addItemCollection(out, f, fields, p, collectionQuery{key: "name", limit: 100})
	return reply{http.StatusCreated, out}, nil
}

// folderID reads {folder_id}; a malformed id is 405 as the spec says for
// the folder endpoints.
func folderID(r *http.Request) (string, *wire.Error) {
	id := r.PathValue("folder_id")
	if !validID(id) {
		return "", wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: malformed folder id")
	}
	return id, nil
}

// maxFolderOffset is the largest offset a folder listing accepts; the
// service rejects larger ones with 400 and points to marker paging.
const maxFolderOffset = 300_000

// collectionQuery is how a listing is sorted and paged.
type collectionQuery struct {
	key       string // id, name, date, size
	desc      bool
	offset    int64
	limit     int64
	useMarker bool
	marker    int64
	viaLink   bool // the folder was reached through a shared link: every entry shows
}

func parseCollectionQuery(r *http.Request, allowMarker bool) (collectionQuery, *wire.Error) {
	q := collectionQuery{key: "name"}
	if v := r.URL.Query().Get("sort"); v != "" {
		switch v {
		case "id", "name", "date", "size":
			q.key = v
		default:
			return q, wire.BadRequest("Invalid value for \"sort\"")
		}
	}
	if v := r.URL.Query().Get("direction"); v != "" {
		switch strings.ToUpper(v) {
		case "ASC":
		case "DESC":
			q.desc = true
		default:
			return q, wire.BadRequest("Invalid value for \"direction\"")
		}
	}
	var aerr *wire.Error
	if q.offset, aerr = wire.QueryInt(r.URL.Query(), "offset", 0); aerr != nil {
		return q, aerr
	}
	if q.limit, aerr = wire.PageLimit(r.URL.Query(), 100, 1000); aerr != nil {
		return q, aerr
	}
	if q.offset > maxFolderOffset && r.URL.Query().Get("usemarker") != "true" {
		// The service documents the cap but no error code: bad_request.
		return q, wire.BadRequest("offset must not exceed %d; use marker-based pagination (usemarker=true)", maxFolderOffset)
	}
	if allowMarker {
		if q.useMarker, aerr = wire.QueryBool(r.URL.Query(), "usemarker"); aerr != nil {
			return q, aerr
		}
		if m := r.URL.Query().Get("marker"); m != "" {
			pos, ok := wire.DecodeMarker(m)
			if !ok {
				return q, wire.BadRequest("Invalid value for \"marker\"")
			}
			q.useMarker, q.marker = true, pos
		}
	}
	return q, nil
}

// listing pages the items of a folder (f nil = p's root). entryFields nil
// gives mini entries. Callers hold s.mu.
//
// As on the service, items the principal may not see (HideFromUsers) keep
// their place: they count in total_count and in the offset/limit (or
// marker) window, but are left out of entries. A page can therefore hold
// fewer entries than limit, or none, while more items follow; the next page
// is still at offset + limit, and the listing ends at total_count.
func (s *state) listing(f *item, p *principal, q collectionQuery, entryFields []string) map[string]any {
	folderID := rootID
	if f != nil {
		folderID = f.id
	}
	fx := s.folders.index(folderID, p.user)
	dir := "ASC"
	if q.desc {
		dir = "DESC"
	}
	order := []any{
		map[string]any{"by": "type", "direction": "ASC"},
		map[string]any{"by": q.key, "direction": dir},
	}
	total := int64(fx.len())
	start := q.offset
	if q.useMarker {
		start = q.marker
	}
	start = min(start, total)
	end := min(start+q.limit, total)
	entries := make([]any, 0, end-start)
	for _, it := range fx.page(sortKeyIndex(q.key), q.desc, int(start), int(end)) {
		switch {
		case q.viaLink && it.hidden && !p.seesAll(), !q.viaLink && !s.visible(p, it):
			continue
		case entryFields == nil:
			entries = append(entries, s.miniJSON(it))
		default:
			entries = append(entries, s.render(it, entryFields, p))
		}
	}
	out := map[string]any{"entries": entries, "limit": q.limit, "order": order}
	if q.useMarker {
		if end < total {
			out["next_marker"] = wire.EncodeMarker(end)
		} else {
			out["next_marker"] = nil
		}
		if start > 0 {
			out["prev_marker"] = wire.EncodeMarker(max(start-q.limit, 0))
		} else {
			out["prev_marker"] = nil
		}
		return out
	}
	out["total_count"] = total
	out["offset"] = q.offset
	return out
}

// HideFromUsers makes items invisible to the managed user, as the service
// does for items a user may not see (an access policy, a classification):
// the user gets 404 for them, yet they still count in their folder's
// total_count and take their place in its pages, so listings show short or
// empty pages while more items follow. The admin and the app still see
// them. It fails when an id is not a file or folder.
func (s *Server) HideFromUsers(ids ...string) error {
	var err error
	s.update(func() { err = s.hideItems(ids) })
	if err != nil {
		return err
	}
	return s.flushState()
}

// hideItems hides the items with ids from their users (HideFromUsers), or
// changes nothing when one is unknown. Callers hold mu.
func (s *state) hideItems(ids []string) error {
	for _, id := range ids {
		if _, ok := s.items[id]; !ok {
			return fmt.Errorf("refserver: no item %q", id)
		}
	}
	for _, id := range ids {
		s.items[id].hidden = true
		s.dirtyItem(s.items[id])
	}
	return nil
}

// addItemCollection adds item_collection to a folder representation when
// it is a standard one or the field was requested.
func (s *state) addItemCollection(out map[string]any, f *item, fields []string, p *principal, q collectionQuery) {
	if fields != nil && !contains(fields, "item_collection") {
		return
	}
	out["item_collection"] = s.listing(f, p, q, nil)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// rootRepresentation is folder "0" as p sees it. Callers hold s.mu.
func (s *state) rootRepresentation(p *principal, fields []string) map[string]any {
	var size int64
	for _, it := range s.children(rootID, p.user) {
		if it.typ == "file" {
			size += it.current().blob.Size
		} else {
			size += s.folderSize(it)
		}
	}
	nobody := map[string]any{"type": "user", "id": "", "name": "", "login": ""}
	std := rootMini()
	for k, v := range map[string]any{
		"description": "", "size": size, "path_collection": map[string]any{"total_count": 0, "entries": []any{}},
		"created_at": nil, "modified_at": nil, "trashed_at": nil, "purged_at": nil,
		"content_created_at": nil, "content_modified_at": nil, "created_by": nobody, "modified_by": nobody,
		"owned_by": p.user.mini(), "shared_link": nil, "folder_upload_email": nil, "parent": nil, "item_status": "active",
	} {
		std[k] = v
	}
	if fields == nil {
		return std
	}
	m := rootMini()
	for _, f := range fields {
		if v, ok := std[f]; ok {
			m[f] = v
		}
	}
	return m
}

// getFolder serves GET /folders/{folder_id}: 200 Folder--Full with the first
// page of items, 304 on a matching if-none-match.
func (s *Server) getFolder(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := folderID(r)
	if aerr != nil {
		return aerr
	}
	q, aerr := parseCollectionQuery(r, false)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		if id == rootID {
			out := s.rootRepresentation(p, fields)
			s.addItemCollection(out, nil, fields, p, q)
			return reply{http.StatusOK, out}, nil
		}
		f, aerr := s.lookupVia(r, p, "folder", id, actSee)
		if aerr != nil {
			return reply{}, aerr
		}
		if h := r.Header.Get("If-None-Match"); h != "" && etagMatches(h, f.etag()) {
			return reply{status: http.StatusNotModified}, nil
		}
		out := s.render(f, fields, p)
		s.addItemCollection(out, f, fields, p, q)
		return reply{http.StatusOK, out}, nil
	})
}

// listFolderItems serves GET /folders/{folder_id}/items with offset or
// marker paging.
func (s *Server) listFolderItems(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := folderID(r)
	if aerr != nil {
		return aerr
	}
	q, aerr := parseCollectionQuery(r, true)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		var f *item
		if id != rootID {
			if f, aerr = s.lookupVia(r, p, "folder", id, actSee); aerr != nil {
				return reply{}, aerr
			}
			q.viaLink = r.Header.Get("Boxapi") != "" // a shared link shows the whole folder
		}
		return reply{http.StatusOK, s.listing(f, p, q, fields)}, nil
	})
}

// deleteFolder serves DELETE /folders/{folder_id}: 204, the folder goes to
// the trash with its content. A non-empty folder
// needs recursive=true (else 400 folder_not_empty). Folder "0" cannot be
// deleted: 403 access_denied_insufficient_permissions (the spec's code for
// a folder the user may not delete).
func (s *Server) deleteFolder(w http.ResponseWriter, r *http.Request, p *principal) error {
	id := r.PathValue("folder_id")
	if !validID(id) {
		return wire.NotFound("folder")
	}
	recursive, aerr := wire.QueryBool(r.URL.Query(), "recursive")
	if aerr != nil {
		return aerr
	}
	if id == rootID {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The root folder cannot be deleted")
	}
	s.mu.Lock()
	f, aerr := s.lookupFor(p, "folder", id, actDelete)
	if aerr == nil {
		aerr = checkIfMatch(r.Header.Get("If-Match"), f.etag())
	}
	if aerr == nil && !recursive && len(s.children(f.id, nil)) > 0 {
		aerr = wire.Errorf(http.StatusBadRequest, wire.CodeFolderNotEmpty, "Cannot delete - folder not empty")
	}
	if aerr == nil {
		s.trashItem(f, p.user) // with its content (trash.go)
	}
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// deleteBlobs removes blobs from the store after the state no longer
// refers to them.
func (s *Server) deleteBlobs(r *http.Request, ids []string) {
	if s.queueBlobDeletes(ids) {
		return // deleted once the state without them is committed (persist.go)
	}
	for _, id := range ids {
		if err := s.store.Delete(context.WithoutCancel(r.Context()), id); err != nil {
			s.log.Warn("deleting blob", "blob", id, "err", err)
		}
	}
}
