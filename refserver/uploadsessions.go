package refserver

import (
	"encoding/json"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// sessionBody is the body of the two create-session calls.
type sessionBody struct {
	FolderID json.RawMessage `json:"folder_id"`
	FileSize json.RawMessage `json:"file_size"`
	FileName json.RawMessage `json:"file_name"`
}

func parseFileName(m json.RawMessage) (string, *wire.Error) {
	var name string
	if err := json.Unmarshal(m, &name); err != nil {
		return "", wire.Errorf(http.StatusBadRequest, wire.CodeItemNameInvalid, "Item name invalid")
	}
	if aerr := state.CheckName(name); aerr != nil {
		return "", aerr
	}
	return name, nil
}

// startAssembly starts the content of a new session of size bytes; the
// returned release discards it unless keep was called (the session was
// created).
func (s *Server) startAssembly(r *http.Request, size int64) (asm Assembly, keep, release func(), err error) {
	asm, err = s.st.NewAssembly(r.Context(), size)
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
func (s *Server) createUploadSession(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	var body sessionBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if !state.Present(body.FolderID) {
		return wire.Errorf(http.StatusBadRequest, wire.CodeMissingDestination, "Missing folder_id")
	}
	var folderID string
	if err := json.Unmarshal(body.FolderID, &folderID); err != nil || !state.ValidID(folderID) {
		return wire.Errorf(http.StatusBadRequest, wire.CodeInvalidFolderID, "Invalid folder_id")
	}
	size, aerr := s.st.ParseFileSize(body.FileSize)
	if aerr != nil {
		return aerr
	}
	if !state.Present(body.FileName) {
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
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateUploadSession(p, folderID, name, size, asm, keep)
	})
}

// createVersionUploadSession serves POST {upload}/files/{file_id}/upload_sessions.
func (s *Server) createVersionUploadSession(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	var body sessionBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if state.Present(body.FolderID) {
		return wire.BadRequest("folder_id is not allowed for a new version")
	}
	size, aerr := s.st.ParseFileSize(body.FileSize)
	if aerr != nil {
		return aerr
	}
	name := ""
	if state.Present(body.FileName) {
		if name, aerr = parseFileName(body.FileName); aerr != nil {
			return aerr
		}
	}
	asm, keep, release, err := s.startAssembly(r, size)
	if err != nil {
		return err
	}
	defer release()
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateVersionUploadSession(p, id, name, size, asm, keep)
	})
}

// withSession runs fn on p's session in a transaction.
func (s *Server) withSession(r *http.Request, p *state.Principal, fn func(tx *state.Tx, ss *state.Session) *wire.Error) *wire.Error {
	var aerr *wire.Error
	s.st.Update(func(tx *state.Tx) {
		var ss *state.Session
		if ss, aerr = tx.Session(p, r.PathValue("session_id")); aerr == nil {
			aerr = fn(tx, ss)
		}
	})
	return aerr
}

// getUploadSession serves GET .../upload_sessions/{id}: 200 UploadSession.
func (s *Server) getUploadSession(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	var out map[string]any
	if aerr := s.withSession(r, p, func(tx *state.Tx, ss *state.Session) *wire.Error { out = tx.SessionJSON(ss); return nil }); aerr != nil {
		return aerr
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// abortUploadSession serves DELETE .../upload_sessions/{id}: 204; the parts
// are discarded and the session is gone.
func (s *Server) abortUploadSession(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := s.withSession(r, p, func(tx *state.Tx, ss *state.Session) *wire.Error {
		tx.EndSession(ss, state.SessionAborted, "")
		return nil
	}); aerr != nil {
		return aerr
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listParts serves GET .../upload_sessions/{id}/parts with offset paging
// (offset above 10000 is 400; limit at most 1000).
func (s *Server) listParts(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
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
	if aerr := s.withSession(r, p, func(tx *state.Tx, ss *state.Session) *wire.Error {
		parts := state.SortedParts(ss)
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
