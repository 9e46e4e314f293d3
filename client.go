package cms

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/contentapi/cms/internal/transport"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// Default roots of the public service.
const (
	DefaultBaseURL   = "https://api.box.com/2.0"
	DefaultUploadURL = "https://upload.box.com/api/2.0"
)

const defaultUserAgent = "cms-go/" + Version

// Client talks to the Content API. It is safe for concurrent use. Each field
// is the service for one resource.
type Client struct {
	cfg      config
	doer     *transport.Doer
	download *http.Client
	// header is what every API request starts with (cfg.headers,
	// User-Agent, Accept, As-User), built once: a call clones it.
	header http.Header

	Files                      *FilesService
	Uploads                    *UploadsService
	Folders                    *FoldersService
	WebLinks                   *WebLinksService
	Tasks                      *TasksService
	TaskAssignments            *TaskAssignmentsService
	Watermarks                 *WatermarksService
	Trash                      *TrashService
	MetadataTemplates          *MetadataTemplatesService
	Metadata                   *MetadataService
	RetentionPolicies          *RetentionPoliciesService
	RetentionPolicyAssignments *RetentionPolicyAssignmentsService
	FileVersionRetentions      *FileVersionRetentionsService
	LegalHoldPolicies          *LegalHoldPoliciesService
	LegalHoldPolicyAssignments *LegalHoldPolicyAssignmentsService
	FileVersionLegalHolds      *FileVersionLegalHoldsService
	Users                      *UsersService
	Groups                     *GroupsService
	GroupMemberships           *GroupMembershipsService
	DevicePins                 *DevicePinsService
	Search                     *SearchService
	Collaborations             *CollaborationsService
	FileVersions               *FileVersionsService
	Comments                   *CommentsService
	SharedItems                *SharedItemsService
	// Webhooks manages V2 webhooks (/webhooks).
	Webhooks *WebhooksService
	// Events reads the event stream (/events).
	Events *EventsService
	// Transfers moves whole trees between a local directory and a folder.
	Transfers *TransfersService
	// ZipDownloads downloads files and folders as one zip archive
	// (/zip_downloads).
	ZipDownloads *ZipDownloadsService
	// FolderLocks locks folders against moves and deletes (/folder_locks).
	FolderLocks *FolderLocksService
	// Collections reads the user's collections, such as Favorites, and
	// puts items in them (/collections).
	Collections *CollectionsService
	// RecentItems lists the items the user used lately (/recent_items).
	RecentItems *RecentItemsService
	// Classifications manages the enterprise's security classifications
	// and those of files and folders.
	Classifications *ClassificationsService
	// MetadataCascadePolicies cascades a folder's metadata to the items
	// below it (/metadata_cascade_policies).
	MetadataCascadePolicies *MetadataCascadePoliciesService
	// FileRequests reads, changes, copies and deletes file requests
	// (/file_requests).
	FileRequests *FileRequestsService
	// Avatars reads, sets and removes users' avatars
	// (/users/{user_id}/avatar).
	Avatars *AvatarsService
	// EmailAliases manages users' other e-mail addresses
	// (/users/{user_id}/email_aliases).
	EmailAliases *EmailAliasesService
	// Invites invites users to join the enterprise (/invites).
	Invites *InvitesService
}

type service struct{ client *Client }

// NewClient returns a client configured by opts. Without WithToken or
// WithTokenSource it fails: every call of the API needs a token.
func NewClient(opts ...Option) (*Client, error) {
	base, _ := url.Parse(DefaultBaseURL)
	upload, _ := url.Parse(DefaultUploadURL)
	cfg := config{baseURL: base, uploadURL: upload, retry: DefaultRetryPolicy(), userAgent: defaultUserAgent}
	return newClient(cfg, opts)
}

func newClient(cfg config, opts []Option) (*Client, error) {
	cfg.headers = cfg.headers.Clone()
	cfg.baseSet, cfg.uploadSet = false, false
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&cfg); err != nil {
			if strings.HasPrefix(err.Error(), "cms: ") { // an *ArgError, say
				return nil, err
			}
			return nil, fmt.Errorf("cms: %w", err)
		}
	}
	if err := cfg.checkRoots(); err != nil {
		return nil, fmt.Errorf("cms: %w", err)
	}
	if cfg.tokenSource == nil {
		return nil, errors.New("cms: no credentials: use WithToken or WithTokenSource")
	}
	c := &Client{cfg: cfg}
	c.header = c.cfg.requestHeader()
	c.doer = &transport.Doer{HTTPClient: apiHTTPClient(cfg), Policy: transport.Policy(cfg.retry), Logger: cfg.logger, Sleep: cfg.sleep}
	c.download = cfg.downloadClient
	if c.download == nil {
		c.download = &http.Client{Transport: baseTransport(cfg.httpClient)}
	}
	c.initServices()
	return c, nil
}

