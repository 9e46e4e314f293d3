package state

import (
	"github.com/contentapi/cms/refserver/internal/wire"
)

// PreflightBody is the body of OPTIONS /files/content and OPTIONS
// /files/{id}/content. Description is accepted and ignored: Box's own
// upload client (Box UI Elements) sends it, so the service takes it.
type PreflightBody struct {
	Name   *string `json:"name"`
	Size   *int64  `json:"size"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	Description *string `json:"description"`
}

// PreflightUpload serves OPTIONS /files/content (refserver's
// preflightUpload): whether p may upload the name into the parent folder
// (404, 403, 409 item_name_in_use), 200 with the upload URL and a token.
// Changes nothing.
func (s *Tx) PreflightUpload(p *Principal, body PreflightBody) (Reply, *wire.Error) {
	parent, aerr := s.ParentFolder(p, *body.Parent.ID)
	if aerr != nil {
		return Reply{}, aerr
	}
	if c := s.Conflict(*body.Parent.ID, OwnerIn(p, parent), *body.Name, nil); c != nil {
		return Reply{}, s.ErrUploadNameInUse(c)
	}
	return Reply{wire.StatusOK, map[string]any{
		"upload_url":   s.UploadURL + "/files/content",
		"upload_token": RandomHex(24),
	}}, nil
}

// PreflightNewVersion serves OPTIONS /files/{id}/content (refserver's
// preflightNewVersion): whether p may upload a new version of the file id
// (404, 403, 412 on an if-match mismatch, 409 item_name_in_use when name
// renames it to a name taken), 200 with the upload URL and a token.
// Changes nothing.
func (s *Tx) PreflightNewVersion(p *Principal, id, ifMatch, name string) (Reply, *wire.Error) {
	if aerr := s.CheckNewVersion(p, id, ifMatch, name); aerr != nil {
		return Reply{}, aerr
	}
	if aerr := s.LockRefuses(p, s.Items.At("file", id), ActUpload); aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, map[string]any{
		"upload_url":   s.UploadURL + "/files/" + id + "/content",
		"upload_token": RandomHex(24),
	}}, nil
}
