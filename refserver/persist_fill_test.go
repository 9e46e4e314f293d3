package refserver

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
)

// TestAppendedBucketsFillTheirPages: the items and file versions of a
// persisted server, whose keys grow with their ids, fill the pages of
// state.db that hold them. bbolt splits a page at half by default, which
// for keys that only grow leaves each page as the split made it: three
// items of ~500 bytes to a 4 KiB page, 38% of the items' pages in use in
// a million-file directory.
func TestAppendedBucketsFillTheirPages(t *testing.T) {
	dir := t.TempDir()
	s, err := New(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for batch := range 4 { // four commits, each appending to the buckets
		s.st.Update(func(tx *state.Tx) {
			f := &benchFill{tx: tx, now: now}
			parent := f.folder(fmt.Sprintf("folder %d", batch), "0")
			for i := range 500 {
				id := f.file(fmt.Sprintf("a file with a name of some length %04d.txt", i), parent, 1000, batch*1000+i, time.Duration(i)*time.Second)
				// The state marks a version where it changes one
				// (changeVersion); benchFill adds its files whole.
				tx.Dirty(state.KVersions, state.VersionKey(id, 1))
			}
		})
		if err := s.flushState(); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	db, err := bolt.Open(filepath.Join(dir, persist.StateFileName), 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		for _, name := range []string{"items", "file_versions"} {
			b := tx.Bucket([]byte(name))
			if b == nil {
				return fmt.Errorf("no bucket %s", name)
			}
			st := b.Stats()
			fill := float64(st.LeafInuse) / float64(st.LeafAlloc)
			t.Logf("%s: %d keys in %d leaf pages, %.0f%% of their bytes in use", name, st.KeyN, st.LeafPageN, 100*fill)
			if st.KeyN < 2000 || fill < 0.8 {
				t.Errorf("%s: %d keys, %.0f%% of the leaf pages' bytes in use; want ≥ 2,000 keys and ≥ 80%%", name, st.KeyN, 100*fill)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
