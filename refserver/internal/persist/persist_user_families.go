package persist

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"

	"github.com/contentapi/cms/refserver/internal/state"
)

// Records of email aliases, invites and file requests.

// recEmailAlias is an email alias.
type recEmailAlias struct {
	User, Email string
	Confirmed   bool
}

// EmailAliasKeys lists the ids of the email aliases, sorted.
func EmailAliasKeys(s *state.ReadTx) []string { return s.EmailAliases.ByID.Keys() }

// EmailAliasRec is the record of alias id, false when it is gone.
func EmailAliasRec(s *state.ReadTx, id string) (recEmailAlias, bool) {
	a, ok := s.EmailAliases.ByID.Get(id)
	if !ok {
		return recEmailAlias{}, false
	}
	return recEmailAlias{User: userID(a.User), Email: a.Email, Confirmed: a.Confirmed}, true
}

// LoadEmailAlias restores alias id (after the users).
func LoadEmailAlias(s *state.Tx, id string, r recEmailAlias) error {
	u, err := userByRef(&s.Users, r.User)
	if err != nil {
		return err
	}
	s.AddEmailAlias(&state.EmailAlias{ID: id, User: u, Email: r.Email, Confirmed: r.Confirmed})
	return nil
}

// recInvite is an invite to the enterprise.
type recInvite struct {
	To, By, Status        string
	CreatedAt, ModifiedAt time.Time
}

// InviteKeys lists the ids of the invites, sorted.
func InviteKeys(s *state.ReadTx) []string { return s.Invites.ByID.Keys() }

// InviteRec is the record of invite id, false when it is gone.
func InviteRec(s *state.ReadTx, id string) (recInvite, bool) {
	in, ok := s.Invites.ByID.Get(id)
	if !ok {
		return recInvite{}, false
	}
	return recInvite{To: userID(in.To), By: userID(in.By), Status: in.Status,
		CreatedAt: utcTime(in.CreatedAt), ModifiedAt: utcTime(in.ModifiedAt)}, true
}

// LoadInvite restores invite id (after the users).
func LoadInvite(s *state.Tx, id string, r recInvite) error {
	us, err := usersByRef(&s.Users, r.To, r.By)
	if err != nil {
		return err
	}
	s.Invites.ByID.Put(id, &state.Invite{ID: id, To: us[0], By: us[1], Status: r.Status, CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt})
	return nil
}

// recFileRequest is a file request.
type recFileRequest struct {
	FolderID, Title, Description string
	HasDescription               bool
	Status                       string
	EmailRequired, DescRequired  bool
	ExpiresAt                    time.Time
	Etag                         int
	CreatedBy, UpdatedBy         string
	CreatedAt, UpdatedAt         time.Time
}

// FileRequestKeys lists the ids of the file requests, sorted.
func FileRequestKeys(s *state.ReadTx) []string { return s.FileRequests.ByID.Keys() }

// FileRequestRec is the record of file request id, false when it is gone.
func FileRequestRec(s *state.ReadTx, id string) (recFileRequest, bool) {
	fr, ok := s.FileRequests.ByID.Get(id)
	if !ok {
		return recFileRequest{}, false
	}
	return recFileRequest{
		FolderID: fr.FolderID, Title: fr.Title, Description: fr.Description, HasDescription: fr.HasDescription,
		Status: fr.Status, EmailRequired: fr.EmailRequired, DescRequired: fr.DescRequired,
		ExpiresAt: utcTime(fr.ExpiresAt), Etag: fr.Etag,
		CreatedBy: userID(fr.CreatedBy), UpdatedBy: userID(fr.UpdatedBy),
		CreatedAt: utcTime(fr.CreatedAt), UpdatedAt: utcTime(fr.UpdatedAt),
	}, true
}

// LoadFileRequest restores file request id (after the users and items).
func LoadFileRequest(s *state.Tx, id string, r recFileRequest) error {
	us, err := usersByRef(&s.Users, r.CreatedBy, r.UpdatedBy)
	if err != nil {
		return err
	}
	s.AddFileRequest(&state.FileRequest{
		ID: id, FolderID: r.FolderID, Title: r.Title, Description: r.Description, HasDescription: r.HasDescription,
		Status: r.Status, EmailRequired: r.EmailRequired, DescRequired: r.DescRequired,
		ExpiresAt: r.ExpiresAt, Etag: r.Etag, CreatedBy: us[0], UpdatedBy: us[1],
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	})
	return nil
}

// recCascade is a metadata cascade policy.
type recCascade struct {
	FolderID, TemplateID string
	Seq                  int64
}

// CascadeKeys lists the ids of the cascade policies, sorted.
func CascadeKeys(s *state.ReadTx) []string { return s.Cascades.ByID.Keys() }

// CascadeRec is the record of policy id, false when it is gone.
func CascadeRec(s *state.ReadTx, id string) (recCascade, bool) {
	c, ok := s.Cascades.ByID.Get(id)
	if !ok {
		return recCascade{}, false
	}
	return recCascade{FolderID: c.FolderID, TemplateID: c.Tmpl.ID, Seq: c.Seq}, true
}

// LoadCascade restores policy id (after the templates); CascadesLoaded
// then orders each folder's by creation.
func LoadCascade(s *state.Tx, id string, r recCascade) error {
	t := s.Metadata.ByID.At(r.TemplateID)
	if t == nil {
		return fmt.Errorf("cascade policy %s: unknown template %s", id, r.TemplateID)
	}
	s.AddCascadePolicy(&state.CascadePolicy{ID: id, FolderID: r.FolderID, Tmpl: t, Seq: r.Seq})
	return nil
}

// CascadesLoaded orders each folder's restored policies by creation.
func CascadesLoaded(s *state.Tx) error {
	for _, cs := range s.Cascades.ByFolder {
		slices.SortFunc(cs, func(a, b *state.CascadePolicy) int { return cmp.Compare(a.Seq, b.Seq) })
	}
	return nil
}

// recAvatar is the avatar of the user whose id is the key.
type recAvatar struct {
	Blob        blob.Info
	ContentType string
}

// AvatarKeys lists the ids of the users with an avatar, sorted.
func AvatarKeys(s *state.ReadTx) []string { return s.Avatars.ByUser.Keys() }

// AvatarRec is the record of user id's avatar, false when there is none.
func AvatarRec(s *state.ReadTx, id string) (recAvatar, bool) {
	a, ok := s.Avatars.ByUser.Get(id)
	if !ok {
		return recAvatar{}, false
	}
	return recAvatar{Blob: a.Blob, ContentType: a.ContentType}, true
}

// LoadAvatar restores user id's avatar.
func LoadAvatar(s *state.Tx, id string, r recAvatar) error {
	s.Avatars.ByUser.Put(id, &state.Avatar{Blob: r.Blob, ContentType: r.ContentType})
	return nil
}
