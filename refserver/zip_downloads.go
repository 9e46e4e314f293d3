package refserver

import (
	"archive/zip"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// createZipDownloadBody is the body of POST /zip_downloads.
type createZipDownloadBody struct {
	Items *[]struct {
		Type *string `json:"type"`
		ID   *string `json:"id"`
	} `json:"items"`
	DownloadFileName *string `json:"download_file_name"`
}

// createZipDownload serves POST /zip_downloads: 202 ZipDownload. items
// must hold at least one {"type":"file"|"folder","id":...}, never the
// root folder (400 bad_request).
func (s *Server) createZipDownload(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body createZipDownloadBody
	if aerr := wire.DecodeJSON(r.Body, &body); aerr != nil {
		return aerr
	}
	if body.Items == nil || len(*body.Items) == 0 {
		return wire.BadRequest("Missing required field: items (at least one file or folder)")
	}
	items := make([]state.ZipRequestItem, 0, len(*body.Items))
	for _, it := range *body.Items {
		if it.Type == nil || *it.Type != "file" && *it.Type != "folder" {
			return wire.BadRequest("Invalid value for items[].type: file or folder")
		}
		if it.ID == nil || *it.ID == "" {
			return wire.BadRequest("Missing required field: items[].id")
		}
		if *it.Type == "folder" && *it.ID == state.RootID {
			return wire.BadRequest("The root folder cannot be downloaded as a zip")
		}
		items = append(items, state.ZipRequestItem{Typ: *it.Type, ID: *it.ID})
	}
	name := "download"
	if body.DownloadFileName != nil {
		name = strings.TrimSuffix(*body.DownloadFileName, ".zip")
		if aerr := state.CheckName(name); aerr != nil {
			return aerr
		}
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateZipDownload(p, items, name)
	})
}

// getZipDownloadStatus serves GET /zip_downloads/{zip_download_id}/status.
func (s *Server) getZipDownloadStatus(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("zip_download_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ZipDownloadStatus(p, id)
	})
}

// zipCopyBuffers are the buffers the archives' files are copied through.
var zipCopyBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// serveZipContent serves GET {download}/zip_downloads/{token}/content: the
// archive, made as it is sent — archive/zip over the response, each file
// stored (not compressed) and copied from the store through a fixed
// buffer, so memory stays bounded whatever the archive's size. Each file
// sent or skipped is counted in the archive's status as it goes.
//
// Unlike a file's download URL, an Authorization header is ignored here
// even on the strict server: Box's official SDKs send their token to the
// archive URL (box-typescript-sdk-gen's getZipDownloadContent passes its
// auth), and the service ignores it.
func (s *Server) serveZipContent(w http.ResponseWriter, r *http.Request, _ *state.Principal) error {
	ref, err := s.st.Verify(r.PathValue("token"), "z")
	switch {
	case errors.Is(err, state.ErrExpired):
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "The download URL has expired")
	case err != nil:
		return wire.Errorf(http.StatusForbidden, wire.CodeForbidden, "The download URL is not valid")
	}
	var (
		z       *state.ZipDownload
		entries []state.ZipEntry
		aerr    *wire.Error
		name    string
	)
	s.st.Update(func(tx *state.Tx) {
		z, entries, aerr = tx.StartZipDownload(ref.FileID)
		if z != nil {
			name = z.FileName
		}
	})
	if aerr != nil {
		return aerr
	}
	ok := s.writeZip(w, r, ref.FileID, name, entries)
	s.st.Update(func(tx *state.Tx) { tx.FinishZipDownload(ref.FileID, ok) })
	return nil
}

// writeZip streams the archive of entries; false when it could not be
// sent whole.
func (s *Server) writeZip(w http.ResponseWriter, r *http.Request, id, name string, entries []state.ZipEntry) bool {
	h := w.Header()
	h.Set("Content-Type", "application/zip")
	h.Set("Cache-Control", "no-cache, no-store")
	h.Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(name))
	w.WriteHeader(http.StatusOK)
	zw := zip.NewWriter(w)
	buf := zipCopyBuffers.Get().(*[]byte)
	defer zipCopyBuffers.Put(buf)
	for _, e := range entries {
		if r.Context().Err() != nil {
			return false
		}
		hdr := &zip.FileHeader{Name: e.Path, Method: zip.Store, Modified: e.Modified}
		if e.Dir {
			if _, err := zw.CreateHeader(hdr); err != nil {
				return false
			}
			continue
		}
		rc, err := s.st.Store.Open(r.Context(), e.BlobID)
		if err != nil {
			s.st.Update(func(tx *state.Tx) { tx.ZipFileSent(id, false) })
			continue
		}
		hdr.UncompressedSize64 = uint64(e.Size)
		fw, err := zw.CreateHeader(hdr)
		if err == nil {
			_, err = io.CopyBuffer(fw, rc, *buf)
		}
		rc.Close()
		if err != nil {
			return false
		}
		s.st.Update(func(tx *state.Tx) { tx.ZipFileSent(id, true) })
	}
	return zw.Close() == nil
}
