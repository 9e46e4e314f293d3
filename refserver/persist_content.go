package refserver

import (
	"fmt"

	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
)

func metaKeys(*Server) []string { return []string{state.MetaKey} }

// loadMeta restores the ids and keys. A token that Options gave wins over
// the stored one (and is stored by the first flush); the others are the
// stored ones, so that clients keep working across a restart.
func (s *Server) loadMeta(_ string, r persist.RecMeta) error {
	s.st.EnterpriseID, s.st.SignKey, s.st.NextID = r.EnterpriseID, r.SignKey, r.NextID
	for _, t := range []struct {
		opt    *string
		fixed  string
		stored string
	}{
		{&s.st.Cfg.AdminToken, s.fixedTokens[0], r.AdminToken},
		{&s.st.Cfg.UserToken, s.fixedTokens[1], r.UserToken},
		{&s.st.Cfg.AppToken, s.fixedTokens[2], r.AppToken},
		{&s.st.Cfg.WebhookPrimaryKey, s.fixedKeys[0], r.WebhookPrimaryKey},
		{&s.st.Cfg.WebhookSecondaryKey, s.fixedKeys[1], r.WebhookSecondaryKey},
	} {
		if t.fixed == "" && t.stored != "" {
			*t.opt = t.stored
		}
	}
	return nil
}

func (s *Server) loadItem(id string, r persist.RecItem) error {
	it, err := s.decodeItem(id, r)
	if err != nil {
		return err
	}
	s.st.Items[id] = it
	return nil
}

func (s *Server) decodeItem(id string, r persist.RecItem) (*state.Item, error) {
	us, err := s.st.UsersByRef(r.Owner, r.CreatedBy, r.ModifiedBy)
	if err != nil {
		return nil, err
	}
	it := &state.Item{
		Typ: r.Type, ID: id, Name: r.Name, ParentID: r.ParentID, Owner: us[0], CreatedBy: us[1], ModBy: us[2],
		Description: r.Description, CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt,
		ContentCreatedAt: r.ContentCreatedAt, ContentModifiedAt: r.ContentModifiedAt,
		Seq: r.Seq, SyncState: r.SyncState, UploadEmail: r.UploadEmail, Hidden: r.Hidden,
		ReadyAt: r.ReadyAt, URL: r.URL, TrashedAt: r.TrashedAt, TrashedWith: r.TrashedWith,
	}
	for _, v := range r.Versions {
		us, err := s.st.UsersByRef(v.By, v.TrashedBy, v.RestoredBy)
		if err != nil {
			return nil, err
		}
		it.Versions = append(it.Versions, &state.Version{ID: v.ID, Blob: v.Blob, CreatedAt: v.CreatedAt, By: us[0],
			TrashedAt: v.TrashedAt, RestoredAt: v.RestoredAt, TrashedBy: us[1], RestoredBy: us[2]})
	}
	it.Tags, it.DownloadAccess = r.Tags, r.DownloadAccess
	if l := r.Lock; l != nil {
		by, err := s.st.UserByRef(l.By)
		if err != nil {
			return nil, err
		}
		it.Lock = &state.FileLock{ID: l.ID, By: by, CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt, DownloadPrevented: l.DownloadPrevented}
	}
	if fs := r.FolderSettings; fs != nil {
		it.CanNonOwnersInvite, it.CanNonOwnersViewCollab, it.RestrictedToEnterprise = fs[0], fs[1], fs[2]
	}
	if l := r.Link; l != nil {
		it.Link = &state.SharedLink{Token: l.Token, Access: l.Access, Password: l.Password, VanityName: l.VanityName, UnsharedAt: l.UnsharedAt,
			CanDownload: l.CanDownload, CanEdit: l.CanEdit}
	}
	if it.Typ == "file" && len(it.Versions) == 0 {
		return nil, fmt.Errorf("file %s has no version", id)
	}
	return it, nil
}

// decodeFileRef resolves a fileRef while loading; purged files are shared
// between the records that name them (purged caches them by id).
func (s *Server) decodeFileRef(r persist.FileRef, purged map[string]*state.Item) (*state.Item, *state.Version, error) {
	f := s.st.Items[r.File]
	if r.Purged != nil {
		if f = purged[r.File]; f == nil {
			var err error
			if f, err = s.decodeItem(r.File, *r.Purged); err != nil {
				return nil, nil, err
			}
			purged[r.File] = f
		}
	}
	if f == nil {
		return nil, nil, fmt.Errorf("unknown file %s", r.File)
	}
	for _, v := range f.Versions {
		if v.ID == r.Version {
			return f, v, nil
		}
	}
	return nil, nil, fmt.Errorf("file %s has no version %s", r.File, r.Version)
}
