package persist

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
)

// QueueBlobDeletes defers the deletion of blobs to the next commit: a blob
// deleted before the state that stops naming it is committed would be
// missing after a crash. It reports false when the state is not persisted.
func QueueBlobDeletes(s *state.State, ids []string) bool {
	p := s.Persist
	if p == nil {
		return false
	}
	p.QueueBlobs(ids)
	return true
}

// SweepBlobs deletes, from the directory store of dir (SmallBlobs' too),
// the blob files that no record names and the temporary files of
// interrupted writes: what a crash between a blob write and its commit (or
// between a commit and a blob delete) leaves behind. Other stores are left
// alone. keep is the blobs the state names (ReferencedBlobs), keepAssembly
// the assemblies of its sessions (ReferencedAssemblies).
func SweepBlobs(s *state.State, dir string, keep, keepAssembly map[string]bool) error {
	ds, ok := s.Store.(*blob.Dir)
	if sb, small := s.Store.(*SmallBlobs); small {
		ds, ok = sb.Dir(), true
	}
	if !ok || filepath.Clean(ds.Path()) != filepath.Clean(dir) {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("refserver: sweeping %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		id, isBlob := cutSuffix(name, ".blob")
		tmp := len(name) > 4 && name[:4] == "put-" && filepath.Ext(name) == ".tmp"
		if asm, isAsm := blob.AssemblyID(name); isAsm { // the content of an upload session
			tmp = !keepAssembly[asm]
		}
		if e.IsDir() || !tmp && (!isBlob || keep[id]) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("refserver: sweeping %s: %w", dir, err)
		}
	}
	return nil
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) > len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return "", false
}

// ReferencedBlobs is every blob the state names: file versions (of live
// files and of files that records of purged ones keep) and session parts.
func ReferencedBlobs(s *state.ReadTx) map[string]bool {
	keep := make(map[string]bool, s.Items.Len()) // a file has a version at least
	addItem := func(it *state.Item) {
		for _, v := range it.Versions {
			keep[v.Blob.ID()] = true
		}
	}
	for _, it := range s.Items.All() {
		addItem(it)
	}
	for _, fvr := range s.Retention.Fvrs.All() {
		addItem(fvr.File)
	}
	for _, h := range s.Holds.Holds.All() {
		addItem(h.File)
	}
	for _, a := range s.Avatars.ByUser.All() {
		keep[a.Blob.ID] = true
	}
	for _, ss := range s.Sessions.All() {
		if ss.Final != nil {
			keep[ss.Final.ID] = true
		}
		if pa, ok := ss.Asm.(*blob.Parts); ok {
			for _, id := range pa.Blobs() {
				keep[id] = true
			}
		}
	}
	return keep
}

// ReferencedAssemblies is every assembly id the open sessions name.
func ReferencedAssemblies(s *state.ReadTx) map[string]bool {
	keep := map[string]bool{}
	for _, ss := range s.Sessions.All() {
		if id := ss.Asm.ID(); id != "" {
			keep[id] = true
		}
	}
	return keep
}
