package refserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// File versions (spec get_files_id_versions, delete_/put_files_id_versions_id,
// post_files_id_versions_current):
//
//   - GET /files/{file_id}/versions lists the earlier versions, newest first
//     (the current one is not listed), trashed ones included with their
//     trashed_at; offset pages (limit default 1000, at most 1000);
//   - DELETE /files/{file_id}/versions/{id} moves a version to the trash
//     (204): not the current one (400 bad_request: promote another first),
//     not one already in the trash (404), not one under retention or a legal
//     hold (403 access_denied_insufficient_permissions, as purges are);
//     if-match is the file's etag (412); someone else's lock refuses it;
//   - PUT /files/{file_id}/versions/{id} with {"trashed_at": null} takes it
//     out of the trash (200 FileVersion); any other body is 400;
//   - POST /files/{file_id}/versions/current with {"type": "file_version",
//     "id": …} makes a copy of that version's content the new current
//     version (201 FileVersion of the new version): not the current one and
//     not a trashed one (400 bad_request);
//   - a trashed version cannot be downloaded (version=: 404) until restored.

// versionsPage is GET /files/{file_id}/versions.
func (s *Server) listFileVersions(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	q := wire.Page{}
	if q.Offset, aerr = wire.QueryInt(r.URL.Query(), "offset", 0); aerr != nil {
		return aerr
	}
	if q.Limit, aerr = wire.PageLimit(r.URL.Query(), wire.MaxPageLimit, wire.MaxPageLimit); aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	s.mu.Lock()
	f, aerr := s.lookupFor(p, "file", id, actPreview)
	var page map[string]any
	if aerr == nil {
		earlier := slices.Clone(f.versions[:len(f.versions)-1])
		slices.Reverse(earlier)
		page = wire.OffsetEntries(earlier, q, func(*version) bool { return false }, func(v *version) any {
			return pickFields(versionRecord(f, slices.Index(f.versions, v)+1, v), fields, "type", "id", "sha1")
		})
	}
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	writePage(w, http.StatusOK, page)
	return nil
}

// fileVersion finds the file id and its version vid for p. Callers hold
// s.mu.
func (s *state) fileVersion(id, vid string, p *principal) (*item, *version, *wire.Error) {
	f, aerr := s.lookupFor(p, "file", id, actEdit)
	if aerr != nil {
		return nil, nil, aerr
	}
	for _, v := range f.versions {
		if v.id == vid {
			return f, v, nil
		}
	}
	return nil, nil, wire.NotFound("file version")
}

// versionBlocked returns the error that keeps a version from the trash
// (retention or an active legal hold), or nil. Callers hold s.mu.
func (s *state) versionBlocked(v *version) *wire.Error {
	now := s.now()
	if fvr, ok := s.retention.byVersion[v.id]; ok && fvr.retainedAt(now) {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "File version %s is under retention", v.id)
	}
	if h, ok := s.holds.byVersion[v.id]; ok && len(s.activeHolds(h, now)) > 0 {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "File version %s is under a legal hold", v.id)
	}
	return nil
}

// deleteFileVersion serves DELETE /files/{file_id}/versions/{id}: 204.
func (s *Server) deleteFileVersion(w http.ResponseWriter, r *http.Request, p *principal) error {
	ifMatch := r.Header.Get("If-Match")
	fileID, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	versionID := r.PathValue("file_version_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.deleteFileVersionTx(fileID, versionID, p, ifMatch)
	})
}

// deleteFileVersionTx is the transaction of DELETE
// /files/{file_id}/versions/{id} (deleteFileVersion): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) deleteFileVersionTx(fileID string, versionID string, p *principal, ifMatch string) (reply, *wire.Error) {
	f, v, aerr := s.fileVersion(fileID, versionID, p)
	if aerr != nil {
		return reply{}, aerr
	}
	switch {
	case v == f.current():
		return reply{}, wire.BadRequest("The current version cannot be deleted: promote another version first")
	case !v.trashedAt.IsZero():
		return reply{}, wire.NotFound("file version")
	}
	if aerr := firstAPIError(checkIfMatch(ifMatch, f.etag()), s.lockRefuses(p, f, actEdit), s.versionBlocked(v)); aerr != nil {
		return reply{}, aerr
	}
	if !s.can(p, f, actEdit) {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Access denied - insufficient permission to delete a version")
	}
	v.trashedAt, v.trashedBy = s.nowSec(), p.user
	s.dirtyItem(f)
	return reply{status: http.StatusNoContent}, nil
}

