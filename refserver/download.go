package refserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Signed content-host tokens: base64url(payload) "." base64url(HMAC-SHA256
// of payload) with payload "kind|file|version|blob|expiry-unix". They are
// bound to one blob of one version and expire after SignedURLTTL.
type signedRef struct {
	kind, fileID, versionID, blobID string
	expires                         time.Time
}

func (s *state) sign(ref signedRef) string {
	payload := strings.Join([]string{ref.kind, ref.fileID, ref.versionID, ref.blobID, strconv.FormatInt(ref.expires.Unix(), 10)}, "|")
	mac := hmac.New(sha256.New, s.signKey)
	mac.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

var (
	errBadSignature = errors.New("bad signature")
	errExpired      = errors.New("expired")
)

func (s *state) verify(tok, kind string) (signedRef, error) {
	p64, m64, ok := strings.Cut(tok, ".")
	if !ok {
		return signedRef{}, errBadSignature
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p64)
	sum, err2 := base64.RawURLEncoding.DecodeString(m64)
	if err1 != nil || err2 != nil {
		return signedRef{}, errBadSignature
	}
	mac := hmac.New(sha256.New, s.signKey)
	mac.Write(payload)
	if !hmac.Equal(sum, mac.Sum(nil)) {
		return signedRef{}, errBadSignature
	}
	f := strings.Split(string(payload), "|")
	if len(f) != 5 || f[0] != kind {
		return signedRef{}, errBadSignature
	}
	exp, err := strconv.ParseInt(f[4], 10, 64)
	if err != nil {
		return signedRef{}, errBadSignature
	}
	ref := signedRef{kind: f[0], fileID: f[1], versionID: f[2], blobID: f[3], expires: time.Unix(exp, 0)}
	if !s.now().Before(ref.expires) {
		return ref, errExpired
	}
	return ref, nil
}

// retryAfterSeconds is RetryAfter in whole seconds, rounded up.
func (s *state) retryAfterSeconds() int {
	return max(1, int(math.Ceil(s.cfg.RetryAfter.Seconds())))
}

// downloadFile serves GET /files/{file_id}/content: 302 to a signed URL on
// the content host, or 202 + Retry-After while the content is not ready.
// The range header is left to the content host; the boxapi header (shared
// links) is accepted and ignored.
func (s *Server) downloadFile(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	want := r.URL.Query().Get("version")
	s.mu.Lock()
	f, aerr := s.lookupVia(r, p, "file", id, actDownload)
	if aerr == nil {
		aerr = s.lockRefuses(p, f, actDownload)
	}
	if aerr != nil {
		s.mu.Unlock()
		return aerr
	}
	v := f.current()
	if want != "" {
		v = nil
		for _, c := range f.versions {
			if c.id == want && c.trashedAt.IsZero() {
				v = c // a version in the trash is not downloaded (file_versions.go)
			}
		}
	}
	notReady := s.now().Before(f.readyAt)
	if v != nil && !notReady {
		s.itemEvent(evItemDownload, f, p.user)
	}
	s.mu.Unlock()
	if v == nil {
		return wire.NotFound("file version")
	}
	if notReady {
		w.Header().Set("Retry-After", strconv.Itoa(s.retryAfterSeconds()))
		w.WriteHeader(http.StatusAccepted)
		return nil
	}
	tok := s.sign(signedRef{kind: "d", fileID: f.id, versionID: v.id, blobID: v.blob.ID, expires: s.now().Add(s.opts.SignedURLTTL)})
	w.Header().Set("Location", s.downloadURL+"/d/"+tok)
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
func (s *Server) serveContent(w http.ResponseWriter, r *http.Request, _ *principal) error {
	if aerr := s.checkContentAuth(r); aerr != nil {
		return aerr
	}
	ref, err := s.verify(r.PathValue("token"), "d")
	switch {
	case errors.Is(err, errExpired):
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "The download URL has expired")
	case err != nil:
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "The download URL is not valid")
	}
	s.mu.Lock()
	f, ok := s.items[ref.fileID]
	gone := !ok || f.trashed()
	s.mu.Unlock()
	if gone {
		return wire.NotFound("file content") // deleted, or in the trash
	}
	rc, err := s.store.Open(r.Context(), ref.blobID)
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
	s.mu.Lock()
	if f, ok := s.items[ref.fileID]; ok {
		h.Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(f.name))
	}
	s.mu.Unlock()
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

// embedLink is the expiring_embed_link of a file. Callers hold s.mu.
func (s *state) embedLink(f *item, _ *principal) map[string]any {
	v := f.current()
	tok := s.sign(signedRef{kind: "e", fileID: f.id, versionID: v.id, blobID: v.blob.ID, expires: s.now().Add(s.cfg.SignedURLTTL)})
	return map[string]any{
		"access_token":  tok,
		"expires_in":    int64(s.cfg.SignedURLTTL / time.Second),
		"token_type":    "bearer",
		"restricted_to": []any{},
		"url":           s.downloadURL + "/embed/" + tok + "?access_token=" + url.QueryEscape(tok),
	}
}

// serveEmbed serves GET {download}/embed/{token}: a minimal preview page.
func (s *Server) serveEmbed(w http.ResponseWriter, r *http.Request, _ *principal) error {
	if aerr := s.checkContentAuth(r); aerr != nil {
		return aerr
	}
	ref, err := s.verify(r.PathValue("token"), "e")
	if err != nil {
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "The embed URL is not valid or has expired")
	}
	s.mu.Lock()
	f, ok := s.items[ref.fileID]
	name := ""
	if ok {
		name = f.name
	}
	s.mu.Unlock()
	if !ok {
		return wire.NotFound("file")
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, err = io.WriteString(w, fmt.Sprintf("<!doctype html><title>%s</title><p>Preview of %s (version %s)</p>\n",
		html.EscapeString(name), html.EscapeString(name), html.EscapeString(ref.versionID)))
	return err
}
