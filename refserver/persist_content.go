package refserver

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// Records of the server itself, its users, items and upload sessions.

const metaKey = "server"

// recMeta is the server's own record.
type recMeta struct {
	EnterpriseID string
	SignKey      []byte
	NextID       int64
	AdminToken   string
	UserToken    string
	AppToken     string
	// The webhook signature keys (absent in states of earlier servers).
	WebhookPrimaryKey, WebhookSecondaryKey string `json:",omitempty"`
}

func metaKeys(*Server) []string { return []string{metaKey} }

func (s *state) metaRec(key string) (recMeta, bool) {
	return recMeta{
		EnterpriseID: s.enterpriseID, SignKey: s.signKey, NextID: s.nextID,
		AdminToken: s.cfg.AdminToken, UserToken: s.cfg.UserToken, AppToken: s.cfg.AppToken,
		WebhookPrimaryKey: s.cfg.WebhookPrimaryKey, WebhookSecondaryKey: s.cfg.WebhookSecondaryKey,
	}, key == metaKey
}

// loadMeta restores the ids and keys. A token that Options gave wins over
// the stored one (and is stored by the first flush); the others are the
// stored ones, so that clients keep working across a restart.
func (s *Server) loadMeta(_ string, r recMeta) error {
	s.enterpriseID, s.signKey, s.nextID = r.EnterpriseID, r.SignKey, r.NextID
	for _, t := range []struct {
		opt    *string
		fixed  string
		stored string
	}{
		{&s.cfg.AdminToken, s.fixedTokens[0], r.AdminToken},
		{&s.cfg.UserToken, s.fixedTokens[1], r.UserToken},
		{&s.cfg.AppToken, s.fixedTokens[2], r.AppToken},
		{&s.cfg.WebhookPrimaryKey, s.fixedKeys[0], r.WebhookPrimaryKey},
		{&s.cfg.WebhookSecondaryKey, s.fixedKeys[1], r.WebhookSecondaryKey},
	} {
		if t.fixed == "" && t.stored != "" {
			*t.opt = t.stored
		}
	}
	return nil
}

// initPrincipalTokens rebuilds the principals from the (restored) tokens.
func (s *state) initPrincipalTokens() error {
	o := &s.cfg
	if o.AdminToken == o.UserToken || o.AdminToken == o.AppToken || o.UserToken == o.AppToken {
		return errString("refserver: the admin, user and app tokens must differ")
	}
	s.principals = map[string]*principal{
		o.AdminToken: {kind: "admin", token: o.AdminToken, user: s.admin},
		o.UserToken:  {kind: "user", token: o.UserToken, user: s.user},
		o.AppToken:   {kind: "app", token: o.AppToken, user: s.app},
	}
	return nil
}

// recUser is an enterprise user, deleted ones included (records of other
// kinds may still name them).
type recUser struct {
	Name, Login, Role                                      string
	CreatedAt, ModifiedAt                                  time.Time
	Status, Language, Timezone                             string
	SpaceAmount, MaxUploadSize                             int64
	JobTitle, Phone, Address, NotificationEmail            string
	TrackingCodes                                          []trackingCode
	CanSeeManagedUsers, IsSyncEnabled                      bool
	IsExternalCollabRestricted, IsExemptFromDeviceLimits   bool
	IsExemptFromLoginVerification, IsPasswordResetRequired bool
	AppUser                                                bool
	ExternalAppUserID                                      string
	Free, Deleted                                          bool
}

func (s *state) userKeys() []string {
	keys := sortedKeys(s.users.byID)
	return append(keys, sortedKeys(s.users.removed)...)
}

