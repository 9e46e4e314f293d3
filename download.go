package cms

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/contentapi/cms/internal/transport"
)

// ErrChecksumMismatch is matched by a *ChecksumError.
var ErrChecksumMismatch = errors.New("cms: checksum mismatch")

// ChecksumError reports downloaded content whose SHA-1 is not the one the
// service lists for the file (version).
type ChecksumError struct {
	Want, Got string // hex SHA-1
}

// Error names both checksums.
func (e *ChecksumError) Error() string {
	return fmt.Sprintf("cms: downloaded content has SHA-1 %s, want %s", e.Got, e.Want)
}

// Is makes a *ChecksumError match ErrChecksumMismatch.
func (e *ChecksumError) Is(target error) bool { return target == ErrChecksumMismatch }

// ByteRange is a range of bytes to download (header range). Under the
// package's rule for zero values, Length 0 means "to the end of the file",
// so ByteRange{} is the whole file and ByteRange{Start: 100} everything from
// byte 100; negative values are invalid.
type ByteRange struct {
	// Start is the first byte, from 0.
	Start int64
	// Length is how many bytes from Start; 0 means up to the end of the file.
	Length int64
}

// RangeFrom returns the range from start to the end of the file.
func RangeFrom(start int64) *ByteRange { return &ByteRange{Start: start} }

// String returns the header value, e.g. "bytes=0-99" or "bytes=100-".
func (r ByteRange) String() string {
	if r.Length <= 0 {
		return "bytes=" + strconv.FormatInt(r.Start, 10) + "-"
	}
	return "bytes=" + strconv.FormatInt(r.Start, 10) + "-" + strconv.FormatInt(r.Start+r.Length-1, 10)
}

func (r *ByteRange) check() error {
	if r == nil {
		return nil
	}
	if r.Start < 0 || r.Length < 0 || r.Start > math.MaxInt64-r.Length {
		return invalidArg("range", fmt.Sprintf("start %d length %d", r.Start, r.Length))
	}
	return nil
}

// DefaultMaxWaits is how many times a download waits for content that is
// not ready yet (202 + Retry-After) unless DownloadOptions.MaxWaits says.
const DefaultMaxWaits = 10

// defaultNotReadyWait is the wait after a 202 without Retry-After.
const defaultNotReadyWait = time.Second

// DownloadOptions are the options of FilesService.Download, DownloadURL and
// DownloadTo.
type DownloadOptions struct {
	// Version is the id of the file version to download (query version);
	// empty means the current version.
	Version string `url:"version,omitempty"`
	// Progress, when set, is called as the content is read (from the
	// goroutine that reads the body: the caller's for Download, DownloadTo's
	// own).
	Progress func(Progress) `url:"-"`
	// Range restricts the download to some bytes (header range); the
	// response is then 206 Partial Content.
	Range *ByteRange `url:"-"`
	// SharedLink and SharedLinkPassword access the file through a shared
	// link (header boxapi). Never logged.
	SharedLink         string `url:"-"`
	SharedLinkPassword string `url:"-"`
	// MaxWaits bounds how many times the download waits for content that is
	// not ready yet (202 + Retry-After): 0 means DefaultMaxWaits, negative
	// means never wait. A wait that would pass the ctx deadline or the
	// client's MaxRetryAfter is not done either: the call then fails with an
	// *AcceptedError.
	MaxWaits int `url:"-"`
}

// Download streams the content of a file (GET /files/{file_id}/content).
// The service redirects to a download host: a redirect to the API's own host
// is followed with the client's credentials, any other host is fetched with
// the download HTTP client and no Authorization header. Content that is not
// ready yet (202 + Retry-After) is waited for, see DownloadOptions.MaxWaits.
// The caller must close the returned body.
func (s *FilesService) Download(ctx context.Context, fileID string, opts *DownloadOptions) (io.ReadCloser, *Response, error) {
	resp, _, err := s.download(ctx, fileID, opts, true)
	if err != nil {
		return nil, resp, err
	}
	if opts != nil && opts.Progress != nil {
		return progressBody{newProgressReader(resp.Body, resp.ContentLength, opts.Progress), resp.Body}, resp, nil
	}
	return resp.Body, resp, nil
}

