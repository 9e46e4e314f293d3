package refserver

import (
	"errors"
	"image"
	_ "image/jpeg" // avatars are JPEG
	_ "image/png"  // or PNG
	"io"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// avatarTypes are the content types of the accepted file extensions, and
// the image format each must hold.
var avatarTypes = map[string][2]string{
	".jpg": {"image/jpeg", "jpeg"}, ".jpeg": {"image/jpeg", "jpeg"}, ".png": {"image/png", "png"},
}

// uploadAvatar serves POST /users/{user_id}/avatar: a multipart body whose
// part "pic" (a .jpg or .png file name) is the image, streamed into the
// store (at most state.MaxAvatarSize bytes are read); 201 for a first
// avatar, 200 for a new one, {pic_urls}. 400 bad_request for no image, an
// empty or too large one, another extension, a file that is not the image
// its name says, or more than state.MaxAvatarSide pixels a side.
func (s *Server) uploadAvatar(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("user_id")
	var aerr *wire.Error
	s.st.View(func(tx *state.ReadTx) { aerr = tx.CheckAvatarTarget(p, id) })
	if aerr != nil {
		return aerr
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return wire.BadRequest("The body must be multipart/form-data with a part named pic")
	}
	var (
		pic   blob.Info
		typ   [2]string
		found bool
	)
	fail := func(e error) error {
		if found {
			s.dropUnreferenced(r, pic.ID)
		}
		return e
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fail(wire.BadRequest("Malformed multipart body"))
		}
		if part.FormName() != "pic" || found {
			if _, err := io.Copy(io.Discard, part); err != nil {
				return fail(wire.BadRequest("Malformed multipart body"))
			}
			continue
		}
		t, ok := avatarTypes[strings.ToLower(path.Ext(part.FileName()))]
		if !ok {
			return fail(wire.BadRequest("The avatar must be a .jpg or .png file"))
		}
		info, err := s.st.Store.Put(r.Context(), io.LimitReader(part, state.MaxAvatarSize+1))
		if err != nil {
			if r.Context().Err() != nil {
				return fail(r.Context().Err())
			}
			return fail(wire.BadRequest("Malformed multipart body"))
		}
		pic, typ, found = info, t, true
		if _, err := io.Copy(io.Discard, part); err != nil { // the rest of a part too large
			return fail(wire.BadRequest("Malformed multipart body"))
		}
	}
	if !found {
		return wire.BadRequest("Missing image: a part named pic")
	}
	if aerr := s.checkAvatarImage(r, pic, typ[1]); aerr != nil {
		return fail(aerr)
	}
	// The replaced avatar's blob leaves through the transaction's outbox.
	err = s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) { return tx.SetAvatar(p, id, pic, typ[0]) })
	if err != nil {
		return fail(err)
	}
	return nil
}

// checkAvatarImage checks a stored image: not empty, not over the size
// limit, of the format its name says, not too many pixels a side.
func (s *Server) checkAvatarImage(r *http.Request, pic blob.Info, format string) *wire.Error {
	switch {
	case pic.Size == 0:
		return wire.BadRequest("The image is empty")
	case pic.Size > state.MaxAvatarSize:
		return wire.BadRequest("The image is larger than %d bytes", state.MaxAvatarSize)
	}
	rc, err := s.st.Store.Open(r.Context(), pic.ID)
	if err != nil {
		return wire.Errorf(http.StatusInternalServerError, wire.CodeInternalServerError, "Reading the image failed")
	}
	defer rc.Close()
	cfg, got, err := image.DecodeConfig(rc) // reads the header only
	if err != nil || got != format {
		return wire.BadRequest("The file is not a %s image", format)
	}
	if cfg.Width > state.MaxAvatarSide || cfg.Height > state.MaxAvatarSide {
		return wire.BadRequest("The image is larger than %d×%d pixels", state.MaxAvatarSide, state.MaxAvatarSide)
	}
	return nil
}

// getAvatar serves GET /users/{user_id}/avatar: 200 with the image,
// streamed from the store, and its Content-Type.
func (s *Server) getAvatar(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("user_id")
	var (
		a    state.Avatar
		aerr *wire.Error
	)
	s.st.View(func(tx *state.ReadTx) { a, aerr = tx.AvatarOf(p, id) })
	if aerr != nil {
		return aerr
	}
	rc, err := s.st.Store.Open(r.Context(), a.Blob.ID)
	if err != nil {
		return wire.NotFound("avatar") // removed since the read
	}
	defer rc.Close()
	w.Header().Set("Content-Type", a.ContentType)
	w.Header().Set("Content-Length", strconv.FormatInt(a.Blob.Size, 10))
	w.WriteHeader(http.StatusOK)
	_, _ = io.Copy(w, rc)
	return nil
}

// deleteAvatar serves DELETE /users/{user_id}/avatar: 204.
func (s *Server) deleteAvatar(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("user_id")
	// The avatar's blob leaves through the transaction's outbox.
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) { return tx.DeleteAvatar(p, id) })
}
