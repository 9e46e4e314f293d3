package refserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/persist"
)

// smallStored is the small blob id as s's database holds it (the bucket
// of internal/persist's SmallBlobs), and whether it does.
func smallStored(t *testing.T, s *Server, id string) (string, bool) {
	t.Helper()
	v, ok, err := s.db.StoredValue("small_blobs", id)
	require.NoError(t, err)
	return string(v), ok
}

// currentBlob is the blob of the current version of file id.
func currentBlob(s *Server, id string) string {
	tx, end := beginTx(s.st)
	defer end()
	return tx.Items.At("file", id).Current().Blob.ID()
}

// blobOfName is the current blob of the file of parent "0" called name,
// "" when there is none.
func blobOfName(s *Server, name string) string {
	tx, end := beginTx(s.st)
	defer end()
	for _, it := range tx.Items.All() {
		if it.Typ == "file" && it.Name == name && it.ParentID == "0" {
			return it.Current().Blob.ID()
		}
	}
	return ""
}

// holdFirstCommit makes the next commit of s wait, once it has taken what
// it writes, until release is closed; entered is signalled when it does.
// Later commits go through.
func holdFirstCommit(s *Server) (entered <-chan struct{}, release chan struct{}) {
	in, rel := make(chan struct{}), make(chan struct{})
	var n atomic.Int32
	s.db.BeforeCommit = func() error {
		if n.Add(1) == 1 {
			close(in)
			<-rel
		}
		return nil
	}
	return in, rel
}

// uploadAsync uploads a file of parent "0" and sends the answer's status
// (0 when the connection failed).
func (e *env) uploadAsync(name string, data []byte) <-chan int {
	done := make(chan int, 1)
	body, ct := multipartBody(e.t, `{"name":"`+name+`","parent":{"id":"0"}}`, data)
	go func() {
		req, _ := http.NewRequest("POST", e.upload("/files/content"), body)
		req.Header.Set("Authorization", "Bearer "+e.s.UserToken())
		req.Header.Set("Content-Type", ct)
		resp, err := e.hc.Do(req)
		if err != nil {
			done <- 0
			return
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	return done
}

func waitFor(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not happen", what)
	}
}

// A blob of up to SmallBlobMax bytes is kept in the state database, a
// larger one is a file; both, and an empty one, keep their content across
// a crash and restart, and a small one is written by the commit of the
// records that name it.
func TestPersistSmallBlobs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	contents := map[string][]byte{
		"small.bin": bytes.Repeat([]byte("s"), persist.SmallBlobMax),
		"large.bin": bytes.Repeat([]byte("L"), persist.SmallBlobMax+1),
		"empty.bin": {},
	}
	files := map[string]string{}
	for name, data := range contents {
		f := e.uploadFile(U, "0", name, data)
		assert.Equal(t, sha1Hex(data), f["sha1"], name)
		files[name] = f["id"].(string)
	}
	for name, data := range contents {
		id := currentBlob(e.s, files[name])
		stored, inDB := smallStored(t, e.s, id)
		if name == "large.bin" {
			assert.False(t, persist.IsSmallBlob(id), "SmallBlobMax+1 bytes are a file")
			assert.False(t, inDB)
			assert.FileExists(t, filepath.Join(dir, id+".blob"))
		} else {
			assert.True(t, persist.IsSmallBlob(id), "%s: SmallBlobMax bytes or fewer stay in the database", name)
			require.True(t, inDB, "%s: the answer came after the commit that wrote it", name)
			assert.Equal(t, string(data), stored)
		}
		assert.Equal(t, string(data), string(e.download(U, "/files/"+files[name]+"/content")), name)
	}
	blobFiles, err := filepath.Glob(filepath.Join(dir, "*.blob"))
	require.NoError(t, err)
	assert.Len(t, blobFiles, 1, "only the large blob is a file")

	crash(t, e.s)
	e2 := newEnv(t, Options{DataDir: dir})
	for name, data := range contents {
		assert.Equal(t, string(data), string(e2.download(U, "/files/"+files[name]+"/content")), name)
	}
	// A new version of the small file after the restart: read back.
	v2 := []byte("version two")
	resp, m := e2.uploadRaw(U, e2.upload("/files/"+files["small.bin"]+"/content"), `{}`, v2, nil)
	require.Equal(t, 200, resp.StatusCode, "%v", m)
	assert.Equal(t, string(v2), string(e2.download(U, "/files/"+files["small.bin"]+"/content")))
}

