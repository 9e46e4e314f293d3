package state

import (
	"encoding/json"
	"slices"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Collections (GET /collections, /collections/{id}, /collections/{id}/items):
// every user has one collection, Favorites (collection_type favorites),
// made the first time it is asked for. An item joins or leaves it through
// the collections member of PUT /files/{id}, /folders/{id} and
// /web_links/{id} ([{"id":...}] replaces the caller's set; [] removes the
// item from it), which needs only to see the item; ?fields=collections
// shows the caller's collections holding an item. Another user's
// collection is 404. Items in the trash, or that the user no longer sees,
// are left out of the items page; items deleted for good leave it.

// Favorites is a user's favorites collection.
type Favorites struct {
	ID    string
	User  *User
	Items []string // item references (ItemTable.Ref), in the order they were added
}

// favoriteState is the server's state for collections, reached only through a transaction.
type favoriteState struct {
	ByUser Table[*Favorites] // by user id
	ByID   map[string]*Favorites
}

// InitFavorites prepares the (empty) state of collections; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitFavorites() {
	s.Favorites = favoriteState{ByUser: newTable[*Favorites](s.Env, KFavorites), ByID: map[string]*Favorites{}}
}

// AddFavorites files a user's collection (a new one, or one restored).
func (s *Tx) AddFavorites(f *Favorites) {
	s.Favorites.ByUser.Put(f.User.ID, f)
	s.Favorites.ByID[f.ID] = f
}

// favoritesOf is u's favorites collection, made on first use.
func (s *Tx) favoritesOf(u *User) *Favorites {
	if f, ok := s.Favorites.ByUser.Get(u.ID); ok {
		return f
	}
	f := &Favorites{ID: s.NewID(), User: u}
	s.AddFavorites(f)
	return f
}

// favoritesItemPurged drops an item deleted for good from every
// collection.
func (s *Tx) favoritesItemPurged(it *Item) {
	for uid, f := range s.Favorites.ByUser.All() {
		if slices.Contains(f.Items, s.Items.Ref(it)) {
			s.Favorites.ByUser.Update(uid, func(f *Favorites) { f.Items = wire.RemoveFrom(f.Items, s.Items.Ref(it)) })
		}
	}
}

func collectionRecord(f *Favorites) map[string]any {
	return map[string]any{"id": f.ID, "type": "collection", "name": "Favorites", "collection_type": "favorites"}
}

// ListCollections serves GET /collections (listCollections): the caller's
// one collection, as an offset page.
func (s *Tx) ListCollections(p *Principal, q wire.Page) (Reply, *wire.Error) {
	if p.User == nil {
		return Reply{}, wire.NotFound("collection")
	}
	list := []*Favorites{s.favoritesOf(p.User)}
	return Reply{wire.StatusOK, wire.OffsetEntries(list, q, func(*Favorites) bool { return false }, func(f *Favorites) any { return collectionRecord(f) })}, nil
}

// collection is the caller's collection with id: 404 for any other.
func (s *Tx) collection(p *Principal, id string) (*Favorites, *wire.Error) {
	if p.User == nil {
		return nil, wire.NotFound("collection")
	}
	f := s.favoritesOf(p.User)
	if f.ID != id {
		return nil, wire.NotFound("collection")
	}
	return f, nil
}

// GetCollection serves GET /collections/{id} (getCollection).
func (s *Tx) GetCollection(p *Principal, id string) (Reply, *wire.Error) {
	f, aerr := s.collection(p, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, collectionRecord(f)}, nil
}

// ListCollectionItems serves GET /collections/{id}/items
// (listCollectionItems): the items of the caller's collection it may see
// and that are not in the trash, in the order they were added, as an
// offset page of items rendered with fields.
func (s *Tx) ListCollectionItems(p *Principal, id string, q wire.Page, fields []string) (Reply, *wire.Error) {
	f, aerr := s.collection(p, id)
	if aerr != nil {
		return Reply{}, aerr
	}
	var items []*Item
	for _, iid := range f.Items {
		if it, ok := s.Items.ByRef(iid); ok && s.Live(p, it) {
			items = append(items, it)
		}
	}
	page := wire.OffsetEntries(items, q, func(*Item) bool { return false }, func(it *Item) any { return s.Render(it, fields, p) })
	page["order"] = []any{map[string]any{"by": "type", "direction": "ASC"}, map[string]any{"by": "name", "direction": "ASC"}}
	return Reply{wire.StatusOK, page}, nil
}

// ParseCollections reads the collections member of an item update: a
// list of {"id": ...} (400 bad_request otherwise).
func ParseCollections(raw []json.RawMessage) ([]string, *wire.Error) {
	ids := make([]string, 0, len(raw))
	for _, r := range raw {
		var ref struct {
			ID *string `json:"id"`
		}
		if err := json.Unmarshal(r, &ref); err != nil || ref.ID == nil || *ref.ID == "" {
			return nil, wire.BadRequest("Invalid value for \"collections\": a list of {\"id\": ...}")
		}
		ids = append(ids, *ref.ID)
	}
	return ids, nil
}

// checkCollections checks the collection ids of an item update: each must
// be the caller's (404 not_found otherwise). in reports whether the item
// joins the caller's favorites.
func (s *Tx) checkCollections(p *Principal, ids []string) (in bool, aerr *wire.Error) {
	if len(ids) == 0 {
		return false, nil
	}
	if p.User == nil {
		return false, wire.NotFound("collection")
	}
	f := s.favoritesOf(p.User)
	for _, id := range ids {
		if id != f.ID {
			return false, wire.NotFound("collection")
		}
	}
	return true, nil
}

// setFavorite puts it in the caller's favorites (in) or takes it out.
func (s *Tx) setFavorite(p *Principal, it *Item, in bool) {
	if p.User == nil {
		return
	}
	f, ok := s.Favorites.ByUser.Get(p.User.ID)
	if !ok && !in {
		return
	}
	f = s.favoritesOf(p.User)
	has := slices.Contains(f.Items, s.Items.Ref(it))
	switch {
	case in && !has:
		s.Favorites.ByUser.Update(f.User.ID, func(f *Favorites) { f.Items = append(f.Items, s.Items.Ref(it)) })
	case !in && has:
		s.Favorites.ByUser.Update(f.User.ID, func(f *Favorites) { f.Items = wire.RemoveFrom(f.Items, s.Items.Ref(it)) })
	}
}

// applyCollections checks and applies the collections member of an item
// update (nil: absent); the check runs before any change.
func (s *Tx) applyCollections(p *Principal, raw *[]json.RawMessage) (apply func(*Item), aerr *wire.Error) {
	if raw == nil {
		return func(*Item) {}, nil
	}
	ids, aerr := ParseCollections(*raw)
	if aerr != nil {
		return nil, aerr
	}
	in, aerr := s.checkCollections(p, ids)
	if aerr != nil {
		return nil, aerr
	}
	return func(it *Item) { s.setFavorite(p, it, in) }, nil
}

// itemCollections is the collections field of it: the caller's
// collections that hold it.
func (s *Tx) itemCollections(p *Principal, it *Item) []any {
	out := []any{}
	if p.User == nil {
		return out
	}
	if f, ok := s.Favorites.ByUser.Get(p.User.ID); ok && slices.Contains(f.Items, s.Items.Ref(it)) {
		out = append(out, collectionRecord(f))
	}
	return out
}
