package refserver

import (
	"context"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// ErrBlobNotFound is returned by a Store for an unknown blob id.
var ErrBlobNotFound = blob.ErrNotFound

// BlobInfo describes a stored blob: its id (chosen by the store), its size
// in bytes and the lower-case hex SHA1 of its bytes.
type BlobInfo = blob.Info

// Store keeps file content. Blobs are immutable once written.
// Implementations must be safe for concurrent use. See blob.Store for the
// contract of each method: Put streams a reader into a new blob (keeping
// nothing on error), Open returns a seekable reader (an error wrapping
// ErrBlobNotFound for an unknown id), Delete removes a blob.
type Store = blob.Store

// Assembler is an optional interface of a Store: it builds one blob from
// the parts of an upload session as they arrive, so that committing the
// session neither copies nor hashes the content again. Both stores of this
// package implement it; with a Store that does not, each part is kept as a
// blob of its own and the parts are concatenated into a new blob at commit.
type Assembler = blob.Assembler

// Assembly is a blob being written in parts (see Assembler).
type Assembly = blob.Assembly

// NewMemoryStore returns a Store that keeps blobs in memory, each at the
// size it was sent.
func NewMemoryStore() Store { return blob.NewMemory() }

// NewDirStore returns a Store that keeps blobs as files in dir, creating it
// if needed. Use it for content too large for memory.
func NewDirStore(dir string) (Store, error) {
	d, err := blob.NewDir(dir)
	if err != nil {
		return nil, err
	}
	return d, nil
}

// dropUnreferenced deletes at once content that no transaction ever named:
// a failed upload's or copy's blobs (the change was refused, so the state
// is as before), a session's finished content that lost to an abort, an
// avatar that was refused. No commit can name them, so there is none to
// wait for and they do not go through a transaction's outbox, which is
// for content the state stops naming (a small blob a commit is taking is
// deleted by the next one, SmallBlobs.Delete).
func (s *Server) dropUnreferenced(r *http.Request, ids ...string) {
	for _, id := range ids {
		if err := s.st.Store.Delete(context.WithoutCancel(r.Context()), id); err != nil {
			s.st.ContentLeft("deleting blob", err, "blob", id)
		}
	}
}
