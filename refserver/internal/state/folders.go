package state

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// CreateFolderBody is the body of POST /folders.
type CreateFolderBody struct {
	Name   *string `json:"name"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	FolderUploadEmail *struct {
		Access string `json:"access"`
	} `json:"folder_upload_email"`
	SyncState *string `json:"sync_state"`
}

// CreateFolder serves POST /folders (refserver's createFolder): a new
// folder in the parent p may upload into (409 item_name_in_use for a name
// taken), 201 with its representation and first page of items.
func (s *Tx) CreateFolder(p *Principal, body CreateFolderBody, syncState string, uploadEmail string, fields []string) (Reply, *wire.Error) {
	parent, aerr := s.ParentFolder(p, *body.Parent.ID)
	if aerr != nil {
		return Reply{}, aerr
	}
	if c := s.Conflict(*body.Parent.ID, OwnerIn(p, parent), *body.Name, nil); c != nil {
		return Reply{}, s.ErrNameInUse(c)
	}
	now := s.NowSec()
	f := &Item{
		Typ: "folder", ID: s.NewFolderID(), Name: *body.Name, ParentID: *body.Parent.ID,
		Owner: OwnerIn(p, parent), CreatedBy: p.User, ModBy: p.User,
		CreatedAt: now, ModifiedAt: now, ContentCreatedAt: now, ContentModifiedAt: now,
	}
	f.SetSyncState(syncState)
	f.SetUploadEmail(uploadEmail)
	s.AddItem(f)
	s.cascadeInto(f) // metadata_cascade_policies.go
	if parent != nil {
		s.touchItem(parent, now, nil)
	}
	out := s.Render(f, fields, p)
	s.AddItemCollection(out, f, fields, p, CollectionQuery{Key: "name", Limit: 100})
	return Reply{wire.StatusCreated, out}, nil
}

// CollectionQuery is how a listing is sorted and paged.
type CollectionQuery struct {
	Key       string // id, name, date, size
	Desc      bool
	Offset    int64
	Limit     int64
	UseMarker bool
	Marker    int64
	ViaLink   bool // the folder was reached through a shared link: every entry shows
	// Window, when set, gets the references (ItemTable.Ref) of the items
	// in the page's window,
	// shown or left out (ListingReadWait).
	Window *[]string
}

// Listing pages the items of a folder (f nil = p's root). entryFields nil
// gives mini entries.
//
// As on the service, items the principal may not see (HideFromUsers) keep
// their place: they count in total_count and in the offset/limit (or
// marker) window, but are left out of entries. A page can therefore hold
// fewer entries than limit, or none, while more items follow; the next page
// is still at offset + limit, and the listing ends at total_count.
func (s *Tx) Listing(f *Item, p *Principal, q CollectionQuery, entryFields []string) map[string]any {
	folderID := RootID
	if f != nil {
		folderID = f.ID
	}
	var fx pager = s.Folders.Index(folderID, p.User)
	if f == nil {
		if tops := s.collabTops(p.User); len(tops) > 0 {
			fx = mergedRoot(s.Folders.Index(RootID, p.User), tops, q)
		}
	}
	dir := "ASC"
	if q.Desc {
		dir = "DESC"
	}
	order := []any{
		map[string]any{"by": "type", "direction": "ASC"},
		map[string]any{"by": q.Key, "direction": dir},
	}
	out := s.indexPage(fx, q, entryFields, p, func(it *Item) bool {
		if q.ViaLink {
			return !it.Hidden || p.SeesAll()
		}
		return s.visible(p, it)
	})
	out["order"] = order
	return out
}

// pager is what a listing pages: a folder or trash index, or a user's root
// with the items collaborated with them (rootPage).
type pager interface {
	Len() int
	Page(key int, desc bool, start, end int) []*Item
}

// rootPage is a user's root listing with the top-level items collaborated
// with them, in the order q asks.
type rootPage []*Item

// Len is the number of items of the listing.
func (r rootPage) Len() int { return len(r) }

// Page returns the items at [start, end); r is sorted already.
func (r rootPage) Page(_ int, _ bool, start, end int) []*Item {
	return r[min(start, len(r)):min(end, len(r))]
}

// mergedRoot merges the root index fx with the collaborated items tops,
// sorted as fx sorts (folders, files, web links, each by q's key).
func mergedRoot(fx *folderIndex, tops []*Item, q CollectionQuery) rootPage {
	k := sortKeyIndex(q.Key)
	all := append(fx.Page(k, q.Desc, 0, fx.Len()), tops...)
	slices.SortStableFunc(all, func(a, b *Item) int {
		if a.slot.rank != b.slot.rank {
			return int(a.slot.rank - b.slot.rank)
		}
		x, y := a, b
		if q.Desc {
			x, y = b, a
		}
		switch {
		case slotLess[k](x, y):
			return -1
		case slotLess[k](y, x):
			return 1
		}
		return 0
	})
	return all
}

// collabTops lists the items collaborated with u that show in u's root
// ("All Files"): those a collaboration grants u that no collaboration on a
// folder above them grants too, not u's own and not in the trash.
func (s *ReadTx) collabTops(u *User) []*Item {
	if u == nil || s.collabs.byID.Len() == 0 {
		return nil
	}
	seen := map[*Item]bool{}
	var tops []*Item
	for _, c := range s.collabs.byID.All() {
		it := c.item
		if seen[it] || it.Owner == u || it.Trashed() || it.Hidden || !s.grants(c, u) {
			continue
		}
		seen[it] = true
		above := false
		for f := range s.ancestors(it) {
			if len(s.ownRoles(u, f)) > 0 {
				above = true
				break
			}
		}
		if !above {
			tops = append(tops, it)
		}
	}
	return tops
}

// indexPage pages a folder or trash index fx as q asks (offset or
// marker): entries keep (mini records, or the fields given) in the window,
// limit, and for marker pages next_marker and prev_marker, for offset
// pages total_count and offset. Items keep refuses hold their place in the
// window but are left out.
func (s *Tx) indexPage(fx pager, q CollectionQuery, fields []string, p *Principal, keep func(*Item) bool) map[string]any {
	total := int64(fx.Len())
	start := q.Offset
	if q.UseMarker {
		start = q.Marker
	}
	start = min(start, total)
	end := min(start+q.Limit, total)
	page := fx.Page(sortKeyIndex(q.Key), q.Desc, int(start), int(end))
	// Without fields, the mini records are written one after the other
	// into the array they make: one buffer for the page, not one (and its
	// box) per entry.
	var (
		minis []byte
		list  []any
	)
	if fields == nil {
		minis = append(make([]byte, 0, 2+len(page)*(miniJSONSize+1)), '[')
	} else {
		list = make([]any, 0, len(page))
	}
	for _, it := range page {
		if q.Window != nil {
			*q.Window = append(*q.Window, s.Items.Ref(it))
		}
		switch {
		case !keep(it):
		case fields != nil:
			list = append(list, s.Render(it, fields, p))
		default:
			if len(minis) > 1 {
				minis = append(minis, ',')
			}
			minis = s.AppendMiniJSON(minis, it)
		}
	}
	var entries any = list
	if fields == nil {
		entries = json.RawMessage(append(minis, ']'))
	}
	out := map[string]any{"entries": entries, "limit": q.Limit}
	if !q.UseMarker {
		out["total_count"] = total
		out["offset"] = q.Offset
		return out
	}
	out["next_marker"] = nil
	if end < total {
		out["next_marker"] = wire.EncodeMarker(end)
	}
	out["prev_marker"] = nil
	if start > 0 {
		out["prev_marker"] = wire.EncodeMarker(max(start-q.Limit, 0))
	}
	return out
}

// HideItems hides the items with ids from their users (HideFromUsers), or
// changes nothing when one is unknown. An id that a file (or web link)
// and a folder share (SeparateIDSpaces) hides both.
func (s *Tx) HideItems(ids []string) error {
	var items []*Item
	for _, id := range ids {
		n := len(items)
		for _, typ := range [...]string{"file", "folder"} {
			if it, ok := s.Items.Get(typ, id); ok && !slices.Contains(items[n:], it) {
				items = append(items, it)
			}
		}
		if len(items) == n {
			return fmt.Errorf("refserver: no item %q", id)
		}
	}
	for _, it := range items {
		s.Items.Update(it.Typ, it.ID, func(it *Item) { it.Hidden = true })
	}
	return nil
}

// AddItemCollection adds item_collection to a folder representation when
// it is a standard one or the field was requested.
func (s *Tx) AddItemCollection(out map[string]any, f *Item, fields []string, p *Principal, q CollectionQuery) {
	if fields != nil && !slices.Contains(fields, "item_collection") {
		return
	}
	// Entries carry the fields asked for the folder (the service's rule;
	// web clients list a folder this way), mini records without fields.
	out["item_collection"] = s.Listing(f, p, q, fields)
}

// RootRepresentation is folder "0" as p sees it.
func (s *Tx) RootRepresentation(p *Principal, fields []string) map[string]any {
	size := s.Folders.Index(RootID, p.User).Size()
	nobody := map[string]any{"type": "user", "id": "", "name": "", "login": ""}
	std := rootMini()
	for k, v := range map[string]any{
		"description": "", "size": size, "path_collection": map[string]any{"total_count": 0, "entries": []any{}},
		"created_at": nil, "modified_at": nil, "trashed_at": nil, "purged_at": nil,
		"content_created_at": nil, "content_modified_at": nil, "created_by": nobody, "modified_by": nobody,
		"owned_by": p.User.Mini(), "shared_link": nil, "folder_upload_email": nil, "parent": nil, "item_status": "active",
	} {
		std[k] = v
	}
	if fields == nil {
		return std
	}
	m := rootMini()
	extra := rootExtra() // browserfields.go
	for _, f := range fields {
		if v, ok := std[f]; ok {
			m[f] = v
		} else if v, ok := extra[f]; ok {
			m[f] = v
		}
	}
	return m
}
