// Package refserver is a strict in-memory reference server for the Content
// API (wire-compatible with the Box Content API v2.0). It serves three roles
// on three listeners: the API root (/2.0), the upload root (/api/2.0) and a
// content host (downloads through short-lived signed URLs, on a different host
// name). It is what the SDK's tests, the examples and users' tests run against.
//
// Ownership rule: every item has an owner. Items created in a user's root
// folder "0" are owned by the creating user; items created inside a folder are
// owned by that folder's owner (created_by is still the caller). The
// enterprise admin and the app token may see and change every item; a managed
// user sees only items they own, and anything else answers 404. Folder "0"
// is each principal's own root and lists only items that principal owns.
package refserver

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/hookaddr"
	"github.com/contentapi/cms/refserver/internal/oauth"
	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/thumb"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Addr, UploadAddr and DownloadAddr are the listener addresses of the API
	// root, the upload root and the content host. "" means 127.0.0.1:0 (a free
	// port). The content host is advertised under a different host name than
	// the API (localhost when the API is on 127.0.0.1).
	Addr, UploadAddr, DownloadAddr string
	// AdminToken, UserToken and AppToken are the bearer tokens of the three
	// principals; "" means a random unguessable token.
	AdminToken, UserToken, AppToken string
	// ChunkedMinSize is the minimum file_size of an upload session
	// (default 20 000 000 bytes, like the real service).
	ChunkedMinSize int64
	// PartSize is the part_size of upload sessions (default 8 MiB).
	PartSize int64
	// ContentNotReady is how long after an upload or commit the download
	// endpoint answers 202 with Retry-After instead of 302 (default 0).
	ContentNotReady time.Duration
	// CommitNotReady is how long after the last part arrives a commit answers
	// 202 with Retry-After (default 0).
	CommitNotReady time.Duration
	// RetryAfter is the Retry-After of those 202 answers (default 1s; sent as
	// integer seconds, rounded up).
	RetryAfter time.Duration
	// SignedURLTTL is the lifetime of content-host URLs (default 15m).
	SignedURLTTL time.Duration
	// IgnoreContentAuthorization makes the content host ignore an
	// Authorization header instead of refusing the request with 400. The
	// real content host (dl.boxcloud.com) ignores it: its URLs carry their
	// own authorization, and the classic box-node-sdk sends the API bearer
	// token with every download (files.getReadStream). The default stays
	// strict so that an SDK leaking its token to another host fails a test;
	// either way Requests() records HasAuthorization.
	IgnoreContentAuthorization bool
	// Store keeps content; nil means NewMemoryStore(), or NewDirStore(DataDir)
	// when DataDir is set.
	Store Store
	// DataDir, when set, persists the server: content is kept in the
	// directory (unless Store is set; blobs of up to 8 KiB go into the
	// database below, written with the records that name them, when the
	// store is the directory's) and the whole state — items and
	// versions, upload sessions and their parts, every resource, users,
	// OAuth apps and issued tokens, the ids and the random tokens — in the
	// embedded database DataDir/state.db (StateFileName), the latest
	// changes in a commit log beside it (state-<n>.log), which background
	// checkpoints and Close write into state.db. A server started
	// on a directory that holds a state resumes it (Restored reports so):
	// a restart loses nothing a client was answered. Every answer waits
	// until the state it reports is committed to disk, and content (a
	// blob, an upload part, their directory entries) is fsynced before the
	// state that refers to it commits (a NewDirStore given as Store is
	// made to fsync too). Tokens given in
	// Options replace the stored ones; the others are kept. A Store given
	// with DataDir must keep its blobs across restarts (an in-memory store
	// is refused). Close closes the database; a second server cannot open
	// the directory while the first has it open. A state written with
	// another record layout is refused with ErrStateSchema. "" (the
	// default) keeps everything in memory.
	DataDir string
	// TokenLifetime is the lifetime of access tokens issued by
	// POST /oauth2/token (default 1h, like the real service).
	TokenLifetime time.Duration
	// LegalHoldReleaseDelay is how long, on the server clock, a new legal
	// hold policy stays "applying" before it is "active", a released one
	// stays "releasing" before it is "released", and a deleted legal hold
	// assignment stays listed before it is gone (default 2s; negative means
	// at once). Statuses move when they are read, so a fake Now needs no
	// sleeps.
	LegalHoldReleaseDelay time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives request logs; nil discards them.
	Logger *slog.Logger
	// CloseGrace is how long Close lets requests in flight finish before it
	// closes their connections (default 2s).
	CloseGrace time.Duration
	// ReadHeaderTimeout bounds the wait for a request's headers (default
	// 30s); IdleTimeout how long an idle keep-alive connection is kept
	// (default 2m). BodyIdleTimeout bounds how long a request body may send
	// nothing (default 1m): each read that brings bytes gives it as long
	// again, so a large part that keeps flowing is never cut, a stalled
	// one is (the handler sees a read error). They apply to the listeners
	// of Start, not to Handler or Transport.
	ReadHeaderTimeout, IdleTimeout, BodyIdleTimeout time.Duration
	// EventHistory is how many events the event log keeps (GET /events):
	// 0 means DefaultEventHistory, negative records none. The oldest are
	// dropped; stream positions keep growing.
	EventHistory int
	// LongPollTimeout is how long a long poll of the event stream waits
	// for a change before it answers "reconnect" (default 60s; OPTIONS
	// /events advertises retry_timeout as this plus 10 seconds).
	LongPollTimeout time.Duration
	// WebhookPrimaryKey and WebhookSecondaryKey sign webhook deliveries
	// (box-signature-primary, box-signature-secondary); "" means a random
	// key, kept with the state in DataDir.
	WebhookPrimaryKey, WebhookSecondaryKey string
	// WebhookTransport carries webhook deliveries; nil means a transport
	// of the server's own (a test may deliver in memory), which uses no
	// proxy and connects only to the addresses the address rule allows,
	// checked on every address a host name resolves to (the rule:
	// docs/webhooks.md; WebhookAllowedHosts).
	WebhookTransport http.RoundTripper
	// WebhookAllowedHosts are hosts a webhook may deliver to besides the
	// public https addresses on port 443 (and http on a loopback host)
	// the rule allows: each a host name, an IP address or a CIDR prefix
	// (10.0.0.0/8), taken with http or https on any port, at creation and
	// when a delivery connects. An invalid entry fails New and Start.
	WebhookAllowedHosts []string
	// WebhookRetryDelay is the wait before the first retry of a failed
	// delivery; each later retry waits twice as long (default 2s).
	WebhookRetryDelay time.Duration
	// WebhookQueueLimit and WebhookQueueBytes bound the webhook delivery
	// queue: how many deliveries (in flight, ready or waiting for a
	// retry) and how many bytes of their payloads it holds (defaults
	// DefaultWebhookQueueLimit and DefaultWebhookQueueBytes). Past a
	// bound the oldest queued delivery not in flight is dropped
	// (WebhookQueueStats counts the drops).
	WebhookQueueLimit int
	WebhookQueueBytes int64
	// SearchIndexDelay is how long, on the server clock (Now), a new or
	// changed item waits before GET /search sees the change, as the
	// service indexes new content asynchronously (a new item is not
	// found, a renamed one is found under its old name); 0 (the default)
	// means at once.
	SearchIndexDelay time.Duration
	// RequestLogSize is how many of the newest requests Requests keeps: 0
	// means DefaultRequestLogSize, negative keeps none. Older records are
	// dropped (RequestsDropped counts them), so the log's memory is bounded.
	RequestLogSize int
	// CORSOrigins are the origins (scheme://host[:port], as a browser
	// sends them in the Origin header) whose web pages may call the server
	// from a browser (CORS, on every listener: cors.go). Empty, the
	// default for a server on this machine, or an entry "*", allows any
	// origin; a malformed entry is an error of New and Start.
	CORSOrigins []string
	// ExternalUsers are the logins of Box users outside the enterprise (no
	// enterprise, as free accounts), made at start unless a user has the
	// login already: the users POST /invites invites. A login of the
	// enterprise's own users is refused. The API cannot create them.
	ExternalUsers []string
	// EnterpriseDomains are the domains registered to the enterprise, which
	// email aliases must use (default: the domain of the admin's login,
	// cms.test).
	EnterpriseDomains []string
	// FileRequests is how many file requests a fresh server (not one
	// resumed from DataDir) gets, each on a new folder "File request <n>" of
	// the managed user's root (FileRequestIDs lists them; AddFileRequest
	// makes more). The service creates them in its web app only.
	FileRequests int
	// SeparateIDSpaces draws folder ids from a counter of their own, apart
	// from the counter of files and web links (and the other resources),
	// both starting at the same value, so that a file and a folder can
	// carry the same id, as on the service, where /files/123 and
	// /folders/123 are different items. A client test sets it to prove it
	// never takes a file's id for a folder's (a CLI resolving a bare id, a
	// cache keyed by id alone). A server resumed from DataDir keeps the
	// id spaces it was made with, whatever the option says.
	SeparateIDSpaces bool
}