// initServices wires the services to c.
func (c *Client) initServices() {
	s := &service{client: c}
	c.Files = (*FilesService)(s)
	c.Uploads = (*UploadsService)(s)
	c.Folders = (*FoldersService)(s)
	c.WebLinks = (*WebLinksService)(s)
	c.Tasks = (*TasksService)(s)
	c.TaskAssignments = (*TaskAssignmentsService)(s)
	c.Watermarks = (*WatermarksService)(s)
	c.Trash = (*TrashService)(s)
	c.MetadataTemplates = (*MetadataTemplatesService)(s)
	c.Metadata = (*MetadataService)(s)
	c.RetentionPolicies = (*RetentionPoliciesService)(s)
	c.RetentionPolicyAssignments = (*RetentionPolicyAssignmentsService)(s)
	c.FileVersionRetentions = (*FileVersionRetentionsService)(s)
	c.LegalHoldPolicies = (*LegalHoldPoliciesService)(s)
	c.LegalHoldPolicyAssignments = (*LegalHoldPolicyAssignmentsService)(s)
	c.FileVersionLegalHolds = (*FileVersionLegalHoldsService)(s)
	c.Users = (*UsersService)(s)
	c.Groups = (*GroupsService)(s)
	c.GroupMemberships = (*GroupMembershipsService)(s)
	c.DevicePins = (*DevicePinsService)(s)
	c.Search = (*SearchService)(s)
	c.Collaborations = (*CollaborationsService)(s)
	c.FileVersions = (*FileVersionsService)(s)
	c.Comments = (*CommentsService)(s)
	c.SharedItems = (*SharedItemsService)(s)
	c.Webhooks = (*WebhooksService)(s)
	c.Events = (*EventsService)(s)
	c.Transfers = (*TransfersService)(s)
	c.ZipDownloads = (*ZipDownloadsService)(s)
	c.FolderLocks = (*FolderLocksService)(s)
	c.Collections = (*CollectionsService)(s)
	c.RecentItems = (*RecentItemsService)(s)
	c.Classifications = (*ClassificationsService)(s)
	c.MetadataCascadePolicies = (*MetadataCascadePoliciesService)(s)
	c.FileRequests = (*FileRequestsService)(s)
	c.Avatars = (*AvatarsService)(s)
	c.EmailAliases = (*EmailAliasesService)(s)
	c.Invites = (*InvitesService)(s)
}

// baseTransport is the transport under authentication and retries: the
// caller's (WithHTTPClient) when it has one, else the SDK's tuned default
// (transport_default.go).
func baseTransport(hc *http.Client) http.RoundTripper {
	if hc != nil && hc.Transport != nil {
		return hc.Transport
	}
	return sharedTransport()
}

// apiHTTPClient is the authenticated client for API calls: it never follows
// redirects, so a token can never travel to another host.
func apiHTTPClient(cfg config) *http.Client {
	hc := &http.Client{}
	if cfg.httpClient != nil {
		*hc = *cfg.httpClient
	}
	base := baseTransport(cfg.httpClient)
	if cfg.limiter != nil {
		base = &pacedTransport{pacer: cfg.limiter, uploadURL: cfg.uploadURL.String() + "/", base: base}
	}
	hc.Transport = newAuthTransport(cfg.tokenSource, base, cfg.logger)
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return hc
}

// requestHeader is the header every API request of cfg starts with.
func (cfg *config) requestHeader() http.Header {
	h := cfg.headers.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Set("User-Agent", cfg.userAgent)
	h.Set("Accept", "application/json")
	if cfg.asUser != "" {
		h.Set("As-User", cfg.asUser)
	}
	return h
}

// Clone returns a client with the same configuration changed by opts. It
// shares nothing mutable with c.
func (c *Client) Clone(opts ...Option) (*Client, error) {
	return newClient(c.cfg, opts)
}

// AsUser returns a client that sends every request with the header
// "As-User: userID", so an admin or service-account token acts as that
// user. It shares c's transport, token source and settings: nothing is
// rebuilt, and c itself is unchanged.
func (c *Client) AsUser(userID string) (*Client, error) {
	if err := checkID("user", userID); err != nil {
		return nil, err
	}
	d := &Client{cfg: c.cfg, doer: c.doer, download: c.download}
	d.cfg.headers = c.cfg.headers.Clone()
	d.cfg.asUser = userID
	d.header = d.cfg.requestHeader()
	d.initServices()
	return d, nil
}

// BaseURL returns the API root the client sends to.
func (c *Client) BaseURL() string { return c.cfg.baseURL.String() }

// UploadURL returns the upload root the client sends to.
func (c *Client) UploadURL() string { return c.cfg.uploadURL.String() }
