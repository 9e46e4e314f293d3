package refserver

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

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
func checkCommitParts(ss *state.Session, body *commitBody) *wire.Error {
	mismatch := func(format string, args ...any) *wire.Error {
		return wire.Errorf(http.StatusBadRequest, wire.CodePartsMismatch, format, args...)
	}
	seen := make(map[int64]bool, len(body.Parts))
	for _, bp := range body.Parts {
		if bp.PartID == nil || bp.Offset == nil || bp.Size == nil || bp.SHA1 == nil {
			return mismatch("Each part needs part_id, offset, size and sha1")
		}
		pt, ok := ss.Parts[*bp.Offset]
		if !ok || pt.ID != *bp.PartID || pt.Size != *bp.Size || !strings.EqualFold(pt.SHA1, *bp.SHA1) || seen[pt.Offset] {
			return mismatch("No matching part found on server for part_id %q at offset %d", *bp.PartID, *bp.Offset)
		}
		seen[pt.Offset] = true
	}
	if len(seen) != len(ss.Parts) {
		return mismatch("The parts list does not contain every uploaded part")
	}
	var covered int64
	for _, pt := range state.SortedParts(ss) {
		if pt.Offset != covered {
			return mismatch("The parts do not cover the file: missing bytes at offset %d", covered)
		}
		covered += pt.Size
	}
	if covered != ss.FileSize {
		return mismatch("The parts cover %d of %d bytes", covered, ss.FileSize)
	}
	return nil
}

// checkCommitConditions applies if-match / if-none-match to a new-version
// session's file, in tx.
func (s *Server) checkCommitConditions(tx *state.Tx, r *http.Request, p *state.Principal, ss *state.Session) (*state.Item, *wire.Error) {
	if ss.FileID == "" {
		return nil, nil
	}
	f, aerr := tx.LookupFor(p, "file", ss.FileID, state.ActUpload)
	if aerr != nil {
		return nil, aerr
	}
	if aerr := state.CheckIfMatch(r.Header.Get("If-Match"), f.Etag()); aerr != nil {
		return nil, aerr
	}
	if h := r.Header.Get("If-None-Match"); h != "" && state.EtagMatches(h, f.Etag()) {
		return nil, wire.Errorf(http.StatusPreconditionFailed, wire.CodePreconditionFailed, "The if-none-match condition failed")
	}
	return f, nil
}

// commitUploadSession serves POST .../upload_sessions/{id}/commit: 201
// Files; 202 + Retry-After within CommitNotReady of the last part; 400
// parts_mismatch / digest_mismatch; 409 name clash; 412 conditions. The
// parts were written into the file's content and hashed as they arrived
// (uploadparts.go), so the commit compares the digest and links the
// content to the file: it neither reads nor copies it.
func (s *Server) commitUploadSession(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	wantSHA1, aerr := wire.RequestDigest(r.Header.Get("Digest"))
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body commitBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Parts == nil {
		return wire.BadRequest("Missing required field: parts")
	}
	var (
		attrs             commitAttributes
		created, modified time.Time
	)
	if body.Attributes != nil {
		attrs = *body.Attributes
		var aerr *wire.Error
		if created, aerr = parseTime("content_created_at", attrs.ContentCreatedAt); aerr != nil {
			return aerr
		}
		if modified, aerr = parseTime("content_modified_at", attrs.ContentModifiedAt); aerr != nil {
			return aerr
		}
	}
	fields := parseFields(r)
	var (
		ss       *state.Session
		notReady bool
	)
	if aerr := s.withSession(r, p, func(tx *state.Tx, cur *state.Session) *wire.Error {
		if aerr := checkCommitParts(cur, &body); aerr != nil {
			return aerr
		}
		if tx.Now().Before(cur.LastPartAt.Add(s.opts.CommitNotReady)) {
			notReady = true
			return nil
		}
		if _, aerr := s.checkCommitConditions(tx, r, p, cur); aerr != nil {
			return aerr
		}
		if cur.FileID == "" {
			parent, aerr := tx.ParentFolder(p, cur.FolderID)
			if aerr != nil {
				return aerr
			}
			if c := tx.Conflict(cur.FolderID, state.OwnerIn(p, parent), cur.FileName, nil); c != nil {
				return tx.ErrUploadNameInUse(c)
			}
		}
		ss = cur
		return nil
	}); aerr != nil {
		return aerr
	}
	if notReady {
		w.Header().Set("Retry-After", strconv.Itoa(s.st.RetryAfterSeconds()))
		w.WriteHeader(http.StatusAccepted)
		return nil
	}

	defer ss.LockCommit()()
	sum, err := s.st.WholeSHA1(r.Context(), ss)
	if err != nil {
		return err
	}
	if sum != wantSHA1 {
		return wire.Errorf(http.StatusBadRequest, wire.CodeDigestMismatch, "File digest was incorrect")
	}
	blob, err := s.finishContent(r, ss, sum)
	if err != nil {
		return err
	}
	var out map[string]any
	if aerr := s.withSession(r, p, func(tx *state.Tx, cur *state.Session) *wire.Error {
		if cur != ss || cur.Final == nil {
			return wire.Errorf(http.StatusConflict, wire.CodeConflict, "The session changed during the commit; retry")
		}
		f, aerr := s.checkCommitConditions(tx, r, p, ss)
		if aerr != nil {
			return aerr
		}
		if f == nil {
			if f, aerr = tx.CreateFile(p, ss.FolderID, ss.FileName, blob, created, modified); aerr != nil {
				return aerr
			}
		} else if aerr = tx.AddVersion(p, f, ss.FileName, blob, modified); aerr != nil {
			return aerr
		}
		if attrs.Description != nil {
			tx.Describe(f, *attrs.Description)
		}
		tx.EndSession(ss, state.SessionCommitted, f.ID)
		out = tx.Render(f, fields, p)
		return nil
	}); aerr != nil {
		return aerr // the session keeps its finished content for a later commit
	}
	writeJSON(w, http.StatusCreated, map[string]any{"total_count": 1, "entries": []any{out}})
	return nil
}

// finishContent makes the session's content a blob once (a commit that
// fails later, on a name clash or a condition, leaves it to the next one).
// It runs under the session's commit lock (Session.LockCommit), outside any
// transaction.
func (s *Server) finishContent(r *http.Request, ss *state.Session, sum string) (BlobInfo, error) {
	var (
		final *BlobInfo
		asm   Assembly
	)
	s.st.View(func(tx *state.ReadTx) { final, asm = ss.Final, ss.Asm })
	if final != nil {
		return *final, nil
	}
	blob, err := asm.Finish(r.Context(), sum)
	if err != nil {
		return BlobInfo{}, err
	}
	var live bool
	s.st.Update(func(tx *state.Tx) { live = tx.KeepFinalContent(ss, blob) })
	if !live {
		s.dropUnreferenced(r, blob.ID)
		return BlobInfo{}, wire.NotFound("upload session") // aborted meanwhile
	}
	return blob, nil
}
