package state

import (
	"github.com/contentapi/cms/refserver/internal/wire"
)

// PreflightBody is the body of OPTIONS /files/content.
type PreflightBody struct {
	Name   *string `json:"name"`
	Size   *int64  `json:"size"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
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
		return Reply{}, s.ErrNameInUse(c)
	}
	return Reply{wire.StatusOK, map[string]any{
		"upload_url":   s.UploadURL + "/files/content",
		"upload_token": RandomHex(24),
	}}, nil
}