func (s *state) userRec(id string) (recUser, bool) {
	u := s.users.byID[id]
	if u == nil {
		u = s.users.removed[id]
	}
	if u == nil {
		return recUser{}, false
	}
	return recUser{
		Name: u.name, Login: u.login, Role: u.role, CreatedAt: utc(u.createdAt), ModifiedAt: utc(u.modifiedAt),
		Status: u.status, Language: u.language, Timezone: u.timezone,
		SpaceAmount: u.spaceAmount, MaxUploadSize: u.maxUploadSize,
		JobTitle: u.jobTitle, Phone: u.phone, Address: u.address, NotificationEmail: u.notificationEmail,
		TrackingCodes:      u.trackingCodes,
		CanSeeManagedUsers: u.canSeeManagedUsers, IsSyncEnabled: u.isSyncEnabled,
		IsExternalCollabRestricted: u.isExternalCollabRestricted, IsExemptFromDeviceLimits: u.isExemptFromDeviceLimits,
		IsExemptFromLoginVerification: u.isExemptFromLoginVerification, IsPasswordResetRequired: u.isPasswordResetRequired,
		AppUser: u.appUser, ExternalAppUserID: u.externalAppUserID, Free: u.free, Deleted: u.deleted,
	}, true
}

// loadUser restores a user into the indexes (usersLoaded orders them);
// the admin, user and app objects of the principals are filled in place.
func (s *state) loadUser(id string, r recUser) error {
	u := &user{}
	for _, known := range []*user{s.admin, s.user, s.app} {
		if known.id == id {
			u = known
		}
	}
	*u = user{id: id, name: r.Name, login: r.Login, role: r.Role, createdAt: r.CreatedAt, userProfile: userProfile{
		modifiedAt: r.ModifiedAt, status: r.Status, language: r.Language, timezone: r.Timezone,
		spaceAmount: r.SpaceAmount, maxUploadSize: r.MaxUploadSize,
		jobTitle: r.JobTitle, phone: r.Phone, address: r.Address, notificationEmail: r.NotificationEmail,
		trackingCodes:      r.TrackingCodes,
		canSeeManagedUsers: r.CanSeeManagedUsers, isSyncEnabled: r.IsSyncEnabled,
		isExternalCollabRestricted: r.IsExternalCollabRestricted, isExemptFromDeviceLimits: r.IsExemptFromDeviceLimits,
		isExemptFromLoginVerification: r.IsExemptFromLoginVerification, isPasswordResetRequired: r.IsPasswordResetRequired,
		appUser: r.AppUser, externalAppUserID: r.ExternalAppUserID, free: r.Free, deleted: r.Deleted,
	}}
	if u.deleted {
		s.users.removed[id] = u
		return nil
	}
	s.users.byID[id] = u
	s.users.byLogin[strings.ToLower(u.login)] = u
	s.users.order = append(s.users.order, u)
	return nil
}

func (s *state) usersLoaded() error {
	sort.SliceStable(s.users.order, func(i, j int) bool { return numID(s.users.order[i].id) < numID(s.users.order[j].id) })
	for _, u := range []*user{s.admin, s.user, s.app} { // the managed user may be deleted
		if s.users.byID[u.id] != u && s.users.removed[u.id] != u {
			return fmt.Errorf("the record of user %s is missing", u.id)
		}
	}
	return nil
}

// recItem is a file (with its versions), a folder or a web link.
type recItem struct {
	Type, Name, ParentID                string
	Owner, CreatedBy, ModifiedBy        string
	Description                         string
	CreatedAt, ModifiedAt               time.Time
	ContentCreatedAt, ContentModifiedAt time.Time
	Seq                                 int
	SyncState, UploadEmail              string
	Hidden                              bool
	Versions                            []recVersion
	ReadyAt                             time.Time
	URL                                 string
	Link                                *recSharedLink
	TrashedAt                           time.Time
	TrashedWith                         string
	ID                                  string `json:",omitempty"` // only in the copies other records keep
	// Everyday content (items_update.go, file_locks.go); absent in the
	// states of earlier servers.
	Tags           []string  `json:",omitempty"`
	Lock           *recLock  `json:",omitempty"`
	DownloadAccess string    `json:",omitempty"`
	FolderSettings *[3]*bool `json:",omitempty"` // can_non_owners_invite, can_non_owners_view_collaborators, is_collaboration_restricted_to_enterprise
}

