package state

import (
	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// User avatars (/users/{id}/avatar): one JPEG or PNG image per user, up to
// MaxAvatarSize bytes and MaxAvatarSide pixels a side, kept in the content
// store. A user sets and removes their own, the admin (or the service
// account) anyone's; another user is 403 forbidden. Every principal reads
// any enterprise user's. No such user, or no avatar to read or remove,
// is 404 not_found.

// Limits of an avatar image.
const (
	MaxAvatarSize = 1 << 20
	MaxAvatarSide = 1024
)

// Avatar is a user's avatar image.
type Avatar struct {
	Blob        blob.Info
	ContentType string // image/jpeg or image/png
}

// avatarState is the server's state for avatars, reached only through a
// transaction.
type avatarState struct {
	ByUser Table[*Avatar]
}

// InitAvatars prepares the (empty) state of avatars; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitAvatars() {
	s.Avatars = avatarState{ByUser: newTable[*Avatar](s.Env, KAvatars)}
}

// avatarUser is the user of an avatar route: 404 not_found for no such
// enterprise user; when change is set, 403 forbidden unless p is that user
// or the admin.
func (s *ReadTx) avatarUser(p *Principal, id string, change bool) (*User, *wire.Error) {
	u := s.EnterpriseUser(id)
	if !ValidID(id) || u == nil {
		return nil, wire.NotFound("user")
	}
	if change && !p.SeesAll() && p.User != u {
		return nil, wire.Errorf(wire.StatusForbidden, wire.CodeForbidden, "Only an admin or the user may change the user's avatar")
	}
	return u, nil
}

// CheckAvatarTarget checks, before the image is read, that p may set user
// id's avatar.
func (s *ReadTx) CheckAvatarTarget(p *Principal, id string) *wire.Error {
	_, aerr := s.avatarUser(p, id, true)
	return aerr
}

// SetAvatar serves POST /users/{user_id}/avatar once the image is stored
// (refserver's uploadAvatar): 201 for a first avatar, 200 for a new one;
// the blob of the avatar it replaces is deleted once the change is
// committed (the outbox).
func (s *Tx) SetAvatar(p *Principal, id string, b blob.Info, contentType string) (Reply, *wire.Error) {
	u, aerr := s.avatarUser(p, id, true)
	if aerr != nil {
		return Reply{}, aerr
	}
	status := wire.StatusCreated
	if a := s.Avatars.ByUser.At(u.ID); a != nil {
		status = wire.StatusOK
		s.out.deleteBlobs([]string{a.Blob.ID})
	}
	s.Avatars.ByUser.Put(u.ID, &Avatar{Blob: b, ContentType: contentType})
	url := s.BaseURL + "/users/" + u.ID + "/avatar"
	return Reply{status, map[string]any{"pic_urls": map[string]any{
		"small": url + "?pic_type=small", "large": url + "?pic_type=large", "preview": url,
	}}}, nil
}

// AvatarOf serves GET /users/{user_id}/avatar (getAvatar): the avatar of
// user id, which the handler streams.
func (s *ReadTx) AvatarOf(p *Principal, id string) (Avatar, *wire.Error) {
	u, aerr := s.avatarUser(p, id, false)
	if aerr != nil {
		return Avatar{}, aerr
	}
	a := s.Avatars.ByUser.At(u.ID)
	if a == nil {
		return Avatar{}, wire.NotFound("avatar")
	}
	return *a, nil
}

// DeleteAvatar serves DELETE /users/{user_id}/avatar (deleteAvatar): 204;
// the avatar's blob is deleted once the change is committed (the outbox).
func (s *Tx) DeleteAvatar(p *Principal, id string) (Reply, *wire.Error) {
	u, aerr := s.avatarUser(p, id, true)
	if aerr != nil {
		return Reply{}, aerr
	}
	a := s.Avatars.ByUser.At(u.ID)
	if a == nil {
		return Reply{}, wire.NotFound("avatar")
	}
	s.Avatars.ByUser.Delete(u.ID)
	s.out.deleteBlobs([]string{a.Blob.ID})
	return Reply{Status: wire.StatusNoContent}, nil
}
