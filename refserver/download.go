package refserver

import (
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// downloadFile serves GET /files/{file_id}/content: 302 to a signed URL on
// the content host, or 202 + Retry-After while the content is not ready.
// The range header is left to the content host; the boxapi header (shared
// links) is accepted and ignored.
func (s *Server) downloadFile(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	want := r.URL.Query().Get("version")
	link, aerr := sharedLinkHeader(r)
	if aerr != nil {
		return aerr
	}
	var (
		f        *state.Item
		v        *state.Version
		notReady bool
	)
	var mark uint64
	s.st.Update(func(tx *state.Tx) {
		m0 := tx.MarkCount()
		f, v, notReady, aerr = tx.Download(p, link, id, want)
		mark = tx.ItemReadWait(m0, "file", id)
	})
	if link == nil { // through a shared link, the answer depends on the link's folder too
		answersRead(w, mark)
	}
	if aerr != nil {
		return aerr
	}
	if v == nil {
		return wire.NotFound("file version")
	}
	if notReady {
		w.Header().Set("Retry-After", strconv.Itoa(s.st.RetryAfterSeconds()))
		w.WriteHeader(http.StatusAccepted)
		return nil
	}
	tok := s.st.Sign(state.SignedRef{Kind: "d", FileID: f.ID, VersionID: v.ID, BlobID: v.Blob.ID(), Expires: s.st.Now().Add(s.opts.SignedURLTTL)})
	w.Header().Set("Location", s.st.DownloadURL+"/d/"+tok)
	w.WriteHeader(http.StatusFound)
	return nil
}

// checkContentAuth refuses a content-host request that carries an
// Authorization header: the URLs are pre-authorized and a client that sends
// its token there leaks it to another host. With IgnoreContentAuthorization
// the header is ignored, as the real content host does.
func (s *Server) checkContentAuth(r *http.Request) *wire.Error {
	if _, ok := r.Header["Authorization"]; !ok || s.opts.IgnoreContentAuthorization {
		return nil
	}
	return wire.BadRequest("Content URLs are pre-authorized: do not send an Authorization header to the content host")
}

// serveContent serves GET/HEAD {download}/d/{token}: the bytes, with Range
// support (206, Content-Range) streamed from the store.
func (s *Server) serveContent(w http.ResponseWriter, r *http.Request, _ *state.Principal) error {
	if aerr := s.checkContentAuth(r); aerr != nil {
		return aerr
	}
	ref, err := s.st.Verify(r.PathValue("token"), "d")
	switch {
	case errors.Is(err, state.ErrExpired):
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "The download URL has expired")
	case err != nil:
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "The download URL is not valid")
	}
	var (
		name string
		ok   bool
	)
	s.st.View(func(tx *state.ReadTx) { name, ok = tx.FileName(ref.FileID) })
	if !ok {
		return wire.NotFound("file content") // deleted, or in the trash
	}
	rc, err := s.st.Store.Open(r.Context(), ref.BlobID)
	if errors.Is(err, ErrBlobNotFound) {
		return wire.NotFound("file content")
	}
	if err != nil {
		return err
	}
	defer rc.Close()
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Cache-Control", "no-cache, no-store")
	h.Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(name))
	http.ServeContent(&errorBodyWriter{ResponseWriter: w}, r, "", time.Time{}, rc)
	return nil
}

// errorBodyWriter replaces the plain-text error bodies of http.ServeContent
// (e.g. 416) with the standard error body.
type errorBodyWriter struct {
	http.ResponseWriter
	failed bool
}

func (w *errorBodyWriter) WriteHeader(code int) {
	if code >= 400 {
		w.failed = true
		h := w.Header()
		h.Del("Content-Disposition")
		h.Del("Content-Length")
		h.Del("X-Content-Type-Options")
		writeError(w.ResponseWriter, wire.Errorf(code, codeForStatus(code), "%s", http.StatusText(code)))
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *errorBodyWriter) Write(b []byte) (int, error) {
	if w.failed {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// serveEmbed serves GET {download}/embed/{token}: a minimal preview page.
func (s *Server) serveEmbed(w http.ResponseWriter, r *http.Request, _ *state.Principal) error {
	if aerr := s.checkContentAuth(r); aerr != nil {
		return aerr
	}
	ref, err := s.st.Verify(r.PathValue("token"), "e")
	if err != nil {
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "The embed URL is not valid or has expired")
	}
	var (
		name string
		ok   bool
	)
	s.st.Update(func(tx *state.Tx) { name, ok = tx.Preview(ref.FileID) })
	if !ok {
		return wire.NotFound("file")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, err = io.WriteString(w, fmt.Sprintf("<!doctype html><title>%s</title><p>Preview of %s (version %s)</p>\n",
		html.EscapeString(name), html.EscapeString(name), html.EscapeString(ref.VersionID)))
	return err
}

// serveSharedStatic serves GET/HEAD {download}/shared/static/{name}: the
// download_url of a file's shared link (state.SharedStaticDownload): 302 to
// a signed download URL on this host, or 202 + Retry-After while the
// content is not ready.
func (s *Server) serveSharedStatic(w http.ResponseWriter, r *http.Request, _ *state.Principal) error {
	if aerr := s.checkContentAuth(r); aerr != nil {
		return aerr
	}
	var (
		f    *state.Item
		v    *state.Version
		aerr *wire.Error
		ref  state.SignedRef
		wait bool
	)
	s.st.View(func(tx *state.ReadTx) {
		if f, v, aerr = tx.SharedStaticDownload(r.PathValue("name")); aerr == nil {
			ref = state.SignedRef{Kind: "d", FileID: f.ID, VersionID: v.ID, BlobID: v.Blob.ID(), Expires: s.st.Now().Add(s.opts.SignedURLTTL)}
			wait = s.st.Now().Before(f.ReadyAt())
		}
	})
	if aerr != nil {
		return aerr
	}
	if wait {
		w.Header().Set("Retry-After", strconv.Itoa(s.st.RetryAfterSeconds()))
		w.WriteHeader(http.StatusAccepted)
		return nil
	}
	w.Header().Set("Location", s.st.DownloadURL+"/d/"+s.st.Sign(ref))
	w.WriteHeader(http.StatusFound)
	return nil
}
