package refserver

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
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
func (s *Server) listFileVersions(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
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
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) { return tx.ListFileVersions(p, id, q, fields) })
}

// deleteFileVersion serves DELETE /files/{file_id}/versions/{id}: 204.
func (s *Server) deleteFileVersion(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	ifMatch := r.Header.Get("If-Match")
	fileID, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	versionID := r.PathValue("file_version_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.DeleteFileVersion(fileID, versionID, p, ifMatch)
	})
}

// restoreFileVersion serves PUT /files/{file_id}/versions/{id} with
// {"trashed_at": null}: 200 FileVersion.
func (s *Server) restoreFileVersion(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
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
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.RestoreFileVersion(fileID, versionID, p, fields)
	})
}

// promoteFileVersion serves POST /files/{file_id}/versions/current: 201.
func (s *Server) promoteFileVersion(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
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
	var v *state.Version
	s.st.View(func(tx *state.ReadTx) { v, aerr = tx.PromotableVersion(p, id, *body.ID) })
	if aerr != nil {
		return aerr
	}
	nodes := []state.CopyNode{{Src: &state.Item{Typ: "file", ID: id}, Blob: v.Blob.Info()}}
	blobs, err := s.st.CopyBlobs(r.Context(), nodes)
	if err != nil {
		s.dropUnreferenced(r, blobs...)
		return err
	}
	if err := s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.PromoteVersionTx(p, id, *body.ID, nodes[0].Copied, fields)
	}); err != nil {
		s.dropUnreferenced(r, blobs...)
		return err
	}
	return nil
}