// RequestRecord is one request the server received, for wire assertions.
type RequestRecord struct {
	// Method is the HTTP method.
	Method string
	// Role is "api", "upload" or "content".
	Role string
	// Host is the Host header of the request.
	Host string
	// Path is the full request path as received (escaped), e.g. "/2.0/files/12".
	Path string
	// RawQuery is the raw query string; the value of an access_token
	// parameter is replaced by "[redacted]".
	RawQuery string
	// Header is a copy of the request headers; an Authorization header is
	// replaced by "[redacted]", and so is the shared_link_password of a
	// boxapi header (the link itself is kept).
	Header http.Header
	// HasAuthorization reports whether an Authorization header was sent.
	HasAuthorization bool
	// RequestID is the box-request-id the server answered with.
	RequestID string
	// Status is the status the client was answered with: 0 while the
	// request is in flight, and when the connection was reset or dropped
	// without an answer.
	Status int
	// Injected reports that a Fault matched the request.
	Injected bool
	// HandlerStatus is, for a Fault with After, the status the handler
	// answered before the fault replaced its answer (the request took
	// effect when it is a success); 0 otherwise.
	HandlerStatus int
}

// Server is a running (or in-process) reference server: the HTTP side
// (listeners, routes, faults, the request log, webhook deliveries, the OAuth
// endpoints) around its state. Handlers are the methods of Server; the
// model and its rules are the methods of internal/state's State, and its
// persistence is internal/persist's.
type Server struct {
	st   *state.State // the model and its rules (internal/state)
	db   *persist.DB  // the state database (Options.DataDir), nil without one
	opts Options      // as given, with defaults (newServer); the state has its part (stateConfig)

	roleByHost map[string]string
	handlers   map[string]http.Handler // by role
	cors       corsPolicy              // Options.CORSOrigins (cors.go)
	life       lifecycle               // listeners, connections, Close (lifecycle.go)

	oauth *oauth.Service[*state.Principal] // apps and issued tokens: the oauth room (oauth.go)

	restored bool // the state was loaded from Options.DataDir

	indexers backgroundIndexers // started after the first answer of a restored state (indexers.go)

	faultsMu sync.Mutex
	faults   []*fault

	// Webhook deliveries (webhook_delivery.go): their client, the queue
	// (webhook_queue.go), and the goroutines of those being admitted or
	// attempted.
	hookClient *http.Client
	hookDialer *hookaddr.Dialer // the client's dialer, nil with Options.WebhookTransport
	hooks      *hookQueue
	hookWG     sync.WaitGroup

	// Thumbnails and image representations (thumbnails.go), started on
	// first use.
	thumbOnce sync.Once
	thumbSvc  *thumb.Service

	reqMu    sync.Mutex
	requests requestLog // the newest requests (requestlog.go), guarded by reqMu
	reqSeq   atomic.Uint64
}

