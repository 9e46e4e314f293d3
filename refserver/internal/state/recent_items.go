package state

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Recent items (GET /recent_items): what each user interacted with
// lately, newest first, one entry per item (its latest interaction):
// uploads and new versions and folders made (item_upload), previews (an
// expiring embed link asked for: item_preview), downloads (item_open),
// changes (rename, move, shared link, metadata, version promotion:
// item_modify) and comments (item_comment). The server fills it as the
// events of those changes are recorded (ItemEvent, RecordEvent). Only the
// last 90 days and the latest 1000 items of a user are kept; items the
// user no longer sees or that are in the trash are left out of pages, and
// items deleted for good leave the list. Pages are marker pages.

// The interaction types of a recent item.
const (
	InteractionPreview = "item_preview"
	InteractionUpload  = "item_upload"
	InteractionComment = "item_comment"
	InteractionOpen    = "item_open"
	InteractionModify  = "item_modify"
)

// How much a user's recent items hold.
const (
	recentItemsMax = 1000
	recentItemsAge = 90 * 24 * time.Hour
)

// RecentItem is a user's latest interaction with an item.
type RecentItem struct {
	User        *User
	ItemID      string // the item's reference (ItemTable.Ref)
	Interaction string
	At          time.Time
	Seq         int64 // order of interactions, server-wide: newer is larger
}

// recentItemState is the server's state for recent items, reached only through a transaction.
type recentItemState struct {
	Entries Table[*RecentItem]                // by RecentItemKey
	ByUser  map[string]map[string]*RecentItem // user id → item reference → entry
	Seq     int64
	// order is each user's entries oldest first, as they were filed
	// (entries replaced or dropped since are skipped when met), so that
	// the oldest is found without a walk of the user's entries. It is
	// made on a user's first eviction (sorted by Seq: a restore files
	// entries in key order) and appended to after.
	order map[string][]*RecentItem
}

// InitRecentItems prepares the (empty) state of recent items; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitRecentItems() {
	s.Recent = recentItemState{Entries: newTable[*RecentItem](s.Env, KRecentItems), ByUser: map[string]map[string]*RecentItem{},
		order: map[string][]*RecentItem{}}
}

// RecentItemKey is the record key of u's entry for an item.
func RecentItemKey(userID, itemID string) string { return userID + "/" + itemID }

// AddRecentItem files an entry (a new one, or one restored).
func (s *Tx) AddRecentItem(r *RecentItem) {
	m := s.Recent.ByUser[r.User.ID]
	if m == nil {
		m = map[string]*RecentItem{}
		s.Recent.ByUser[r.User.ID] = m
	}
	m[r.ItemID] = r
	if q, ok := s.Recent.order[r.User.ID]; ok {
		s.Recent.order[r.User.ID] = append(q, r)
	}
	s.Recent.Seq = max(s.Recent.Seq, r.Seq)
	s.Recent.Entries.Put(RecentItemKey(r.User.ID, r.ItemID), r)
}

// recentInteraction is the interaction an event records, "" for none.
var recentInteraction = map[string]string{
	evItemCreate: InteractionUpload, evItemUpload: InteractionUpload, evItemCopy: InteractionUpload,
	EvItemDownload: InteractionOpen,
	evItemRename:   InteractionModify, evItemMove: InteractionModify, evItemMakeCurrent: InteractionModify,
	evSharedUpdate: InteractionModify, EvMetadataCreate: InteractionModify, EvMetadataUpdate: InteractionModify,
	EvMetadataDelete: InteractionModify,
	evCommentCreate:  InteractionComment,
}

// recentItemEvent notes the interaction an event about it records.
func (s *Tx) recentItemEvent(typ string, it *Item, by *User) {
	if kind := recentInteraction[typ]; kind != "" {
		s.noteInteraction(by, it, kind)
	}
}

// noteInteraction makes it u's most recent item, with kind; the oldest
// entry goes when u has more than recentItemsMax.
func (s *Tx) noteInteraction(u *User, it *Item, kind string) {
	if u == nil || it == nil || it.ID == RootID {
		return
	}
	s.Recent.Seq++
	s.AddRecentItem(&RecentItem{User: u, ItemID: s.Items.Ref(it), Interaction: kind, At: s.NowSec(), Seq: s.Recent.Seq})
	if m := s.Recent.ByUser[u.ID]; len(m) > recentItemsMax {
		s.dropRecentItem(s.oldestRecentItem(u.ID, m))
	}
}

// oldestRecentItem is the entry of m (userID's, not empty) with the
// smallest Seq, from the user's order: amortized constant time where a
// walk of m cost a thousand steps on every interaction past the cap.
func (s *Tx) oldestRecentItem(userID string, m map[string]*RecentItem) *RecentItem {
	q, ok := s.Recent.order[userID]
	if !ok || len(q) > 2*len(m)+64 { // first eviction, or mostly stale: made again
		q = slices.SortedFunc(maps.Values(m), func(a, b *RecentItem) int { return cmp.Compare(a.Seq, b.Seq) })
	}
	for m[q[0].ItemID] != q[0] { // replaced or dropped since it was filed
		q[0] = nil
		q = q[1:]
	}
	s.Recent.order[userID] = q
	return q[0]
}

func (s *Tx) dropRecentItem(r *RecentItem) {
	m := s.Recent.ByUser[r.User.ID]
	delete(m, r.ItemID)
	if len(m) == 0 {
		delete(s.Recent.ByUser, r.User.ID)
		delete(s.Recent.order, r.User.ID)
	}
	s.Recent.Entries.Delete(RecentItemKey(r.User.ID, r.ItemID))
}

// recentItemPurged drops an item deleted for good from every user's
// recent items.
func (s *Tx) recentItemPurged(it *Item) {
	ref := s.Items.Ref(it)
	for _, m := range s.Recent.ByUser {
		if r, ok := m[ref]; ok {
			s.dropRecentItem(r)
		}
	}
}

// ListRecentItems serves GET /recent_items (listRecentItems): the
// caller's recent items of the last 90 days, newest first, as a marker
// page, each item rendered with fields.
func (s *Tx) ListRecentItems(p *Principal, q wire.Page, fields []string) (Reply, *wire.Error) {
	var list []*RecentItem
	if p.User != nil {
		since := s.Now().Add(-recentItemsAge)
		for _, r := range s.Recent.ByUser[p.User.ID] {
			if it, ok := s.Items.ByRef(r.ItemID); ok && r.At.After(since) && s.Live(p, it) {
				list = append(list, r)
			}
		}
	}
	slices.SortFunc(list, func(a, b *RecentItem) int { return cmp.Compare(b.Seq, a.Seq) })
	key := func(r *RecentItem) int64 { return math.MaxInt64 - r.Seq } // ascending key, newest first
	page := wire.MarkerEntries(list, q, key, func(r *RecentItem) any {
		it, _ := s.Items.ByRef(r.ItemID)
		return map[string]any{
			"type": "recent_item", "item": s.Render(it, fields, p),
			"interaction_type": r.Interaction, "interacted_at": FmtTime(r.At), "interaction_shared_link": nil,
		}
	})
	page["prev_marker"] = nil
	// One sort key, as an object (Box UI Elements' Recents reads order.by
	// and order.direction).
	page["order"] = map[string]any{"by": "interacted_at", "direction": "DESC"}
	return Reply{wire.StatusOK, page}, nil
}
