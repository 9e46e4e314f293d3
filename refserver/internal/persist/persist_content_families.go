package persist

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// Records of folder locks, favorites collections, recent items and zip
// downloads (issue #34's families).

// recFolderLock is a folder lock; the key is its id.
type recFolderLock struct {
	FolderID, CreatedBy string
	CreatedAt           time.Time
}

// FolderLockKeys lists the ids of the folder locks, sorted.
func FolderLockKeys(s *state.ReadTx) []string { return s.FolderLocks.ByID.Keys() }

// FolderLockRec is the record of lock id, false when it is gone.
func FolderLockRec(s *state.ReadTx, id string) (recFolderLock, bool) {
	l, ok := s.FolderLocks.ByID.Get(id)
	if !ok {
		return recFolderLock{}, false
	}
	return recFolderLock{FolderID: l.FolderID, CreatedBy: userID(l.CreatedBy), CreatedAt: utcTime(l.CreatedAt)}, true
}

// LoadFolderLock restores lock id (records come in id order: oldest first).
func LoadFolderLock(s *state.Tx, id string, r recFolderLock) error {
	by, err := userByRef(&s.Users, r.CreatedBy)
	if err != nil {
		return err
	}
	s.AddFolderLock(&state.FolderLock{ID: id, FolderID: r.FolderID, CreatedBy: by, CreatedAt: r.CreatedAt})
	return nil
}

// recFavorites is a user's favorites collection; the key is the user's id.
type recFavorites struct {
	ID    string
	Items []string
}

// FavoritesKeys lists the ids of the users with a collection, sorted.
func FavoritesKeys(s *state.ReadTx) []string { return s.Favorites.ByUser.Keys() }

// FavoritesRec is the collection of user id, false when there is none.
func FavoritesRec(s *state.ReadTx, id string) (recFavorites, bool) {
	f, ok := s.Favorites.ByUser.Get(id)
	if !ok {
		return recFavorites{}, false
	}
	return recFavorites{ID: f.ID, Items: append([]string{}, f.Items...)}, true
}

// LoadFavorites restores the collection of user id.
func LoadFavorites(s *state.Tx, id string, r recFavorites) error {
	u, err := userByRef(&s.Users, id)
	if err != nil {
		return err
	}
	if u == nil {
		return fmt.Errorf("favorites of no user")
	}
	s.AddFavorites(&state.Favorites{ID: r.ID, User: u, Items: r.Items})
	return nil
}

// recRecentItem is a user's latest interaction with an item; the key is
// state.RecentItemKey(user, item).
type recRecentItem struct {
	Interaction string
	At          time.Time
	Seq         int64
}

// appendRecord appends r as encoding/json writes it
// (TestRecentItemRecordEncoding), without its reflection: a file's GET and
// its download change the reader's recent item, so most commits write
// some.
func (r recRecentItem) appendRecord(b []byte) []byte {
	b = slices.Grow(b, 96+len(r.Interaction)) // one allocation (about 80 bytes)
	b = append(b, `{"Interaction":`...)
	b = wire.AppendString(b, r.Interaction)
	b = appendTimeField(b, "At", r.At)
	b = append(b, `,"Seq":`...)
	b = strconv.AppendInt(b, r.Seq, 10)
	return append(b, '}')
}

// RecentItemKeys lists the keys of every user's recent items, sorted.
func RecentItemKeys(s *state.ReadTx) []string {
	return s.Recent.Entries.Keys()
}

// RecentItemRec is the record under key, false when it is gone.
func RecentItemRec(s *state.ReadTx, key string) (recRecentItem, bool) {
	r, ok := s.Recent.Entries.Get(key)
	if !ok {
		return recRecentItem{}, false
	}
	return recRecentItem{Interaction: r.Interaction, At: utcTime(r.At), Seq: r.Seq}, true
}

// LoadRecentItem restores the entry under key.
func LoadRecentItem(s *state.Tx, key string, r recRecentItem) error {
	uid, iid, ok := strings.Cut(key, "/")
	if !ok {
		return fmt.Errorf("bad recent item key %q", key)
	}
	u, err := userByRef(&s.Users, uid)
	if err != nil {
		return err
	}
	if u == nil {
		return fmt.Errorf("recent item of no user")
	}
	s.AddRecentItem(&state.RecentItem{User: u, ItemID: iid, Interaction: r.Interaction, At: r.At, Seq: r.Seq})
	return nil
}

// recZipDownload is a zip download; the key is its id.
type recZipDownload struct {
	User, Kind, FileName                            string
	Items                                           []state.ZipTop
	CreatedAt, ExpiresAt, StartedAt                 time.Time
	State                                           string
	Total, Downloaded, SkippedFiles, SkippedFolders int
}

// ZipDownloadKeys lists the ids of the zip downloads, sorted.
func ZipDownloadKeys(s *state.ReadTx) []string { return s.Zips.ByID.Keys() }

// ZipDownloadRec is the record of zip download id, false when it is gone.
func ZipDownloadRec(s *state.ReadTx, id string) (recZipDownload, bool) {
	z, ok := s.Zips.ByID.Get(id)
	if !ok {
		return recZipDownload{}, false
	}
	return recZipDownload{
		User: userID(z.User), Kind: z.Kind, FileName: z.FileName, Items: append([]state.ZipTop{}, z.Items...),
		CreatedAt: utcTime(z.CreatedAt), ExpiresAt: utcTime(z.ExpiresAt), StartedAt: utcTime(z.StartedAt),
		State: z.State, Total: z.Total, Downloaded: z.Downloaded, SkippedFiles: z.SkippedFiles, SkippedFolders: z.SkippedFolders,
	}, true
}

// LoadZipDownload restores zip download id (one that was being sent has
// failed: the stream ended with the server).
func LoadZipDownload(s *state.Tx, id string, r recZipDownload) error {
	u, err := userByRef(&s.Users, r.User)
	if err != nil {
		return err
	}
	if r.State == state.ZipInProgress {
		r.State = state.ZipFailed
	}
	s.AddZipDownload(&state.ZipDownload{
		ID: id, User: u, Kind: r.Kind, FileName: r.FileName, Items: r.Items,
		CreatedAt: r.CreatedAt, ExpiresAt: r.ExpiresAt, StartedAt: r.StartedAt,
		State: r.State, Total: r.Total, Downloaded: r.Downloaded, SkippedFiles: r.SkippedFiles, SkippedFolders: r.SkippedFolders,
	})
	return nil
}
