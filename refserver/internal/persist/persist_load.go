package persist

import (
	"fmt"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// LoadItem restores the item record r with key (state.ItemTable.RecordKey).
func LoadItem(st *state.Tx, key string, r RecItem) error {
	it, err := DecodeItem(st, state.ItemIDOfKey(key), r)
	if err != nil {
		return err
	}
	if want := st.Items.RecordKey(it.Typ, it.ID); want != key {
		return fmt.Errorf("a %s's record has key %q, not %q (id spaces of another server?)", it.Typ, key, want)
	}
	st.Items.Put(it)
	st.Persist.Load.Items = append(st.Persist.Load.Items, it)
	return nil
}

// DecodeItem rebuilds the item of record r.
func DecodeItem(st *state.Tx, id string, r RecItem) (*state.Item, error) {
	us, err := usersByRef(&st.Users, r.Owner, r.CreatedBy, r.ModifiedBy)
	if err != nil {
		return nil, err
	}
	it := &state.Item{
		Typ: r.Type, ID: id, Name: r.Name, ParentID: r.ParentID, Owner: us[0], CreatedBy: us[1], ModBy: us[2],
		CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt,
		ContentCreatedAt: r.ContentCreatedAt, ContentModifiedAt: r.ContentModifiedAt,
		Seq: r.Seq, Hidden: r.Hidden, CompanyDownloads: r.DownloadAccess == "company",
	}
	it.SetReadyAt(r.ReadyAt)
	x := state.ItemExtras{Description: r.Description, Tags: r.Tags, URL: r.URL, SyncState: r.SyncState, UploadEmail: r.UploadEmail,
		TrashedAt: r.TrashedAt, TrashedWith: r.TrashedWith}
	for _, r := range r.Versions { // a purged file's copy, or a record of schema 3 or earlier
		v, err := decodeVersion(&st.ReadTx, r)
		if err != nil {
			return nil, err
		}
		it.Versions = append(it.Versions, v)
	}
	if l := r.Lock; l != nil {
		by, err := userByRef(&st.Users, l.By)
		if err != nil {
			return nil, err
		}
		x.Lock = &state.FileLock{ID: l.ID, By: by, CreatedAt: l.CreatedAt, ExpiresAt: l.ExpiresAt, DownloadPrevented: l.DownloadPrevented}
	}
	if fs := r.FolderSettings; fs != nil {
		it.CanNonOwnersInvite, it.CanNonOwnersViewCollab, it.RestrictedToEnterprise = state.OptBoolOf(fs[0]), state.OptBoolOf(fs[1]), state.OptBoolOf(fs[2])
	}
	if l := r.Link; l != nil {
		x.Link = &state.SharedLink{Token: l.Token, Access: l.Access, Password: l.Password, VanityName: l.VanityName, UnsharedAt: l.UnsharedAt,
			CanDownload: l.CanDownload, CanEdit: l.CanEdit}
	}
	it.SetExtras(x)
	return it, nil
}

// decodeVersion rebuilds the version of record r.
func decodeVersion(st *state.ReadTx, r recVersion) (*state.Version, error) {
	us, err := usersByRef(&st.Users, r.By, r.TrashedBy, r.RestoredBy)
	if err != nil {
		return nil, err
	}
	v := state.NewVersion(r.ID, r.Blob.Ref, r.CreatedAt, us[0])
	if r.Name != "" {
		v.SetName(r.Name)
	}
	v.SetTrash(r.TrashedAt, r.RestoredAt, us[1], us[2])
	return v, nil
}

// DecodeFileRef finds, while loading, the file and version r names among
// the live items or the purged ones governance records keep; purged files
// are shared between the records that name them (purged caches them by
// id).
func DecodeFileRef(st *state.Tx, r FileRef, purged map[string]*state.Item) (*state.Item, *state.Version, error) {
	f := st.Items.At("file", r.File)
	if r.Purged != nil {
		if f = purged[r.File]; f == nil {
			var err error
			if f, err = DecodeItem(st, r.File, *r.Purged); err != nil {
				return nil, nil, err
			}
			if len(f.Versions) == 0 {
				return nil, nil, fmt.Errorf("purged file %s has no version", r.File)
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

// LoadFVR restores the file version retention record r with id.
func LoadFVR(st *state.Tx, id string, r RecFVR) error {
	f, v, err := DecodeFileRef(st, r.FileRef, st.Persist.Load.Purged)
	if err != nil {
		return err
	}
	fvr := &state.FileVersionRetention{ID: id, File: f, Version: v, Sources: map[*state.RetentionAssignment]time.Time{}, Applied: r.Applied}
	for aid, at := range r.Sources {
		a := st.Retention.Assignments.At(aid)
		if a == nil {
			return fmt.Errorf("unknown retention assignment %s", aid)
		}
		fvr.Sources[a] = at
	}
	st.Retention.Fvrs.Put(id, fvr)
	st.Retention.ByVersion[v.ID] = fvr
	return nil
}

// LoadHold restores the file version legal hold record r with id.
func LoadHold(st *state.Tx, id string, r RecHold) error {
	f, v, err := DecodeFileRef(st, r.FileRef, st.Persist.Load.Purged)
	if err != nil {
		return err
	}
	h := &state.FileVersionLegalHold{ID: id, File: f, Version: v}
	for _, aid := range r.Sources {
		a := st.Holds.Assignments.At(aid)
		if a == nil {
			return fmt.Errorf("unknown legal hold assignment %s", aid)
		}
		h.Sources = append(h.Sources, a)
	}
	st.Holds.Holds.Put(id, h)
	st.Holds.ByVersion[v.ID] = h
	return nil
}
