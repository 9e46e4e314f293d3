package refserver

import (
	"crypto/sha1"
	"encoding/json"
	"hash"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// session is a chunked upload session. Fields are guarded by Server.mu.
type session struct {
	id         string
	owner      *user
	folderID   string // new file: destination folder
	fileID     string // new version: the file
	fileName   string // new file name, or rename of a new version ("" = keep)
	fileSize   int64
	partSize   int64
	totalParts int
	expiresAt  time.Time
	parts      map[int64]*uploadPart // by offset
	lastPartAt time.Time

	// The content (uploadparts.go): each part is written into asm at its
	// offset as it arrives, and whole hashes the file in offset order as
	// contiguous parts land, so a commit only checks and links.
	asm      Assembly
	final    *BlobInfo               // asm finished by a commit that did not complete
	writing  map[int64]chan struct{} // parts being written, by offset; closed when done
	whole    hash.Hash
	hashed   int64         // whole covers the bytes [0, hashed)
	hashing  chan struct{} // non-nil while a request feeds whole; closed when it stops
	hashErr  error
	commitMu *sync.Mutex // one commit of the session at a time
}

// uploadPart is one uploaded part.
type uploadPart struct {
	ID     string `json:"part_id"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
	SHA1   string `json:"sha1"`
}

func (s *state) sessionJSON(ss *session) map[string]any {
	u := s.uploadURL + "/files/upload_sessions/" + ss.id
	return map[string]any{
		"id":                  ss.id,
		"type":                "upload_session",
		"session_expires_at":  fmtTime(ss.expiresAt),
		"part_size":           ss.partSize,
		"total_parts":         ss.totalParts,
		"num_parts_processed": len(ss.parts),
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

// sessionBody is the body of the two create-session calls.
type sessionBody struct {
	FolderID json.RawMessage `json:"folder_id"`
	FileSize json.RawMessage `json:"file_size"`
	FileName json.RawMessage `json:"file_name"`
}

func present(m json.RawMessage) bool { return len(m) > 0 && string(m) != "null" }

func (s *state) parseFileSize(m json.RawMessage) (int64, *wire.Error) {
	if !present(m) {
		return 0, wire.Errorf(http.StatusBadRequest, wire.CodeMissingFileSize, "Missing file_size")
	}
	var n int64
	if err := json.Unmarshal(m, &n); err != nil || n < 0 {
		return 0, wire.Errorf(http.StatusBadRequest, wire.CodeInvalidFileSize, "Invalid file_size")
	}
	if n < s.cfg.ChunkedMinSize {
		return 0, wire.Errorf(http.StatusBadRequest, wire.CodeFileSizeTooSmall, "file_size is below the minimum of %d bytes for upload sessions", s.cfg.ChunkedMinSize)
	}
	return n, nil
}

func parseFileName(m json.RawMessage) (string, *wire.Error) {
	var name string
	if err := json.Unmarshal(m, &name); err != nil {
		return "", wire.Errorf(http.StatusBadRequest, wire.CodeItemNameInvalid, "Item name invalid")
	}
	if aerr := checkName(name); aerr != nil {
		return "", aerr
	}
	return name, nil
}

// newSession makes a session around an assembly of its content. Callers
// hold s.mu.
func (s *state) newSession(p *principal, folderID, fileID, name string, size int64, asm Assembly) *session {
	ps := s.cfg.PartSize
	return (&session{
		id: strings.ToUpper(randomHex(16)), owner: p.user, folderID: folderID, fileID: fileID,
		fileName: name, fileSize: size, partSize: ps, totalParts: int((size + ps - 1) / ps),
		expiresAt: s.nowSec().Add(sessionLifetime), parts: make(map[int64]*uploadPart),
	}).withContent(asm)
}

// withContent gives a session its content: the assembly, and the state of
// the whole-file hash, empty (a session loaded after a restart hashes its
// parts again at the commit).
func (ss *session) withContent(asm Assembly) *session {
	ss.asm, ss.writing, ss.whole, ss.commitMu = asm, make(map[int64]chan struct{}), sha1.New(), new(sync.Mutex)
	return ss
}

// startAssembly starts the content of a new session of size bytes; the
// returned release discards it unless keep was called (the session was
// created).
func (s *Server) startAssembly(r *http.Request, size int64) (asm Assembly, keep, release func(), err error) {
	asm, err = s.newAssembly(r.Context(), size)
	if err != nil {
		return nil, nil, nil, err
	}
	kept := false
	return asm, func() { kept = true }, func() {
		if !kept {
			_ = asm.Discard()
		}
	}, nil
}

// createUploadSession serves POST {upload}/files/upload_sessions: 201
// UploadSession. Codes follow the spec's list; a missing or invisible
// folder is 404 invalid_parameter as the spec documents for this call.
func (s *Server) createUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	var body sessionBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if !present(body.FolderID) {
		return wire.Errorf(http.StatusBadRequest, wire.CodeMissingDestination, "Missing folder_id")
	}
	var folderID string
	if err := json.Unmarshal(body.FolderID, &folderID); err != nil || !validID(folderID) {
		return wire.Errorf(http.StatusBadRequest, wire.CodeInvalidFolderID, "Invalid folder_id")
	}
	size, aerr := s.parseFileSize(body.FileSize)
	if aerr != nil {
		return aerr
	}
	if !present(body.FileName) {
		return wire.Errorf(http.StatusBadRequest, wire.CodeMissingFileName, "Missing file_name")
	}
	name, aerr := parseFileName(body.FileName)
	if aerr != nil {
		return aerr
	}
	asm, keep, release, err := s.startAssembly(r, size)
	if err != nil {
		return err
	}
	defer release()
	return s.change(w, func() (reply, *wire.Error) {
		return s.createUploadSessionTx(p, folderID, name, size, asm, keep)
	})
}

// createUploadSessionTx is the transaction of POST
// {upload}/files/upload_sessions (createUploadSession): what it checks, reads
// and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) createUploadSessionTx(p *principal, folderID string, name string, size int64, asm Assembly, keep func()) (reply, *wire.Error) {
	parent, aerr := s.parentFolder(p, folderID)
	if aerr != nil {
		return reply{}, wire.Errorf(http.StatusNotFound, wire.CodeInvalidParameter, "The folder does not exist or is not accessible")
	}
	if c := s.conflict(folderID, ownerIn(p, parent), name, nil); c != nil {
		return reply{}, s.errNameInUse(c)
	}
	ss := s.newSession(p, folderID, "", name, size, asm)
	s.sessions[ss.id] = ss
	s.dirty(kSessions, ss.id)
	keep()
	return reply{http.StatusCreated, s.sessionJSON(ss)}, nil
}

// createVersionUploadSession serves POST {upload}/files/{file_id}/upload_sessions.
func (s *Server) createVersionUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	var body sessionBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if present(body.FolderID) {
		return wire.BadRequest("folder_id is not allowed for a new version")
	}
	size, aerr := s.parseFileSize(body.FileSize)
	if aerr != nil {
		return aerr
	}
	name := ""
	if present(body.FileName) {
		if name, aerr = parseFileName(body.FileName); aerr != nil {
			return aerr
		}
	}
	asm, keep, release, err := s.startAssembly(r, size)
	if err != nil {
		return err
	}
	defer release()
	return s.change(w, func() (reply, *wire.Error) {
		return s.createVersionUploadSessionTx(p, id, name, size, asm, keep)
	})
}

// createVersionUploadSessionTx is the transaction of POST
// {upload}/files/{file_id}/upload_sessions (createVersionUploadSession): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) createVersionUploadSessionTx(p *principal, id string, name string, size int64, asm Assembly, keep func()) (reply, *wire.Error) {
	f, aerr := s.lookupFor(p, "file", id, actUpload)
	if aerr != nil {
		return reply{}, aerr
	}
	if name != "" && name != f.name {
		if c := s.conflict(f.parentID, f.owner, name, f); c != nil {
			return reply{}, s.errNameInUse(c)
		}
	}
	ss := s.newSession(p, "", f.id, name, size, asm)
	s.sessions[ss.id] = ss
	s.dirty(kSessions, ss.id)
	keep()
	return reply{http.StatusCreated, s.sessionJSON(ss)}, nil
}

// session returns p's live session. An unknown, expired or foreign session
// is 404. Callers hold s.mu; an expired session is dropped and returned as
// stale, for dropContent once s.mu is released.
func (s *state) session(p *principal, id string) (ss, stale *session, aerr *wire.Error) {
	ss, ok := s.sessions[id]
	if !ok || ss.owner != p.user {
		return nil, nil, wire.NotFound("upload session")
	}
	if !s.now().Before(ss.expiresAt) {
		delete(s.sessions, id)
		s.dirtySession(ss)
		return nil, ss, wire.NotFound("upload session")
	}
	return ss, nil, nil
}

// dropContent discards the content of a session that ended without a
// commit. Callers do not hold s.mu.
func (s *Server) dropContent(r *http.Request, ss *session) {
	if ss == nil {
		return
	}
	if err := ss.asm.Discard(); err != nil {
		s.log.Warn("discarding upload session content", "session", ss.id, "err", err)
	}
	if ss.final != nil {
		s.deleteBlobs(r, []string{ss.final.ID})
	}
}

// withSession runs fn on p's session under s.mu.
func (s *Server) withSession(r *http.Request, p *principal, fn func(ss *session) *wire.Error) *wire.Error {
	s.mu.Lock()
	ss, stale, aerr := s.session(p, r.PathValue("session_id"))
	if aerr == nil {
		aerr = fn(ss)
	}
	s.mu.Unlock()
	s.dropContent(r, stale)
	return aerr
}

// getUploadSession serves GET .../upload_sessions/{id}: 200 UploadSession.
func (s *Server) getUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	var out map[string]any
	if aerr := s.withSession(r, p, func(ss *session) *wire.Error { out = s.sessionJSON(ss); return nil }); aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// abortUploadSession serves DELETE .../upload_sessions/{id}: 204; the parts
// are discarded and the session is gone.
func (s *Server) abortUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	var ended *session
	if aerr := s.withSession(r, p, func(ss *session) *wire.Error {
		s.endSession(ss, SessionAborted, "")
		ended = ss
		return nil
	}); aerr != nil {
		return aerr
	}
	s.dropContent(r, ended)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func errRange(format string, args ...any) *wire.Error {
	return wire.Errorf(http.StatusRequestedRangeNotSatisfiable, wire.CodeRangeNotSatisfiable, format, args...)
}

// checkPartRange applies the session's part rules to a content range.
func checkPartRange(ss *session, cr wire.ContentRange) *wire.Error {
	size := cr.Last - cr.First + 1
	switch {
	case cr.Total != ss.fileSize:
		return errRange("The content range total %d does not match the session's file_size %d", cr.Total, ss.fileSize)
	case cr.First%ss.partSize != 0:
		return errRange("The part offset %d is not a multiple of the part size %d", cr.First, ss.partSize)
	case cr.Last == cr.Total-1 && size > ss.partSize:
		return errRange("The last part is larger than the part size %d", ss.partSize)
	case cr.Last != cr.Total-1 && size != ss.partSize:
		return errRange("The part size %d does not match the session's part size %d", size, ss.partSize)
	}
	return nil
}

// newPartID is 8 upper-case hex characters, unique in the session.
func (s *state) newPartID(ss *session) string {
	for {
		id := strings.ToUpper(randomHex(4))
		taken := false
		for _, pt := range ss.parts {
			taken = taken || pt.ID == id
		}
		if !taken {
			return id
		}
	}
}

func sortedParts(ss *session) []*uploadPart {
	parts := make([]*uploadPart, 0, len(ss.parts))
	for _, pt := range ss.parts {
		parts = append(parts, pt)
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Offset < parts[j].Offset })
	return parts
}

// listParts serves GET .../upload_sessions/{id}/parts with offset paging
// (offset above 10000 is 400; limit at most 1000).
func (s *Server) listParts(w http.ResponseWriter, r *http.Request, p *principal) error {
	offset, aerr := wire.QueryInt(r.URL.Query(), "offset", 0)
	if aerr != nil {
		return aerr
	}
	if offset > 10000 {
		return wire.BadRequest("offset must not exceed 10000")
	}
	limit, aerr := wire.PageLimit(r.URL.Query(), 100, 1000)
	if aerr != nil {
		return aerr
	}
	var out map[string]any
	if aerr := s.withSession(r, p, func(ss *session) *wire.Error {
		parts := sortedParts(ss)
		total := int64(len(parts))
		start := min(offset, total)
		end := min(start+limit, total)
		entries := make([]any, 0, end-start)
		for _, pt := range parts[start:end] {
			entries = append(entries, pt)
		}
		out = map[string]any{
			"total_count": total, "limit": limit, "offset": offset,
			"order":   []any{map[string]any{"by": "offset", "direction": "ASC"}},
			"entries": entries,
		}
		return nil
	}); aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
