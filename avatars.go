package cms

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"

	"github.com/contentapi/cms/internal/transport"
)

// AvatarsService reads, sets and removes users' avatars
// (/users/{user_id}/avatar). A user may change their own; an admin anyone's
// in the enterprise.
type AvatarsService service

// AvatarImageType is the format of an avatar image; the service takes
// JPEG and PNG.
type AvatarImageType string

// Avatar image formats.
const (
	AvatarImageTypeJPEG AvatarImageType = "jpg"
	AvatarImageTypePNG  AvatarImageType = "png"
)

// contentType is the MIME type of the format.
func (t AvatarImageType) contentType() string {
	if t == AvatarImageTypePNG {
		return "image/png"
	}
	return "image/jpeg"
}

// MaxAvatarSize is the largest avatar image the service takes, 1 MiB.
const MaxAvatarSize = 1 << 20

// AvatarURLs are the URLs of an avatar's renditions (pic_urls).
type AvatarURLs struct {
	Small   string `json:"small,omitzero"`
	Large   string `json:"large,omitzero"`
	Preview string `json:"preview,omitzero"`
}

// UserAvatar is the answer of AvatarsService.Upload (UserAvatar).
type UserAvatar struct {
	PicURLs *AvatarURLs `json:"pic_urls,omitzero"`
}

// Get streams a user's avatar image (GET /users/{user_id}/avatar); its
// format is the response's Content-Type. The caller must close the body.
// A user without an avatar gets an *APIError matching ErrNotFound.
func (s *AvatarsService) Get(ctx context.Context, userID string) (io.ReadCloser, *Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, nil, err
	}
	r, err := s.client.newRequest(http.MethodGet, s.client.cfg.baseURL, nil, "users", userID, "avatar")
	if err != nil {
		return nil, nil, err
	}
	r.header.Set("Accept", "image/*")
	resp, err := s.client.send(ctx, r)
	if err != nil {
		return nil, resp, err
	}
	return resp.Body, resp, nil
}

// Upload sets a user's avatar from a JPEG or PNG image of size bytes (-1
// when unknown; at most MaxAvatarSize), sent as multipart/form-data
// (POST /users/{user_id}/avatar; the service answers 201 for a new avatar,
// 200 for a replaced one). The image is streamed, not held in memory. An
// io.ReadSeeker or io.ReaderAt can be sent again, so the call is retried
// like an idempotent one (setting the same avatar twice changes nothing);
// a plain io.Reader is sent once.
func (s *AvatarsService) Upload(ctx context.Context, userID string, imageType AvatarImageType, r io.Reader, size int64) (*UserAvatar, *Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, nil, err
	}
	if imageType == "" {
		return nil, nil, invalidArg("image type", "empty")
	}
	if err := checkEnum("image type", imageType, AvatarImageTypeJPEG, AvatarImageTypePNG); err != nil {
		return nil, nil, err
	}
	if r == nil {
		return nil, nil, invalidArg("reader", "nil")
	}
	if size > MaxAvatarSize {
		return nil, nil, invalidArg("size", fmt.Sprintf("%d bytes is above the maximum, %d", size, MaxAvatarSize))
	}
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	src, err := newUploadSource(r, size)
	if err != nil {
		return nil, nil, err
	}
	if src.size > MaxAvatarSize {
		return nil, nil, invalidArg("size", fmt.Sprintf("%d bytes is above the maximum, %d", src.size, MaxAvatarSize))
	}
	req, err := s.client.newRequest(http.MethodPost, s.client.cfg.baseURL, nil, "users", userID, "avatar")
	if err != nil {
		return nil, nil, err
	}
	body, contentType, err := avatarBody(imageType, src)
	if err != nil {
		return nil, nil, err
	}
	req.header.Set("Content-Type", contentType)
	req.body = body
	if src.replayable {
		ctx = WithIdempotent(ctx)
	}
	avatar := new(UserAvatar)
	resp, err := s.client.do(ctx, req, avatar)
	if short := src.short(); short != nil {
		return nil, resp, short
	}
	if err != nil {
		return nil, resp, err
	}
	return avatar, resp, nil
}

// avatarBody frames the image as the form's one part, pic. The framing is
// built once; each Open streams prefix, image and suffix.
func avatarBody(imageType AvatarImageType, src *uploadSource) (*transport.Body, string, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="pic"; filename="avatar.`+string(imageType)+`"`)
	h.Set("Content-Type", imageType.contentType())
	if _, err := mw.CreatePart(h); err != nil {
		return nil, "", err
	}
	prefix := bytes.Clone(buf.Bytes())
	buf.Reset()
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	suffix := bytes.Clone(buf.Bytes())
	length := int64(-1)
	if src.size >= 0 {
		length = int64(len(prefix)) + src.size + int64(len(suffix))
	}
	return &transport.Body{
		ContentLength: length,
		Replayable:    src.replayable,
		Open: func() (io.ReadCloser, error) {
			content, err := src.open()
			if err != nil {
				return nil, err
			}
			return io.NopCloser(io.MultiReader(bytes.NewReader(prefix), content, bytes.NewReader(suffix))), nil
		},
	}, mw.FormDataContentType(), nil
}

// Delete removes a user's avatar (DELETE /users/{user_id}/avatar).
func (s *AvatarsService) Delete(ctx context.Context, userID string) (*Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "users", userID, "avatar")
}
