package cms

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/contentapi/cms/internal/atomicfile"
)

// FileHashCache is a HashCache kept in a JSON file between runs (set it
// as TreeOptions.Hashes), so that unchanged local files are not read again
// to learn their SHA-1. An entry holds only while the file's size,
// modification time, change time, inode and device are all as they were:
// an edit that keeps the size and puts the modification time back still
// changes the change time (which no program can set), so it is seen. Where
// the platform gives no change time (not Linux, macOS or the BSDs),
// nothing is remembered and every file is hashed.
//
// Its methods may be called from several goroutines at once. Changes stay
// in memory until Save.
type FileHashCache struct {
	mu      sync.Mutex
	path    string
	entries map[string]hashEntry
	used    map[string]bool
	dirty   bool
}

// hashEntry is one remembered file.
type hashEntry struct {
	Key  fileKey `json:"key"`
	SHA1 string  `json:"sha1"`
}

// MaxHashCacheEntries bounds a FileHashCache: above it, Save keeps only the
// entries used (Get or Put) since it was loaded.
const MaxHashCacheEntries = 200_000

// DefaultHashCachePath is where the cms command keeps its hash cache:
// cms/hashes.json in the user's cache directory (os.UserCacheDir).
func DefaultHashCachePath() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "cms", "hashes.json"), nil
}

// LoadFileHashCache reads the cache kept at path. A missing file is an
// empty cache; so is an unreadable or corrupt one (a cache only saves
// work: the error is returned beside a usable empty cache, for the caller
// to log).
func LoadFileHashCache(path string) (*FileHashCache, error) {
	c := &FileHashCache{path: path, entries: map[string]hashEntry{}, used: map[string]bool{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c.entries); err != nil {
		c.entries = map[string]hashEntry{}
		return c, err
	}
	return c, nil
}

// Len is how many files the cache remembers.
func (c *FileHashCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Get returns the remembered SHA-1 of the file at path when fi says it is
// unchanged.
func (c *FileHashCache) Get(path string, fi os.FileInfo) (string, bool) {
	key, ok := keyOf(fi)
	if !ok {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, found := c.entries[path]
	if !found || e.Key != key {
		return "", false
	}
	c.used[path] = true
	return e.SHA1, true
}

// Put remembers the SHA-1 of the file at path as fi describes it.
func (c *FileHashCache) Put(path string, fi os.FileInfo, sum string) {
	key, ok := keyOf(fi)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[path] = hashEntry{Key: key, SHA1: sum}
	c.used[path] = true
	c.dirty = true
}

// Save writes the cache to its file atomically (a temporary file, mode
// 0o600, renamed over it; the directory is made 0o700 when missing), if
// anything changed since it was loaded.
func (c *FileHashCache) Save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty || c.path == "" {
		return nil
	}
	if len(c.entries) > MaxHashCacheEntries {
		for p := range c.entries {
			if !c.used[p] {
				delete(c.entries, p)
			}
		}
	}
	b, err := json.Marshal(c.entries)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o700); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(c.path, b, 0o600); err != nil {
		return err
	}
	c.dirty = false
	return nil
}
