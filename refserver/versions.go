package refserver

import (
	"net/http"
	"strconv"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// getFileVersion serves GET /files/{file_id}/versions/{file_version_id}:
// one version of a file (FileVersion--Full). The current version is served
// too. An unknown version of a visible file is 404 not_found.
func (s *Server) getFileVersion(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	vid := r.PathValue("file_version_id")
	if !validID(vid) {
		return wire.NotFound("file version")
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.getFileVersionTx(p, id, vid, fields)
	})
}

// getFileVersionTx is the transaction of GET
// /files/{file_id}/versions/{file_version_id} (getFileVersion): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) getFileVersionTx(p *principal, id string, vid string, fields []string) (reply, *wire.Error) {
	f, aerr := s.lookup(p, "file", id)
	if aerr != nil {
		return reply{}, aerr
	}
	for n, v := range f.versions {
		if v.id == vid {
			return reply{http.StatusOK, pickFields(versionRecord(f, n+1, v), fields, "type", "id", "sha1")}, nil
		}
	}
	return reply{}, wire.NotFound("file version")
}

// versionRecord is the FileVersion--Full record of v, the n-th (1-based)
// version of f.
func versionRecord(f *item, n int, v *version) map[string]any {
	rec := map[string]any{
		"type":           "file_version",
		"id":             v.id,
		"sha1":           v.blob.SHA1,
		"name":           f.name,
		"size":           v.blob.Size,
		"created_at":     fmtTime(v.createdAt),
		"modified_at":    fmtTime(v.createdAt),
		"trashed_at":     fmtTime(v.trashedAt),
		"trashed_by":     userMiniOrNil(v.trashedBy),
		"restored_at":    fmtTime(v.restoredAt),
		"restored_by":    userMiniOrNil(v.restoredBy),
		"purged_at":      nil,
		"version_number": strconv.Itoa(n),
	}
	if v.by != nil {
		rec["modified_by"] = v.by.mini()
		rec["uploader_display_name"] = v.by.name
	}
	return rec
}

// userMiniOrNil is u's User--Mini record, or nil.
func userMiniOrNil(u *user) any {
	if u == nil {
		return nil
	}
	return u.mini()
}

// pickFields keeps only the requested fields plus the always-present ones;
// no fields requested keeps everything.
func pickFields(rec map[string]any, fields []string, always ...string) map[string]any {
	if len(fields) == 0 {
		return rec
	}
	out := map[string]any{}
	for _, k := range append(always, fields...) {
		if v, ok := rec[k]; ok {
			out[k] = v
		}
	}
	return out
}
