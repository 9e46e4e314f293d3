package state

import (
	"strconv"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// GetFileVersion serves GET /files/{file_id}/versions/{file_version_id}
// (refserver's getFileVersion): any version of a file p sees, the current
// one and those in the trash included.
func (s *Tx) GetFileVersion(p *Principal, id string, vid string, fields []string) (Reply, *wire.Error) {
	f, aerr := s.Lookup(p, "file", id)
	if aerr != nil {
		return Reply{}, aerr
	}
	for n, v := range f.Versions {
		if v.ID == vid {
			return Reply{wire.StatusOK, PickFields(VersionRecord(f, n+1, v), fields, "type", "id", "sha1")}, nil
		}
	}
	return Reply{}, wire.NotFound("file version")
}

// VersionRecord is the FileVersion--Full record of v, the n-th (1-based)
// version of f.
func VersionRecord(f *Item, n int, v *Version) map[string]any {
	rec := map[string]any{
		"type":           "file_version",
		"id":             v.ID,
		"sha1":           v.Blob.SHA1(),
		"name":           versionName(f, v),
		"size":           v.Blob.Size,
		"created_at":     FmtTime(v.CreatedAt()),
		"modified_at":    FmtTime(v.CreatedAt()),
		"trashed_at":     FmtTime(v.TrashedAt()),
		"trashed_by":     userMiniOrNil(v.TrashedBy()),
		"restored_at":    FmtTime(v.RestoredAt()),
		"restored_by":    userMiniOrNil(v.RestoredBy()),
		"purged_at":      nil,
		"version_number": strconv.Itoa(n),
	}
	if v.By != nil {
		rec["modified_by"] = v.By.Mini()
		rec["uploader_display_name"] = v.By.Name
	}
	return rec
}

// versionName is the name of version v of f: the file's while it is
// current, the name the file had when it was replaced otherwise.
func versionName(f *Item, v *Version) string {
	if v.Name() == "" || v == f.Current() {
		return f.Name
	}
	return v.Name()
}

// userMiniOrNil is u's User--Mini record, or nil.
func userMiniOrNil(u *User) any {
	if u == nil {
		return nil
	}
	return u.Mini()
}

// PickFields keeps only the requested fields plus the always-present ones;
// no fields requested keeps everything.
func PickFields(rec map[string]any, fields []string, always ...string) map[string]any {
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
