package state

import (
	"crypto/sha1"
	"encoding/hex"
	"path"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Zip downloads (POST /zip_downloads, the archive at download_url on the
// content host, GET /zip_downloads/{id}/status): an archive of the named
// files and folders, folders with everything in them laid out as
// "<folder name>/<path>". Top-level items whose names collide (ignoring
// case) are renamed in the archive and reported in name_conflicts, each
// colliding item with its download_name. The download URL is valid until
// expires_at and serves once; the archive is made as it is sent (the
// server's streamZip), from the caller's access at that moment: what the
// caller may no longer download is skipped and counted. The status URL
// answers 404 until the download starts, then for 12 hours. At most
// zipUserConcurrent archives of a user are sent at once (429
// user_too_many_concurrent_downloads), and zipEnterpriseConcurrent of the
// enterprise (429 enterprise_too_many_concurrent_downloads). At most
// MaxZipFiles files.

// The limits of zip downloads.
const (
	MaxZipFiles             = 10000
	zipUserConcurrent       = 5
	zipEnterpriseConcurrent = 10
	zipStatusLifetime       = 12 * time.Hour
)

// The states of a zip download.
const (
	ZipInProgress = "in_progress"
	ZipFailed     = "failed"
	ZipSucceeded  = "succeeded"
)

// ZipTop is a top-level item of an archive and its name there.
type ZipTop struct {
	Typ, ID, Name string
}

// ZipDownload is one archive asked for.
type ZipDownload struct {
	ID       string
	User     *User
	Kind     string // the principal kind of its creator (admin, user, app)
	Items    []ZipTop
	FileName string // the archive's name (download_file_name + ".zip")

	CreatedAt, ExpiresAt, StartedAt time.Time

	State                                           string // "" until the download starts
	Total, Downloaded, SkippedFiles, SkippedFolders int
}

// ZipEntry is one entry of an archive being sent: a folder (Dir) or a
// file's current content.
type ZipEntry struct {
	Path     string
	Dir      bool
	FileID   string
	BlobID   string
	Size     int64
	Modified time.Time
}

// zipDownloadState is the server's state for zip downloads, reached only through a transaction.
type zipDownloadState struct {
	ByID Table[*ZipDownload]
}

// InitZipDownloads prepares the (empty) state of zip downloads; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitZipDownloads() {
	s.Zips = zipDownloadState{ByID: newTable[*ZipDownload](s.Env, KZipDownloads)}
}

// AddZipDownload files an archive (a new one, or one restored).
func (s *Tx) AddZipDownload(z *ZipDownload) {
	s.Zips.ByID.Put(z.ID, z)
}

// dropStaleZips forgets archives whose URLs can no longer be used.
func (s *Tx) dropStaleZips(now time.Time) {
	s.Zips.ByID.DeleteWhere(func(z *ZipDownload) bool {
		return z.State == "" && now.After(z.ExpiresAt) || z.State != "" && z.State != ZipInProgress && now.After(z.StartedAt.Add(zipStatusLifetime))
	})
}

// ZipRequestItem is one item of a POST /zip_downloads body.
type ZipRequestItem struct{ Typ, ID string }

// conflictName is the name of a colliding top-level item in the archive:
// a short digest of the archive and the item, with the item's extension.
func conflictName(zipID string, it *Item) string {
	sum := sha1.Sum([]byte(zipID + "/" + it.Typ + "/" + it.ID))
	name := hex.EncodeToString(sum[:3])
	if it.Typ == "file" {
		name += path.Ext(it.Name)
	}
	return name
}

// CreateZipDownload serves POST /zip_downloads (refserver's
// createZipDownload): each item must be a file or folder p may download
// (404 not_found for one p does not see, 403 for one it may not
// download); 202 with the URLs, expires_at and name_conflicts.
func (s *Tx) CreateZipDownload(p *Principal, items []ZipRequestItem, fileName string) (Reply, *wire.Error) {
	now := s.NowSec()
	s.dropStaleZips(now)
	var tops []*Item
	files := 0
	for _, ri := range items {
		it, aerr := s.LookupFor(p, ri.Typ, ri.ID, ActDownload)
		if aerr != nil {
			return Reply{}, aerr
		}
		if it.Trashed() {
			return Reply{}, wire.NotFound(ri.Typ)
		}
		tops = append(tops, it)
		files += s.zipFileCount(p, it, MaxZipFiles-files+1)
		if files > MaxZipFiles {
			return Reply{}, wire.BadRequest("A zip download holds at most %d files", MaxZipFiles)
		}
	}
	z := &ZipDownload{ID: s.NewID(), User: p.User, Kind: p.Kind, FileName: fileName + ".zip",
		CreatedAt: now, ExpiresAt: now.Add(s.Cfg.SignedURLTTL), Total: files}
	byName := map[string][]int{}
	for i, it := range tops {
		k := strings.ToLower(it.Name)
		byName[k] = append(byName[k], i)
		z.Items = append(z.Items, ZipTop{Typ: it.Typ, ID: it.ID, Name: it.Name})
	}
	conflicts := []any{}
	for i, it := range tops {
		group := byName[strings.ToLower(it.Name)]
		if len(group) < 2 || group[0] != i {
			continue
		}
		var g []any
		for _, j := range group {
			z.Items[j].Name = conflictName(z.ID, tops[j])
			g = append(g, map[string]any{"id": tops[j].ID, "type": tops[j].Typ,
				"original_name": tops[j].Name, "download_name": z.Items[j].Name})
		}
		conflicts = append(conflicts, g)
	}
	s.AddZipDownload(z)
	tok := s.Sign(SignedRef{Kind: "z", FileID: z.ID, Expires: z.ExpiresAt})
	return Reply{wire.StatusAccepted, map[string]any{
		"download_url":   s.DownloadURL + "/zip_downloads/" + tok + "/content",
		"status_url":     s.BaseURL + "/zip_downloads/" + z.ID + "/status",
		"expires_at":     FmtTime(z.ExpiresAt),
		"name_conflicts": conflicts,
	}}, nil
}

// zipFileCount counts the files of it (it, or the files below it) p may
// download, stopping past limit.
func (s *Tx) zipFileCount(p *Principal, it *Item, limit int) int {
	if it.Typ == "file" {
		return 1
	}
	n := 0
	for _, c := range s.Children(it.ID, nil) {
		if n > limit {
			break
		}
		if c.Typ == "web_link" || !s.Can(p, c, ActDownload) {
			continue
		}
		n += s.zipFileCount(p, c, limit-n)
	}
	return n
}

// StartZipDownload starts sending archive id (the content host): the
// entries to write, in order, from what its creator may download now —
// what it may not is counted as skipped. An archive serves once (404
// afterwards); a user sends at most zipUserConcurrent at once, the
// enterprise zipEnterpriseConcurrent (429).
func (s *Tx) StartZipDownload(id string) (*ZipDownload, []ZipEntry, *wire.Error) {
	z, ok := s.Zips.ByID.Get(id)
	if !ok || z.State != "" {
		return nil, nil, wire.NotFound("zip_download")
	}
	mine, all := 0, 0
	for _, o := range s.Zips.ByID.All() {
		if o.State == ZipInProgress {
			all++
			if o.User == z.User {
				mine++
			}
		}
	}
	switch {
	case mine >= zipUserConcurrent:
		return nil, nil, wire.Errorf(wire.StatusTooManyRequests, "user_too_many_concurrent_downloads",
			"The user has too many zip downloads in progress")
	case all >= zipEnterpriseConcurrent:
		return nil, nil, wire.Errorf(wire.StatusTooManyRequests, "enterprise_too_many_concurrent_downloads",
			"The enterprise has too many zip downloads in progress")
	}
	p := &Principal{Kind: z.Kind, User: z.User}
	var entries []ZipEntry
	s.Zips.ByID.Update(z.ID, func(z *ZipDownload) {
		z.SkippedFiles, z.SkippedFolders = 0, 0
		for _, top := range z.Items {
			it, ok := s.Items.Get(top.Typ, top.ID)
			if !ok || it.Trashed() || !s.Can(p, it, ActDownload) {
				if top.Typ == "folder" {
					z.SkippedFolders++
				} else {
					z.SkippedFiles++
				}
				continue
			}
			entries = s.zipEntries(p, z, it, top.Name, entries)
		}
		z.Total = z.SkippedFiles
		for _, e := range entries {
			if !e.Dir {
				z.Total++
			}
		}
		z.State, z.StartedAt, z.Downloaded = ZipInProgress, s.NowSec(), 0
	})
	return z, entries, nil
}

// zipEntries appends the entries of it, named name in the archive.
func (s *Tx) zipEntries(p *Principal, z *ZipDownload, it *Item, name string, out []ZipEntry) []ZipEntry {
	if it.Typ == "file" {
		v := it.Current()
		return append(out, ZipEntry{Path: name, FileID: it.ID, BlobID: v.Blob.ID(), Size: v.Blob.Size, Modified: it.ContentModifiedAt})
	}
	out = append(out, ZipEntry{Path: name + "/", Dir: true, Modified: it.ModifiedAt})
	for _, c := range s.Children(it.ID, nil) {
		switch {
		case c.Typ == "web_link":
		case !s.Can(p, c, ActDownload):
			if c.Typ == "folder" {
				z.SkippedFolders++
			} else {
				z.SkippedFiles++
			}
		default:
			out = s.zipEntries(p, z, c, name+"/"+c.Name, out)
		}
	}
	return out
}

// ZipFileSent counts a file of archive id sent (ok) or skipped (its
// content gone meanwhile).
func (s *Tx) ZipFileSent(id string, ok bool) {
	s.Zips.ByID.Update(id, func(z *ZipDownload) {
		if ok {
			z.Downloaded++
		} else {
			z.SkippedFiles++
		}
	})
}

// FinishZipDownload ends the sending of archive id: succeeded, or failed
// (the client went away, the store failed).
func (s *Tx) FinishZipDownload(id string, ok bool) {
	s.Zips.ByID.Update(id, func(z *ZipDownload) {
		z.State = ZipFailed
		if ok {
			z.State = ZipSucceeded
		}
	})
}

// ZipDownloadStatus serves GET /zip_downloads/{id}/status
// (getZipDownloadStatus): the counts of an archive of p's whose download
// started in the last 12 hours; 404 otherwise.
func (s *Tx) ZipDownloadStatus(p *Principal, id string) (Reply, *wire.Error) {
	z, ok := s.Zips.ByID.Get(id)
	if !ok || z.State == "" || z.User != p.User || s.Now().After(z.StartedAt.Add(zipStatusLifetime)) {
		return Reply{}, wire.NotFound("zip_download")
	}
	return Reply{wire.StatusOK, map[string]any{
		"total_file_count": z.Total, "downloaded_file_count": z.Downloaded,
		"skipped_file_count": z.SkippedFiles, "skipped_folder_count": z.SkippedFolders, "state": z.State,
	}}, nil
}