type recLock struct {
	ID, By               string
	CreatedAt, ExpiresAt time.Time
	DownloadPrevented    bool
}

type recVersion struct {
	ID        string
	Blob      BlobInfo
	CreatedAt time.Time
	By        string
	// A version in the trash, and its last restore (file_versions.go).
	TrashedAt, RestoredAt time.Time `json:",omitzero"`
	TrashedBy, RestoredBy string    `json:",omitempty"`
}

type recSharedLink struct {
	Token, Access, Password, VanityName string
	UnsharedAt                          time.Time
	CanDownload, CanEdit                *bool `json:",omitempty"`
}

func (s *state) itemKeys() []string { return sortedKeys(s.items) }

func (s *state) itemRec(id string) (recItem, bool) {
	it, ok := s.items[id]
	if !ok {
		return recItem{}, false
	}
	return encodeItem(it), true
}

func encodeItem(it *item) recItem {
	r := recItem{
		Type: it.typ, Name: it.name, ParentID: it.parentID,
		Owner: uid(it.owner), CreatedBy: uid(it.createdBy), ModifiedBy: uid(it.modBy),
		Description: it.description, CreatedAt: utc(it.createdAt), ModifiedAt: utc(it.modifiedAt),
		ContentCreatedAt: utc(it.contentCreatedAt), ContentModifiedAt: utc(it.contentModifiedAt),
		Seq: it.seq, SyncState: it.syncState, UploadEmail: it.uploadEmail, Hidden: it.hidden,
		ReadyAt: utc(it.readyAt), URL: it.url, TrashedAt: utc(it.trashedAt), TrashedWith: it.trashedWith,
	}
	for _, v := range it.versions {
		r.Versions = append(r.Versions, recVersion{ID: v.id, Blob: v.blob, CreatedAt: utc(v.createdAt), By: uid(v.by),
			TrashedAt: utc(v.trashedAt), RestoredAt: utc(v.restoredAt), TrashedBy: uid(v.trashedBy), RestoredBy: uid(v.restoredBy)})
	}
	r.Tags, r.DownloadAccess = it.tags, it.downloadAccess
	if l := it.lock; l != nil {
		r.Lock = &recLock{ID: l.id, By: uid(l.by), CreatedAt: utc(l.createdAt), ExpiresAt: utc(l.expiresAt), DownloadPrevented: l.downloadPrevented}
	}
	if it.canNonOwnersInvite != nil || it.canNonOwnersViewCollab != nil || it.restrictedToEnterprise != nil {
		r.FolderSettings = &[3]*bool{it.canNonOwnersInvite, it.canNonOwnersViewCollab, it.restrictedToEnterprise}
	}
	if l := it.link; l != nil {
		r.Link = &recSharedLink{Token: l.token, Access: l.access, Password: l.password, VanityName: l.vanityName, UnsharedAt: utc(l.unsharedAt),
			CanDownload: l.canDownload, CanEdit: l.canEdit}
	}
	return r
}

func (s *Server) loadItem(id string, r recItem) error {
	it, err := s.decodeItem(id, r)
	if err != nil {
		return err
	}
	s.items[id] = it
	return nil
}

// itemsLoaded files the loaded items in the folder indexes, which are
// derived and not stored.
func (s *state) itemsLoaded() error {
	for _, it := range s.items {
		s.folders.sync(it)
	}
	return nil
}