// A small blob can be read as soon as Put returns: while the commit that
// writes it is under way (a copy made then reads it from memory), and
// from the database once it is committed.
func TestPersistSmallBlobReadBeforeCommit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DataDir: t.TempDir()})
	U := e.s.UserToken()
	entered, release := holdFirstCommit(e.s)
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	up := e.uploadAsync("a.txt", []byte("pending"))
	waitFor(t, entered, "the upload's commit")
	id := blobOfName(e.s, "a.txt")
	require.NotEmpty(t, id, "the upload changed the state")
	_, inDB := smallStored(t, e.s, id)
	assert.False(t, inDB, "not committed yet")
	rc, err := e.s.st.Store.Open(context.Background(), id)
	require.NoError(t, err)
	got, err := io.ReadAll(rc)
	require.NoError(t, err)
	require.NoError(t, rc.Close())
	assert.Equal(t, "pending", string(got))

	// A copy reads the content in its handler, before the commit.
	var file string
	tx, end := beginTx(e.s.st)
	for fid, it := range tx.Items.All() {
		if it.Name == "a.txt" {
			file = fid
		}
	}
	end()
	copied := make(chan map[string]any, 1)
	go func() {
		body, _ := json.Marshal(map[string]any{"parent": map[string]any{"id": "0"}, "name": "b.txt"})
		req, _ := http.NewRequest("POST", e.api("/files/"+file+"/copy"), bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+U)
		resp, err := e.hc.Do(req)
		if err != nil {
			copied <- nil
			return
		}
		defer resp.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&m)
		copied <- m
	}()
	require.Eventually(t, func() bool { return blobOfName(e.s, "b.txt") != "" }, 10*time.Second, time.Millisecond)
	close(release)
	assert.Equal(t, 201, <-up)
	c := <-copied
	require.NotNil(t, c)
	_, inDB = smallStored(t, e.s, id)
	assert.True(t, inDB, "committed")
	assert.Equal(t, "pending", string(e.download(U, "/files/"+file+"/content")), "read from the database")
	assert.Equal(t, "pending", string(e.download(U, "/files/"+c["id"].(string)+"/content")))
}

// A crash while the commit that carries an upload is under way loses both
// the file's record and its small blob; a small blob written by a commit
// whose records never came (a blob no record names) is swept at the next
// start; what was answered stays.
func TestPersistSmallBlobCrash(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	kept := e.uploadFile(U, "0", "kept.txt", []byte("kept"))["id"].(string)

	// A blob that a commit writes before any record names it: Put, then
	// another request's commit takes it along.
	orphan, err := e.s.st.Store.Put(context.Background(), bytes.NewReader([]byte("orphan")))
	require.NoError(t, err)
	require.True(t, persist.IsSmallBlob(orphan.ID))
	e.createFolder(U, "0", "later")
	_, inDB := smallStored(t, e.s, orphan.ID)
	require.True(t, inDB, "the commit writes every small blob written before it")

	entered, release := holdFirstCommit(e.s)
	up := e.uploadAsync("lost.txt", []byte("lost"))
	waitFor(t, entered, "the upload's commit")
	lost := blobOfName(e.s, "lost.txt")
	require.True(t, persist.IsSmallBlob(lost))
	crash(t, e.s)
	close(release)
	assert.NotEqual(t, 201, <-up, "never answered")

	e2 := newEnv(t, Options{DataDir: dir})
	assert.Empty(t, blobOfName(e2.s, "lost.txt"), "no record")
	_, inDB = smallStored(t, e2.s, lost)
	assert.False(t, inDB, "no blob")
	_, inDB = smallStored(t, e2.s, orphan.ID)
	assert.False(t, inDB, "the orphan is swept")
	assert.Equal(t, "kept", string(e2.download(U, "/files/"+kept+"/content")))
	assert.Equal(t, 1, blobCount(t, e2.s))
}

// A purged file's small blob is deleted by the commit of the records
// without it; a small blob deleted while a commit is writing it is deleted
// by the next one.
func TestPersistSmallBlobDeletes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DataDir: t.TempDir()})
	U := e.s.UserToken()
	f := e.uploadFile(U, "0", "gone.txt", []byte("gone"))["id"].(string)
	id := currentBlob(e.s, f)
	require.Equal(t, 1, blobCount(t, e.s))
	e.ok("DELETE", "/files/"+f, U, nil, 204)
	_, inDB := smallStored(t, e.s, id)
	assert.True(t, inDB, "the trash keeps the content")
	e.ok("DELETE", "/files/"+f+"/trash", U, nil, 204)
	_, inDB = smallStored(t, e.s, id)
	assert.False(t, inDB, "deleted with the purge's records")
	assert.Zero(t, blobCount(t, e.s))

	// Put, then a commit takes the blob; it is deleted meanwhile.
	info, err := e.s.st.Store.Put(context.Background(), bytes.NewReader([]byte("short-lived")))
	require.NoError(t, err)
	entered, release := holdFirstCommit(e.s)
	folder := make(chan struct{})
	go func() {
		defer close(folder)
		e.createFolder(U, "0", "during")
	}()
	waitFor(t, entered, "the folder's commit")
	require.NoError(t, e.s.st.Store.Delete(context.Background(), info.ID))
	close(release)
	<-folder
	require.NoError(t, e.s.db.Await())
	_, inDB = smallStored(t, e.s, info.ID)
	assert.False(t, inDB, "the next commit deletes it")
	assert.Zero(t, blobCount(t, e.s))
	_, err = e.s.st.Store.Open(context.Background(), info.ID)
	assert.ErrorIs(t, err, ErrBlobNotFound)
}

