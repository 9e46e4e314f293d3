package refserver

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
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
}

// uploadPart is one uploaded part.
type uploadPart struct {
	ID     string `json:"part_id"`
	Offset int64  `json:"offset"`
	Size   int64  `json:"size"`
	SHA1   string `json:"sha1"`
	blobID string
}

func (s *Server) sessionJSON(ss *session) map[string]any {
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

func (s *Server) parseFileSize(m json.RawMessage) (int64, *apiError) {
	if !present(m) {
		return 0, errf(http.StatusBadRequest, codeMissingFileSize, "Missing file_size")
	}
	var n int64
	if err := json.Unmarshal(m, &n); err != nil || n < 0 {
		return 0, errf(http.StatusBadRequest, codeInvalidFileSize, "Invalid file_size")
	}
	if n < s.opts.ChunkedMinSize {
		return 0, errf(http.StatusBadRequest, codeFileSizeTooSmall, "file_size is below the minimum of %d bytes for upload sessions", s.opts.ChunkedMinSize)
	}
	return n, nil
}

func parseFileName(m json.RawMessage) (string, *apiError) {
	var name string
	if err := json.Unmarshal(m, &name); err != nil {
		return "", errf(http.StatusBadRequest, codeItemNameInvalid, "Item name invalid")
	}
	if aerr := checkName(name); aerr != nil {
		return "", aerr
	}
	return name, nil
}

func (s *Server) newSession(p *principal, folderID, fileID, name string, size int64) *session {
	ps := s.opts.PartSize
	return &session{
		id: strings.ToUpper(randomHex(16)), owner: p.user, folderID: folderID, fileID: fileID,
		fileName: name, fileSize: size, partSize: ps, totalParts: int((size + ps - 1) / ps),
		expiresAt: s.nowSec().Add(sessionLifetime), parts: make(map[int64]*uploadPart),
	}
}

// createUploadSession serves POST {upload}/files/upload_sessions: 201
// UploadSession. Codes follow the spec's list; a missing or invisible
// folder is 404 invalid_parameter as the spec documents for this call.
func (s *Server) createUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	var body sessionBody
	if aerr := decodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if !present(body.FolderID) {
		return errf(http.StatusBadRequest, codeMissingDestination, "Missing folder_id")
	}
	var folderID string
	if err := json.Unmarshal(body.FolderID, &folderID); err != nil || !validID(folderID) {
		return errf(http.StatusBadRequest, codeInvalidFolderID, "Invalid folder_id")
	}
	size, aerr := s.parseFileSize(body.FileSize)
	if aerr != nil {
		return aerr
	}
	if !present(body.FileName) {
		return errf(http.StatusBadRequest, codeMissingFileName, "Missing file_name")
	}
	name, aerr := parseFileName(body.FileName)
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	parent, aerr := s.parentFolder(p, folderID)
	if aerr != nil {
		return errf(http.StatusNotFound, codeInvalidParameter, "The folder does not exist or is not accessible")
	}
	if c := s.conflict(folderID, ownerIn(p, parent), name, nil); c != nil {
		return s.errNameInUse(c)
	}
	ss := s.newSession(p, folderID, "", name, size)
	s.sessions[ss.id] = ss
	s.dirty(kSessions, ss.id)
	writeJSON(w, http.StatusCreated, s.sessionJSON(ss))
	return nil
}

// createVersionUploadSession serves POST {upload}/files/{file_id}/upload_sessions.
func (s *Server) createVersionUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	var body sessionBody
	if aerr := decodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if present(body.FolderID) {
		return errBadRequest("folder_id is not allowed for a new version")
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
	s.mu.Lock()
	defer s.mu.Unlock()
	f, aerr := s.lookup(p, "file", id)
	if aerr != nil {
		return aerr
	}
	if name != "" && name != f.name {
		if c := s.conflict(f.parentID, f.owner, name, f); c != nil {
			return s.errNameInUse(c)
		}
	}
	ss := s.newSession(p, "", f.id, name, size)
	s.sessions[ss.id] = ss
	s.dirty(kSessions, ss.id)
	writeJSON(w, http.StatusCreated, s.sessionJSON(ss))
	return nil
}

// session returns p's live session. An unknown, expired or foreign session
// is 404. Callers hold s.mu; expired sessions are dropped and their part
// blobs returned for deletion.
func (s *Server) session(p *principal, id string) (*session, []string, *apiError) {
	ss, ok := s.sessions[id]
	if !ok || ss.owner != p.user {
		return nil, nil, errNotFound("upload session")
	}
	if !s.now().Before(ss.expiresAt) {
		delete(s.sessions, id)
		s.dirtySession(ss)
		return nil, partBlobs(ss), errNotFound("upload session")
	}
	return ss, nil, nil
}

