package persist

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// RecMeta is the server's own record.
type RecMeta struct {
	EnterpriseID string
	SignKey      []byte
	NextID       int64
	AdminToken   string
	UserToken    string
	AppToken     string
	// The webhook signature keys (absent in states of earlier servers).
	WebhookPrimaryKey, WebhookSecondaryKey string `json:",omitempty"`
	// SeparateIDSpaces: folder ids are drawn from NextFolderID (absent in
	// states of earlier servers, which have one id space).
	SeparateIDSpaces bool  `json:",omitempty"`
	NextFolderID     int64 `json:",omitempty"`
}

// appendRecord appends r as encoding/json writes it (TestMetaRecordEncoding),
// without its reflection: every commit that draws an id (an upload, a new
// folder or version) writes the record.
func (r RecMeta) appendRecord(b []byte) []byte {
	b = slices.Grow(b, 192+len(r.EnterpriseID)+base64.StdEncoding.EncodedLen(len(r.SignKey))+len(r.AdminToken)+len(r.UserToken)+
		len(r.AppToken)+len(r.WebhookPrimaryKey)+len(r.WebhookSecondaryKey)) // one allocation (escapes aside)
	b = append(b, `{"EnterpriseID":`...)
	b = wire.AppendString(b, r.EnterpriseID)
	b = append(b, `,"SignKey":`...)
	if r.SignKey == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, r.SignKey)
		b = append(b, '"')
	}
	b = append(b, `,"NextID":`...)
	b = strconv.AppendInt(b, r.NextID, 10)
	for _, f := range []struct{ name, v string }{{"AdminToken", r.AdminToken}, {"UserToken", r.UserToken}, {"AppToken", r.AppToken}} {
		b = append(b, `,"`...)
		b = append(b, f.name...)
		b = append(b, `":`...)
		b = wire.AppendString(b, f.v)
	}
	for _, f := range []struct{ name, v string }{{"WebhookPrimaryKey", r.WebhookPrimaryKey}, {"WebhookSecondaryKey", r.WebhookSecondaryKey}} {
		if f.v != "" {
			b = append(b, `,"`...)
			b = append(b, f.name...)
			b = append(b, `":`...)
			b = wire.AppendString(b, f.v)
		}
	}
	if r.SeparateIDSpaces {
		b = append(b, `,"SeparateIDSpaces":true`...)
	}
	if r.NextFolderID != 0 {
		b = append(b, `,"NextFolderID":`...)
		b = strconv.AppendInt(b, r.NextFolderID, 10)
	}
	return append(b, '}')
}

// MetaRec is the server's record (key MetaKey): its ids, keys and tokens;
// false for another key.
func MetaRec(s *state.ReadTx, key string) (RecMeta, bool) {
	return RecMeta{
		EnterpriseID: s.EnterpriseID, SignKey: bytes.Clone(s.SignKey), NextID: s.NextID,
		SeparateIDSpaces: s.Cfg.SeparateIDSpaces, NextFolderID: s.NextFolderID,
		AdminToken: s.Cfg.AdminToken, UserToken: s.Cfg.UserToken, AppToken: s.Cfg.AppToken,
		WebhookPrimaryKey: s.Cfg.WebhookPrimaryKey, WebhookSecondaryKey: s.Cfg.WebhookSecondaryKey,
	}, key == state.MetaKey
}

// MetaKeys is the key of the one meta record.
func MetaKeys(*state.ReadTx) []string { return []string{state.MetaKey} }

// FixedTokens are the tokens and webhook keys the server's Options gave
// ("" for one Options left to the state).
type FixedTokens struct {
	AdminToken, UserToken, AppToken        string
	WebhookPrimaryKey, WebhookSecondaryKey string
}

// MetaKind is the kind of the server's own record (state.KMeta): a token
// or key that fixed names wins over the stored one (and is stored by the
// first flush); the others are the stored ones, so that clients keep
// working across a restart. It is detached (MetaRec copies the signing
// key): every commit that creates an item writes the record, encoded after
// the state's lock is released.
func MetaKind(fixed FixedTokens) Kind {
	return KindOf("meta", MetaKeys, MetaRec, fixed.loadMeta, nil).Detached()
}

