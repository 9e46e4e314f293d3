package state

import (
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// RootID is the id of the root folder ("All Files"): every user's own.
const RootID = "0"

// Item is a folder, a file or a web link. Its fields are read and changed only in a transaction.
type Item struct {
	Typ       string // "folder", "file" or "web_link"
	ID        string
	Name      string
	ParentID  string
	Owner     *User
	CreatedBy *User
	ModBy     *User

	CreatedAt, ModifiedAt               time.Time
	ContentCreatedAt, ContentModifiedAt time.Time
	Seq                                 int // etag and sequence_id

	// Hidden: a managed user may not see the item (HideFromUsers), yet it
	// is counted in its folder's listings.
	Hidden bool
	// copying is set while a copy is being added: its events say
	// ITEM_COPY.
	copying bool
	// CompanyDownloads is a file's permissions.can_download "company"
	// (false: "open").
	CompanyDownloads bool
	// A folder's collaboration settings (unset: the service's default).
	// The six bytes from Hidden on share one word (with three *bool and a
	// string these took 40 bytes).
	CanNonOwnersInvite, CanNonOwnersViewCollab, RestrictedToEnterprise OptBool

	// files
	Versions []*Version // oldest first; the last is current
	// readyAt is when the content becomes downloadable (ReadyAt), in Unix
	// nanoseconds, 0 for the zero time: 8 bytes, not a time.Time's 24.
	readyAt int64

	// Who may download a file and a folder's collaboration settings are
	// above, beside Hidden; the fields most items never have (a file's
	// lock among them) are in extras (item_extras.go).

	// listing index (folderindex.go): where the item is filed and under
	// which keys; index is set once it was filed.
	slot  itemSlot
	index *folderIndexes

	// extras holds the description, tags, shared link, a web link's URL,
	// a folder's sync state and upload email, and the trash; nil while
	// all are unset (item_extras.go).
	extras *ItemExtras
}

// OptBool is a setting that may be unset; the zero value is unset.
type OptBool uint8

// The values of an OptBool.
const (
	Unset OptBool = iota
	False
	True
)

// OptBoolOf is the setting b points to (Unset for nil).
func OptBoolOf(b *bool) OptBool {
	switch {
	case b == nil:
		return Unset
	case *b:
		return True
	}
	return False
}

// Or is the setting, def when it is unset.
func (o OptBool) Or(def bool) bool {
	if o == Unset {
		return def
	}
	return o == True
}

// Ptr is the setting as a new *bool, nil when it is unset.
func (o OptBool) Ptr() *bool {
	if o == Unset {
		return nil
	}
	b := o == True
	return &b
}

// Etag is the item's etag (and sequence_id): its change count.
func (it *Item) Etag() string { return strconv.Itoa(it.Seq) }

// Trashed reports whether the item is in the trash (itself or with a folder).
func (it *Item) Trashed() bool { return !it.TrashedAt().IsZero() }

// Current is the file's current version (its last).
func (it *Item) Current() *Version { return it.Versions[len(it.Versions)-1] }

// touch records a modification: new etag and modified_at. It also files
// the item anew in the folder indexes, so callers that changed its name,
// parent, owner or content before touching it need nothing else.
func (it *Item) touch(now time.Time, by *User) {
	it.Seq++
	it.ModifiedAt = now
	if by != nil {
		it.ModBy = by
	}
	if it.index != nil {
		it.index.Sync(it)
	}
}

// touchItem records a change of it, through the items table: a new etag,
// modified_at now and, when by is not nil, by as its modifier.
func (s *Tx) touchItem(it *Item, now time.Time, by *User) {
	s.Items.Update(it.Typ, it.ID, func(it *Item) { it.touch(now, by) })
}

// NewID returns a fresh numeric id (of a file, a web link or another
// resource; folders take NewFolderID's).
func (s *Tx) NewID() string { return s.drawID(&s.NextID) }

// NewFolderID returns a fresh numeric id for a folder: NewID's, unless
// folders have an id space of their own (SeparateIDSpaces), whose counter
// is NextFolderID.
func (s *Tx) NewFolderID() string {
	if !s.Cfg.SeparateIDSpaces {
		return s.NewID()
	}
	return s.drawID(&s.NextFolderID)
}

// newItemID returns a fresh id for an item of type typ.
func (s *Tx) newItemID(typ string) string {
	if typ == "folder" {
		return s.NewFolderID()
	}
	return s.NewID()
}

// drawID advances counter and returns its value. Hand mark: the counters
// are fields of the server's own record (KMeta), a single record with no
// table.
func (s *Tx) drawID(counter *int64) string {
	*counter++
	s.Dirty(KMeta, MetaKey)
	return strconv.FormatInt(*counter, 10)
}

// NowSec is the server's clock truncated to seconds, in UTC.
func (s *Env) NowSec() time.Time { return s.Now().UTC().Truncate(time.Second) }

// FmtTime is t as the wire writes a time (RFC 3339, UTC), or nil (JSON
// null) for the zero time.
func FmtTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// ValidID reports whether id looks like a file or folder id (decimal digits).
func ValidID(id string) bool {
	if id == "" || len(id) > 20 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return false
		}
	}
	return true
}