// New returns a server without listeners, for in-process use through
// Handler(). Its URLs are http://api.cms.test/2.0,
// http://upload.cms.test/api/2.0 and http://dl.cms.test.
func New(opts Options) (*Server, error) {
	s, err := newServer(opts)
	if err != nil {
		return nil, err
	}
	s.setURLs(state.InProcessAPIHost, state.InProcessUploadHost, state.InProcessDownloadHost)
	return s, nil
}

func newServer(opts Options) (*Server, error) {
	cors, err := newCORSPolicy(opts.CORSOrigins)
	if err != nil {
		return nil, err
	}
	if opts.ChunkedMinSize <= 0 {
		opts.ChunkedMinSize = state.DefaultChunkedMinSize
	}
	if opts.PartSize <= 0 {
		opts.PartSize = state.DefaultPartSize
	}
	if opts.EventHistory == 0 {
		opts.EventHistory = DefaultEventHistory
	}
	if opts.RetryAfter <= 0 {
		opts.RetryAfter = time.Second
	}
	if opts.SignedURLTTL <= 0 {
		opts.SignedURLTTL = state.DefaultSignedURLTTL
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{
		{&opts.CloseGrace, defaultCloseGrace},
		{&opts.ReadHeaderTimeout, defaultReadHeaderTimeout},
		{&opts.IdleTimeout, defaultIdleTimeout},
		{&opts.BodyIdleTimeout, defaultBodyIdleTimeout},
		{&opts.LongPollTimeout, defaultLongPollTimeout},
		{&opts.WebhookRetryDelay, defaultWebhookRetry},
	} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if opts.DataDir != "" {
		if _, mem := opts.Store.(*blob.Memory); mem {
			return nil, state.ErrString("refserver: DataDir needs a Store that keeps content on disk, not an in-memory one")
		}
		if opts.Store == nil {
			st, err := NewDirStore(opts.DataDir)
			if err != nil {
				return nil, err
			}
			opts.Store = st
		}
		// Content on disk before the state that refers to it commits.
		if d, ok := opts.Store.(*blob.Dir); ok {
			d.MakeDurable()
		}
	}
	if opts.Store == nil {
		opts.Store = NewMemoryStore()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	hookAddrs, err := hookaddr.NewPolicy(opts.WebhookAllowedHosts)
	if err != nil {
		return nil, fmt.Errorf("refserver: WebhookAllowedHosts: %w", err)
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		opts: opts,
		cors: cors,
		st: state.New(&state.Env{
			Cfg: state.StateConfig{
				AdminToken: opts.AdminToken, UserToken: opts.UserToken, AppToken: opts.AppToken,
				WebhookPrimaryKey: opts.WebhookPrimaryKey, WebhookSecondaryKey: opts.WebhookSecondaryKey,
				RetryAfter: opts.RetryAfter, SignedURLTTL: opts.SignedURLTTL,
				ContentNotReady: opts.ContentNotReady, LegalHoldReleaseDelay: opts.LegalHoldReleaseDelay,
				EnterpriseDomains: lowerAll(opts.EnterpriseDomains),
				EventHistory:      opts.EventHistory, ChunkedMinSize: opts.ChunkedMinSize, PartSize: opts.PartSize,
				SearchIndexDelay: opts.SearchIndexDelay, SeparateIDSpaces: opts.SeparateIDSpaces,
			},
			Now:       opts.Now,
			Log:       opts.Logger,
			Store:     opts.Store,
			SignKey:   state.RandomBytes(32),
			HookAddrs: hookAddrs,
		}),
		requests: newRequestLog(opts.RequestLogSize),
	}
	s.life.init()
	s.st.Update(func(tx *state.Tx) {
		tx.InitItemIndexes()
		err = tx.InitPrincipals()
	})
	if err != nil {
		return nil, err
	}
	s.initOAuth()
	s.st.Update(func(tx *state.Tx) { tx.InitResources() })
	s.initWebhookDelivery()
	s.st.Deliver = s.queueDelivery
	s.handlers = map[string]http.Handler{
		state.RoleAPI:     s.apiMux(),
		state.RoleUpload:  s.uploadMux(),
		state.RoleContent: s.contentMux(),
	}
	if opts.DataDir != "" {
		if err := s.openState(opts.DataDir); err != nil {
			return nil, err
		}
		// The content host changes nothing and streams: it is not held.
		s.handlers[state.RoleAPI] = s.persistHandler(s.handlers[state.RoleAPI])
		s.handlers[state.RoleUpload] = s.persistHandler(s.handlers[state.RoleUpload])
	}
	if err := s.seedFamilies(); err != nil {
		_ = s.closeState()
		return nil, err
	}
	s.st.Update(func(tx *state.Tx) { tx.EventsOn = true })
	if s.restored {
		s.indexers.startLater(s, restoredIndexDelay) // or after the first answer
	} else {
		s.indexers.start(s)
	}
	return s, nil
}

func (s *Server) setURLs(api, upload, dl string) {
	s.st.BaseURL = "http://" + api + state.APIRoot
	s.st.UploadURL = "http://" + upload + state.UploadRoot
	s.st.DownloadURL = "http://" + dl
	s.roleByHost = map[string]string{
		state.InProcessAPIHost:      state.RoleAPI,
		state.InProcessUploadHost:   state.RoleUpload,
		state.InProcessDownloadHost: state.RoleContent,
		api:                         state.RoleAPI,
		upload:                      state.RoleUpload,
		dl:                          state.RoleContent,
	}
}

// Handler returns one handler serving all three roles, chosen by the
// request's Host (the in-process names api.cms.test, upload.cms.test and
// dl.cms.test, or the listener addresses). It is for in-process
// RoundTrippers, e.g. under testing/synctest.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		role, ok := s.roleByHost[r.Host]
		if !ok {
			host := r.Host
			if h, _, err := net.SplitHostPort(host); err == nil {
				host = h
			}
			role, ok = s.roleByHost[host]
		}
		if !ok {
			w.Header().Set(wire.HeaderRequestID, s.newRequestID())
			writeError(w, wire.Errorf(http.StatusNotFound, wire.CodeNotFound, "unknown host %q", r.Host))
			return
		}
		s.roleHandler(role).ServeHTTP(w, r)
	})
}

