package refserver

import (
	"errors"
	"net/http"
	"sort"
	"strings"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/thumb"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// handlerFunc serves one endpoint for an authenticated principal (nil on the
// content host). A returned *wire.Error is written as the error body.
type handlerFunc func(w http.ResponseWriter, r *http.Request, p *state.Principal) error

// endpoint is one method of a route and who may call it. route applies
// the access rules, in this order, before the handler runs:
//   - a token, unless noAuth (401 unauthorized);
//   - the app token only where app is set, a downscoped token only as far
//     as its scopes go (oauth_downscope.go), and none at all where
//     fullToken is set: downscoped tokens carry item scopes, never those
//     of enterprise administration (403 insufficient_scope);
//   - the enterprise admin only, or a service account acting with its
//     permissions, where admin is set (403
//     access_denied_insufficient_permissions).
//
// Rules that depend on the record (a group's members reading their group,
// a user reading themselves) stay in the handlers.
type endpoint struct {
	h         handlerFunc
	app       bool // the app token may call it
	noAuth    bool // content host: no token
	fullToken bool // downscoped tokens may not call it
	admin     bool // only the enterprise admin may call it
}

// refuse returns the answer to a principal the endpoint's access rules
// leave out, or nil.
func (ep endpoint) refuse(w http.ResponseWriter, r *http.Request, p *state.Principal) *wire.Error {
	switch {
	case p.Kind == "app" && !ep.app,
		p.Restrict != nil && (ep.fullToken || !allows(p.Restrict, r)):
		return errAppScope(w)
	case ep.admin && !p.IsAdmin():
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "Access denied - insufficient permission: only an enterprise admin may %s %s", r.Method, r.URL.Path)
	}
	return nil
}

// route dispatches by method and answers 405 with an error body otherwise.
func (s *Server) route(methods map[string]endpoint) http.Handler {
	allow := make([]string, 0, len(methods))
	for m := range methods {
		allow = append(allow, m)
	}
	sort.Strings(allow)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ep, ok := methods[r.Method]
		if !ok {
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, wire.Errorf(http.StatusMethodNotAllowed, wire.CodeMethodNotAllowed, "Method Not Allowed: %s", r.Method))
			return
		}
		var p *state.Principal
		if !ep.noAuth {
			var aerr *wire.Error
			p, aerr = s.authenticate(w, r)
			if aerr != nil {
				drain(r.Body)
				writeError(w, aerr)
				return
			}
			if aerr = ep.refuse(w, r, p); aerr != nil {
				drain(r.Body)
				writeError(w, aerr)
				return
			}
		}
		if err := ep.h(w, r, p); err != nil {
			var ae *wire.Error
			if bodyStalled(r) {
				// The body sent nothing for BodyIdleTimeout: its read failed
				// (and cancelled the request), but the client is there.
				ae = wire.BadRequest("Request body stalled: nothing received for %s", s.opts.BodyIdleTimeout)
			} else if !errors.As(err, &ae) {
				if r.Context().Err() != nil {
					return // client went away
				}
				s.st.Log.Error("handler failed", "path", logPath(r), "err", err)
				ae = wire.Errorf(http.StatusInternalServerError, wire.CodeInternalServerError, "Internal Server Error")
			}
			drain(r.Body)
			writeError(w, ae)
		}
	})
}

// change runs fn as one change of the state (State.Update) and writes the
// reply it makes once the lock is released, so that a slow client never
// holds the state while its answer is written. fn's error (a 404, a
// conflict) is the answer instead. fn calls the methods of tx, which mark
// what they change for the persistence: a handler neither locks the state
// nor marks records.
func (s *Server) change(w http.ResponseWriter, fn func(tx *state.Tx) (state.Reply, *wire.Error)) error {
	return s.changeErr(w, func(tx *state.Tx) (state.Reply, error) {
		rep, aerr := fn(tx)
		if aerr != nil {
			return state.Reply{}, aerr // never a typed nil in the error
		}
		return rep, nil
	})
}

// changeErr is change for transactions whose failures are other errors
// too (the metadata instances' *mdError, answered by mdRoute).
func (s *Server) changeErr(w http.ResponseWriter, fn func(tx *state.Tx) (state.Reply, error)) error {
	var rep state.Reply
	var err error
	s.st.Update(func(tx *state.Tx) { rep, err = fn(tx) })
	if err != nil {
		return err
	}
	writeReply(w, rep)
	return nil
}

// writeReply writes rep: its status, and its body as JSON (a list page
// through wire.WritePage).
func writeReply(w http.ResponseWriter, rep state.Reply) {
	switch body := rep.Body.(type) {
	case nil:
		w.WriteHeader(rep.Status)
	case map[string]any:
		if _, page := body["entries"]; page {
			writePage(w, rep.Status, body)
			break
		}
		writeJSON(w, rep.Status, body)
	default:
		writeJSON(w, rep.Status, body)
	}
}

