package cms

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/contentapi/cms/internal/atomicfile"
)

// UploadSessionStore keeps the upload sessions a tree upload leaves open
// when it is interrupted (its ctx ends, or a part fails for good after the
// retries), so that the next run finishes them with Uploads.Resume, sending
// only the parts the service does not have, instead of every byte again
// (TreeOptions.Sessions). Without a store, a tree upload aborts every
// session it leaves (DELETE /files/upload_sessions/{id}), so none is left
// open unknowingly. Its methods may be called from several goroutines at
// once.
type UploadSessionStore interface {
	// Get returns the session kept for key, or ok false.
	Get(key UploadSessionKey) (sessionID string, ok bool)
	// Put keeps sessionID for key. An error makes the upload abort the
	// session instead.
	Put(key UploadSessionKey, sessionID string) error
	// Delete forgets key (its session was committed, or cannot be
	// resumed).
	Delete(key UploadSessionKey) error
}

// UploadSessionKey names a local file's content and where it goes: a kept
// session is resumed only for the same file, unchanged (size, modification
// time, SHA-1), on its way to the same place.
type UploadSessionKey struct {
	// Path is the local file's absolute path.
	Path string `json:"path"`
	// Size and ModTime (UTC, whole seconds) are the file's, SHA1 its
	// content's (lower-case hex).
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	SHA1    string    `json:"sha1"`
	// FolderID and Name are a new file's folder and name; FileID is the
	// file of a new version ("" for a new file).
	FolderID string `json:"folder_id,omitzero"`
	Name     string `json:"name,omitzero"`
	FileID   string `json:"file_id,omitzero"`
}

// id is the key as one comparable string.
func (k UploadSessionKey) id() string {
	return fmt.Sprintf("%q %d %d %s %q %q %q", k.Path, k.Size, k.ModTime.Unix(), strings.ToLower(k.SHA1), k.FolderID, k.Name, k.FileID)
}

// FileSessionStore is an UploadSessionStore kept in a JSON file (mode
// 0o600): every Put and Delete rewrites it atomically, so a process killed
// after an interruption still finds its sessions on the next run. Entries
// older than MaxSessionAge are dropped on load (the service expires
// sessions after about a week).
type FileSessionStore struct {
	mu      sync.Mutex
	path    string
	entries map[string]sessionRecord
}

// sessionRecord is one kept session.
type sessionRecord struct {
	Key       UploadSessionKey `json:"key"`
	SessionID string           `json:"session_id"`
	Saved     time.Time        `json:"saved"`
}

// MaxSessionAge is how long a FileSessionStore keeps a session.
const MaxSessionAge = 7 * 24 * time.Hour

// LoadFileSessionStore reads the store kept at path; a missing file is an
// empty store. An unreadable or corrupt one is returned empty with the
// error (its sessions expire on the service's side).
func LoadFileSessionStore(path string) (*FileSessionStore, error) {
	s := &FileSessionStore{path: path, entries: map[string]sessionRecord{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	var recs []sessionRecord
	if err := json.Unmarshal(b, &recs); err != nil {
		return s, err
	}
	for _, r := range recs {
		if time.Since(r.Saved) < MaxSessionAge {
			s.entries[r.Key.id()] = r
		}
	}
	return s, nil
}

// Get returns the session kept for key.
func (s *FileSessionStore) Get(key UploadSessionKey) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.entries[key.id()]
	return r.SessionID, ok
}

// Put keeps sessionID for key and rewrites the file.
func (s *FileSessionStore) Put(key UploadSessionKey, sessionID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries[key.id()] = sessionRecord{Key: key, SessionID: sessionID, Saved: time.Now().UTC()}
	return s.save()
}

// Delete forgets key and rewrites the file.
func (s *FileSessionStore) Delete(key UploadSessionKey) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.entries[key.id()]; !ok {
		return nil
	}
	delete(s.entries, key.id())
	return s.save()
}

// Len is how many sessions the store keeps.
func (s *FileSessionStore) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}

// save writes the store. Callers hold s.mu.
func (s *FileSessionStore) save() error {
	recs := make([]sessionRecord, 0, len(s.entries))
	for _, r := range s.entries {
		recs = append(recs, r)
	}
	slices.SortFunc(recs, func(a, b sessionRecord) int { return strings.Compare(a.Key.id(), b.Key.id()) })
	b, err := json.Marshal(recs)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(s.path, b, 0o600)
}