// roleHandler is the entry point of one role: request id, request log,
// CORS (a browser's preflight is answered there), faults, then the role's
// routes.
func (s *Server) roleHandler(role string) http.Handler {
	mux := s.handlers[role]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.life.inflight.Add(1)
		defer s.life.inflight.Done()
		id := s.newRequestID()
		w.Header().Set(wire.HeaderRequestID, id)
		rec := s.record(role, id, r)
		s.wrapBody(w, r)
		rw := &statusWriter{ResponseWriter: w, s: s, rec: rec}
		defer func() {
			rw.logOutcome()
			s.st.Log.LogAttrs(r.Context(), slog.LevelDebug, "request",
				slog.String("role", role), slog.String("method", r.Method),
				slog.String("path", logPath(r)), slog.Int("status", rw.status),
				slog.String("request_id", id))
		}()
		defer s.indexers.start(s) // after the first answer of a restored state
		if s.cors.serveCORS(rw, r) {
			return
		}
		s.serveWithFaults(rw, r, role, mux)
	})
}

// statusWriter remembers the status and what a fault did, for the request
// log.
type statusWriter struct {
	http.ResponseWriter
	status        int
	injected      bool
	handlerStatus int
	s             *Server
	rec           *RequestRecord
}

// logOutcome writes the outcome into the request log.
func (w *statusWriter) logOutcome() {
	w.s.reqMu.Lock()
	w.rec.Status, w.rec.Injected, w.rec.HandlerStatus = w.status, w.injected, w.handlerStatus
	w.s.reqMu.Unlock()
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer (Hijack, Flush).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logPath is the request path as the logger may see it: the token of a
// content-host URL (/d/{token}, /embed/{token}, and the shared link token
// of /shared/static/{name}) is a secret that grants the download, so it is
// replaced by "[redacted]". The logger never
// sees headers, queries or bodies (tokens, shared link passwords, client
// secrets travel there).
func logPath(r *http.Request) string {
	for _, prefix := range []string{"/d/", "/embed/", "/shared/static/"} {
		if rest, ok := strings.CutPrefix(r.URL.Path, prefix); ok && rest != "" {
			return prefix + "[redacted]"
		}
	}
	return r.URL.Path
}

func (s *Server) newRequestID() string {
	return fmt.Sprintf("%s%06x", state.RandomHex(6), s.reqSeq.Add(1)&0xffffff)
}

func (s *Server) record(role, id string, r *http.Request) *RequestRecord {
	h := r.Header.Clone()
	_, hasAuth := h["Authorization"]
	if hasAuth {
		h["Authorization"] = []string{"[redacted]"}
	}
	for i, v := range h["Boxapi"] {
		h["Boxapi"][i] = redactBoxAPI(v)
	}
	rec := &RequestRecord{
		Method: r.Method, Role: role, Host: r.Host, Path: r.URL.EscapedPath(),
		RawQuery: redactQueryToken(r.URL.RawQuery), Header: h, HasAuthorization: hasAuth, RequestID: id,
	}
	s.reqMu.Lock()
	s.requests.add(rec)
	s.reqMu.Unlock()
	return rec
}

// Requests returns a copy of the log of requests received, oldest first,
// with the status of each answer (0 while a request is in flight): the
// newest Options.RequestLogSize of them (DefaultRequestLogSize unless set).
func (s *Server) Requests() []RequestRecord {
	s.reqMu.Lock()
	defer s.reqMu.Unlock()
	return s.requests.records()
}

// ResetRequests empties the request log.
func (s *Server) ResetRequests() {
	s.reqMu.Lock()
	s.requests.reset()
	s.reqMu.Unlock()
}

// BaseURL is the API root, e.g. http://127.0.0.1:PORT/2.0.
func (s *Server) BaseURL() string { return s.st.BaseURL }

// UploadURL is the upload root, e.g. http://127.0.0.1:PORT/api/2.0.
func (s *Server) UploadURL() string { return s.st.UploadURL }

// DownloadURL is the content host, e.g. http://localhost:PORT.
func (s *Server) DownloadURL() string { return s.st.DownloadURL }

// AdminToken is the bearer token of the enterprise admin.
func (s *Server) AdminToken() string { return s.st.Cfg.AdminToken }

// UserToken is the bearer token of the managed user.
func (s *Server) UserToken() string { return s.st.Cfg.UserToken }

// AppToken is the bearer token of the app principal (a service account that
// may call only upload, download, get and delete file).
func (s *Server) AppToken() string { return s.st.Cfg.AppToken }

// Restored reports whether the server resumed a state stored in
// Options.DataDir (false for a fresh state, and without DataDir).
func (s *Server) Restored() bool { return s.restored }

// EnterpriseID is the id of the enterprise.
func (s *Server) EnterpriseID() string { return s.st.EnterpriseID }

// AdminUserID is the user id of the enterprise admin.
func (s *Server) AdminUserID() string { return s.st.Admin.ID }

// UserID is the user id of the managed user.
func (s *Server) UserID() string { return s.st.User.ID }

// AppUserID is the user id of the app token's service account.
func (s *Server) AppUserID() string { return s.st.App.ID }

// belowRoot is the path below the role's root ("/files/1" for
// "/2.0/files/1"), or "" when the path is not under the root.
func belowRoot(role, path string) (string, bool) {
	root := ""
	switch role {
	case state.RoleAPI:
		root = state.APIRoot
	case state.RoleUpload:
		root = state.UploadRoot
	}
	if root == "" {
		return path, true
	}
	if path == root {
		return "/", true
	}
	rest, ok := strings.CutPrefix(path, root+"/")
	if !ok {
		return "", false
	}
	return "/" + rest, true
}

// drainDefault is how much drain reads of a body the server did not wrap.
const drainDefault = 64 << 10

// requestBody is a request body with the bound of what drain may discard
// from it (roleHandler wraps every body).
type requestBody struct {
	io.ReadCloser
	discard int64 // how much drain reads; 0 = nothing
	// rc, when set, extends the connection's read deadline by bodyIdle
	// after each read that brings bytes (Options.BodyIdleTimeout).
	rc       *http.ResponseController
	life     *lifecycle
	bodyIdle time.Duration
	// stalled is set when a read failed on the idle deadline: the answer
	// is then 400 (route), whatever error the handler made of it.
	stalled bool
}

// bodyStalled reports whether r's body was cut for sending nothing for
// Options.BodyIdleTimeout.
func bodyStalled(r *http.Request) bool {
	rb, ok := r.Body.(*requestBody)
	return ok && rb.stalled
}

// Read reads the body; bytes read give the body bodyIdle more, and its end
// lifts the deadline (the handler may work on after it, and the server's
// own read of the connection must not time out meanwhile).
func (b *requestBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		b.stalled = true
	}
	if b.rc != nil {
		switch {
		case err == io.EOF: //nolint:errorlint // the body's end, as io.Reader documents it
			b.life.setBodyDeadline(b.rc, 0)
			b.rc = nil
		case n > 0:
			b.life.setBodyDeadline(b.rc, b.bodyIdle)
		}
	}
	return n, err
}

