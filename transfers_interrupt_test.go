package cms_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/contentapi/cms/refserver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sessionsOf returns the ids of the upload sessions that received parts,
// in the order of their first part.
func sessionsOf(srv *cmstest.Server) []string {
	var ids []string
	seen := map[string]bool{}
	for _, r := range srv.Requests() {
		if r.Method != http.MethodPut || !strings.Contains(r.Path, "/files/upload_sessions/") {
			continue
		}
		id := r.Path[strings.LastIndex(r.Path, "/")+1:]
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids
}

func partPuts(srv *cmstest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == http.MethodPut && strings.Contains(r.Path, "/files/upload_sessions/") {
			n++
		}
	}
	return n
}

// TestUploadDirInterrupted: a tree upload cancelled in the middle of a
// chunked file returns context.Canceled and leaves no session open without
// a store (it is aborted); with a FileSessionStore the session is kept
// and the next run resumes it, sending only the missing parts.
func TestUploadDirInterrupted(t *testing.T) {
	srv := cmstest.NewServer(t, cmstest.Options{ChunkedMinSize: 100, PartSize: 64})
	c := srv.Client(t)
	ctx := context.Background()
	src := t.TempDir()
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	big := strings.Repeat("0123456789abcdef", 40) // 640 bytes: 10 parts
	writeFile(t, filepath.Join(src, "big.bin"), big, when)
	writeFile(t, filepath.Join(src, "small.txt"), "small", when)
	// Cancelled once the first part is stored (one part at a time).
	interrupted := func(cancel context.CancelFunc, store cms.UploadSessionStore) *cms.TreeOptions {
		return &cms.TreeOptions{Concurrency: 1, ChunkedThreshold: 100, Sessions: store, Progress: func(p cms.Progress) {
			if p.Bytes > 0 {
				cancel()
			}
		}}
	}

	t.Run("aborted without a store", func(t *testing.T) {
		folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "abort", Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(t, err)
		srv.ResetRequests()
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		_, err = c.Transfers.UploadDir(cctx, src, folder.ID, interrupted(cancel, nil))
		require.ErrorIs(t, err, context.Canceled)
		ids := sessionsOf(srv)
		require.Len(t, ids, 1)
		info, ok := srv.UploadSession(ids[0])
		require.True(t, ok)
		assert.Equal(t, refserver.SessionAborted, info.State, "no session left open")
	})

	t.Run("kept and resumed with a store", func(t *testing.T) {
		folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "resume", Parent: cms.FolderRef{ID: "0"}}, nil)
		require.NoError(t, err)
		storePath := filepath.Join(t.TempDir(), "sessions.json")
		store, err := cms.LoadFileSessionStore(storePath)
		require.NoError(t, err)
		srv.ResetRequests()
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		_, err = c.Transfers.UploadDir(cctx, src, folder.ID, interrupted(cancel, store))
		require.ErrorIs(t, err, context.Canceled)
		ids := sessionsOf(srv)
		require.Len(t, ids, 1)
		info, ok := srv.UploadSession(ids[0])
		require.True(t, ok)
		require.Equal(t, refserver.SessionOpen, info.State, "kept for the next run")
		stored := len(info.Parts)
		require.Positive(t, stored)
		require.Less(t, stored, 10)

		// The next run (another process: the store read again) resumes it.
		store, err = cms.LoadFileSessionStore(storePath)
		require.NoError(t, err)
		require.Equal(t, 1, store.Len())
		srv.ResetRequests()
		res, err := c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{ChunkedThreshold: 100, Sessions: store})
		require.NoError(t, err)
		assert.Empty(t, res.Failures)
		e, ok := res.Entry("big.bin")
		require.True(t, ok)
		assert.Equal(t, cms.OutcomeCreated, e.Outcome)
		assert.Equal(t, 10-stored, partPuts(srv), "only the missing parts were sent")
		info, _ = srv.UploadSession(ids[0])
		assert.Equal(t, refserver.SessionCommitted, info.State)
		assert.Equal(t, e.ID, info.FileID)
		assert.Zero(t, store.Len(), "the store forgets the committed session")
		f, _, err := c.Files.Get(ctx, e.ID, nil)
		require.NoError(t, err)
		assert.Equal(t, hexSHA1([]byte(big)), f.SHA1)
		assert.Equal(t, when, f.ContentModifiedAt.UTC())

		// A kept session that no longer exists is forgotten; the file is
		// sent anew.
		writeFile(t, filepath.Join(src, "big.bin"), strings.ToUpper(big), when.Add(time.Hour))
		srv.ResetRequests()
		cctx, cancel = context.WithCancel(ctx)
		defer cancel()
		_, err = c.Transfers.UploadDir(cctx, src, folder.ID, interrupted(cancel, store))
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, 1, store.Len())
		_, err = c.Uploads.AbortSession(ctx, sessionsOf(srv)[0])
		require.NoError(t, err)
		res, err = c.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{ChunkedThreshold: 100, Sessions: store})
		require.NoError(t, err)
		assert.Empty(t, res.Failures)
		assert.Equal(t, 1, res.Updated)
		assert.Zero(t, store.Len())
	})
}

// TestFileSessionStore: sessions survive a reload, are forgotten on
// Delete and after MaxSessionAge, and a corrupt file is an empty store.
func TestFileSessionStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dir", "sessions.json")
	s, err := cms.LoadFileSessionStore(path)
	require.NoError(t, err)
	when := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	k := cms.UploadSessionKey{Path: "/a/b", Size: 10, ModTime: when, SHA1: "ABC", FolderID: "1", Name: "b"}
	require.NoError(t, s.Put(k, "S1"))
	s, err = cms.LoadFileSessionStore(path)
	require.NoError(t, err)
	id, ok := s.Get(cms.UploadSessionKey{Path: "/a/b", Size: 10, ModTime: when.In(time.Local), SHA1: "abc", FolderID: "1", Name: "b"})
	require.True(t, ok, "the same key, however the time and digest are spelled")
	assert.Equal(t, "S1", id)
	for _, other := range []cms.UploadSessionKey{
		{Path: "/a/b", Size: 11, ModTime: when, SHA1: "abc", FolderID: "1", Name: "b"},
		{Path: "/a/b", Size: 10, ModTime: when.Add(time.Second), SHA1: "abc", FolderID: "1", Name: "b"},
		{Path: "/a/b", Size: 10, ModTime: when, SHA1: "abd", FolderID: "1", Name: "b"},
		{Path: "/a/b", Size: 10, ModTime: when, SHA1: "abc", FileID: "1"},
	} {
		_, ok := s.Get(other)
		assert.False(t, ok, "%+v", other)
	}
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	require.NoError(t, s.Delete(k))
	s, err = cms.LoadFileSessionStore(path)
	require.NoError(t, err)
	assert.Zero(t, s.Len())

	old := fmt.Sprintf(`[{"key":{"path":"/x","size":1,"mtime":"2024-01-01T00:00:00Z","sha1":"a"},"session_id":"S2","saved":%q}]`,
		time.Now().Add(-cms.MaxSessionAge-time.Hour).UTC().Format(time.RFC3339))
	require.NoError(t, os.WriteFile(path, []byte(old), 0o600))
	s, err = cms.LoadFileSessionStore(path)
	require.NoError(t, err)
	assert.Zero(t, s.Len(), "expired on the service's side")
	require.NoError(t, os.WriteFile(path, []byte("{"), 0o600))
	s, err = cms.LoadFileSessionStore(path)
	assert.Error(t, err)
	require.NotNil(t, s)
	assert.Zero(t, s.Len())
}
