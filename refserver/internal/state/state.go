// Package state is the reference server's model and its rules: items
// (files, folders, web links), versions, upload sessions, shared links,
// collaborations and the access model, comments, tasks, watermarks,
// metadata templates and instances, retention and legal holds, users,
// groups, device pins, webhooks, the event log, and the indexes that keep
// lists and searches fast. It imports no net/http: requests are parsed and
// answered by the server (package refserver), which runs each change as one
// transaction of the state under its lock. See State, and docs/refserver.md
// ("The house").
package state

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/hookaddr"
)

// The roles of the server's hosts: the API, the upload host and the
// content host (signed download URLs).
const (
	RoleAPI     = "api"
	RoleUpload  = "upload"
	RoleContent = "content"
)

// The path roots of the API and upload hosts.
const (
	APIRoot    = "/2.0"
	UploadRoot = "/api/2.0"
)

// The hosts of a server without listeners (refserver.New), whose URLs
// only its in-process handler answers.
const (
	InProcessAPIHost      = "api.cms.test"
	InProcessUploadHost   = "upload.cms.test"
	InProcessDownloadHost = "dl.cms.test"
)

// Defaults of the options the state uses: the smallest file a chunked
// upload session takes, the part size of a session, and how long a signed
// download URL lives.
const (
	DefaultChunkedMinSize = 20_000_000
	DefaultPartSize       = 8 << 20
	DefaultSignedURLTTL   = 15 * time.Minute
)

// sessionLifetime is how long an upload session lives.
const sessionLifetime = 7 * 24 * time.Hour

// Env is the part of the state that needs no lock: the configuration, the
// clock, the log, the blob store, the URLs of the hosts, the enterprise and
// its fixed principals, the marks' holder (Persister, with a lock of its
// own) and the key that signs content-host URLs. It is set up before the
// server serves (refserver's newServer, internal/persist's Open) and only
// read after. A transaction reaches it too (Tx and ReadTx embed it).
type Env struct {
	Cfg   StateConfig
	Now   func() time.Time
	Log   *slog.Logger
	Store blob.Store

	BaseURL, UploadURL, DownloadURL string

	EnterpriseID string
	Admin, User  *User
	App          *User

	Persist *Persister // nil unless Options.DataDir (persist.go)
	SignKey []byte     // signs content-host URLs (download.go)

	// HookAddrs is the rule of webhook addresses, with the hosts the
	// operator allows (Options.WebhookAllowedHosts; internal/hookaddr).
	HookAddrs *hookaddr.Policy

	// Deliver starts the delivery of a webhook payload (refserver's
	// Server.queueDelivery): the release of a transaction's outbox calls
	// it, once the transaction's commit is durable, outside any lock.
	Deliver func(Delivery)
}