// DownloadURL returns the short-lived URL the service redirects a download
// to (the Location of GET /files/{file_id}/content), without fetching it.
// Do not store it: it expires. The response is the redirect's (body closed).
func (s *FilesService) DownloadURL(ctx context.Context, fileID string, opts *DownloadOptions) (string, *Response, error) {
	resp, loc, err := s.download(ctx, fileID, opts, false)
	if err != nil {
		return "", resp, err
	}
	return loc.String(), resp, nil
}

// download runs the download protocol. With fetch it returns the response
// carrying the content (body open); without, the redirect target.
func (s *FilesService) download(ctx context.Context, fileID string, opts *DownloadOptions, fetch bool) (*Response, *url.URL, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &DownloadOptions{}
	}
	if opts.Version != "" {
		if err := checkID("file version", opts.Version); err != nil {
			return nil, nil, err
		}
	}
	if err := opts.Range.check(); err != nil {
		return nil, nil, err
	}
	maxWaits := opts.MaxWaits
	if maxWaits == 0 {
		maxWaits = DefaultMaxWaits
	}
	for waits := 0; ; waits++ {
		resp, loc, err := s.downloadOnce(ctx, fileID, opts, fetch)
		if err != nil || resp.StatusCode != http.StatusAccepted {
			return resp, loc, err
		}
		resp.Body.Close()
		if err := s.client.waitNotReady(ctx, resp, waits, maxWaits); err != nil {
			return resp, nil, err
		}
	}
}

// downloadOnce asks the API for the content once and follows its redirect.
// A 202 (from either host) is returned as a response for the caller to wait
// out.
func (s *FilesService) downloadOnce(ctx context.Context, fileID string, opts *DownloadOptions, fetch bool) (*Response, *url.URL, error) {
	c := s.client
	r, err := c.newRequest(http.MethodGet, c.cfg.baseURL, opts, "files", fileID, "content")
	if err != nil {
		return nil, nil, err
	}
	if err := setSharedLink(r.header, opts.SharedLink, opts.SharedLinkPassword); err != nil {
		return nil, nil, err
	}
	if opts.Range != nil {
		r.header.Set("Range", opts.Range.String())
	}
	r.acceptRedirect = true
	resp, err := c.send(ctx, r)
	if err != nil {
		return resp, nil, err
	}
	if resp.StatusCode >= 300 && !isRedirect(resp.StatusCode) {
		return resp, nil, CheckResponse(resp.Response) // e.g. 300: not a download
	}
	if !isRedirect(resp.StatusCode) {
		if !fetch && resp.StatusCode != http.StatusAccepted {
			resp.Body.Close()
			return resp, nil, errors.New("cms: download answered without a redirect; no download URL")
		}
		return resp, nil, nil // 200/206 content, or 202 not ready
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	loc, err := resp.Location()
	if err != nil {
		return resp, nil, fmt.Errorf("cms: download redirect (%d) without a valid Location", resp.StatusCode)
	}
	if !fetch {
		return resp, loc, nil
	}
	if sameOrigin(loc, c.cfg.baseURL) {
		fr, err := c.newRequestURL(http.MethodGet, loc, nil)
		if err != nil {
			return nil, nil, err
		}
		if err := setSharedLink(fr.header, opts.SharedLink, opts.SharedLinkPassword); err != nil {
			return nil, nil, err
		}
		if opts.Range != nil {
			fr.header.Set("Range", opts.Range.String())
		}
		resp, err := c.send(ctx, fr)
		return resp, loc, err
	}
	resp, err = s.fetchContent(ctx, loc, opts.Range)
	return resp, loc, err
}

func isRedirect(code int) bool {
	switch code {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// sameOrigin reports whether u is on the scheme and host of root.
func sameOrigin(u, root *url.URL) bool {
	return strings.EqualFold(u.Scheme, root.Scheme) && strings.EqualFold(u.Host, root.Host)
}

// fetchContent GETs a download URL on another host with the download client:
// no Authorization header, none of the client's extra headers. Retries follow
// the client's policy (GET is idempotent).
func (s *FilesService) fetchContent(ctx context.Context, loc *url.URL, rng *ByteRange) (*Response, error) {
	c := s.client
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("cms: download URL: %s", redactDownloadURL(loc))
	}
	req.Header.Set("User-Agent", c.cfg.userAgent)
	if rng != nil {
		req.Header.Set("Range", rng.String())
	}
	// No transport logger: it would log the signed URL. One redacted line
	// is logged below instead.
	doer := &transport.Doer{HTTPClient: c.download, Policy: transport.Policy(c.cfg.retry), Sleep: c.cfg.sleep}
	start := time.Now()
	hresp, err := doer.Do(req, nil)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		return nil, &url.Error{Op: http.MethodGet, URL: redactDownloadURL(loc), Err: unwrapURLError(err)}
	}
	resp := newResponse(hresp)
	if c.cfg.logger != nil {
		c.cfg.logger.LogAttrs(ctx, slog.LevelDebug, "cms download",
			slog.String("url", redactDownloadURL(loc)), slog.Int("status", hresp.StatusCode),
			slog.Duration("elapsed", time.Since(start)))
	}
	if err := CheckResponse(hresp); err != nil {
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			apiErr.URL = redactDownloadURL(loc)
		}
		return resp, err
	}
	return resp, nil
}

