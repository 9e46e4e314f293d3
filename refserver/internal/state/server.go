package state

import (
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
)

const (
	RoleAPI     = "api"
	RoleUpload  = "upload"
	RoleContent = "content"

	APIRoot    = "/2.0"
	UploadRoot = "/api/2.0"

	InProcessAPIHost      = "api.cms.test"
	InProcessUploadHost   = "upload.cms.test"
	InProcessDownloadHost = "dl.cms.test"

	DefaultChunkedMinSize = 20_000_000
	DefaultPartSize       = 8 << 20
	DefaultSignedURLTTL   = 15 * time.Minute
	sessionLifetime       = 7 * 24 * time.Hour
)

// State is the server's model: items and folders, versions and upload
// sessions, every resource, users, groups and pins, the indexes (folders,
// search, metadata), the event log, and the rules that keep them
// consistent. Its methods take no HTTP request and write no answer: a
// handler (a method of Server) parses the request, calls them under mu,
// and answers. It will move to a package of its own (internal/state,
// docs/refserver.md).
//
// Lock order, where more than one is held: the oauth room's lock
// (Server.oauth), then mu, then the persister's locks (persist.go: flushMu,
// then its mu), then a store's own locks (internal/blob). The faults
// (faultsMu) and the request log (reqMu) are never held with another lock.
type State struct {
	Cfg   StateConfig
	Now   func() time.Time
	Log   *slog.Logger
	Store blob.Store

	BaseURL, UploadURL, DownloadURL string

	EnterpriseID string
	Admin, User  *User
	App          *User
	Principals   map[string]*Principal // by token

	Persist *Persister // nil unless Options.DataDir (persist.go)
	SignKey []byte     // signs content-host URLs (download.go)

	// queueHook queues the delivery of a webhook an event fired: the HTTP
	// side (Server.queueDelivery, webhook_delivery.go). Called under mu.
	QueueHook func(hook *Webhook, trigger string, by *User, source any)

	Mu       sync.Mutex // guards the state below
	Items    map[string]*Item
	Folders  folderIndexes // listable items by folder (folderindex.go)
	Search   *searchIndex  // words of items, for GET /search (search_index.go)
	Events   eventLog      // the event history (events.go)
	Webhooks webhookState  // webhooks (webhooks.go)
	collabs  collabState   // collaborations (collaborations.go)
	comments commentState  // comments (comments.go)
	EventsOn bool          // events are recorded (not while the state is restored)
	Sessions map[string]*Session
	Ended    map[string]EndedSession // committed and aborted sessions, for UploadSession
	NextID   int64

	// State of the other resources, guarded by mu (one type per resource file).
	Tasks      taskState
	Watermarks watermarkState
	Metadata   MetadataState
	Retention  retentionState
	Holds      legalHoldState
	Users      UserState
	Groups     groupState
	Pins       devicePinState

	pageHidden map[string]bool // HideFromPages (listpage.go), guarded by mu
}

// StateConfig is the part of Options the state uses (newServer fills it).
// The tokens and webhook keys Options leaves empty are made random here,
// and persisted with the state.
type StateConfig struct {
	AdminToken, UserToken, AppToken        string
	WebhookPrimaryKey, WebhookSecondaryKey string
	RetryAfter, SignedURLTTL               time.Duration
	ContentNotReady, LegalHoldReleaseDelay time.Duration
	EventHistory                           int
	ChunkedMinSize, PartSize               int64
}

// Update runs fn as one change of the state, under mu: a request's
// (Server.change) or a hook's outside requests (Seed, AddDevicePin,
// HideFromUsers, HideFromPages). The state's methods fn calls mark what
// they change; a persisted server commits the marks of every change
// before it answers (persistHandler) or before the hook returns.
func (s *State) Update(fn func()) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	fn()
}

// View runs fn, which only reads the state, under Mu.
func (s *State) View(fn func()) {
	s.Mu.Lock()
	defer s.Mu.Unlock()
	fn()
}

func RandomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

func RandomHex(n int) string { return hex.EncodeToString(RandomBytes(n)) }