func (s *Server) decodeItem(id string, r recItem) (*item, error) {
	us, err := s.usersByRef(r.Owner, r.CreatedBy, r.ModifiedBy)
	if err != nil {
		return nil, err
	}
	it := &item{
		typ: r.Type, id: id, name: r.Name, parentID: r.ParentID, owner: us[0], createdBy: us[1], modBy: us[2],
		description: r.Description, createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt,
		contentCreatedAt: r.ContentCreatedAt, contentModifiedAt: r.ContentModifiedAt,
		seq: r.Seq, syncState: r.SyncState, uploadEmail: r.UploadEmail, hidden: r.Hidden,
		readyAt: r.ReadyAt, url: r.URL, trashedAt: r.TrashedAt, trashedWith: r.TrashedWith,
	}
	for _, v := range r.Versions {
		us, err := s.usersByRef(v.By, v.TrashedBy, v.RestoredBy)
		if err != nil {
			return nil, err
		}
		it.versions = append(it.versions, &version{id: v.ID, blob: v.Blob, createdAt: v.CreatedAt, by: us[0],
			trashedAt: v.TrashedAt, restoredAt: v.RestoredAt, trashedBy: us[1], restoredBy: us[2]})
	}
	it.tags, it.downloadAccess = r.Tags, r.DownloadAccess
	if l := r.Lock; l != nil {
		by, err := s.userByRef(l.By)
		if err != nil {
			return nil, err
		}
		it.lock = &fileLock{id: l.ID, by: by, createdAt: l.CreatedAt, expiresAt: l.ExpiresAt, downloadPrevented: l.DownloadPrevented}
	}
	if fs := r.FolderSettings; fs != nil {
		it.canNonOwnersInvite, it.canNonOwnersViewCollab, it.restrictedToEnterprise = fs[0], fs[1], fs[2]
	}
	if l := r.Link; l != nil {
		it.link = &sharedLink{token: l.Token, access: l.Access, password: l.Password, vanityName: l.VanityName, unsharedAt: l.UnsharedAt,
			canDownload: l.CanDownload, canEdit: l.CanEdit}
	}
	if it.typ == "file" && len(it.versions) == 0 {
		return nil, fmt.Errorf("file %s has no version", id)
	}
	return it, nil
}

// fileRef is how a governance record names its file and version: by id
// while the file lives, and with a copy of the file once it was purged
// (the record still shows it).
type fileRef struct {
	File, Version string
	Purged        *recItem `json:",omitempty"`
}

// encodeFileRef names f and v for a record; a purged file is copied.
func (s *state) encodeFileRef(f *item, v *version) fileRef {
	r := fileRef{File: f.id, Version: v.id}
	if s.items[f.id] != f {
		c := encodeItem(f)
		c.ID = f.id
		r.Purged = &c
	}
	return r
}

// decodeFileRef resolves a fileRef while loading; purged files are shared
// between the records that name them (purged caches them by id).
func (s *Server) decodeFileRef(r fileRef, purged map[string]*item) (*item, *version, error) {
	f := s.items[r.File]
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
	for _, v := range f.versions {
		if v.id == r.Version {
			return f, v, nil
		}
	}
	return nil, nil, fmt.Errorf("file %s has no version %s", r.File, r.Version)
}

// recSession is an open upload session; its parts are records of their own.
type recSession struct {
	Owner                      string
	FolderID, FileID, FileName string
	FileSize, PartSize         int64
	TotalParts                 int
	ExpiresAt, LastPartAt      time.Time
	// Assembly names the session's content in an Assembler store (the
	// parts are written into it); "" when each part is a blob of its own
	// (recPart.BlobID). Final is the content a commit finished but that
	// no file took (the commit failed afterwards).
	Assembly string    `json:",omitempty"`
	Final    *BlobInfo `json:",omitempty"`
}

func (s *state) sessionKeys() []string { return sortedKeys(s.sessions) }

func (s *state) sessionRec(id string) (recSession, bool) {
	ss, ok := s.sessions[id]
	if !ok {
		return recSession{}, false
	}
	return recSession{
		Owner: uid(ss.owner), FolderID: ss.folderID, FileID: ss.fileID, FileName: ss.fileName,
		FileSize: ss.fileSize, PartSize: ss.partSize, TotalParts: ss.totalParts,
		ExpiresAt: utc(ss.expiresAt), LastPartAt: utc(ss.lastPartAt),
		Assembly: ss.asm.ID(), Final: ss.final,
	}, true
}

