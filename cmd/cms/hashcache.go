package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
)

// hashCache is the cms command's TreeOptions.Hashes: the SHA-1 of local
// files from earlier runs, in a JSON file of the user's cache directory
// (CMS_HASH_CACHE names another; --no-hash-cache turns it off). An entry
// holds only while the file's size, modification time, change time, inode
// and device are all as they were: an edit that keeps the size and puts
// the modification time back still changes the change time (which no
// program can set), so it is seen. Where the platform gives no change time
// (fileKey), nothing is cached.
type hashCache struct {
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

// maxHashEntries bounds the cache: above it, a save keeps only the entries
// this run used.
const maxHashEntries = 200_000

// hashCachePath is where the cache lives ("" when it cannot).
func hashCachePath(getenv func(string) string) string {
	if p := getenv("CMS_HASH_CACHE"); p != "" {
		return p
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "cms", "hashes.json")
}

// loadHashCache reads the cache at path; a missing or unreadable one is
// empty.
func loadHashCache(path string) *hashCache {
	c := &hashCache{path: path, entries: map[string]hashEntry{}, used: map[string]bool{}}
	if b, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(b, &c.entries)
	}
	return c
}

// Get returns the remembered SHA-1 of the file at path when it is
// unchanged.
func (c *hashCache) Get(path string, fi os.FileInfo) (string, bool) {
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

// Put remembers the SHA-1 of the file at path.
func (c *hashCache) Put(path string, fi os.FileInfo, sum string) {
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

// save writes the cache atomically (a temporary file renamed over it).
func (c *hashCache) save() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty || c.path == "" {
		return nil
	}
	if len(c.entries) > maxHashEntries {
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
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".hashes-*.json")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), c.path)
}
