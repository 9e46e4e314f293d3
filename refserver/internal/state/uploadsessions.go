package state

import (
	"crypto/sha1"
	"encoding/json"
	"hash"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// Session is a chunked upload session. Its fields are read and changed only in a transaction.
type Session struct {
	ID         string
	Owner      *User
	FolderID   string // new file: destination folder
	FileID     string // new version: the file
	FileName   string // new file name, or rename of a new version ("" = keep)
	FileSize   int64
	PartSize   int64
	TotalParts int
	ExpiresAt  time.Time
	Parts      map[int64]*UploadPart // by offset
	LastPartAt time.Time

	// The content (uploadparts.go): each part is written into Asm at its
	// offset as it arrives, and the session's hash worker (uploadhash.go)
	// feeds Whole in offset order as contiguous parts land, so a commit
	// only checks and links.
	Asm      blob.Assembly
	Final    *blob.Info              // Asm finished by a commit that did not complete
	Writing  map[int64]chan struct{} // parts being written, by offset; closed when done
	Whole    hash.Hash
	Hashed   int64         // Whole covers the bytes [0, Hashed)
	Hashing  chan struct{} // non-nil while the hash worker (or a commit) feeds Whole; closed when it stops
	HashErr  error
	commitMu *sync.Mutex // one commit of the session at a time (LockCommit)
	// ended is set when the session leaves the live ones (dropSession):
	// its hash worker stops. The worker reads it between blocks, without
	// the state's lock.
	ended atomic.Bool
}

// UploadPart is one uploaded part.
type UploadPart struct {
	ID     string `json:"part_id"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
	SHA1   string `json:"sha1"`
}

// SessionJSON is the UploadSession record of ss, with its endpoints on
// the upload host.
func (s *Tx) SessionJSON(ss *Session) map[string]any {
	u := s.UploadURL + "/files/upload_sessions/" + ss.ID
	return map[string]any{
		"id":                  ss.ID,
		"type":                "upload_session",
		"session_expires_at":  FmtTime(ss.ExpiresAt),
		"part_size":           ss.PartSize,
		"total_parts":         ss.TotalParts,
		"num_parts_processed": len(ss.Parts),
		"session_endpoints": map[string]any{
			"upload_part": u,
			"commit":      u + "/commit",
			"abort":       u,
			"list_parts":  u + "/parts",
			"status":      u,
			"log_event":   u + "/log",
		},
	}
}

// Present reports whether a raw JSON member was sent and is not null.
func Present(m json.RawMessage) bool { return len(m) > 0 && string(m) != "null" }

// ParseFileSize reads the file_size of a new session: 400
// missing_file_size, invalid_file_size, or file_size_too_small below
// Cfg.ChunkedMinSize.
func (s *Env) ParseFileSize(m json.RawMessage) (int64, *wire.Error) {
	if !Present(m) {
		return 0, wire.Errorf(wire.StatusBadRequest, wire.CodeMissingFileSize, "Missing file_size")
	}
	var n int64
	if err := json.Unmarshal(m, &n); err != nil || n < 0 {
		return 0, wire.Errorf(wire.StatusBadRequest, wire.CodeInvalidFileSize, "Invalid file_size")
	}
	if n < s.Cfg.ChunkedMinSize {
		return 0, wire.Errorf(wire.StatusBadRequest, wire.CodeFileSizeTooSmall, "file_size is below the minimum of %d bytes for upload sessions", s.Cfg.ChunkedMinSize)
	}
	return n, nil
}

// newSession makes a session around an assembly of its content.
func (s *Tx) newSession(p *Principal, folderID, fileID, name string, size int64, asm blob.Assembly) *Session {
	ps := s.Cfg.PartSize
	return (&Session{
		ID: strings.ToUpper(RandomHex(16)), Owner: p.User, FolderID: folderID, FileID: fileID,
		FileName: name, FileSize: size, PartSize: ps, TotalParts: int((size + ps - 1) / ps),
		ExpiresAt: s.NowSec().Add(sessionLifetime), Parts: make(map[int64]*UploadPart),
	}).WithContent(asm)
}

// WithContent gives a session its content: the assembly, and the state of
// the whole-file hash, empty (a session loaded after a restart hashes its
// parts again at the commit).
func (ss *Session) WithContent(asm blob.Assembly) *Session {
	ss.Asm, ss.Writing, ss.Whole, ss.commitMu = asm, make(map[int64]chan struct{}), sha1.New(), new(sync.Mutex)
	return ss
}

// CreateUploadSession serves POST {upload}/files/upload_sessions
// (refserver's createUploadSession): a session for a new file name in
// folderID, its content assembled in asm (404 invalid_parameter for a
// folder p may not upload into, 409 for a name taken); keep runs once the
// session holds asm. 201 with its record.
func (s *Tx) CreateUploadSession(p *Principal, folderID string, name string, size int64, asm blob.Assembly, keep func()) (Reply, *wire.Error) {
	parent, aerr := s.ParentFolder(p, folderID)
	if aerr != nil {
		return Reply{}, wire.Errorf(wire.StatusNotFound, wire.CodeInvalidParameter, "The folder does not exist or is not accessible")
	}
	if c := s.Conflict(folderID, OwnerIn(p, parent), name, nil); c != nil {
		return Reply{}, s.ErrUploadNameInUse(c)
	}
	ss := s.newSession(p, folderID, "", name, size, asm)
	s.Sessions.Put(ss.ID, ss)
	keep()
	return Reply{wire.StatusCreated, s.SessionJSON(ss)}, nil
}

// CreateVersionUploadSession serves POST
// {upload}/files/{file_id}/upload_sessions (createVersionUploadSession): a
// session for a new version of file id (renamed to name, when given and
// free), its content assembled in asm; keep runs once the session holds
// asm. 201 with its record.
func (s *Tx) CreateVersionUploadSession(p *Principal, id string, name string, size int64, asm blob.Assembly, keep func()) (Reply, *wire.Error) {
	f, aerr := s.LookupFor(p, "file", id, ActUpload)
	if aerr != nil {
		return Reply{}, aerr
	}
	if name != "" && name != f.Name {
		if c := s.Conflict(f.ParentID, f.Owner, name, f); c != nil {
			return Reply{}, s.ErrUploadNameInUse(c)
		}
	}
	ss := s.newSession(p, "", f.ID, name, size, asm)
	s.Sessions.Put(ss.ID, ss)
	keep()
	return Reply{wire.StatusCreated, s.SessionJSON(ss)}, nil
}

// Session returns p's live session. An unknown, expired or foreign session
// is 404. An expired session is dropped, its content discarded once the
// transaction is committed.
func (s *Tx) Session(p *Principal, id string) (*Session, *wire.Error) {
	ss, ok := s.Sessions.Get(id)
	if !ok || ss.Owner != p.User {
		return nil, wire.NotFound("upload session")
	}
	if !s.Now().Before(ss.ExpiresAt) {
		s.dropSession(ss)
		s.out.dropContent(ss)
		return nil, wire.NotFound("upload session")
	}
	return ss, nil
}

// newPartID is 8 upper-case hex characters, unique in the session.
func (s *Tx) newPartID(ss *Session) string {
	for {
		id := strings.ToUpper(RandomHex(4))
		taken := false
		for _, pt := range ss.Parts {
			taken = taken || pt.ID == id
		}
		if !taken {
			return id
		}
	}
}

// SortedParts lists the parts of ss in offset order.
func SortedParts(ss *Session) []*UploadPart {
	parts := make([]*UploadPart, 0, len(ss.Parts))
	for _, pt := range ss.Parts {
		parts = append(parts, pt)
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Offset < parts[j].Offset })
	return parts
}

// LockCommit takes the session's commit lock, which lets one commit of the
// session at a time hash and land its content, and returns its unlock. It
// is taken outside any transaction (see State for the lock order).
func (ss *Session) LockCommit() (unlock func()) {
	ss.commitMu.Lock()
	return ss.commitMu.Unlock
}
