package cms

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ZipDownloadsService downloads files and folders as one zip archive
// (/zip_downloads): Create asks for the archive and answers with a download
// URL and a status URL; Content streams the archive, Status reports how many
// items went into it. Download and DownloadToFile do the three in one call.
type ZipDownloadsService service

// ZipItemType is the kind of an item of a zip archive (items[].type).
type ZipItemType string

// Kinds of zip archive items.
const (
	ZipItemTypeFile   ZipItemType = "file"
	ZipItemTypeFolder ZipItemType = "folder"
)

// ZipItem names one file or folder to put in the archive (a folder goes in
// with everything below it).
type ZipItem struct {
	Type ZipItemType `json:"type"`
	ID   string      `json:"id"`
}

// ZipFile returns the archive item of a file.
func ZipFile(fileID string) ZipItem { return ZipItem{Type: ZipItemTypeFile, ID: fileID} }

// ZipFolder returns the archive item of a folder.
func ZipFolder(folderID string) ZipItem { return ZipItem{Type: ZipItemTypeFolder, ID: folderID} }

// CreateZipDownloadRequest is the body of ZipDownloadsService.Create
// (ZipDownloadRequest).
type CreateZipDownloadRequest struct {
	// Items are the files and folders of the archive (at least one, not
	// the root folder; the service takes at most 10,000 files).
	Items []ZipItem `json:"items"`
	// DownloadFileName is the archive's name, without the .zip extension
	// the service adds; empty lets the service name it.
	DownloadFileName string `json:"download_file_name,omitzero"`
}

// check rejects a request without items, or an item of another kind or
// without an id.
func (r *CreateZipDownloadRequest) check() error {
	if r == nil {
		return invalidArg("request", "nil")
	}
	if len(r.Items) == 0 {
		return invalidArg("items", "empty")
	}
	for i, it := range r.Items {
		arg := fmt.Sprintf("items[%d]", i)
		if it.Type == "" {
			return invalidArg(arg+" type", "empty")
		}
		if err := checkEnum(arg+" type", it.Type, ZipItemTypeFile, ZipItemTypeFolder); err != nil {
			return err
		}
		if err := checkID(arg, it.ID); err != nil {
			return err
		}
		if it.Type == ZipItemTypeFolder && it.ID == "0" {
			return &ArgError{Arg: arg + " id", Reason: "the root folder cannot go in an archive", Err: ErrInvalidID}
		}
	}
	return nil
}

// ZipNameConflict is one item of a name conflict: two requested items with
// the same name, each renamed in the archive.
type ZipNameConflict struct {
	ID   string      `json:"id"`
	Type ZipItemType `json:"type,omitzero"`
	// OriginalName is the item's name; DownloadName the name it has in the
	// archive.
	OriginalName string `json:"original_name,omitzero"`
	DownloadName string `json:"download_name,omitzero"`
}

// ZipDownload is the answer of ZipDownloadsService.Create (ZipDownload):
// where to fetch the archive and its status.
type ZipDownload struct {
	// DownloadURL fetches the archive (ZipDownloadsService.Content). It
	// needs no credentials and is valid for a few seconds only: a download
	// cannot be resumed, ask for a new archive instead.
	DownloadURL string `json:"download_url,omitzero"`
	// StatusURL reports the archive's progress (ZipDownloadsService.Status)
	// once its download has started, for 12 hours.
	StatusURL string    `json:"status_url,omitzero"`
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// NameConflicts lists the items renamed in the archive because they
	// shared a name: each conflict is the group of items that had it.
	NameConflicts [][]*ZipNameConflict `json:"name_conflicts,omitzero"`
}

// ZipDownloadState is the state of an archive's download.
type ZipDownloadState string

// States of an archive's download.
const (
	ZipDownloadStateInProgress ZipDownloadState = "in_progress"
	ZipDownloadStateFailed     ZipDownloadState = "failed"
	ZipDownloadStateSucceeded  ZipDownloadState = "succeeded"
)

// ZipDownloadStatus is the progress of an archive's download
// (ZipDownloadStatus).
type ZipDownloadStatus struct {
	TotalFileCount      int `json:"total_file_count"`
	DownloadedFileCount int `json:"downloaded_file_count"`
	// SkippedFileCount and SkippedFolderCount count the items left out
	// (the caller may not download them, or they went away).
	SkippedFileCount   int              `json:"skipped_file_count"`
	SkippedFolderCount int              `json:"skipped_folder_count"`
	State              ZipDownloadState `json:"state,omitzero"`
}