// State is the server's model: items and folders, versions and upload
// sessions, every resource, users, groups and pins, the indexes (folders,
// search, metadata), the event log, and the rules that keep them
// consistent. The model is reachable only through a transaction, handed
// out under the state's lock: Update hands a *Tx (reads and changes), View
// a *ReadTx (reads). The model's methods are methods of Tx or ReadTx, and
// the rooms on the state (internal/metadata, internal/governance,
// internal/persist) take one, so code that forgets the lock does not
// compile. They take no HTTP request and write no answer: a handler (a
// method of refserver.Server) parses the request, runs one transaction
// (Update, View, or Server.change), and answers once the lock is released.
// Every mutator marks the records it changes (Dirty): a persisted server
// commits the marks before it answers.
//
// Lock order, where more than one is held: a flush's lock
// (internal/persist's DB.flushMu, from taking the marks to its commit),
// then the oauth room's lock (internal/oauth's Service.mu, refserver's
// Server.oauth), then the state's lock (mu, below), then the Persister's
// lock (Persister.mu), then a store's own locks (internal/blob's, and
// internal/persist's SmallBlobs.mu). A session's commit lock
// (Session.commitMu, LockCommit) is taken before the state's, which a
// commit's hashing and a session's hash worker take in short turns, and never with a flush's or the
// oauth room's. The commit log's lock (internal/persist's commitLog.mu)
// is taken after a flush's and holds no other. These are taken last and
// hold no other lock: the check mode's errors (internal/persist's
// DB.checkMu), and refserver's webhook queue (hookQueue.mu, never under
// the state's lock: a delivery is queued from its own goroutine),
// connection set (lifecycle.mu), faults (Server.faultsMu) and request log
// (Server.reqMu). The search index's locks (search_indexer.go): its
// drain lock (searchIndexer.drainMu) and the index's lock (searchIndex.mu)
// come before the state's lock, in that order; the index's vocabMu and
// queue lock (searchQueue.mu) and the indexer's (searchIndexer.mu) after
// it, in that order, and they hold no other.
type State struct {
	*Env
	mu sync.Mutex // guards m: held for the whole of Update and View
	m  model

	// The upload sessions' hash workers (uploadhash.go): a transaction
	// starts them unless closing is set, which StopHashing sets with the
	// state's lock taken before it waits, so it waits for every one.
	hashers sync.WaitGroup
	closing atomic.Bool

	indexer searchIndexer // keeps the search index up to date, off mu (search_indexer.go)

	mdIndexer mdIndexer // builds the metadata query indexes in short turns (metadata_index_build.go)

	contentLeft atomic.Bool // content could not be deleted (ContentLeft)
}

// model is the state the lock guards. Only a transaction reaches it.
type model struct {
	*Env
	Principals map[string]*Principal // by token

	Items    ItemTable     // by type and id (items_table.go)
	Folders  folderIndexes // listable items by folder (folderindex.go)
	Search   *searchIndex  // words of items, for GET /search (search_index.go)
	Events   eventLog      // the event history (events.go)
	Webhooks webhookState  // webhooks (webhooks.go)
	collabs  collabState   // collaborations (collaborations.go)
	comments commentState  // comments (comments.go)
	EventsOn bool          // events are recorded (not while the state is restored)
	// kickIndexer wakes the search indexer (State.kickIndexer).
	kickIndexer func()
	// mdx is the metadata index builder (State.mdIndexer).
	mdx *mdIndexer
	// running is the transaction under way (State.run): the
	// hooks the model keeps (the folder indexes' changed) act through it,
	// so what they record leaves through its outbox.
	running  *Tx
	Sessions Table[*Session]
	Ended    Table[EndedSession] // committed and aborted sessions, for UploadSession
	Parts    Table[*UploadPart]  // the parts of the live sessions, by PartKey (each session's Parts index them by offset)
	NextID   int64
	// NextFolderID is the counter of folder ids with SeparateIDSpaces
	// (NewFolderID); it starts where NextID does.
	NextFolderID int64

	// State of the other resources (one type per resource file).
	Tasks      taskState
	Watermarks watermarkState
	Metadata   MetadataState
	Retention  retentionState
	Holds      legalHoldState
	Users      UserState
	Groups     groupState
	Pins       devicePinState

	EmailAliases emailAliasState
	Invites      inviteState
	FileRequests fileRequestState
	Cascades     cascadeState
	Avatars      avatarState
	// Issue #34's families (one file each).
	FolderLocks folderLockState  // folder_locks.go
	Favorites   favoriteState    // collections.go
	Recent      recentItemState  // recent_items.go
	Zips        zipDownloadState // zip_downloads.go

	pageHidden map[string]bool // HideFromPages (listpage.go)
}

// EmptyItems empties the items (before a restore).
func (s *Tx) EmptyItems() { s.Items = newItemTable(s.Env) }

// EmptySessions empties the upload sessions, open and ended (before a
// restore).
func (s *Tx) EmptySessions() {
	s.Sessions = newTable[*Session](s.Env, KSessions)
	s.Ended = newTable[EndedSession](s.Env, KEnded)
	s.Parts = newTable[*UploadPart](s.Env, KParts)
}