func (s *state) loadSession(id string, r recSession) error {
	owner, err := s.userByRef(r.Owner)
	if err != nil {
		return err
	}
	var asm Assembly = blob.NewParts(s.store, r.FileSize)
	if r.Assembly != "" {
		a, ok := s.store.(Assembler)
		if !ok {
			return fmt.Errorf("the store cannot reopen assembly %s", r.Assembly)
		}
		if asm, err = a.OpenAssembly(context.Background(), r.Assembly, r.FileSize); err != nil {
			return err
		}
	}
	ss := (&session{
		id: id, owner: owner, folderID: r.FolderID, fileID: r.FileID, fileName: r.FileName,
		fileSize: r.FileSize, partSize: r.PartSize, totalParts: r.TotalParts,
		expiresAt: r.ExpiresAt, lastPartAt: r.LastPartAt, parts: map[int64]*uploadPart{},
	}).withContent(asm)
	ss.final = r.Final
	s.sessions[id] = ss
	return nil
}

// recPart is one part of an open session, keyed "<session>/<offset>" with
// the offset zero-padded so that a session's parts are stored in order.
type recPart struct {
	ID     string
	Size   int64
	SHA1   string
	BlobID string `json:",omitempty"` // the part's blob, when the session has no assembly
}

// partKey is the key of the part of session sid at offset.
func partKey(sid string, offset int64) string { return fmt.Sprintf("%s/%020d", sid, offset) }

// dirtyPart marks the part of ss at offset.
func (s *state) dirtyPart(ss *session, offset int64) {
	if s.persist != nil {
		s.dirty(kParts, partKey(ss.id, offset))
	}
}

// dirtySession marks ss and every part of it (the session ended or
// expired).
func (s *state) dirtySession(ss *session) {
	if s.persist == nil {
		return
	}
	s.dirty(kSessions, ss.id)
	for off := range ss.parts {
		s.dirtyPart(ss, off)
	}
}

func (s *state) partKeys() []string {
	var keys []string
	for _, sid := range sortedKeys(s.sessions) {
		for _, pt := range sortedParts(s.sessions[sid]) {
			keys = append(keys, partKey(sid, pt.Offset))
		}
	}
	return keys
}

func splitPartKey(key string) (string, int64, bool) {
	sid, off, ok := strings.Cut(key, "/")
	n, err := strconv.ParseInt(off, 10, 64)
	return sid, n, ok && err == nil
}

func (s *state) partRec(key string) (recPart, bool) {
	sid, off, ok := splitPartKey(key)
	ss := s.sessions[sid]
	if !ok || ss == nil || ss.parts[off] == nil {
		return recPart{}, false
	}
	pt := ss.parts[off]
	rec := recPart{ID: pt.ID, Size: pt.Size, SHA1: pt.SHA1}
	if pa, ok := ss.asm.(*blob.Parts); ok {
		rec.BlobID = pa.PartBlob(off)
	}
	return rec, true
}

func (s *state) loadPart(key string, r recPart) error {
	sid, off, ok := splitPartKey(key)
	if !ok || s.sessions[sid] == nil {
		return fmt.Errorf("part of an unknown session")
	}
	ss := s.sessions[sid]
	ss.parts[off] = &uploadPart{ID: r.ID, Offset: off, Size: r.Size, SHA1: r.SHA1}
	if pa, ok := ss.asm.(*blob.Parts); ok {
		if r.BlobID == "" {
			return fmt.Errorf("part %s has no blob", key)
		}
		pa.RestorePart(off, BlobInfo{ID: r.BlobID, Size: r.Size, SHA1: r.SHA1})
	}
	return nil
}

// Ended sessions are stored as the UploadSessionInfo tests read.

func (s *state) endedKeys() []string { return sortedKeys(s.ended) }

func (s *state) endedRec(id string) (UploadSessionInfo, bool) {
	info, ok := s.ended[id]
	return info, ok
}

func (s *state) loadEnded(id string, r UploadSessionInfo) error {
	s.ended[id] = r
	return nil
}