// Create asks for a zip archive of files and folders (POST /zip_downloads;
// the service answers 202 once it has checked the caller may download every
// item). The archive is not built yet: fetch it with Content, soon (its URL
// expires within seconds). A POST is not retried blindly.
func (s *ZipDownloadsService) Create(ctx context.Context, body *CreateZipDownloadRequest) (*ZipDownload, *Response, error) {
	if err := body.check(); err != nil {
		return nil, nil, err
	}
	return callAPI[ZipDownload](ctx, s.client, http.MethodPost, body, nil, "zip_downloads")
}

// zipURL resolves one of an archive's URLs: a relative path
// ("zip_downloads/…") is taken below the API root, any other reference is
// resolved against it as a browser would.
func (s *ZipDownloadsService) zipURL(arg, raw string) (*url.URL, error) {
	if raw == "" {
		return nil, invalidArg(arg, "empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, invalidArg(arg, "not a URL")
	}
	if !u.IsAbs() && u.Host == "" && u.Path != "" && !strings.HasPrefix(u.Path, "/") {
		rel := u
		u = s.client.cfg.baseURL.JoinPath(rel.Path)
		u.RawQuery = rel.RawQuery
	} else {
		u = s.client.cfg.baseURL.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, invalidArg(arg, "not an http(s) URL")
	}
	return u, nil
}

// Content streams the archive of z (GET /zip_downloads/{zip_download_id}/content,
// at z.DownloadURL). The URL needs no credentials: on the API's own host it
// is fetched with them, on any other host (the service's download host)
// with the download HTTP client and no Authorization header, as
// FilesService.Download does. The caller must close the body. The archive
// is built as it is sent, so its size is not known in advance. The URL
// serves once: a second fetch fails with an *APIError matching
// ErrNotFound. Too many archives downloading at once (5 for a user, 10 for
// an enterprise) fail with one matching ErrRateLimited.
func (s *ZipDownloadsService) Content(ctx context.Context, z *ZipDownload) (io.ReadCloser, *Response, error) {
	if z == nil {
		return nil, nil, invalidArg("zip download", "nil")
	}
	u, err := s.zipURL("download URL", z.DownloadURL)
	if err != nil {
		return nil, nil, err
	}
	c := s.client
	var resp *Response
	if sameOrigin(u, c.cfg.baseURL) {
		r, err := c.newRequestURL(http.MethodGet, u, nil)
		if err != nil {
			return nil, nil, err
		}
		r.header.Set("Accept", "application/zip, application/octet-stream")
		resp, err = c.send(ctx, r)
		if err != nil {
			return nil, resp, err
		}
	} else {
		if err := checkCtx(ctx); err != nil {
			return nil, nil, err
		}
		resp, err = (*FilesService)(s).fetchContent(ctx, u, nil)
		if err != nil {
			return nil, resp, err
		}
	}
	return resp.Body, resp, nil
}

// ErrStatusURLHost is returned by ZipDownloadsService.Status for a status
// URL on a host other than the API's: the call needs the client's
// credentials, which never go to another host.
var ErrStatusURLHost = errors.New("cms: the zip download status URL is not on the API host")

// Status reads the progress of an archive's download
// (GET /zip_downloads/{zip_download_id}/status, at z.StatusURL), with the
// client's credentials. It answers once the download has started, for 12
// hours. A status URL on another host than the API's fails with
// ErrStatusURLHost and sends nothing.
func (s *ZipDownloadsService) Status(ctx context.Context, z *ZipDownload) (*ZipDownloadStatus, *Response, error) {
	if z == nil {
		return nil, nil, invalidArg("zip download", "nil")
	}
	u, err := s.zipURL("status URL", z.StatusURL)
	if err != nil {
		return nil, nil, err
	}
	c := s.client
	if !sameOrigin(u, c.cfg.baseURL) {
		return nil, nil, fmt.Errorf("%w (%s)", ErrStatusURLHost, redactDownloadURL(u))
	}
	r, err := c.newRequestURL(http.MethodGet, u, nil)
	if err != nil {
		return nil, nil, err
	}
	st := new(ZipDownloadStatus)
	resp, err := c.do(ctx, r, st)
	if err != nil {
		return nil, resp, err
	}
	return st, resp, nil
}

// ZipDownloadOptions are the options of ZipDownloadsService.Download and
// DownloadToFile.
type ZipDownloadOptions struct {
	// Progress, when set, is called as the archive is read (TotalBytes is
	// -1 unless the service sent a Content-Length). It must return quickly.
	Progress func(Progress)
	// StatusReads bounds how many times the status is read while the
	// service still reports it in progress after the archive ended: 0
	// means 5, negative means once. The reads are PollOptions.Interval
	// apart.
	StatusReads int
	// Poll spaces the status reads (default 1 s).
	Poll *PollOptions
}

// ZipDownloadResult is what ZipDownloadsService.Download did: the archive
// asked for (with its name conflicts), the bytes written and the final
// status (its counts).
type ZipDownloadResult struct {
	ZipDownload *ZipDownload
	Status      *ZipDownloadStatus
	// Bytes is the size of the archive written.
	Bytes int64
}

// Download writes a zip archive of items to w in one call: it asks for the
// archive (POST /zip_downloads), streams it to w
// (GET /zip_downloads/{zip_download_id}/content) through a fixed buffer,
// never holding the archive in memory, then reads its final status
// (GET /zip_downloads/{zip_download_id}/status). The Response is the last
// call's. On an error after the archive was asked for, the result so far
// (its ZipDownload, the bytes written) comes back with the error.
func (s *ZipDownloadsService) Download(ctx context.Context, body *CreateZipDownloadRequest, w io.Writer, opts *ZipDownloadOptions) (*ZipDownloadResult, *Response, error) {
	if err := body.check(); err != nil {
		return nil, nil, err
	}
	if w == nil {
		return nil, nil, invalidArg("writer", "nil")
	}
	if opts == nil {
		opts = &ZipDownloadOptions{}
	}
	if opts.Poll != nil && opts.Poll.Interval < 0 {
		return nil, nil, invalidArg("poll interval", "negative")
	}
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	z, resp, err := s.Create(ctx, body)
	if err != nil {
		return nil, resp, err
	}
	res := &ZipDownloadResult{ZipDownload: z}
	content, resp, err := s.Content(ctx, z)
	if err != nil {
		return res, resp, err
	}
	var src io.Reader = content
	if opts.Progress != nil {
		src = newProgressReader(content, resp.ContentLength, opts.Progress)
	}
	buf := copyBuffers.Get().(*[]byte)
	res.Bytes, err = io.CopyBuffer(w, src, *buf)
	copyBuffers.Put(buf)
	content.Close()
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return res, resp, ctxErr
		}
		return res, resp, fmt.Errorf("cms: downloading zip archive: %w", err)
	}
	reads := opts.StatusReads
	switch {
	case reads == 0:
		reads = 5
	case reads < 0:
		reads = 1
	}
	err = s.client.poll(ctx, opts.Poll, func() (bool, error) {
		var err error
		res.Status, resp, err = s.Status(ctx, z)
		if err != nil {
			return false, err
		}
		reads--
		return res.Status.State != ZipDownloadStateInProgress || reads <= 0, nil
	})
	return res, resp, err
}

// DownloadToFile is Download into the file at path (POST /zip_downloads,
// GET /zip_downloads/{zip_download_id}/content, then its status): the archive is written
// to a temporary file in the same directory, synced and renamed over path
// once whole, so path never holds a partial archive. On error the
// temporary file is removed and path is unchanged.
func (s *ZipDownloadsService) DownloadToFile(ctx context.Context, body *CreateZipDownloadRequest, path string, opts *ZipDownloadOptions) (*ZipDownloadResult, *Response, error) {
	if err := body.check(); err != nil {
		return nil, nil, err
	}
	if path == "" {
		return nil, nil, invalidArg("path", "empty")
	}
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.part")
	if err != nil {
		return nil, nil, err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	res, resp, err := s.Download(ctx, body, tmp, opts)
	if err != nil {
		return res, resp, err
	}
	if err := tmp.Sync(); err != nil {
		return res, resp, err
	}
	if err := tmp.Close(); err != nil {
		return res, resp, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return res, resp, err
	}
	done = true
	return res, resp, nil
}
