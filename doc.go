// Package cms is a client for the Content API: files, uploads, folders and
// the rest of the Content Management Service, on the wire protocol of the
// Box Content API v2.0.
//
// # Client and authentication
//
// NewClient takes functional options; each validates its argument:
//
//	client, err := cms.NewClient(cms.WithToken(os.Getenv("CMS_TOKEN")))
//
// WithToken takes a fixed (developer) token; WithTokenSource takes any
// golang.org/x/oauth2 TokenSource, which is asked for a token before every
// attempt of every request. WithBaseURL and WithUploadURL point the client
// at another deployment, such as the reference server of package cmstest.
// WithAsUser acts as another user. A *Client is safe for concurrent use;
// Clone derives a client with other options. Plain http:// roots are
// accepted on loopback hosts only, unless WithInsecureHTTP says otherwise:
// every call carries the token.
//
// NewClientFromEnv builds the client the environment names, as the cms
// command does: CMS_TOKEN, and CMS_BASE_URL with CMS_UPLOAD_URL for a
// deployment other than the public service (ConfigFromEnv reads them).
//
// For server applications, NewJWTTokenSource (from the service's app config
// JSON), NewCCGTokenSource (client credentials) and NewOAuth2Config (the
// authorization-code flow, with rotating refresh tokens kept in a
// TokenStore) return a *TokenSource. It refreshes before expiry, shares one
// refresh among concurrent requests, and on a 401 refreshes and retries the
// request once. Their token endpoints follow the rule of the roots: plain
// http on loopback only, unless WithAuthInsecureHTTP. Client.AsUser derives
// a client that sends As-User on every request without rebuilding the
// transport. See docs/auth.md.
//
// # Calls, responses and errors
//
// Every call takes a context first and returns the typed record, a
// *Response (the HTTP response plus the request id and Retry-After) and an
// error. Arguments are checked before anything is sent: a missing or
// malformed id is an *ArgError matching ErrMissingID or ErrInvalidID. Any
// non-2xx answer is an *APIError with the service's status, error code,
// message, request id and context info; errors.Is maps its status to
// ErrNotFound, ErrConflict, ErrPreconditionFailed, ErrRateLimited and the
// other sentinels, and its error code to the code's sentinel
// (errors.Is(err, cms.ErrUserLoginAlreadyUsed), ErrTupleAlreadyExists,
// ErrItemNameInUse, ...). Tokens never appear in errors or logs.
//
// # Any endpoint
//
// An endpoint the SDK has no method for is called with NewRequest (or
// NewUploadRequest, on the upload root) and Do, through the same request
// path as every method: the client's token, retries, rate limit, As-User
// and *APIError decoding. The body is JSON, or a raw stream (SetBody); the
// answer is decoded into any type, or streamed into an io.Writer:
//
//	req, err := client.NewRequest(http.MethodGet, "files/123?fields=name,size", nil)
//	var f cms.File
//	_, err = client.Do(ctx, req, &f)
//
// # Pagination
//
// Every list has a method returning one page (MarkerPage or OffsetPage) and
// an iterator (iter.Seq2) that fetches pages lazily as the caller ranges:
//
//	for item, err := range client.Folders.ListItemsIter(ctx, "0", nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(item.Type, item.Name)
//	}
//
// Paginators (HasMorePages, NextPage) give page-at-a-time control, and
// Response.NextMarker lets a marker listing resume later. Every paged list
// has all three: List…, List…Iter and NewList…Paginator.
//
// The method names the paging, and no option value switches it: the lists
// that offer both (folder items, the trash, users) have ListItems /
// ListItemsIter by offset (sortable; the service caps the offset) and
// ListItemsByMarker / ListItemsByMarkerIter by marker (for lists of any
// length). A limit above an endpoint's maximum is sent as it is; the
// service answers with its maximum.
//
// A few lists are not paged: the service returns them whole, so they come
// as a typed Collection (TotalCount and Entries) with no iterator or
// paginator, since there is no next page to fetch. They are the tasks of a
// file (TasksService.ListByFile), the assignments of a task
// (TaskAssignmentsService.ListByTask) and the metadata instances on an item
// (MetadataService.ListByItem).
//
// # Updates: leave out, set, or null
//
// A field of an update request left at its zero value is not sent, and
// the service keeps what it has. Where the zero value is itself a change
// (false, "", 0) the field is a pointer: cms.Ptr(false) sends false, nil
// leaves the field out. A few fields give an explicit JSON null a meaning
// of its own, distinct from leaving them out; those, and only those, are
// Nullable[T], with three states:
//
//	req := &cms.UpdateUserRequest{
//		Enterprise: cms.Null[string](), // "enterprise": null rolls the user out of the enterprise
//	}
//	req.NotificationEmail = cms.Set(cms.NotificationEmailRequest{Email: "ann@example.com"}) // sends the value
//	// A Nullable left at its zero value is not sent at all.
//
// The Nullable fields are a user's Enterprise and NotificationEmail, a
// group membership's ConfigurablePermissions (null turns every permission
// off), the SharedLink of a file, folder or web link update (null removes
// the link) and the link's Password (null removes the password), a file's
// Lock (null unlocks), a folder's FolderUploadEmail (null turns it off), a
// collaboration's ExpiresAt (null: no expiry), and a retention policy's
// Description and CustomNotificationRecipients (null clears them). Elsewhere the service reads null as "no change", or not at
// all, so the SDK never sends it.
//
// # Retries
//
// Requests go through go-retryablehttp. RetryPolicy.RetryStatuses (default
// 429, 500, 502, 503, 504) says which answers are retried: 429 for every
// request, the others, like network errors, only for idempotent ones (GET,
// HEAD, PUT, DELETE, OPTIONS, upload parts, upload-session commits, and
// calls whose ctx went through WithIdempotent), so a create is never sent
// twice. Retry-After (seconds or an HTTP date) is honoured up to
// RetryPolicy.MaxRetryAfter, otherwise the wait is jittered exponential
// backoff. A wait that would outlive the ctx deadline is not started: the
// last answer is returned as an *APIError with RetryAfter set. Every wait
// ends when ctx does.
//
// One rule for zero and negative values holds for every option and policy:
// zero means the documented default (RetryPolicy{MaxRetries: 3} keeps the
// default backoff; MaxWaits 0 and MaxCommitWaits 0 mean 10 and 60 waits;
// ByteRange{} is the whole file; PollOptions{} polls every second), a
// negative count means "none" (MaxRetries -1 never retries, MaxWaits -1 and
// MaxCommitWaits -1 never wait), and anything else negative is invalid
// (PollOptions{Interval: -5}, a negative duration of RetryPolicy): an
// *ArgError before anything is sent.
//
// # Uploads and downloads
//
// FilesService.Upload and FilesService.UploadVersion send a file in one
// multipart request (UploadInOneRequest, UploadVersionInOneRequest) below
// DefaultChunkedThreshold (20,000,000 bytes, the service's minimum for
// upload sessions) and through an upload session (UploadsService.UploadChunked,
// UploadVersionChunked) from it. Like every call they return the file, the
// last *Response and an error. The chunked uploader sends the parts of a
// session in parallel with their SHA1 Digest headers, commits them in order
// with the whole-file digest and waits out 202 answers. Memory stays within
// (Concurrency+1) × part size for any file size; an io.ReaderAt source is
// read in place. Parts and the commit are retried on transient faults (a
// session commits once, so a repeated commit that finds it consumed
// resolves to the file the first one created, by name, size and SHA1).
//
// Session keeping: when a chunked upload still fails on a transient fault
// after the retries (a network error, 408, 429, 5xx, a commit still not
// ready, a cancelled or expired ctx), its session is kept: the
// *UploadError has SessionKept set and the SessionID to pass to Resume,
// which sends only the missing parts. A permanent failure (another 4xx, a
// digest mismatch, a source shorter or longer than its declared size, which
// is a *SourceSizeError saying how many bytes were read) aborts the session;
// ChunkedUploadOptions.AbortOnError aborts on any failure.
//
// Downloads follow the service's redirect to its content host without the
// access token, stream the body to the caller, and wait out 202 answers;
// DownloadTo also checks the SHA1.
package cms