// CheckName applies the service's item name rules: 1..255 characters, no
// "/" or "\", no non-printable ASCII, no trailing space, not "." or "..".
func CheckName(name string) *wire.Error {
	if utf8.RuneCountInString(name) > 255 {
		return wire.Errorf(wire.StatusBadRequest, wire.CodeItemNameTooLong, "Item name too long")
	}
	bad := name == "" || name == "." || name == ".." || strings.HasSuffix(name, " ") ||
		strings.ContainsAny(name, `/\`) || !utf8.ValidString(name)
	for i := 0; i < len(name) && !bad; i++ {
		if name[i] < 0x20 || name[i] == 0x7f {
			bad = true
		}
	}
	if bad {
		return wire.Errorf(wire.StatusBadRequest, wire.CodeItemNameInvalid, "Item name invalid")
	}
	return nil
}

// CopyName is the name a copy of an item of typ takes when the request
// names it (POST /files/{id}/copy, POST /folders/{id}/copy). A file's
// name is sanitized as the spec says ("names containing non-printable
// ASCII characters, forward and backward slashes, and protected names
// like . and .. are automatically sanitized by removing the non-allowed
// characters"): those characters go, and "." and ".." become empty;
// what is left must then pass CheckName (an empty name, where the spec
// is silent, is refused: item_name_invalid). A folder's name is not
// sanitized: the spec prohibits those names (CheckName).
func CopyName(typ, name string) (string, *wire.Error) {
	if typ == "file" {
		name = strings.Map(func(r rune) rune {
			if r == '/' || r == '\\' || r < 0x20 || r == 0x7f {
				return -1
			}
			return r
		}, name)
		if name == "." || name == ".." {
			name = ""
		}
	}
	if aerr := CheckName(name); aerr != nil {
		return "", aerr
	}
	return name, nil
}

// Lookup returns the item of a type visible to p; an item in the trash is
// not found.
func (s *ReadTx) Lookup(p *Principal, typ, id string) (*Item, *wire.Error) {
	it, ok := s.Items.Get(typ, id)
	if !ok || it.Typ != typ || !s.Live(p, it) {
		return nil, wire.NotFound(typ)
	}
	return it, nil
}

// ParentFolder checks that folder id exists for p; "0" is p's root. It
// returns nil for the root.
func (s *ReadTx) ParentFolder(p *Principal, id string) (*Item, *wire.Error) {
	if id == RootID {
		return nil, nil
	}
	if !ValidID(id) {
		return nil, wire.NotFound("folder")
	}
	return s.LookupFor(p, "folder", id, ActUpload) // adding to a folder is an upload (access.go)
}

// OwnerIn is the owner of a new item in parent (nil = p's root).
func OwnerIn(p *Principal, parent *Item) *User {
	if parent == nil {
		return p.User
	}
	return parent.Owner
}

// Children lists the items in a folder, without those in the trash: for
// the root, the items in "0" owned by rootOwner; otherwise the items whose
// parent is folderID.
func (s *ReadTx) Children(folderID string, rootOwner *User) []*Item {
	return s.Folders.Index(folderID, rootOwner).All()
}

// Conflict returns the item in the folder whose name equals name ignoring
// case, except skip (files, folders and web links share the names of a
// folder).
func (s *ReadTx) Conflict(folderID string, rootOwner *User, name string, skip *Item) *Item {
	for it := range s.Folders.Index(folderID, rootOwner).Named(name) {
		if it != skip {
			return it
		}
	}
	return nil
}

// AddItem adds a new item to the state and to its folder's index, and
// records its creation in the event log.
func (s *Tx) AddItem(it *Item) {
	s.Items.Put(it)
	s.Folders.Sync(it)
	typ := evItemCreate
	if it.Typ == "file" {
		typ = evItemUpload
	}
	if it.copying {
		if parent := s.Items.At("folder", it.ParentID); parent != nil && parent.copying {
			return // inside a copied folder: the copy's ITEM_COPY tells it
		}
		typ = evItemCopy
	}
	s.ItemEvent(typ, it, it.CreatedBy)
}

// ErrNameInUse is 409 item_name_in_use with context_info.conflicts.
func (s *ReadTx) ErrNameInUse(c *Item) *wire.Error {
	e := wire.Errorf(wire.StatusConflict, wire.CodeItemNameInUse, "Item with the same name already exists")
	e.ContextInfo = map[string]any{"conflicts": []any{s.Mini(c)}}
	return e
}

// ErrUploadNameInUse is 409 item_name_in_use of an upload (the pre-checks,
// uploads, upload sessions): context_info.conflicts is the one item in
// the way, an object, where other endpoints give a list (ErrNameInUse).
func (s *ReadTx) ErrUploadNameInUse(c *Item) *wire.Error {
	e := wire.Errorf(wire.StatusConflict, wire.CodeItemNameInUse, "Item with the same name already exists")
	e.ContextInfo = map[string]any{"conflicts": s.Mini(c)}
	return e
}

// folderSize is the sum of the current sizes of the files below a folder,
// through its folders, none in the trash: its index keeps it as items are
// filed in and out (folderIndexes.grow).
func (s *ReadTx) folderSize(f *Item) int64 {
	return s.Folders.Index(f.ID, nil).Size()
}

// RemoveItem deletes an item and everything below it, records the change
// on its parent (new etag), and returns the blob ids to delete from the
// store.
func (s *Tx) RemoveItem(it *Item) []string {
	blobs := s.removeTree(it)
	if parent, ok := s.Items.Get("folder", it.ParentID); ok {
		s.touchItem(parent, s.NowSec(), nil)
	}
	return blobs
}

// removeTree deletes an item and everything below it and returns the blob ids
// to delete from the store. Items below it that are in the trash on their
// own stay there (without their parent).
func (s *Tx) removeTree(it *Item) []string {
	var blobs []string
	if it.Typ == "folder" {
		for _, c := range s.subItems(it) {
			if c.Trashed() && c.TrashedWith() == "" {
				continue
			}
			blobs = append(blobs, s.removeTree(c)...)
		}
	}
	for _, v := range it.Versions {
		blobs = append(blobs, v.Blob.ID())
	}
	s.Items.Delete(it)
	s.Folders.unindex(it)
	s.dirtyVersionsGone(it)
	s.itemPurged(it)
	return blobs
}

// rootMini is the mini record of folder "0".
func rootMini() map[string]any {
	return map[string]any{"type": "folder", "id": RootID, "sequence_id": nil, "etag": nil, "name": "All Files"}
}

// Mini is the Folder--Mini or File--Mini record of an item.
func (s *ReadTx) Mini(it *Item) map[string]any {
	return s.miniInto(make(map[string]any, 8), it)
}

// standardKeys is about how many keys a standard record has: Standard
// makes its map that large at once, not by growing the mini record's.
const standardKeys = 24

// miniInto puts the mini record's fields of it into m and returns m.
func (s *ReadTx) miniInto(m map[string]any, it *Item) map[string]any {
	etag := it.Etag()
	m["type"], m["id"], m["etag"], m["sequence_id"], m["name"] = it.Typ, it.ID, etag, etag, it.Name
	switch it.Typ {
	case "file":
		v := it.Current()
		m["sha1"] = v.Blob.SHA1()
		m["file_version"] = map[string]any{"type": "file_version", "id": v.ID, "sha1": v.Blob.SHA1()}
	case "web_link":
		m["url"] = it.URL()
	}
	return m
}

// pathCollection lists the folders from "0" down to the parent of it; for
// an item in the trash, the trash folder.
func (s *Tx) pathCollection(it *Item) map[string]any {
	if it.Trashed() {
		return trashPathCollection()
	}
	var chain []any
	for pid := it.ParentID; pid != "" && pid != RootID; {
		f, ok := s.Items.Get("folder", pid)
		if !ok {
			break
		}
		chain = append([]any{s.Mini(f)}, chain...)
		pid = f.ParentID
	}
	chain = append([]any{rootMini()}, chain...)
	return map[string]any{"total_count": len(chain), "entries": chain}
}

func (s *Tx) parentMini(it *Item) any {
	if it.ParentID == RootID {
		return rootMini()
	}
	if f, ok := s.Items.Get("folder", it.ParentID); ok {
		return s.Mini(f)
	}
	return nil
}

// Standard is the standard (default) representation of an item.
func (s *Tx) Standard(it *Item) map[string]any {
	m := s.miniInto(make(map[string]any, standardKeys), it)
	m["description"] = it.Description()
	m["path_collection"] = s.pathCollection(it)
	m["created_at"] = FmtTime(it.CreatedAt)
	m["modified_at"] = FmtTime(it.ModifiedAt)
	s.addTrashState(m, it)
	if it.Typ == "web_link" {
		s.addWebLinkFields(m, it)
		return m
	}
	m["content_created_at"] = FmtTime(it.ContentCreatedAt)
	m["content_modified_at"] = FmtTime(it.ContentModifiedAt)
	m["created_by"] = it.CreatedBy.Mini()
	m["modified_by"] = it.ModBy.Mini()
	m["owned_by"] = it.Owner.Mini()
	m["shared_link"] = nil
	if it.Link() != nil {
		m["shared_link"] = s.sharedLinkRecord(it)
	}
	m["parent"] = s.parentMini(it)
	if it.Typ == "file" {
		m["size"] = it.Current().Blob.Size
	} else {
		m["size"] = s.folderSize(it)
		if it.UploadEmail() != "" {
			m["folder_upload_email"] = map[string]any{"access": it.UploadEmail(), "email": "upload." + it.ID + "@u.cms.test"}
		} else {
			m["folder_upload_email"] = nil
		}
	}
	return m
}

// StandardFor is the standard representation of an item as p is shown
// it: its path_collection and parent name only the folders p may see
// (paths.go).
func (s *Tx) StandardFor(it *Item, p *Principal) map[string]any {
	m := s.Standard(it)
	if p != nil {
		s.trimPath(p, it, m)
	}
	return m
}

// Extra computes a "Full"-only field that appears only when requested.
// ok is false for fields the server does not know.
func (s *Tx) Extra(it *Item, field string, p *Principal) (any, bool) {
	if v, ok := s.itemSettings(it, field); ok {
		return v, true // items_update.go
	}
	if v, ok := s.browserField(it, field, p); ok {
		return v, true // browserfields.go
	}
	if field == "collections" {
		return s.itemCollections(p, it), true // collections.go
	}
	switch field {
	case "permissions":
		return s.callerPermissions(p, it), true // access.go
	case "tags":
		return []string{}, true
	case "has_collaborations":
		return s.hasCollaborations(it), true // collaborations.go
	case "is_externally_owned", "is_accessible_via_shared_link":
		return false, true
	case "watermark_info":
		return s.watermarkInfo(it), true // watermarks.go
	}
	if it.Typ == "folder" {
		switch field {
		case "sync_state":
			return it.SyncState(), true
		case "can_non_owners_invite", "can_non_owners_view_collaborators":
			return true, true
		case "is_collaboration_restricted_to_enterprise":
			return false, true
		}
		return nil, false
	}
	switch field {
	case "version_number":
		return strconv.Itoa(len(it.Versions)), true
	case "comment_count":
		return len(s.comments.byFile[it.ID]), true
	case "lock":
		return nil, true
	case "extension":
		return strings.TrimPrefix(path.Ext(it.Name), "."), true
	case "is_package":
		return false, true
	case "expiring_embed_link":
		s.noteInteraction(p.User, it, InteractionPreview) // recent_items.go
		return s.embedLink(it, p), true
	case "uploader_display_name":
		return it.Current().By.Name, true
	case "expires_at", "disposition_at", "classification":
		return nil, true
	}
	return nil, false
}

// Render is the representation of an item for a fields parameter: without
// fields, the standard representation; with fields, the mini fields plus
// the requested ones (standard or Full-only). Unknown names are ignored.
func (s *Tx) Render(it *Item, fields []string, p *Principal) map[string]any {
	std := s.StandardFor(it, p)
	if fields == nil {
		return std
	}
	m := s.Mini(it)
	for _, f := range fields {
		if v, ok := std[f]; ok {
			m[f] = v
		} else if v, ok := s.Extra(it, f, p); ok {
			m[f] = v
		}
	}
	if md := s.MetadataFields(it, fields, true); md != nil {
		m["metadata"] = md // metadata.<scope>.<templateKey> (metadata.go)
	}
	return m
}

// EtagMatches compares a request etag header value with an etag; quotes and
// weak prefixes are ignored, "*" matches anything.
func EtagMatches(header, etag string) bool {
	for _, v := range strings.Split(header, ",") {
		v = strings.TrimSpace(v)
		v = strings.TrimPrefix(v, "W/")
		v = strings.Trim(v, `"`)
		if v == "*" || v == etag {
			return true
		}
	}
	return false
}

// CheckIfMatch answers 412 when an if-match header does not match the etag.
func CheckIfMatch(h, etag string) *wire.Error {
	if h != "" && !EtagMatches(h, etag) {
		return wire.Errorf(wire.StatusPreconditionFailed, wire.CodePreconditionFailed, "The resource has been modified. Please retrieve the resource again and retry")
	}
	return nil
}