// drain reads and discards an unread body before an early answer (an error
// before the handler read the body), up to a bound: the part size, so that a
// client that writes the whole body before it reads the answer (Python's
// http.client, for one) gets the status and error code instead of a broken
// pipe. It reads nothing when the client waits for "100 Continue": the
// answer then goes out before any body is sent.
func drain(r io.Reader) {
	n := int64(drainDefault)
	if rb, ok := r.(*requestBody); ok {
		n = rb.discard
	}
	if n > 0 {
		_, _ = io.CopyN(io.Discard, r, n)
	}
}

// wrapBody sets the discard bound of r's body: the larger of the part size
// and 1 MiB, plus room for multipart framing; and, on a real connection,
// its idle deadline (Options.BodyIdleTimeout).
func (s *Server) wrapBody(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	rb := &requestBody{ReadCloser: r.Body, discard: max(s.opts.PartSize, 1<<20) + drainDefault}
	if strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		rb.discard = 0
	}
	rc := http.NewResponseController(w)
	// In-process (Handler, Transport) there is no connection: the body has
	// no deadline.
	if s.life.setBodyDeadline(rc, s.opts.BodyIdleTimeout) {
		rb.rc, rb.life, rb.bodyIdle = rc, &s.life, s.opts.BodyIdleTimeout
	}
	r.Body = rb
}
