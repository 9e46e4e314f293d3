package state

import (
	"path"
	"strconv"
	"strings"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Representations (the representations field) and the thumbnails of
// files. The server makes them from images it decodes (PNG, JPEG, GIF):
// refserver's thumbnails.go serves them, internal/thumb makes them.

// RepSpec is one representation the server makes: its format and the side
// of the square it fits in.
type RepSpec struct {
	Format string // "jpg" or "png"
	Side   int
}

// Name is the representation's name in its URLs: jpg_320x320.
func (r RepSpec) Name() string {
	return r.Format + "_" + strconv.Itoa(r.Side) + "x" + strconv.Itoa(r.Side)
}

// ImageReps are the representations of an image, the largest JPEG first
// (Box UI Elements show entries[0] in their grid).
var ImageReps = []RepSpec{
	{"jpg", 1024}, {"jpg", 320}, {"jpg", 160}, {"jpg", 94}, {"jpg", 32},
	{"png", 1024}, {"png", 2048},
}

// ParseRepName reads a representation's name (jpg_320x320) into one of
// ImageReps; ok is false for any other.
func ParseRepName(name string) (RepSpec, bool) {
	for _, r := range ImageReps {
		if r.Name() == name {
			return r, true
		}
	}
	return RepSpec{}, false
}

// IsImageName reports whether a file's name is an image the server makes
// thumbnails of (by extension, as the service decides by file type).
func IsImageName(name string) bool {
	switch strings.ToLower(strings.TrimPrefix(path.Ext(name), ".")) {
	case "png", "jpg", "jpeg", "gif":
		return true
	}
	return false
}

// RepURL is the info URL of a representation of a file version.
func (s *ReadTx) RepURL(fileID, versionID string, r RepSpec) string {
	return s.BaseURL + "/internal_files/" + fileID + "/versions/" + versionID + "/representations/" + r.Name()
}

// RepEntry is one entry of the representations field, in state st
// ("success", "pending", "error").
func (s *ReadTx) RepEntry(fileID, versionID string, r RepSpec, st string) map[string]any {
	info := s.RepURL(fileID, versionID, r)
	return map[string]any{
		"representation": r.Format,
		"properties":     map[string]any{"dimensions": strconv.Itoa(r.Side) + "x" + strconv.Itoa(r.Side), "paged": "false", "thumb": "false"},
		"info":           map[string]any{"url": info},
		"status":         map[string]any{"state": st},
		"content":        map[string]any{"url_template": info + "/content/{+asset_path}"},
	}
}

// representations is the representations field of a file: for an image,
// every representation the server makes, in state success (its content URL
// makes it on demand); none for other kinds.
func (s *Tx) representations(it *Item) map[string]any {
	entries := []any{}
	if IsImageName(it.Name) {
		v := it.Current()
		for _, r := range ImageReps {
			entries = append(entries, s.RepEntry(it.ID, v.ID, r, "success"))
		}
	}
	return map[string]any{"entries": entries}
}

// ThumbnailSource is the content a thumbnail of file id is made from for
// p: the blob of the version (versionID, "" for the current one), whether
// the file is an image the server decodes, and whether its content is not
// ready yet. p must be allowed to preview it; a version in the trash or
// of another file is not found.
func (s *ReadTx) ThumbnailSource(p *Principal, id, versionID string) (blobID string, image, notReady bool, aerr *wire.Error) {
	f, aerr := s.LookupFor(p, "file", id, ActPreview)
	if aerr != nil {
		return "", false, false, aerr
	}
	v := f.Current()
	if versionID != "" {
		v = nil
		for _, c := range f.Versions {
			if c.ID == versionID && c.TrashedAt().IsZero() {
				v = c
			}
		}
		if v == nil {
			return "", false, false, wire.NotFound("file_version")
		}
	}
	return v.Blob.ID(), IsImageName(f.Name), s.Now().Before(f.ReadyAt()), nil
}
