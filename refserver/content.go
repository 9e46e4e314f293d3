package refserver

import (
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

const rootID = "0"

// item is a folder, a file or a web link. Fields are guarded by Server.mu.
type item struct {
	typ       string // "folder", "file" or "web_link"
	id        string
	name      string
	parentID  string
	owner     *user
	createdBy *user
	modBy     *user

	description                         string
	createdAt, modifiedAt               time.Time
	contentCreatedAt, contentModifiedAt time.Time
	seq                                 int // etag and sequence_id

	// folders
	syncState   string
	uploadEmail string // folder_upload_email access, "" = none

	// hidden: a managed user may not see the item (HideFromUsers), yet it
	// is counted in its folder's listings.
	hidden bool

	// files
	versions []*version // oldest first; the last is current
	readyAt  time.Time  // content not downloadable before this

	// web links (weblinks.go); link is also the shared link of files and
	// folders (items_update.go)
	url  string
	link *sharedLink // nil = no shared link

	// Everyday content (items_update.go, file_locks.go): tags, the lock of
	// a file, who may download a file, and a folder's collaboration
	// settings (nil: the service's default).
	tags                   []string
	lock                   *fileLock
	downloadAccess         string // permissions.can_download: "" (open) or "company"
	canNonOwnersInvite     *bool
	canNonOwnersViewCollab *bool
	restrictedToEnterprise *bool
	copiedFrom             string // set while a copy is being added: its events say ITEM_COPY

	// listing index (folderindex.go): where the item is filed and under
	// which keys; index is set once it was filed.
	slot  itemSlot
	index *folderIndexes

	// trash (trash.go): trashedAt is set while the item is in the trash.
	// trashedWith is the id of the folder whose trashing took the item
	// along ("" when the item was trashed itself); only items trashed
	// themselves are listed in, read from and restored from the trash.
	trashedAt   time.Time
	trashedWith string
}

// version is one file version.
type version struct {
	id        string
	blob      BlobInfo
	createdAt time.Time
	by        *user

	// A version in the trash (file_versions.go): when and by whom, and the
	// last restore.
	trashedAt, restoredAt time.Time
	trashedBy, restoredBy *user
}

func (it *item) etag() string { return strconv.Itoa(it.seq) }

// trashed reports whether the item is in the trash (itself or with a folder).
func (it *item) trashed() bool { return !it.trashedAt.IsZero() }

func (it *item) current() *version { return it.versions[len(it.versions)-1] }

// touch records a modification: new etag and modified_at. It also files
// the item anew in the folder indexes, so callers that changed its name,
// parent, owner or content before touching it need nothing else.
func (it *item) touch(now time.Time, by *user) {
	it.seq++
	it.modifiedAt = now
	if by != nil {
		it.modBy = by
	}
	if it.index != nil {
		it.index.sync(it)
	}
}

// newID returns a fresh numeric id. Callers hold s.mu.
func (s *state) newID() string {
	s.nextID++
	s.dirty(kMeta, metaKey)
	return strconv.FormatInt(s.nextID, 10)
}

// nowSec is the server's clock truncated to seconds, in UTC.
func (s *state) nowSec() time.Time { return s.now().UTC().Truncate(time.Second) }

func fmtTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// validID reports whether id looks like a file or folder id (decimal digits).
func validID(id string) bool {
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

// checkName applies the service's item name rules: 1..255 characters, no
// "/" or "\", no non-printable ASCII, no trailing space, not "." or "..".
func checkName(name string) *wire.Error {
	if utf8.RuneCountInString(name) > 255 {
		return wire.Errorf(http.StatusBadRequest, wire.CodeItemNameTooLong, "Item name too long")
	}
	bad := name == "" || name == "." || name == ".." || strings.HasSuffix(name, " ") ||
		strings.ContainsAny(name, `/\`) || !utf8.ValidString(name)
	for i := 0; i < len(name) && !bad; i++ {
		if name[i] < 0x20 || name[i] == 0x7f {
			bad = true
		}
	}
	if bad {
		return wire.Errorf(http.StatusBadRequest, wire.CodeItemNameInvalid, "Item name invalid")
	}
	return nil
}

// lookup returns the item of a type visible to p; an item in the trash is
// not found. Callers hold s.mu.
func (s *state) lookup(p *principal, typ, id string) (*item, *wire.Error) {
	it, ok := s.items[id]
	if !ok || it.typ != typ || !s.live(p, it) {
		return nil, wire.NotFound(typ)
	}
	return it, nil
}

// parentFolder checks that folder id exists for p; "0" is p's root. It
// returns nil for the root. Callers hold s.mu.
func (s *state) parentFolder(p *principal, id string) (*item, *wire.Error) {
	if id == rootID {
		return nil, nil
	}
	if !validID(id) {
		return nil, wire.NotFound("folder")
	}
	return s.lookupFor(p, "folder", id, actUpload) // adding to a folder is an upload (access.go)
}

// ownerIn is the owner of a new item in parent (nil = p's root).
func ownerIn(p *principal, parent *item) *user {
	if parent == nil {
		return p.user
	}
	return parent.owner
}

// children lists the items in a folder, without those in the trash: for
// the root, the items in "0" owned by rootOwner; otherwise the items whose
// parent is folderID. Callers hold s.mu.
func (s *state) children(folderID string, rootOwner *user) []*item {
	return s.folders.index(folderID, rootOwner).all()
}

// conflict returns the item in the folder whose name equals name ignoring
// case, except skip (files, folders and web links share the names of a
// folder). Callers hold s.mu.
func (s *state) conflict(folderID string, rootOwner *user, name string, skip *item) *item {
	for _, it := range s.folders.index(folderID, rootOwner).named(name) {
		if it != skip {
			return it
		}
	}
	return nil
}

// addItem adds a new item to the state and to its folder's index, and
// records its creation in the event log. Callers hold s.mu.
func (s *state) addItem(it *item) {
	s.items[it.id] = it
	s.folders.sync(it)
	typ := evItemCreate
	if it.typ == "file" {
		typ = evItemUpload
	}
	if it.copiedFrom != "" {
		if parent := s.items[it.parentID]; parent != nil && parent.copiedFrom != "" {
			return // inside a copied folder: the copy's ITEM_COPY tells it
		}
		typ = evItemCopy
	}
	s.itemEvent(typ, it, it.createdBy)
}

// errNameInUse is 409 item_name_in_use with context_info.conflicts.
func (s *state) errNameInUse(c *item) *wire.Error {
	e := wire.Errorf(http.StatusConflict, wire.CodeItemNameInUse, "Item with the same name already exists")
	e.ContextInfo = map[string]any{"conflicts": []any{s.mini(c)}}
	return e
}

// folderSize sums the current sizes of the files below a folder.
func (s *state) folderSize(f *item) int64 {
	var n int64
	for _, it := range s.children(f.id, nil) {
		switch it.typ {
		case "file":
			n += it.current().blob.Size
		case "folder":
			n += s.folderSize(it)
		}
	}
	return n
}

// removeItem deletes an item and everything below it, records the change
// on its parent (new etag), and returns the blob ids to delete from the
// store. Callers hold s.mu.
func (s *state) removeItem(it *item) []string {
	blobs := s.removeTree(it)
	if parent, ok := s.items[it.parentID]; ok {
		parent.touch(s.nowSec(), nil)
		s.dirtyItem(parent)
	}
	return blobs
}

// removeTree deletes an item and everything below it and returns the blob ids
// to delete from the store. Items below it that are in the trash on their
// own stay there (without their parent). Callers hold s.mu.
func (s *state) removeTree(it *item) []string {
	var blobs []string
	if it.typ == "folder" {
		for _, c := range s.subItems(it.id) {
			if c.trashed() && c.trashedWith == "" {
				continue
			}
			blobs = append(blobs, s.removeTree(c)...)
		}
	}
	for _, v := range it.versions {
		blobs = append(blobs, v.blob.ID)
	}
	delete(s.items, it.id)
	s.folders.unindex(it)
	s.dirty(kItems, it.id)
	s.itemPurged(it)
	return blobs
}

// rootMini is the mini record of folder "0".
func rootMini() map[string]any {
	return map[string]any{"type": "folder", "id": rootID, "sequence_id": nil, "etag": nil, "name": "All Files"}
}

// mini is the Folder--Mini or File--Mini record of an item.
func (s *state) mini(it *item) map[string]any {
	m := map[string]any{
		"type": it.typ, "id": it.id, "etag": it.etag(), "sequence_id": it.etag(), "name": it.name,
	}
	switch it.typ {
	case "file":
		v := it.current()
		m["sha1"] = v.blob.SHA1
		m["file_version"] = map[string]any{"type": "file_version", "id": v.id, "sha1": v.blob.SHA1}
	case "web_link":
		m["url"] = it.url
	}
	return m
}

// pathCollection lists the folders from "0" down to the parent of it; for
// an item in the trash, the trash folder.
func (s *state) pathCollection(it *item) map[string]any {
	if it.trashed() {
		return trashPathCollection()
	}
	var chain []any
	for pid := it.parentID; pid != "" && pid != rootID; {
		f, ok := s.items[pid]
		if !ok {
			break
		}
		chain = append([]any{s.mini(f)}, chain...)
		pid = f.parentID
	}
	chain = append([]any{rootMini()}, chain...)
	return map[string]any{"total_count": len(chain), "entries": chain}
}

func (s *state) parentMini(it *item) any {
	if it.parentID == rootID {
		return rootMini()
	}
	if f, ok := s.items[it.parentID]; ok {
		return s.mini(f)
	}
	return nil
}

// standard is the standard (default) representation of an item.
func (s *state) standard(it *item) map[string]any {
	m := s.mini(it)
	m["description"] = it.description
	m["path_collection"] = s.pathCollection(it)
	m["created_at"] = fmtTime(it.createdAt)
	m["modified_at"] = fmtTime(it.modifiedAt)
	s.addTrashState(m, it)
	if it.typ == "web_link" {
		s.addWebLinkFields(m, it)
		return m
	}
	m["content_created_at"] = fmtTime(it.contentCreatedAt)
	m["content_modified_at"] = fmtTime(it.contentModifiedAt)
	m["created_by"] = it.createdBy.mini()
	m["modified_by"] = it.modBy.mini()
	m["owned_by"] = it.owner.mini()
	m["shared_link"] = nil
	if it.link != nil {
		m["shared_link"] = s.sharedLinkRecord(it.link)
	}
	m["parent"] = s.parentMini(it)
	if it.typ == "file" {
		m["size"] = it.current().blob.Size
	} else {
		m["size"] = s.folderSize(it)
		if it.uploadEmail != "" {
			m["folder_upload_email"] = map[string]any{"access": it.uploadEmail, "email": "upload." + it.id + "@u.cms.test"}
		} else {
			m["folder_upload_email"] = nil
		}
	}
	return m
}

// extra computes a "Full"-only field that appears only when requested.
// ok is false for fields the server does not know.
func (s *state) extra(it *item, field string, p *principal) (any, bool) {
	if v, ok := s.itemSettings(it, field); ok {
		return v, true // items_update.go
	}
	perms := map[string]any{
		"can_delete": true, "can_download": true, "can_invite_collaborator": true, "can_rename": true,
		"can_set_share_access": true, "can_share": true, "can_upload": true,
	}
	switch field {
	case "permissions":
		if it.typ == "file" {
			perms["can_annotate"] = false
			perms["can_comment"] = true
			perms["can_preview"] = true
			perms["can_view_annotations_all"] = false
			perms["can_view_annotations_self"] = false
			perms["can_apply_watermark"] = false
		}
		return perms, true
	case "tags":
		return []string{}, true
	case "has_collaborations", "is_externally_owned", "is_accessible_via_shared_link":
		return false, true
	case "watermark_info":
		return s.watermarkInfo(it), true // watermarks.go
	}
	if it.typ == "folder" {
		switch field {
		case "sync_state":
			return it.syncState, true
		case "can_non_owners_invite", "can_non_owners_view_collaborators":
			return true, true
		case "is_collaboration_restricted_to_enterprise":
			return false, true
		}
		return nil, false
	}
	switch field {
	case "version_number":
		return strconv.Itoa(len(it.versions)), true
	case "comment_count":
		return len(s.comments.byFile[it.id]), true
	case "lock":
		return nil, true
	case "extension":
		return strings.TrimPrefix(path.Ext(it.name), "."), true
	case "is_package":
		return false, true
	case "expiring_embed_link":
		return s.embedLink(it, p), true
	case "uploader_display_name":
		return it.current().by.name, true
	case "expires_at", "disposition_at", "classification":
		return nil, true
	}
	return nil, false
}

// render is the representation of an item for a fields parameter: without
// fields, the standard representation; with fields, the mini fields plus
// the requested ones (standard or Full-only). Unknown names are ignored.
func (s *state) render(it *item, fields []string, p *principal) map[string]any {
	std := s.standard(it)
	if fields == nil {
		return std
	}
	m := s.mini(it)
	for _, f := range fields {
		if v, ok := std[f]; ok {
			m[f] = v
		} else if v, ok := s.extra(it, f, p); ok {
			m[f] = v
		}
	}
	if md := s.metadataFields(it, fields, true); md != nil {
		m["metadata"] = md // metadata.<scope>.<templateKey> (metadata.go)
	}
	return m
}

// parseFields reads the comma-separated fields query parameter; nil if absent.
func parseFields(r *http.Request) []string {
	raw, ok := r.URL.Query()["fields"]
	if !ok {
		return nil
	}
	out := []string{}
	for _, v := range raw {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// etagMatches compares a request etag header value with an etag; quotes and
// weak prefixes are ignored, "*" matches anything.
func etagMatches(header, etag string) bool {
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

// checkIfMatch answers 412 when an if-match header does not match the etag.
func checkIfMatch(h, etag string) *wire.Error {
	if h != "" && !etagMatches(h, etag) {
		return wire.Errorf(http.StatusPreconditionFailed, wire.CodePreconditionFailed, "The resource has been modified. Please retrieve the resource again and retry")
	}
	return nil
}

// sortItems orders items by type (folders, files, web links), then by key.
func sortItems(items []*item, key string, desc bool) {
	typeRank := func(t string) int {
		switch t {
		case "folder":
			return 0
		case "file":
			return 1
		}
		return 2
	}
	size := func(it *item) int64 {
		if it.typ == "file" {
			return it.current().blob.Size
		}
		return 0
	}
	idNum := func(it *item) int64 { n, _ := strconv.ParseInt(it.id, 10, 64); return n }
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if ra, rb := typeRank(a.typ), typeRank(b.typ); ra != rb {
			return ra < rb
		}
		var less, equal bool
		switch key {
		case "name":
			la, lb := strings.ToLower(a.name), strings.ToLower(b.name)
			less, equal = la < lb, la == lb
		case "date":
			less, equal = a.modifiedAt.Before(b.modifiedAt), a.modifiedAt.Equal(b.modifiedAt)
		case "size":
			less, equal = size(a) < size(b), size(a) == size(b)
		}
		if key == "id" || equal {
			less = idNum(a) < idNum(b)
		}
		if desc {
			return !less && idNum(a) != idNum(b)
		}
		return less
	})
}
