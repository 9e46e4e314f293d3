package state

import "github.com/contentapi/cms/refserver/internal/wire"

// LookupVia returns the item of a type p may act on: through link (a
// boxapi header) when there is one (sharedlink_access.go), else as
// LookupFor.
func (s *Tx) LookupVia(p *Principal, link *BoxapiLink, typ, id string, act Action) (*Item, *wire.Error) {
	if link == nil {
		return s.LookupFor(p, typ, id, act)
	}
	shared, aerr := s.SharedLinkItem(p, *link)
	if aerr != nil {
		return nil, aerr
	}
	it, ok := s.Items.Get(typ, id)
	if !ok || it.Typ != typ || s.InTrash(it) || it != shared && !(shared.Typ == "folder" && s.IsWithin(it.ParentID, shared.ID)) {
		return nil, wire.NotFound(typ)
	}
	switch {
	case act == ActSee || act == ActPreview, s.Can(p, it, act):
		return it, nil
	case act == ActDownload && shared.Link().Downloads():
		return it, nil
	}
	return nil, ErrDenied(typ)
}

// ItemRead is what a read of one item asks: the item (Type, ID), the
// shared link it is read through (Link, nil for none), the etag of
// if-none-match (IfNoneMatch, "" for none) and the fields to render.
type ItemRead struct {
	Type, ID    string
	Link        *BoxapiLink
	IfNoneMatch string
	Fields      []string
}

// GetItem serves GET /files/{id}, /folders/{id} and /web_links/{id}:
// 200 with the record, 304 when if-none-match matches its etag. A folder's
// record carries its first page of items (q), the root folder's included.
func (s *Tx) GetItem(p *Principal, rd ItemRead, q CollectionQuery) (Reply, *wire.Error) {
	if rd.Type == "folder" && rd.ID == RootID {
		out := s.RootRepresentation(p, rd.Fields)
		s.AddItemCollection(out, nil, rd.Fields, p, q)
		return Reply{Status: wire.StatusOK, Body: out}, nil
	}
	it, aerr := s.LookupVia(p, rd.Link, rd.Type, rd.ID, ActSee)
	if aerr != nil {
		return Reply{}, aerr
	}
	if rd.IfNoneMatch != "" && EtagMatches(rd.IfNoneMatch, it.Etag()) {
		return Reply{Status: wire.StatusNotModified}, nil
	}
	out := s.Render(it, rd.Fields, p)
	if rd.Type == "folder" {
		s.AddItemCollection(out, it, rd.Fields, p, q)
	}
	return Reply{Status: wire.StatusOK, Body: out}, nil
}

// GetSharedItem serves GET /shared_items: the item rd.Link names, 304
// when if-none-match matches its etag.
func (s *Tx) GetSharedItem(p *Principal, rd ItemRead) (Reply, *wire.Error) {
	it, aerr := s.SharedLinkItem(p, *rd.Link)
	if aerr != nil {
		return Reply{}, aerr
	}
	if rd.IfNoneMatch != "" && EtagMatches(rd.IfNoneMatch, it.Etag()) {
		return Reply{Status: wire.StatusNotModified}, nil
	}
	return Reply{Status: wire.StatusOK, Body: s.Render(it, rd.Fields, p)}, nil
}

// ListFolderItems serves GET /folders/{id}/items: a page of the folder's
// items. Through a shared link the whole folder shows.
func (s *Tx) ListFolderItems(p *Principal, rd ItemRead, q CollectionQuery) (Reply, *wire.Error) {
	var f *Item
	if rd.ID != RootID {
		var aerr *wire.Error
		if f, aerr = s.LookupVia(p, rd.Link, "folder", rd.ID, ActSee); aerr != nil {
			return Reply{}, aerr
		}
		q.ViaLink = rd.Link != nil
	}
	return Reply{Status: wire.StatusOK, Body: s.Listing(f, p, q, rd.Fields)}, nil
}

// TrashItemTx serves DELETE /files/{id} and /folders/{id}: the item goes
// to the trash, with a folder's content. if-match must match its etag
// (412); a file's lock must allow it; a folder with items needs recursive
// (400 folder_not_empty).
func (s *Tx) TrashItemTx(p *Principal, typ, id, ifMatch string, recursive bool) *wire.Error {
	it, aerr := s.LookupFor(p, typ, id, ActDelete)
	if aerr != nil {
		return aerr
	}
	if typ == "file" {
		if aerr := s.LockRefuses(p, it, ActDelete); aerr != nil {
			return aerr
		}
	}
	if aerr := s.FolderLockRefuses(it, "delete"); aerr != nil { // folder_locks.go
		return aerr
	}
	if aerr := CheckIfMatch(ifMatch, it.Etag()); aerr != nil {
		return aerr
	}
	if typ == "folder" && !recursive && len(s.Children(it.ID, nil)) > 0 {
		return wire.Errorf(wire.StatusBadRequest, wire.CodeFolderNotEmpty, "Cannot delete - folder not empty")
	}
	s.TrashItem(it, p.User)
	return nil
}

// Download serves GET /files/{id}/content: the file and the version
// (want, "" for the current one; nil when there is none that is not in
// the trash) p may download, and whether the content is not ready yet. A
// file whose permissions.can_download is company is refused (403) to a
// user outside the enterprise. A download that goes ahead is an event.
func (s *Tx) Download(p *Principal, link *BoxapiLink, id, want string) (f *Item, v *Version, notReady bool, aerr *wire.Error) {
	if f, aerr = s.LookupVia(p, link, "file", id, ActDownload); aerr != nil {
		return nil, nil, false, aerr
	}
	if aerr = s.LockRefuses(p, f, ActDownload); aerr != nil {
		return nil, nil, false, aerr
	}
	if f.CompanyDownloads && (p.User == nil || p.User.Free) {
		// permissions.can_download company: only the enterprise's users.
		return nil, nil, false, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The file may be downloaded by the users of its enterprise only")
	}
	v = f.Current()
	if want != "" {
		v = nil
		for _, c := range f.Versions {
			if c.ID == want && c.TrashedAt().IsZero() {
				v = c // a version in the trash is not downloaded (file_versions.go)
			}
		}
	}
	notReady = s.Now().Before(f.ReadyAt())
	if v != nil && !notReady {
		s.ItemEvent(EvItemDownload, f, p.User)
	}
	return f, v, notReady, nil
}

// Preview is the opening of a file's preview (an expiring embed link's
// page, the content host): the name of the file with id, and whether it
// exists and is not in the trash. An opened preview is ITEM_PREVIEW (by
// the unknown user: the link carries no user), which fires FILE.PREVIEWED.
func (s *Tx) Preview(id string) (string, bool) {
	f, ok := s.Items.Get("file", id)
	if !ok || f.Trashed() {
		return "", false
	}
	s.ItemEvent(evItemPreview, f, nil)
	return f.Name, true
}

// FileName is the name of the file with id, and whether it exists and is
// not in the trash (the content host).
func (s *ReadTx) FileName(id string) (string, bool) {
	f, ok := s.Items.Get("file", id)
	if !ok || f.Trashed() {
		return "", false
	}
	return f.Name, true
}
