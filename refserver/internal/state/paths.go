package state

import "encoding/json"

// The path a caller is shown. An item's path_collection and parent name
// the folders above it; a collaborator is shown only the folders they may
// see — from the collaborated folder down — unless the collaboration
// gives can_view_path (the collaborations guide: the invitee "can see the
// entire parent path to the associated folder" but gains no privileges in
// it). Above what they see, the path starts at their own "All Files"
// (folder "0"), where the collaborated item appears for them; a parent
// they may not see is shown as that root folder too. This applies to
// every record of an item: the item's own endpoints, listings, search
// results, event sources and webhook payloads.

// showsFolder reports whether p is shown folder f in the path of item
// below (f is below's parent or above it): p sees f, or a collaboration
// on below or on a folder between below and f (f included) gives p
// can_view_path.
func (s *ReadTx) showsFolder(p *Principal, f, below *Item) bool {
	if p.SeesAll() || s.visible(p, f) {
		return true
	}
	if p.User == nil || s.collabs.byID.Len() == 0 {
		return false
	}
	viewsPath := func(x *Item) bool {
		for _, c := range s.collabs.byItem[s.Items.keyOf(x)] {
			if c.canViewPath && s.grants(c, p.User) {
				return true
			}
		}
		return false
	}
	if viewsPath(below) {
		return true
	}
	for x := range s.ancestors(below) { // tree.go
		if viewsPath(x) {
			return true
		}
		if x == f {
			break
		}
	}
	return false
}

// pathHidden reports whether some folder above it is not shown to p: the
// cheap test before a record is trimmed.
func (s *ReadTx) pathHidden(p *Principal, it *Item) bool {
	if p == nil || p.SeesAll() {
		return false
	}
	for f := range s.ancestors(it) {
		if !s.showsFolder(p, f, it) {
			return true
		}
	}
	return false
}

// trimPath removes from a record of it (path_collection, parent) the
// folders p is not shown: the path keeps the root "All Files" and the
// folders p is shown, a parent p is not shown becomes the root. A folder
// the record names that is no longer above it (the record is an event's,
// from before a move) is kept only when p sees it.
func (s *ReadTx) trimPath(p *Principal, it *Item, rec map[string]any) {
	if !s.pathHidden(p, it) {
		return
	}
	shown := func(id string) bool {
		if id == RootID || id == trashFolderID {
			return true
		}
		f, ok := s.Items.Get("folder", id)
		if !ok {
			return false
		}
		if s.IsUnder(it, id) {
			return s.showsFolder(p, f, it)
		}
		return s.visible(p, f)
	}
	if pc, ok := rec["path_collection"].(map[string]any); ok {
		if entries, ok := pc["entries"].([]any); ok {
			kept := make([]any, 0, len(entries))
			for _, e := range entries {
				m, _ := e.(map[string]any)
				if id, _ := m["id"].(string); m != nil && shown(id) {
					kept = append(kept, e)
				}
			}
			rec["path_collection"] = map[string]any{"total_count": len(kept), "entries": kept}
		}
	}
	if parent, ok := rec["parent"].(map[string]any); ok {
		if id, _ := parent["id"].(string); !shown(id) {
			rec["parent"] = rootMini()
		}
	}
}

// trimmedSource is an event's source as p is shown it: an item's record
// with the path p may see.
func (s *ReadTx) trimmedSource(p *Principal, e *Event) json.RawMessage {
	if e.ItemRef == "" || p == nil || p.SeesAll() {
		return e.Source
	}
	it, ok := s.Items.ByRef(e.ItemRef)
	if !ok || !s.pathHidden(p, it) {
		return e.Source
	}
	var rec map[string]any
	if err := json.Unmarshal(e.Source, &rec); err != nil || rec["path_collection"] == nil && rec["parent"] == nil {
		return e.Source
	}
	s.trimPath(p, it, rec)
	return RecordJSON(rec)
}