// ReadTx is a transaction that reads the state (View): the proof that the
// state's lock is held. Its methods read the model; they may fill caches,
// which is safe because View holds the same lock as Update. (The search
// index is reached from a transaction but guarded by locks of its own:
// its indexer works outside the state's lock, search_indexer.go.)
type ReadTx struct{ *model }

// Tx is a transaction that changes the state (Update): a ReadTx whose
// methods also change the model and mark what they change, and leave in
// its outbox the work that must follow its commit. A write method cannot
// be called from a ReadTx.
type Tx struct {
	ReadTx
	out outbox
	// hash are the upload sessions whose hash worker starts as the
	// transaction ends (PartLanded, State.startHashers).
	hash []*Session
}

// firstID is where the id counters start: the first id drawn is one more.
const firstID = 100000000000

// New returns a state on env with no records yet: the server fills it in
// an Update (InitItemIndexes, InitPrincipals, InitResources).
func New(env *Env) *State {
	s := &State{Env: env}
	s.m = model{
		Env:    env,
		Items:  newItemTable(env),
		NextID: firstID,
		// With SeparateIDSpaces the first file and the first folder
		// share an id.
		NextFolderID: firstID,
	}
	(&Tx{ReadTx: ReadTx{&s.m}}).EmptySessions()
	s.m.kickIndexer = s.kickIndexer
	s.mdIndexer.st = s
	s.m.mdx = &s.mdIndexer
	s.indexer.ctx, s.indexer.cancel = context.WithCancel(context.Background())
	return s
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
	// EnterpriseDomains are the domains email aliases may use ("": the
	// domain of the admin's login).
	EnterpriseDomains        []string
	ChunkedMinSize, PartSize int64
	SearchIndexDelay         time.Duration // search_index.go
	// SeparateIDSpaces draws folder ids from a counter of their own
	// (NextFolderID), so that a file and a folder may share an id; the
	// items table keys folders apart then (items_table.go). A restored
	// state keeps the setting it was made with.
	SeparateIDSpaces bool
}

// Update runs fn as one change of the state, under the state's lock: a
// request's (Server.change) or a hook's outside requests (Seed,
// AddDevicePin, HideFromUsers, HideFromPages). The methods of tx mark
// what they change; a persisted server commits the marks of every change
// before it answers (refserver's persistHandler) or before the hook
// returns. tx is valid only during fn.
//
// Work the transaction leaves in its outbox (webhook deliveries, the
// wake-up of the long polls of /events) is released once its commit is
// durable: at once without persistence, else when the marks it made are
// committed (Persister.WhenCommitted); a failed commit releases nothing
// (its marks wait for the next commit, and the outbox with them).
func (s *State) Update(fn func(tx *Tx)) {
	tx := &Tx{ReadTx: ReadTx{&s.m}}
	mark := s.run(tx, fn)
	s.release(&tx.out, mark)
}

// run runs fn on tx under the lock, and returns the number of the last
// mark made so far (what the outbox waits for).
func (s *State) run(tx *Tx, fn func(tx *Tx)) (mark uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m.running = tx
	defer func() { s.m.running = nil }()
	fn(tx)
	s.startHashers(tx)
	if s.Persist != nil {
		tx.out.queueBlobs(s.Persist)
		if !tx.out.empty() {
			mark = s.Persist.Marked()
		}
	}
	return mark
}

// View runs fn, which only reads the state, under the state's lock (the
// same lock as Update: some reads may fill caches). tx is valid only
// during fn.
func (s *State) View(fn func(tx *ReadTx)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn(&ReadTx{&s.m})
}

// RandomBytes returns n bytes from crypto/rand.
func RandomBytes(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return b
}

// RandomHex returns n random bytes in hex (2n characters): tokens, keys.
func RandomHex(n int) string { return hex.EncodeToString(RandomBytes(n)) }