// redactDownloadURL keeps only the scheme and host of a download URL: its
// path and query carry a short-lived credential.
func redactDownloadURL(u *url.URL) string {
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/…"}).String()
}

// DownloadTo streams the content of a file to w and checks its SHA-1
// against the one the service lists (GET /files/{file_id} or, for an older
// version, GET /files/{file_id}/versions/{file_version_id}, then
// GET /files/{file_id}/content). A mismatch returns a *ChecksumError (after
// the bytes were written). A partial download (Range) is not checked. n is
// the number of bytes written.
func (s *FilesService) DownloadTo(ctx context.Context, fileID string, w io.Writer, opts *DownloadOptions) (int64, *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return 0, nil, err
	}
	if w == nil {
		return 0, nil, invalidArg("writer", "nil")
	}
	if opts == nil {
		opts = &DownloadOptions{}
	}
	var want string
	if opts.Range == nil {
		var resp *Response
		var err error
		if want, resp, err = s.expectedSHA1(ctx, fileID, opts); err != nil {
			return 0, resp, err
		}
	}
	body, resp, err := s.Download(ctx, fileID, opts)
	if err != nil {
		return 0, resp, err
	}
	defer body.Close()
	h := sha1.New()
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	n, err := io.CopyBuffer(io.MultiWriter(w, h), body, *buf)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return n, resp, ctxErr
		}
		return n, resp, fmt.Errorf("cms: downloading file %s: %w", fileID, err)
	}
	if want != "" {
		if got := hex.EncodeToString(h.Sum(nil)); !strings.EqualFold(got, want) {
			return n, resp, &ChecksumError{Want: strings.ToLower(want), Got: got}
		}
	}
	return n, resp, nil
}

// expectedSHA1 returns the SHA-1 the service lists for the version to be
// downloaded ("" when it lists none).
func (s *FilesService) expectedSHA1(ctx context.Context, fileID string, opts *DownloadOptions) (string, *Response, error) {
	f, resp, err := s.Get(ctx, fileID, &GetFileOptions{
		Fields:     []string{"sha1", "file_version"},
		SharedLink: opts.SharedLink, SharedLinkPassword: opts.SharedLinkPassword,
	})
	if err != nil {
		return "", resp, err
	}
	if opts.Version == "" || (f.FileVersion != nil && f.FileVersion.ID == opts.Version) {
		if f.FileVersion != nil && f.FileVersion.SHA1 != "" {
			return f.FileVersion.SHA1, resp, nil
		}
		return f.SHA1, resp, nil
	}
	if err := checkID("file version", opts.Version); err != nil {
		return "", nil, err
	}
	r, err := s.client.newRequest(http.MethodGet, s.client.cfg.baseURL, &FieldsOptions{Fields: []string{"sha1"}},
		"files", fileID, "versions", opts.Version)
	if err != nil {
		return "", nil, err
	}
	if err := setSharedLink(r.header, opts.SharedLink, opts.SharedLinkPassword); err != nil {
		return "", nil, err
	}
	var v FileVersionMini
	resp, err = s.client.do(ctx, r, &v)
	if err != nil {
		return "", resp, err
	}
	return v.SHA1, resp, nil
}

// copyBuffers are DownloadTo's copy buffers: 256 KiB, so a download is read,
// hashed and written in few large steps (io.Copy's own buffer is 32 KiB).
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}
