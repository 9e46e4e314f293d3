package refserver

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/thumb"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// Thumbnails and image representations (docs/refserver.md,
// "Representations and thumbnails"). The images are made by
// internal/thumb's workers, off the request path, and cached; a request
// finds them ready, or answers 202 with Retry-After and a placeholder
// while they are made.

// repWait is how long a representation's content URL waits for its image
// to be made before it answers 202: an <img> element does not retry.
const repWait = 10 * time.Second

// thumbs is the server's thumbnail service, started on first use and
// stopped by Close.
func (s *Server) thumbs() *thumb.Service {
	s.thumbOnce.Do(func() {
		s.thumbSvc = thumb.New(s.st.Store, thumb.Options{})
	})
	return s.thumbSvc
}

// closeThumbs stops the thumbnail workers, when they were started.
func (s *Server) closeThumbs() {
	s.thumbOnce.Do(func() {}) // none is started after Close
	if s.thumbSvc != nil {
		s.thumbSvc.Close()
	}
}

// placeholderURL is the content host's placeholder image for format f.
func (s *Server) placeholderURL(f thumb.Format) string {
	return s.st.DownloadURL + "/placeholders/thumbnail." + string(f)
}

// getThumbnail serves GET /files/{file_id}/thumbnail.{png,jpg}: 200 with
// the image scaled to the size parameters (min_width, min_height,
// max_width, max_height: 32 to 320), 202 with Retry-After and a
// placeholder's Location while it is made, 302 to the placeholder for a
// file it cannot be made of, 400 requested_preview_unavailable for sizes
// it does not serve.
func (s *Server) getThumbnail(f thumb.Format) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
		id, aerr := fileIDLoose(r)
		if aerr != nil {
			return aerr
		}
		side, err := thumb.ParseSize(r.URL.Query())
		if err != nil {
			return wire.Errorf(http.StatusBadRequest, wire.CodeRequestedPreviewUnavailable, "%s", err.Error())
		}
		var (
			blobID          string
			image, notReady bool
		)
		s.st.View(func(tx *state.ReadTx) { blobID, image, notReady, aerr = tx.ThumbnailSource(p, id, "") })
		if aerr != nil {
			return aerr
		}
		if !image {
			w.Header().Set("Location", s.placeholderURL(f))
			w.WriteHeader(http.StatusFound)
			return nil
		}
		if notReady {
			return s.thumbPending(w, f)
		}
		data, st, _ := s.thumbs().Get(thumb.Key{BlobID: blobID, Format: f, Side: side})
		return s.writeThumb(w, f, data, st)
	}
}

// writeThumb answers with a thumbnail in status st.
func (s *Server) writeThumb(w http.ResponseWriter, f thumb.Format, data []byte, st thumb.Status) error {
	switch st {
	case thumb.Ready:
		writeBytes(w, http.StatusOK, f.ContentType(), data)
		return nil
	case thumb.Failed:
		w.Header().Set("Location", s.placeholderURL(f))
		w.WriteHeader(http.StatusFound)
		return nil
	}
	return s.thumbPending(w, f)
}

// thumbPending is 202: the image is being made.
func (s *Server) thumbPending(w http.ResponseWriter, f thumb.Format) error {
	w.Header().Set("Location", s.placeholderURL(f))
	w.Header().Set("Retry-After", strconv.Itoa(s.st.RetryAfterSeconds()))
	w.WriteHeader(http.StatusAccepted)
	return nil
}

// repTarget reads the file, version and representation of a
// /internal_files/... URL and checks p may preview it.
func (s *Server) repTarget(r *http.Request, p *state.Principal) (blobID string, rep state.RepSpec, aerr *wire.Error) {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return "", rep, aerr
	}
	vid := r.PathValue("version_id")
	rep, ok := state.ParseRepName(r.PathValue("rep"))
	if !ok || !state.ValidID(vid) {
		return "", rep, wire.NotFound("representation")
	}
	var image bool
	s.st.View(func(tx *state.ReadTx) { blobID, image, _, aerr = tx.ThumbnailSource(p, id, vid) })
	if aerr == nil && !image {
		aerr = wire.NotFound("representation")
	}
	return blobID, rep, aerr
}

// getRepresentationInfo serves GET
// /internal_files/{file_id}/versions/{version_id}/representations/{rep}:
// the representation's entry, its status as it stands (asking for it
// starts making it).
func (s *Server) getRepresentationInfo(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	blobID, rep, aerr := s.repTarget(r, p)
	if aerr != nil {
		return aerr
	}
	_, st, _ := s.thumbs().Get(thumb.Key{BlobID: blobID, Format: thumb.Format(rep.Format), Side: rep.Side})
	repState := map[thumb.Status]string{thumb.Ready: "success", thumb.Pending: "pending", thumb.Failed: "error"}[st]
	var body map[string]any
	s.st.View(func(tx *state.ReadTx) {
		body = tx.RepEntry(r.PathValue("file_id"), r.PathValue("version_id"), rep, repState)
	})
	writeJSON(w, http.StatusOK, body)
	return nil
}

// getRepresentationContent serves GET
// /internal_files/{file_id}/versions/{version_id}/representations/{rep}/content/{asset}:
// the image (asset "" or "1.png"), waiting up to repWait for it to be
// made, then 202 with Retry-After.
func (s *Server) getRepresentationContent(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	blobID, rep, aerr := s.repTarget(r, p)
	if aerr != nil {
		return aerr
	}
	if a := r.PathValue("asset"); a != "" && a != "1.png" && a != "1.jpg" {
		return wire.NotFound("representation")
	}
	ctx, cancel := context.WithTimeout(r.Context(), repWait)
	defer cancel()
	f := thumb.Format(rep.Format)
	data, st := s.thumbs().Wait(ctx, thumb.Key{BlobID: blobID, Format: f, Side: rep.Side})
	if st == thumb.Pending && errors.Is(r.Context().Err(), context.Canceled) {
		return nil // the client left
	}
	return s.writeThumb(w, f, data, st)
}

// servePlaceholder serves GET {download}/placeholders/thumbnail.{png,jpg}:
// the image that stands for a thumbnail not ready or not possible.
func (s *Server) servePlaceholder(f thumb.Format) handlerFunc {
	data := thumb.Placeholder(f, thumb.MaxSide)
	return func(w http.ResponseWriter, r *http.Request, _ *state.Principal) error {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		writeBytes(w, http.StatusOK, f.ContentType(), data)
		return nil
	}
}