// A failed commit puts its small blobs back with its records: the next
// commit writes both.
func TestPersistSmallBlobFailedCommit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	var failed atomic.Bool
	e.s.db.BeforeCommit = func() error {
		if !failed.Swap(true) {
			return errors.New("the disk is gone") // the commit fails
		}
		return nil
	}
	resp, _ := e.uploadRaw(U, e.upload("/files/content"), `{"name":"retried.txt","parent":{"id":"0"}}`, []byte("retried"), nil)
	require.Equal(t, 500, resp.StatusCode)
	id := blobOfName(e.s, "retried.txt")
	require.True(t, persist.IsSmallBlob(id))

	require.NoError(t, e.s.db.Flush())
	stored, inDB := smallStored(t, e.s, id)
	assert.True(t, inDB)
	assert.Equal(t, "retried", stored)
	assert.Equal(t, lockedDump(e.s), storedDump(t, e.s))
}

// A database of schema 1 (before small blobs) is read and rewritten as
// the current schema; a server of schema 1 would refuse it from then on.
func TestPersistSchemaUpgrade(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	f := e.uploadFile(U, "0", "old.txt", bytes.Repeat([]byte("o"), persist.SmallBlobMax+1))["id"].(string)
	require.NoError(t, e.s.db.Bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("schema")).Put([]byte("version"), []byte("1"))
	}))
	require.NoError(t, e.s.Close())
	e2 := newEnv(t, Options{DataDir: dir})
	require.True(t, e2.s.Restored())
	assert.Equal(t, bytes.Repeat([]byte("o"), persist.SmallBlobMax+1), e2.download(U, "/files/"+f+"/content"))
	var v string
	require.NoError(t, e2.s.db.Bolt.View(func(tx *bolt.Tx) error {
		v = string(tx.Bucket([]byte("schema")).Get([]byte("version")))
		return nil
	}))
	assert.Equal(t, "4", v)
}

// Small blobs read back whole while checkpoints run under the reads: a
// blob is read from the pending ones, from the log being written, from a
// log being checkpointed (its overlay and file dropped and closed once
// state.db has it) or from state.db, whichever holds it at that moment. A
// checkpoint that closed its log before dropping its overlay failed here
// (a read of the closed file).
func TestPersistSmallBlobReadsDuringCheckpoints(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DataDir: t.TempDir()})
	e.s.db.SetCheckpointBytes(16 << 10) // a checkpoint every few commits
	ctx := context.Background()
	const blobs = 200
	var (
		mu   sync.Mutex
		ids  []string
		want = map[string]string{}
		done = make(chan struct{})
		bad  atomic.Pointer[error]
	)
	var readers sync.WaitGroup
	for r := range 2 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for k := r; ; k++ {
				select {
				case <-done:
					return
				default:
				}
				mu.Lock()
				if len(ids) == 0 {
					mu.Unlock()
					continue
				}
				id := ids[len(ids)-1-k%min(len(ids), 16)] // the newest: in a log, or being checkpointed
				content := want[id]
				mu.Unlock()
				rc, err := e.s.st.Store.Open(ctx, id)
				if err == nil {
					var b []byte
					b, err = io.ReadAll(rc)
					_ = rc.Close()
					if err == nil && string(b) != content {
						err = fmt.Errorf("blob %s read %d bytes, not its %d", id, len(b), len(content))
					}
				}
				if err != nil {
					bad.CompareAndSwap(nil, &err)
					return
				}
			}
		}()
	}
	for i := range blobs {
		content := strings.Repeat(fmt.Sprintf("blob %04d ", i), 300) // 3,000 bytes
		info, err := e.s.st.Store.Put(ctx, strings.NewReader(content))
		require.NoError(t, err)
		mu.Lock()
		ids, want[info.ID] = append(ids, info.ID), content
		mu.Unlock()
		e.createFolder(e.s.UserToken(), "0", fmt.Sprintf("d%04d", i)) // its commit logs the blob
	}
	close(done)
	readers.Wait()
	if err := bad.Load(); err != nil {
		t.Fatal(*err)
	}
	for id, content := range want {
		rc, err := e.s.st.Store.Open(ctx, id)
		require.NoError(t, err)
		b, err := io.ReadAll(rc)
		require.NoError(t, err)
		_ = rc.Close()
		assert.Equal(t, content, string(b), id)
	}
}
