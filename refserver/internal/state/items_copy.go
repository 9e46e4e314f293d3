package state

import (
	"context"
	"fmt"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// POST /files/{file_id}/copy and POST /folders/{folder_id}/copy (spec
// post_files_id_copy, post_folders_id_copy): 201 with the new item.
//
//   - parent.id is required (400 bad_request); a target folder the caller
//     cannot see, or a source they cannot see, is 404 not_found;
//   - name defaults to the source's; a name taken in the target is 409
//     item_name_in_use with the conflict; a file copy may name a version of
//     the file to copy (404 not_found for another or a trashed one);
//   - a folder copies its subtree (what is not in the trash), each file
//     with its current version; a folder cannot be copied into itself or
//     below itself (400 bad_request), and the root cannot be copied (the
//     service answers 500, so does this server);
//   - metadata instances whose template has copyInstanceOnItemCopy come
//     along, on every copied item;
//   - the copy belongs to the owner of the target (the caller for their
//     root), is created by the caller, and keeps the content dates.
//
// Content is copied blob by blob outside the lock (a large copy never
// stalls other requests), then the state is checked again and the items
// are added in one step; a check that fails then deletes the copied blobs.

// CopyBody is the body of a copy.
type CopyBody struct {
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	Name    *string `json:"name"`
	Version *string `json:"version"`
}

// CopyNode is one item of a copy: its source, where it goes among the
// nodes (parent index, -1 for the top) and, for a file, the blob to copy.
type CopyNode struct {
	Src    *Item
	parent int
	Blob   blob.Info
	Copied blob.Info
}

// PlanCopy checks a copy and lists what it copies.
func (s *ReadTx) PlanCopy(p *Principal, typ, id string, body *CopyBody) ([]CopyNode, string, *wire.Error) {
	src, aerr := s.LookupFor(p, typ, id, actCopy)
	if aerr != nil {
		return nil, "", aerr
	}
	target := *body.Parent.ID
	name := src.Name
	if body.Name != nil {
		name = *body.Name
	}
	if aerr := s.checkCopyTarget(p, src, target, name); aerr != nil {
		return nil, "", aerr
	}
	if typ == "file" {
		v := src.Current()
		if body.Version != nil {
			v = nil
			for _, c := range src.Versions {
				if c.ID == *body.Version && c.TrashedAt().IsZero() {
					v = c
				}
			}
			if v == nil {
				return nil, "", wire.NotFound("file version")
			}
		}
		nodes := []CopyNode{{Src: src, parent: -1, Blob: v.Blob.Info()}}
		return nodes, name, s.copyLockRefuses(p, nodes)
	}
	nodes := []CopyNode{{Src: src, parent: -1}}
	for i := 0; i < len(nodes); i++ {
		if nodes[i].Src.Typ != "folder" {
			continue
		}
		for _, c := range s.Children(nodes[i].Src.ID, nil) {
			n := CopyNode{Src: c, parent: i}
			if c.Typ == "file" {
				n.Blob = c.Current().Blob.Info()
			}
			nodes = append(nodes, n)
		}
	}
	return nodes, name, s.copyLockRefuses(p, nodes)
}

// copyLockRefuses refuses a copy of a file (alone or in a folder) whose
// lock prevents p's downloads: a copy reads the content as a download
// does, and its copy would carry no lock (403 access_denied_item_locked).
func (s *ReadTx) copyLockRefuses(p *Principal, nodes []CopyNode) *wire.Error {
	for _, n := range nodes {
		if aerr := s.LockRefuses(p, n.Src, ActDownload); aerr != nil {
			return aerr
		}
	}
	return nil
}

// checkCopyTarget checks the target folder and name of a copy.
func (s *ReadTx) checkCopyTarget(p *Principal, src *Item, target, name string) *wire.Error {
	parent, aerr := s.ParentFolder(p, target)
	if aerr != nil {
		return aerr
	}
	if src.Typ == "folder" && s.IsWithin(target, src.ID) {
		return wire.BadRequest("Cannot copy a folder into itself or a folder below it")
	}
	if c := s.Conflict(target, OwnerIn(p, parent), name, nil); c != nil {
		return s.ErrNameInUse(c)
	}
	return nil
}

// CopyBlobs copies the content of the files of a copy, outside the lock.
// It returns the ids of the blobs it made (to delete on failure).
func (s *Env) CopyBlobs(ctx context.Context, nodes []CopyNode) ([]string, error) {
	var made []string
	for i := range nodes {
		n := &nodes[i]
		if n.Src.Typ != "file" {
			continue
		}
		rc, err := s.Store.Open(ctx, n.Blob.ID)
		if err != nil {
			return made, fmt.Errorf("copying %s: %w", n.Src.ID, err)
		}
		info, err := s.Store.Put(ctx, rc)
		rc.Close()
		if err != nil {
			return made, fmt.Errorf("copying %s: %w", n.Src.ID, err)
		}
		made = append(made, info.ID)
		n.Copied = info
	}
	return made, nil
}

// AddCopy checks the target again and adds the copied items.
func (s *Tx) AddCopy(p *Principal, nodes []CopyNode, target, name string) (*Item, *wire.Error) {
	if aerr := s.checkCopyTarget(p, nodes[0].Src, target, name); aerr != nil {
		return nil, aerr
	}
	if aerr := s.copyLockRefuses(p, nodes); aerr != nil {
		return nil, aerr // locked while the content was copied
	}
	parent, _ := s.ParentFolder(p, target)
	owner := OwnerIn(p, parent)
	now := s.NowSec()
	made := make([]*Item, len(nodes))
	for i, n := range nodes {
		c := &Item{
			Typ: n.Src.Typ, ID: s.newItemID(n.Src.Typ), Name: n.Src.Name, Owner: owner, CreatedBy: p.User, ModBy: p.User,
			CreatedAt: now, ModifiedAt: now,
			ContentCreatedAt: n.Src.ContentCreatedAt, ContentModifiedAt: n.Src.ContentModifiedAt,
			copying: true,
		}
		src := n.Src.ext()
		c.SetExtras(ItemExtras{Description: src.Description, SyncState: src.SyncState, URL: src.URL, Tags: append([]string(nil), src.Tags...)})
		if i == 0 {
			c.Name, c.ParentID = name, target
		} else {
			c.ParentID = made[n.parent].ID
		}
		if c.Typ == "file" {
			c.Versions = []*Version{NewVersion(s.NewID(), blob.RefOf(n.Copied), now, p.User)}
			c.SetReadyAt(s.Now().Add(s.Cfg.ContentNotReady))
		}
		made[i] = c
		s.AddItem(c)
		if c.Typ == "file" {
			s.versionAdded(c, c.Current())
		}
		s.copyInstances(n.Src, c)
	}
	for _, c := range made {
		c.copying = false
	}
	s.cascadeInto(made[0])
	if parent != nil {
		s.touchItem(parent, now, nil)
	}
	return made[0], nil
}

// copyInstances copies the metadata instances of src whose template says
// copyInstanceOnItemCopy onto c.
func (s *Tx) copyInstances(src, c *Item) {
	for _, in := range s.Metadata.ByItem[s.Items.Ref(src)] {
		if !in.Tmpl.CopyOnCopy {
			continue
		}
		values := in.Values.Map()
		for k, v := range values {
			v.List = append([]string(nil), v.List...)
			values[k] = v
		}
		s.MetadataChanged(s.AddInstance(in.Tmpl, c, values))
	}
}

// AddCopyTx serves POST /files/{file_id}/copy and POST
// /folders/{folder_id}/copy once the content is copied: it adds the copy
// PlanCopy planned (its content copied outside the lock) to the folder
// parentID as name, 201 with the copy's record.
func (s *Tx) AddCopyTx(p *Principal, nodes []CopyNode, parentID, name string, fields []string) (Reply, *wire.Error) {
	top, aerr := s.AddCopy(p, nodes, parentID, name)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{Status: wire.StatusCreated, Body: s.Render(top, fields, p)}, nil
}