func partBlobs(ss *session) []string {
	var ids []string
	for _, pt := range ss.parts {
		ids = append(ids, pt.blobID)
	}
	return ids
}

// withSession runs fn on p's session under s.mu.
func (s *Server) withSession(r *http.Request, p *principal, fn func(ss *session) *apiError) *apiError {
	s.mu.Lock()
	ss, stale, aerr := s.session(p, r.PathValue("session_id"))
	if aerr == nil {
		aerr = fn(ss)
	}
	s.mu.Unlock()
	s.deleteBlobs(r, stale)
	return aerr
}

// getUploadSession serves GET .../upload_sessions/{id}: 200 UploadSession.
func (s *Server) getUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	var out map[string]any
	if aerr := s.withSession(r, p, func(ss *session) *apiError { out = s.sessionJSON(ss); return nil }); aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// abortUploadSession serves DELETE .../upload_sessions/{id}: 204; the parts
// are discarded and the session is gone.
func (s *Server) abortUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	var blobs []string
	if aerr := s.withSession(r, p, func(ss *session) *apiError {
		s.endSession(ss, SessionAborted, "")
		blobs = partBlobs(ss)
		return nil
	}); aerr != nil {
		return aerr
	}
	s.deleteBlobs(r, blobs)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func errRange(format string, args ...any) *apiError {
	return errf(http.StatusRequestedRangeNotSatisfiable, codeRangeNotSatisfiable, format, args...)
}

// checkPartRange applies the session's part rules to a content range.
func checkPartRange(ss *session, cr contentRange) *apiError {
	size := cr.last - cr.first + 1
	switch {
	case cr.total != ss.fileSize:
		return errRange("The content range total %d does not match the session's file_size %d", cr.total, ss.fileSize)
	case cr.first%ss.partSize != 0:
		return errRange("The part offset %d is not a multiple of the part size %d", cr.first, ss.partSize)
	case cr.last == cr.total-1 && size > ss.partSize:
		return errRange("The last part is larger than the part size %d", ss.partSize)
	case cr.last != cr.total-1 && size != ss.partSize:
		return errRange("The part size %d does not match the session's part size %d", size, ss.partSize)
	}
	return nil
}

// uploadPart serves PUT .../upload_sessions/{id}: 200 UploadedPart. The
// range must fit the session (else 416), the digest must match the body
// (else 400 bad_digest). Uploading the same part again is idempotent; a
// different part over an uploaded range is 409 range_overlaps_existing_part.
func (s *Server) uploadPart(w http.ResponseWriter, r *http.Request, p *principal) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/octet-stream" {
		return errBadRequest("Content-Type must be application/octet-stream")
	}
	dg := r.Header.Get("Digest")
	if dg == "" {
		return errBadRequest("Missing required header: digest")
	}
	wantSHA1, err := parseDigest(dg)
	if err != nil {
		return errBadRequest("Malformed digest header: expected sha=<base64 SHA1>")
	}
	crh := r.Header.Get("Content-Range")
	if crh == "" {
		return errBadRequest("Missing required header: content-range")
	}
	cr, err := parseContentRange(crh)
	if err != nil {
		return errBadRequest("Malformed content-range header: expected bytes <first>-<last>/<total>")
	}
	size := cr.last - cr.first + 1
	if aerr := s.withSession(r, p, func(ss *session) *apiError {
		if aerr := checkPartRange(ss, cr); aerr != nil {
			return aerr
		}
		if r.ContentLength >= 0 && r.ContentLength != size {
			return errRange("The body length %d does not match the content range length %d", r.ContentLength, size)
		}
		if old, ok := ss.parts[cr.first]; ok && (old.SHA1 != wantSHA1 || old.Size != size) {
			return errf(http.StatusConflict, codeRangeOverlaps, "The part overlaps a part already uploaded")
		}
		return nil
	}); aerr != nil {
		return aerr
	}

	blob, err := s.store.Put(r.Context(), io.LimitReader(r.Body, size+1))
	if err != nil {
		if r.Context().Err() != nil {
			return r.Context().Err()
		}
		return errBadRequest("Reading the part body failed")
	}
	discard := true
	defer func() {
		if discard {
			s.deleteBlobs(r, []string{blob.ID})
		}
	}()
	if blob.Size != size {
		return errRange("The body length does not match the content range length %d", size)
	}
	if blob.SHA1 != wantSHA1 {
		return errf(http.StatusBadRequest, codeBadDigest, "The digest of the part does not match the received bytes")
	}
	var part *uploadPart
	if aerr := s.withSession(r, p, func(ss *session) *apiError {
		if old, ok := ss.parts[cr.first]; ok {
			if old.SHA1 != blob.SHA1 || old.Size != size {
				return errf(http.StatusConflict, codeRangeOverlaps, "The part overlaps a part already uploaded")
			}
			part = old // idempotent repeat: keep the first copy
			return nil
		}
		part = &uploadPart{ID: s.newPartID(ss), Offset: cr.first, Size: size, SHA1: blob.SHA1, blobID: blob.ID}
		ss.parts[cr.first] = part
		ss.lastPartAt = s.now()
		s.dirty(kSessions, ss.id)
		s.dirtyPart(ss, cr.first)
		discard = false
		return nil
	}); aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, map[string]any{"part": part})
	return nil
}