// loadMeta restores the ids, the signing key and the tokens fixed does
// not name. The id spaces are the stored state's, whatever
// Options.SeparateIDSpaces says: the keys of the item records depend on
// them (the meta record is loaded before the items).
func (fixed FixedTokens) loadMeta(tx *state.Tx, _ string, r RecMeta) error {
	tx.EnterpriseID, tx.SignKey, tx.NextID = r.EnterpriseID, r.SignKey, r.NextID
	tx.Cfg.SeparateIDSpaces, tx.NextFolderID = r.SeparateIDSpaces, r.NextFolderID
	for _, t := range []struct {
		opt           *string
		fixed, stored string
	}{
		{&tx.Cfg.AdminToken, fixed.AdminToken, r.AdminToken},
		{&tx.Cfg.UserToken, fixed.UserToken, r.UserToken},
		{&tx.Cfg.AppToken, fixed.AppToken, r.AppToken},
		{&tx.Cfg.WebhookPrimaryKey, fixed.WebhookPrimaryKey, r.WebhookPrimaryKey},
		{&tx.Cfg.WebhookSecondaryKey, fixed.WebhookSecondaryKey, r.WebhookSecondaryKey},
	} {
		if t.fixed == "" && t.stored != "" {
			*t.opt = t.stored
		}
	}
	return nil
}