// getRecord answers a GET of one record (change): find looks up the record
// named by the path value key (its error, a 404 mostly, is the answer) and
// render makes the 200 body.
func getRecord[T, B any](s *Server, w http.ResponseWriter, r *http.Request, key string, find func(tx *state.Tx, id string) (T, *wire.Error), render func(*state.Tx, T) B) error {
	id := r.PathValue(key)
	return replyRecord(s, w, func(tx *state.Tx) (T, *wire.Error) { return find(tx, id) }, render)
}

// replyRecord answers a GET of one record (change): find looks the record
// up (its error, a 404 mostly, is the answer) and render makes the body.
func replyRecord[T, B any](s *Server, w http.ResponseWriter, find func(tx *state.Tx) (T, *wire.Error), render func(*state.Tx, T) B) error {
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		v, aerr := find(tx)
		if aerr != nil {
			return state.Reply{}, aerr
		}
		return state.Reply{Status: http.StatusOK, Body: render(tx, v)}, nil
	})
}

// deleteRecord answers a DELETE of one record (change): find looks up the
// record named by the path value key and remove (a method of the
// transaction) acts on it; either's error is the answer; then status with
// no body.
func deleteRecord[T any](s *Server, w http.ResponseWriter, r *http.Request, key string, status int, find func(tx *state.Tx, id string) (T, *wire.Error), remove func(*state.Tx, T) *wire.Error) error {
	id := r.PathValue(key)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		v, aerr := find(tx, id)
		if aerr == nil {
			aerr = remove(tx, v)
		}
		return state.Reply{Status: status}, aerr
	})
}

// pathID reads a numeric path id; a malformed one is 404.
func pathID(r *http.Request, key, what string) (string, *wire.Error) {
	id := r.PathValue(key)
	if !state.ValidID(id) {
		return "", wire.NotFound(what)
	}
	return id, nil
}

func notFoundHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeError(w, wire.Errorf(http.StatusNotFound, wire.CodeNotFound, "Not Found: no route for %s %s", r.Method, r.URL.Path))
	})
}

func (s *Server) apiMux() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", notFoundHandler())
	s.registerAPI(mux)
	return mux
}

func (s *Server) uploadMux() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", notFoundHandler())
	mux.Handle(state.UploadRoot+"/files/content", s.route(map[string]endpoint{
		http.MethodPost: {h: s.uploadFile, app: true},
	}))
	mux.Handle(state.UploadRoot+"/files/upload_sessions", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createUploadSession},
	}))
	// "/files/{file_id}/content" and "/files/{file_id}/upload_sessions" would
	// conflict with "/files/upload_sessions/{id}" as ServeMux patterns, so the
	// second segment is dispatched here.
	newVersion := s.route(map[string]endpoint{http.MethodPost: {h: s.uploadNewVersion}})
	versionSession := s.route(map[string]endpoint{http.MethodPost: {h: s.createVersionUploadSession}})
	mux.HandleFunc(state.UploadRoot+"/files/{file_id}/{op}", func(w http.ResponseWriter, r *http.Request) {
		switch r.PathValue("op") {
		case "content":
			newVersion.ServeHTTP(w, r)
		case "upload_sessions":
			versionSession.ServeHTTP(w, r)
		default:
			notFoundHandler().ServeHTTP(w, r)
		}
	})
	mux.Handle(state.UploadRoot+"/files/upload_sessions/{session_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getUploadSession},
		http.MethodPut:    {h: s.uploadPart},
		http.MethodDelete: {h: s.abortUploadSession},
	}))
	mux.Handle(state.UploadRoot+"/files/upload_sessions/{session_id}/parts", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listParts},
	}))
	mux.Handle(state.UploadRoot+"/files/upload_sessions/{session_id}/commit", s.route(map[string]endpoint{
		http.MethodPost: {h: s.commitUploadSession},
	}))
	return mux
}

func (s *Server) contentMux() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", notFoundHandler())
	mux.Handle("/d/{token}", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.serveContent, noAuth: true},
		http.MethodHead: {h: s.serveContent, noAuth: true},
	}))
	mux.Handle("/shared/static/{name}", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.serveSharedStatic, noAuth: true},
		http.MethodHead: {h: s.serveSharedStatic, noAuth: true},
	}))
	mux.Handle("/embed/{token}", s.route(map[string]endpoint{
		http.MethodGet: {h: s.serveEmbed, noAuth: true},
	}))
	for _, f := range []thumb.Format{thumb.PNG, thumb.JPG} { // thumbnails.go
		mux.Handle("/placeholders/thumbnail."+string(f), s.route(map[string]endpoint{
			http.MethodGet: {h: s.servePlaceholder(f), noAuth: true},
		}))
	}
	mux.Handle("/zip_downloads/{token}/content", s.route(map[string]endpoint{
		http.MethodGet: {h: s.serveZipContent, noAuth: true}, // zip_downloads.go
	}))
	return mux
}