// newPartID is 8 upper-case hex characters, unique in the session.
func (s *Server) newPartID(ss *session) string {
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
	offset, aerr := queryInt(r, "offset", 0)
	if aerr != nil {
		return aerr
	}
	if offset > 10000 {
		return errBadRequest("offset must not exceed 10000")
	}
	limit, aerr := pageLimit(r, 100, 1000)
	if aerr != nil {
		return aerr
	}
	var out map[string]any
	if aerr := s.withSession(r, p, func(ss *session) *apiError {
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

// commitBody is the body of the commit call.
//
// attributes is not in the OpenAPI schema, but the service takes it: the
// classic Box SDKs send it on every commit (box-node-sdk sends
// "attributes":{} plus any file attributes the caller gives, the classic
// Python and Java SDKs send file_attributes / content_modified_at there).
type commitBody struct {
	Attributes *commitAttributes `json:"attributes"`
	Parts      []struct {
		PartID *string `json:"part_id"`
		Offset *int64  `json:"offset"`
		Size   *int64  `json:"size"`
		SHA1   *string `json:"sha1"`
	} `json:"parts"`
}

// commitAttributes are the file attributes a commit may set on the file.
type commitAttributes struct {
	Description       *string `json:"description"`
	ContentCreatedAt  *string `json:"content_created_at"`
	ContentModifiedAt *string `json:"content_modified_at"`
}

// checkCommitParts verifies that the listed parts are exactly the uploaded
// ones (any order) and that they cover the whole file; else 400
// parts_mismatch.
func checkCommitParts(ss *session, body *commitBody) *apiError {
	mismatch := func(format string, args ...any) *apiError {
		return errf(http.StatusBadRequest, codePartsMismatch, format, args...)
	}
	seen := make(map[int64]bool, len(body.Parts))
	for _, bp := range body.Parts {
		if bp.PartID == nil || bp.Offset == nil || bp.Size == nil || bp.SHA1 == nil {
			return mismatch("Each part needs part_id, offset, size and sha1")
		}
		pt, ok := ss.parts[*bp.Offset]
		if !ok || pt.ID != *bp.PartID || pt.Size != *bp.Size || !strings.EqualFold(pt.SHA1, *bp.SHA1) || seen[pt.Offset] {
			return mismatch("No matching part found on server for part_id %q at offset %d", *bp.PartID, *bp.Offset)
		}
		seen[pt.Offset] = true
	}
	if len(seen) != len(ss.parts) {
		return mismatch("The parts list does not contain every uploaded part")
	}
	var covered int64
	for _, pt := range sortedParts(ss) {
		if pt.Offset != covered {
			return mismatch("The parts do not cover the file: missing bytes at offset %d", covered)
		}
		covered += pt.Size
	}
	if covered != ss.fileSize {
		return mismatch("The parts cover %d of %d bytes", covered, ss.fileSize)
	}
	return nil
}

// checkCommitConditions applies if-match / if-none-match to a new-version
// session's file. Callers hold s.mu.
func (s *Server) checkCommitConditions(r *http.Request, p *principal, ss *session) (*item, *apiError) {
	if ss.fileID == "" {
		return nil, nil
	}
	f, aerr := s.lookup(p, "file", ss.fileID)
	if aerr != nil {
		return nil, aerr
	}
	if aerr := checkIfMatch(r, f.etag()); aerr != nil {
		return nil, aerr
	}
	if h := r.Header.Get("If-None-Match"); h != "" && etagMatches(h, f.etag()) {
		return nil, errf(http.StatusPreconditionFailed, codePreconditionFailed, "The if-none-match condition failed")
	}
	return f, nil
}

// commitUploadSession serves POST .../upload_sessions/{id}/commit: 201
// Files; 202 + Retry-After within CommitNotReady of the last part; 400
// parts_mismatch / digest_mismatch; 409 name clash; 412 conditions. The
// final blob is assembled by streaming the part blobs in order.
func (s *Server) commitUploadSession(w http.ResponseWriter, r *http.Request, p *principal) error {
	dg := r.Header.Get("Digest")
	if dg == "" {
		return errBadRequest("Missing required header: digest")
	}
	wantSHA1, err := parseDigest(dg)
	if err != nil {
		return errBadRequest("Malformed digest header: expected sha=<base64 SHA1>")
	}
	if aerr := requireJSONContentType(r); aerr != nil {
		return aerr
	}
	var body commitBody
	if aerr := decodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Parts == nil {
		return errBadRequest("Missing required field: parts")
	}
	var (
		attrs             commitAttributes
		created, modified time.Time
	)
	if body.Attributes != nil {
		attrs = *body.Attributes
		var aerr *apiError
		if created, aerr = parseTime("content_created_at", attrs.ContentCreatedAt); aerr != nil {
			return aerr
		}
		if modified, aerr = parseTime("content_modified_at", attrs.ContentModifiedAt); aerr != nil {
			return aerr
		}
	}
	fields := parseFields(r)
	var parts []*uploadPart
	var notReady bool
	if aerr := s.withSession(r, p, func(ss *session) *apiError {
		if aerr := checkCommitParts(ss, &body); aerr != nil {
			return aerr
		}
		if s.now().Before(ss.lastPartAt.Add(s.opts.CommitNotReady)) {
			notReady = true
			return nil
		}
		if _, aerr := s.checkCommitConditions(r, p, ss); aerr != nil {
			return aerr
		}
		if ss.fileID == "" {
			parent, aerr := s.parentFolder(p, ss.folderID)
			if aerr != nil {
				return aerr
			}
			if c := s.conflict(ss.folderID, ownerIn(p, parent), ss.fileName, nil); c != nil {
				return s.errNameInUse(c)
			}
		}
		parts = sortedParts(ss)
		return nil
	}); aerr != nil {
		return aerr
	}
	if notReady {
		w.Header().Set("Retry-After", strconv.Itoa(s.retryAfterSeconds()))
		w.WriteHeader(http.StatusAccepted)
		return nil
	}

	blob, err := s.assemble(r.Context(), parts)
	if errors.Is(err, ErrBlobNotFound) {
		return errNotFound("upload session") // aborted meanwhile
	}
	if err != nil {
		return err
	}
	discard := true
	defer func() {
		if discard {
			s.deleteBlobs(r, []string{blob.ID})
		}
	}()
	if blob.SHA1 != wantSHA1 {
		return errf(http.StatusBadRequest, codeDigestMismatch, "File digest was incorrect")
	}
	var out map[string]any
	var stale []string
	if aerr := s.withSession(r, p, func(ss *session) *apiError {
		if len(ss.parts) != len(parts) {
			return errf(http.StatusConflict, codeConflict, "The session changed during the commit; retry")
		}
		f, aerr := s.checkCommitConditions(r, p, ss)
		if aerr != nil {
			return aerr
		}
		if f == nil {
			if f, aerr = s.createFile(p, ss.folderID, ss.fileName, blob, created, modified); aerr != nil {
				return aerr
			}
		} else if aerr = s.addVersion(p, f, ss.fileName, blob, modified); aerr != nil {
			return aerr
		}
		if attrs.Description != nil {
			f.description = *attrs.Description
			s.dirtyItem(f)
		}
		s.endSession(ss, SessionCommitted, f.id)
		stale = partBlobs(ss)
		out = s.render(f, fields, p)
		discard = false
		return nil
	}); aerr != nil {
		return aerr
	}
	s.deleteBlobs(r, stale)
	writeJSON(w, http.StatusCreated, map[string]any{"total_count": 1, "entries": []any{out}})
	return nil
}

// assemble streams the part blobs, in offset order, into one new blob.
func (s *Server) assemble(ctx context.Context, parts []*uploadPart) (BlobInfo, error) {
	readers := make([]io.Reader, 0, len(parts))
	var closers []io.Closer
	defer func() {
		for _, c := range closers {
			_ = c.Close()
		}
	}()
	for _, pt := range parts {
		rc, err := s.store.Open(ctx, pt.blobID)
		if err != nil {
			return BlobInfo{}, err
		}
		closers = append(closers, rc)
		readers = append(readers, rc)
	}
	return s.store.Put(ctx, io.MultiReader(readers...))
}