// InitPrincipalTokens rebuilds the principals from the (restored) tokens.
func InitPrincipalTokens(s *state.Tx) error {
	o := &s.Cfg
	if o.AdminToken == o.UserToken || o.AdminToken == o.AppToken || o.UserToken == o.AppToken {
		return state.ErrString("refserver: the admin, user and app tokens must differ")
	}
	s.Principals = map[string]*state.Principal{
		o.AdminToken: {Kind: "admin", Token: o.AdminToken, User: s.Admin},
		o.UserToken:  {Kind: "user", Token: o.UserToken, User: s.User},
		o.AppToken:   {Kind: "app", Token: o.AppToken, User: s.App},
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
	TrackingCodes                                          []state.TrackingCode
	CanSeeManagedUsers, IsSyncEnabled                      bool
	IsExternalCollabRestricted, IsExemptFromDeviceLimits   bool
	IsExemptFromLoginVerification, IsPasswordResetRequired bool
	AppUser                                                bool
	ExternalAppUserID                                      string
	Free, Deleted                                          bool
}

// UserKeys lists the ids of the users, live ones then deleted ones (each
// sorted): the keys of their records.
func UserKeys(s *state.ReadTx) []string {
	keys := s.Users.ByID.Keys()
	return append(keys, s.Users.Removed.Keys()...)
}

// UserRec is the record of user id, live or deleted, false when there is
// none.
func UserRec(s *state.ReadTx, id string) (recUser, bool) {
	u := s.Users.ByID.At(id)
	if u == nil {
		u = s.Users.Removed.At(id)
	}
	if u == nil {
		return recUser{}, false
	}
	return recUser{
		Name: u.Name, Login: u.Login, Role: u.Role, CreatedAt: utcTime(u.CreatedAt), ModifiedAt: utcTime(u.ModifiedAt),
		Status: u.Status, Language: u.Language, Timezone: u.Timezone,
		SpaceAmount: u.SpaceAmount, MaxUploadSize: u.MaxUploadSize,
		JobTitle: u.JobTitle, Phone: u.Phone, Address: u.Address, NotificationEmail: u.NotificationEmail,
		TrackingCodes:      u.TrackingCodes,
		CanSeeManagedUsers: u.CanSeeManagedUsers, IsSyncEnabled: u.IsSyncEnabled,
		IsExternalCollabRestricted: u.IsExternalCollabRestricted, IsExemptFromDeviceLimits: u.IsExemptFromDeviceLimits,
		IsExemptFromLoginVerification: u.IsExemptFromLoginVerification, IsPasswordResetRequired: u.IsPasswordResetRequired,
		AppUser: u.AppUser, ExternalAppUserID: u.ExternalAppUserID, Free: u.Free, Deleted: u.Deleted(),
	}, true
}

// LoadUser restores a user into the indexes (UsersLoaded orders them);
// the admin, user and app objects of the principals are filled in place.
func LoadUser(s *state.Tx, id string, r recUser) error {
	u := &state.User{}
	for _, known := range []*state.User{s.Admin, s.User, s.App} {
		if known.ID == id {
			u = known
		}
	}
	*u = state.User{ID: id, Name: r.Name, Login: r.Login, Role: r.Role, CreatedAt: r.CreatedAt, UserProfile: state.UserProfile{
		ModifiedAt: r.ModifiedAt, Status: r.Status, Language: r.Language, Timezone: r.Timezone,
		SpaceAmount: r.SpaceAmount, MaxUploadSize: r.MaxUploadSize,
		JobTitle: r.JobTitle, Phone: r.Phone, Address: r.Address, NotificationEmail: r.NotificationEmail,
		TrackingCodes:      r.TrackingCodes,
		CanSeeManagedUsers: r.CanSeeManagedUsers, IsSyncEnabled: r.IsSyncEnabled,
		IsExternalCollabRestricted: r.IsExternalCollabRestricted, IsExemptFromDeviceLimits: r.IsExemptFromDeviceLimits,
		IsExemptFromLoginVerification: r.IsExemptFromLoginVerification, IsPasswordResetRequired: r.IsPasswordResetRequired,
		AppUser: r.AppUser, ExternalAppUserID: r.ExternalAppUserID, Free: r.Free,
	}}
	if r.Deleted {
		u.SetDeleted()
		s.Users.Removed.Put(id, u)
		return nil
	}
	s.Users.ByID.Put(id, u)
	s.Users.ByLogin[strings.ToLower(u.Login)] = u
	s.Users.Order = append(s.Users.Order, u)
	return nil
}

// UsersLoaded orders the restored users by id and checks that the
// records of the admin, the user and the service account were there.
func UsersLoaded(s *state.Tx) error {
	sort.SliceStable(s.Users.Order, func(i, j int) bool { return state.NumID(s.Users.Order[i].ID) < state.NumID(s.Users.Order[j].ID) })
	for _, u := range []*state.User{s.Admin, s.User, s.App} { // the managed user may be deleted
		if s.Users.ByID.At(u.ID) != u && s.Users.Removed.At(u.ID) != u {
			return fmt.Errorf("the record of user %s is missing", u.ID)
		}
	}
	return nil
}

// RecItem is a file, a folder or a web link. A live file's versions are
// records of their own (recVersion, keyed state.VersionKey), so a new
// version writes itself and not every earlier one; Versions holds them
// only in the copy of a purged file that governance records keep, and in
// the records of schema 3 and earlier (read, then rewritten).
type RecItem struct {
	Type, Name, ParentID                string
	Owner, CreatedBy, ModifiedBy        string
	Description                         string
	CreatedAt, ModifiedAt               time.Time
	ContentCreatedAt, ContentModifiedAt time.Time
	Seq                                 int
	SyncState, UploadEmail              string
	Hidden                              bool
	Versions                            []recVersion `json:",omitempty"`
	ReadyAt                             time.Time
	URL                                 string
	Link                                *recSharedLink
	TrashedAt                           time.Time
	TrashedWith                         string
	ID                                  string `json:",omitempty"` // only in the copies other records keep
	// Everyday content (internal/state's items_update.go, file_locks.go);
	// absent in the states of earlier servers.
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
	Blob      recBlob
	CreatedAt time.Time
	By        string
	// Name is the file's name when a newer version replaced this one.
	Name string `json:",omitempty"`
	// A version in the trash, and its last restore (internal/state's
	// file_versions.go).
	TrashedAt, RestoredAt time.Time `json:",omitzero"`
	TrashedBy, RestoredBy string    `json:",omitempty"`
}

type recSharedLink struct {
	Token, Access, Password, VanityName string
	UnsharedAt                          time.Time
	CanDownload, CanEdit                *bool `json:",omitempty"`
}

// ItemKeys lists the record keys of the items, sorted: their ids, and
// "folder:"+id for a folder when folders have an id space of their own
// (state.ItemTable.RecordKey). A data directory of an earlier server,
// with one id space, has the bare ids.
func ItemKeys(s *state.ReadTx) []string { return s.Items.Keys() }

// ItemRec is the record of the item with record key key, false when it
// is gone.
func ItemRec(s *state.ReadTx, key string) (RecItem, bool) {
	it, ok := s.Items.ByRef(key)
	if !ok {
		return RecItem{}, false
	}
	return encodeItem(it, false), true
}

// encodeItem is the record of it; with its versions for a copy that
// another record keeps.
func encodeItem(it *state.Item, versions bool) RecItem {
	r := RecItem{
		Type: it.Typ, Name: it.Name, ParentID: it.ParentID,
		Owner: userID(it.Owner), CreatedBy: userID(it.CreatedBy), ModifiedBy: userID(it.ModBy),
		Description: it.Description(), CreatedAt: utcTime(it.CreatedAt), ModifiedAt: utcTime(it.ModifiedAt),
		ContentCreatedAt: utcTime(it.ContentCreatedAt), ContentModifiedAt: utcTime(it.ContentModifiedAt),
		Seq: it.Seq, SyncState: it.SyncState(), UploadEmail: it.UploadEmail(), Hidden: it.Hidden,
		ReadyAt: utcTime(it.ReadyAt()), URL: it.URL(), TrashedAt: utcTime(it.TrashedAt()), TrashedWith: it.TrashedWith(),
	}
	if versions {
		for _, v := range it.Versions {
			r.Versions = append(r.Versions, encodeVersion(v))
		}
	}
	// The record is encoded after the state's lock is released (the kind
	// is Detached): nothing of it may be the live item's.
	r.Tags = slices.Clone(it.Tags())
	if it.CompanyDownloads {
		r.DownloadAccess = "company"
	}
	if l := it.Lock(); l != nil {
		r.Lock = &recLock{ID: l.ID, By: userID(l.By), CreatedAt: utcTime(l.CreatedAt), ExpiresAt: utcTime(l.ExpiresAt), DownloadPrevented: l.DownloadPrevented}
	}
	if it.CanNonOwnersInvite != state.Unset || it.CanNonOwnersViewCollab != state.Unset || it.RestrictedToEnterprise != state.Unset {
		r.FolderSettings = &[3]*bool{it.CanNonOwnersInvite.Ptr(), it.CanNonOwnersViewCollab.Ptr(), it.RestrictedToEnterprise.Ptr()}
	}
	if l := it.Link(); l != nil {
		r.Link = &recSharedLink{Token: l.Token, Access: l.Access, Password: l.Password, VanityName: l.VanityName, UnsharedAt: utcTime(l.UnsharedAt),
			CanDownload: copyBool(l.CanDownload), CanEdit: copyBool(l.CanEdit)}
	}
	return r
}

func encodeVersion(v *state.Version) recVersion {
	return recVersion{ID: v.ID, Blob: recBlob{v.Blob}, CreatedAt: utcTime(v.CreatedAt()), By: userID(v.By), Name: v.Name(),
		TrashedAt: utcTime(v.TrashedAt()), RestoredAt: utcTime(v.RestoredAt()), TrashedBy: userID(v.TrashedBy()), RestoredBy: userID(v.RestoredBy())}
}

// VersionKeys lists the keys of the versions of every file, by file id
// and position.
func VersionKeys(s *state.ReadTx) []string {
	var keys []string
	for _, key := range s.Items.Keys() {
		it, _ := s.Items.ByRef(key)
		for i := range it.Versions {
			keys = append(keys, state.VersionKey(it.ID, i+1))
		}
	}
	return keys
}

// VersionRec is the record of the version key names, false when it is
// gone (its file was purged).
func VersionRec(s *state.ReadTx, key string) (recVersion, bool) {
	id, pos, ok := parseVersionKey(key)
	if !ok {
		return recVersion{}, false
	}
	f, ok := s.Items.Get("file", id)
	if !ok || pos > len(f.Versions) {
		return recVersion{}, false
	}
	return encodeVersion(f.Versions[pos-1]), true
}

// LoadVersion reads the version record r, at its file's position. The
// records come in key order (a file's position 10 before its 2, a file's
// records together), so they are gathered and put in their files once all
// are read (VersionsLoaded): what a position in a key claims allocates
// nothing.
func LoadVersion(s *state.Tx, key string, r recVersion) error {
	id, pos, ok := parseVersionKey(key)
	if !ok {
		return fmt.Errorf("malformed key")
	}
	f := loadedFile(&s.Persist.Load, id)
	if f == nil {
		f = s.Items.At("file", id)
	}
	if f == nil || f.Typ != "file" {
		return fmt.Errorf("no file %s", id)
	}
	v, err := decodeVersion(&s.ReadTx, r)
	if err != nil {
		return err
	}
	ld := &s.Persist.Load
	ld.Versions = append(ld.Versions, state.LoadedVersion{File: f, Pos: pos, V: v})
	return nil
}

// loadedFile is the file with id among the items read, or nil. Version
// records come in the order of their files' records (a key "id/pos"
// sorts as "id" among the ids), so it walks the items read once, with
// the versions: from where the last one was found (ld.NextFile) past the
// items of smaller ids (folders, web links, files of no version), to the
// next item, in memory read just before, where a lookup in the items
// table was a cache miss (a sixteenth of a restart's CPU at a million
// files). An id out of that order, or of no file, is left to the
// caller's lookup in the items table.
func loadedFile(ld *state.LoadScratch, id string) *state.Item {
	items, i := ld.Items, ld.NextFile
	if i > 0 && items[i-1].ID == id { // a file's versions follow each other
		i--
	}
	for i < len(items) && items[i].ID < id {
		i++
	}
	ld.NextFile = i
	if i < len(items) && items[i].ID == id && items[i].Typ == "file" {
		ld.NextFile = i + 1
		return items[i]
	}
	return nil
}

// VersionsLoaded puts the versions read in their files, checks that every
// file has its versions, each position from 1 filled once, and files the
// items in the folder indexes (derived, not stored; a file is filed by its
// current version's size).
func VersionsLoaded(s *state.Tx) error {
	read := s.Persist.Load.Versions
	s.Persist.Load.Versions = nil
	for len(read) > 0 {
		f, n := read[0].File, 1
		for n < len(read) && read[n].File == f {
			n++
		}
		run := read[:n]
		read = read[n:]
		if len(f.Versions) > 0 { // its item record had them, or its records were not together
			return fmt.Errorf("file %s has two versions at position %d", f.ID, run[0].Pos)
		}
		slices.SortFunc(run, func(a, b state.LoadedVersion) int { return a.Pos - b.Pos })
		f.Versions = make([]*state.Version, n)
		for i, lv := range run {
			if i > 0 && lv.Pos == run[i-1].Pos {
				return fmt.Errorf("file %s has two versions at position %d", f.ID, lv.Pos)
			}
			if lv.Pos != i+1 {
				return fmt.Errorf("file %s has no version at position %d", f.ID, i+1)
			}
			f.Versions[i] = lv.V
		}
	}
	items := s.Items.All()
	if loaded := s.Persist.Load.Items; len(loaded) == s.Items.Len() { // every item, in the order they were read
		items = func(yield func(string, *state.Item) bool) {
			for _, it := range loaded {
				if !yield(it.ID, it) {
					return
				}
			}
		}
	}
	s.Persist.Load.Items, s.Persist.Load.NextFile = nil, 0
	s.Search.Expect(s.Items.Len()) // SyncAll queues every listed item
	for id, it := range items {
		if it.Typ == "file" && len(it.Versions) == 0 {
			return fmt.Errorf("file %s has no version", id)
		}
	}
	s.Folders.SyncAll(items)
	return nil
}

// copyBool is a new pointer to *p's value (nil for nil).
func copyBool(p *bool) *bool {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// FileRef is how a governance record names its file and version: by id
// while the file lives, and with a copy of the file once it was purged
// (the record still shows it).
type FileRef struct {
	File, Version string
	Purged        *RecItem `json:",omitempty"`
}

// EncodeFileRef names f and v for a record; a purged file is copied.
func EncodeFileRef(s *state.ReadTx, f *state.Item, v *state.Version) FileRef {
	r := FileRef{File: f.ID, Version: v.ID}
	if s.Items.At("file", f.ID) != f {
		c := encodeItem(f, true)
		c.ID = f.ID
		r.Purged = &c
	}
	return r
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
	Assembly string     `json:",omitempty"`
	Final    *blob.Info `json:",omitempty"`
}

// SessionKeys lists the ids of the open upload sessions, sorted.
func SessionKeys(s *state.ReadTx) []string { return s.Sessions.Keys() }

// SessionRec is the record of open session id, false when it is gone
// (ended or expired).
func SessionRec(s *state.ReadTx, id string) (recSession, bool) {
	ss, ok := s.Sessions.Get(id)
	if !ok {
		return recSession{}, false
	}
	return recSession{
		Owner: userID(ss.Owner), FolderID: ss.FolderID, FileID: ss.FileID, FileName: ss.FileName,
		FileSize: ss.FileSize, PartSize: ss.PartSize, TotalParts: ss.TotalParts,
		ExpiresAt: utcTime(ss.ExpiresAt), LastPartAt: utcTime(ss.LastPartAt),
		Assembly: ss.Asm.ID(), Final: ss.Final,
	}, true
}

// LoadSession restores open session id, reopening its assembly in the
// store (or a Parts assembly, whose parts LoadPart restores).
func LoadSession(s *state.Tx, id string, r recSession) error {
	owner, err := userByRef(&s.Users, r.Owner)
	if err != nil {
		return err
	}
	var asm blob.Assembly = blob.NewParts(s.Store, r.FileSize)
	if r.Assembly != "" {
		a, ok := s.Store.(blob.Assembler)
		if !ok {
			return fmt.Errorf("the store cannot reopen assembly %s", r.Assembly)
		}
		if asm, err = a.OpenAssembly(context.Background(), r.Assembly, r.FileSize); err != nil {
			return err
		}
	}
	ss := (&state.Session{
		ID: id, Owner: owner, FolderID: r.FolderID, FileID: r.FileID, FileName: r.FileName,
		FileSize: r.FileSize, PartSize: r.PartSize, TotalParts: r.TotalParts,
		ExpiresAt: r.ExpiresAt, LastPartAt: r.LastPartAt, Parts: map[int64]*state.UploadPart{},
	}).WithContent(asm)
	ss.Final = r.Final
	s.Sessions.Put(id, ss)
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

// PartKeys lists the keys of the parts of the open sessions
// ("<session>/<offset>", in order).
func PartKeys(s *state.ReadTx) []string {
	var keys []string
	for _, sid := range s.Sessions.Keys() {
		for _, pt := range state.SortedParts(s.Sessions.At(sid)) {
			keys = append(keys, state.PartKey(sid, pt.Offset))
		}
	}
	return keys
}

func splitPartKey(key string) (string, int64, bool) {
	sid, off, ok := strings.Cut(key, "/")
	n, err := strconv.ParseInt(off, 10, 64)
	return sid, n, ok && err == nil
}

// PartRec is the record of the part with key, false when it or its
// session is gone.
func PartRec(s *state.ReadTx, key string) (recPart, bool) {
	sid, off, ok := splitPartKey(key)
	ss := s.Sessions.At(sid)
	if !ok || ss == nil || ss.Parts[off] == nil {
		return recPart{}, false
	}
	pt := ss.Parts[off]
	rec := recPart{ID: pt.ID, Size: pt.Size, SHA1: pt.SHA1}
	if pa, ok := ss.Asm.(*blob.Parts); ok {
		rec.BlobID = pa.PartBlob(off)
	}
	return rec, true
}

// LoadPart restores a part into its session (restored first), and its
// blob into a Parts assembly.
func LoadPart(s *state.Tx, key string, r recPart) error {
	sid, off, ok := splitPartKey(key)
	if !ok || s.Sessions.At(sid) == nil {
		return fmt.Errorf("part of an unknown session")
	}
	ss := s.Sessions.At(sid)
	ss.Parts[off] = &state.UploadPart{ID: r.ID, Offset: off, Size: r.Size, SHA1: r.SHA1}
	s.Parts.Put(key, ss.Parts[off])
	if pa, ok := ss.Asm.(*blob.Parts); ok {
		if r.BlobID == "" {
			return fmt.Errorf("part %s has no blob", key)
		}
		pa.RestorePart(off, blob.Info{ID: r.BlobID, Size: r.Size, SHA1: r.SHA1})
	}
	return nil
}

// Ended sessions are stored as the EndedSession tests read.

// EndedKeys lists the ids of the ended (committed or aborted) sessions,
// sorted.
func EndedKeys(s *state.ReadTx) []string { return s.Ended.Keys() }

// EndedRec is the record of ended session id: its EndedSession.
func EndedRec(s *state.ReadTx, id string) (state.EndedSession, bool) {
	info, ok := s.Ended.Get(id)
	return info, ok
}

// LoadEnded restores ended session id.
func LoadEnded(s *state.Tx, id string, r state.EndedSession) error {
	s.Ended.Put(id, r)
	return nil
}