func firstAPIError(errs ...*wire.Error) *wire.Error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// restoreFileVersion serves PUT /files/{file_id}/versions/{id} with
// {"trashed_at": null}: 200 FileVersion.
func (s *Server) restoreFileVersion(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	b, aerr := wire.ReadBody(r.Body)
	if aerr != nil {
		return aerr
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(b, &body); err != nil || len(body) != 1 || !bytes.Equal(bytes.TrimSpace(body["trashed_at"]), []byte("null")) {
		return wire.BadRequest(`The body must be {"trashed_at": null}: a version is only restored`)
	}
	fields := parseFields(r)
	fileID, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	versionID := r.PathValue("file_version_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.restoreFileVersionTx(fileID, versionID, p, fields)
	})
}

// restoreFileVersionTx is the transaction of PUT
// /files/{file_id}/versions/{id} (restoreFileVersion): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) restoreFileVersionTx(fileID string, versionID string, p *principal, fields []string) (reply, *wire.Error) {
	f, v, aerr := s.fileVersion(fileID, versionID, p)
	if aerr != nil {
		return reply{}, aerr
	}
	if !v.trashedAt.IsZero() {
		v.trashedAt, v.trashedBy = time.Time{}, nil
		v.restoredAt, v.restoredBy = s.nowSec(), p.user
		s.dirtyItem(f)
	}
	return reply{http.StatusOK, pickFields(versionRecord(f, slices.Index(f.versions, v)+1, v), fields, "type", "id", "sha1")}, nil
}

// promoteFileVersion serves POST /files/{file_id}/versions/current: 201.
func (s *Server) promoteFileVersion(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body struct {
		ID   *string `json:"id"`
		Type *string `json:"type"`
	}
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.ID == nil || body.Type != nil && *body.Type != "file_version" {
		return wire.BadRequest(`The body must be {"type": "file_version", "id": <version id>}`)
	}
	fields := parseFields(r)
	pick := func() (*version, *wire.Error) {
		f, aerr := s.lookupFor(p, "file", id, actUpload)
		if aerr != nil {
			return nil, aerr
		}
		for _, v := range f.versions {
			if v.id != *body.ID {
				continue
			}
			switch {
			case v == f.current():
				return nil, wire.BadRequest("The version is the current one already")
			case !v.trashedAt.IsZero():
				return nil, wire.BadRequest("A version in the trash cannot be promoted: restore it first")
			}
			return v, firstAPIError(s.lockRefuses(p, f, actUpload))
		}
		return nil, wire.NotFound("file version")
	}
	s.mu.Lock()
	v, aerr := pick()
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	nodes := []copyNode{{src: &item{typ: "file", id: id}, blob: v.blob}}
	blobs, err := s.copyBlobs(r.Context(), nodes)
	if err != nil {
		s.deleteBlobs(r, blobs)
		return err
	}
	var rec map[string]any
	s.update(func() {
		if _, aerr = pick(); aerr == nil {
			f := s.items[id]
			s.promoteVersion(f, nodes[0].copied, p.user)
			rec = pickFields(versionRecord(f, len(f.versions), f.current()), fields, "type", "id", "sha1")
		}
	})
	if aerr != nil {
		s.deleteBlobs(r, blobs)
		return aerr
	}
	writeJSON(w, http.StatusCreated, rec)
	return nil
}

// promoteVersion makes a copy of an earlier version's content (blob) the
// current version of f, by u. Callers hold mu.
func (s *state) promoteVersion(f *item, blob BlobInfo, u *user) {
	now := s.nowSec()
	f.versions = append(f.versions, &version{id: s.newID(), blob: blob, createdAt: now, by: u})
	s.versionAdded(f, f.current())
	f.readyAt = s.now().Add(s.cfg.ContentNotReady)
	f.touch(now, u)
	s.dirtyItem(f)
	s.itemEvent(evItemMakeCurrent, f, u)
}
