package refserver

import (
	"context"
	"fmt"
	"maps"
	"net/http"

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

// copyBody is the body of a copy.
type copyBody struct {
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	Name    *string `json:"name"`
	Version *string `json:"version"`
}

// copyNode is one item of a copy: its source, where it goes among the
// nodes (parent index, -1 for the top) and, for a file, the blob to copy.
type copyNode struct {
	src    *item
	parent int
	blob   BlobInfo
	copied BlobInfo
}

// copyFile serves POST /files/{file_id}/copy.
func (s *Server) copyFile(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	return s.copyItem(w, r, p, "file", id)
}

// copyFolder serves POST /folders/{folder_id}/copy.
func (s *Server) copyFolder(w http.ResponseWriter, r *http.Request, p *principal) error {
	id := r.PathValue("folder_id")
	if !validID(id) {
		return wire.NotFound("folder")
	}
	if id == rootID {
		return wire.Errorf(http.StatusInternalServerError, wire.CodeInternalServerError, "The root folder cannot be copied")
	}
	return s.copyItem(w, r, p, "folder", id)
}

func (s *Server) copyItem(w http.ResponseWriter, r *http.Request, p *principal, typ, id string) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body copyBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.Parent == nil || body.Parent.ID == nil || *body.Parent.ID == "" {
		return wire.BadRequest("Missing required field: parent.id")
	}
	if body.Name != nil {
		if aerr := checkName(*body.Name); aerr != nil {
			return aerr
		}
	}
	if body.Version != nil && typ != "file" {
		return wire.BadRequest("Only a file copy takes a version")
	}
	fields := parseFields(r)

	s.mu.Lock()
	nodes, name, aerr := s.planCopy(p, typ, id, &body)
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	blobs, err := s.copyBlobs(r.Context(), nodes)
	if err != nil {
		s.deleteBlobs(r, blobs)
		return err
	}
	s.mu.Lock()
	top, aerr := s.addCopy(p, nodes, *body.Parent.ID, name)
	var out map[string]any
	if aerr == nil {
		out = s.render(top, fields, p)
	}
	s.mu.Unlock()
	if aerr != nil {
		s.deleteBlobs(r, blobs)
		return aerr
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

// planCopy checks a copy and lists what it copies. Callers hold s.mu.
func (s *state) planCopy(p *principal, typ, id string, body *copyBody) ([]copyNode, string, *wire.Error) {
	src, aerr := s.lookupFor(p, typ, id, actDownload)
	if aerr != nil {
		return nil, "", aerr
	}
	target := *body.Parent.ID
	name := src.name
	if body.Name != nil {
		name = *body.Name
	}
	if aerr := s.checkCopyTarget(p, src, target, name); aerr != nil {
		return nil, "", aerr
	}
	if typ == "file" {
		v := src.current()
		if body.Version != nil {
			v = nil
			for _, c := range src.versions {
				if c.id == *body.Version && c.trashedAt.IsZero() {
					v = c
				}
			}
			if v == nil {
				return nil, "", wire.NotFound("file version")
			}
		}
		return []copyNode{{src: src, parent: -1, blob: v.blob}}, name, nil
	}
	nodes := []copyNode{{src: src, parent: -1}}
	for i := 0; i < len(nodes); i++ {
		if nodes[i].src.typ != "folder" {
			continue
		}
		for _, c := range s.children(nodes[i].src.id, nil) {
			n := copyNode{src: c, parent: i}
			if c.typ == "file" {
				n.blob = c.current().blob
			}
			nodes = append(nodes, n)
		}
	}
	return nodes, name, nil
}

// checkCopyTarget checks the target folder and name of a copy. Callers
// hold s.mu.
func (s *state) checkCopyTarget(p *principal, src *item, target, name string) *wire.Error {
	parent, aerr := s.parentFolder(p, target)
	if aerr != nil {
		return aerr
	}
	if src.typ == "folder" && s.isWithin(target, src.id) {
		return wire.BadRequest("Cannot copy a folder into itself or a folder below it")
	}
	if c := s.conflict(target, ownerIn(p, parent), name, nil); c != nil {
		return s.errNameInUse(c)
	}
	return nil
}

// copyBlobs copies the content of the files of a copy, outside the lock.
// It returns the ids of the blobs it made (to delete on failure).
func (s *state) copyBlobs(ctx context.Context, nodes []copyNode) ([]string, error) {
	var made []string
	for i := range nodes {
		n := &nodes[i]
		if n.src.typ != "file" {
			continue
		}
		rc, err := s.store.Open(ctx, n.blob.ID)
		if err != nil {
			return made, fmt.Errorf("copying %s: %w", n.src.id, err)
		}
		info, err := s.store.Put(ctx, rc)
		rc.Close()
		if err != nil {
			return made, fmt.Errorf("copying %s: %w", n.src.id, err)
		}
		made = append(made, info.ID)
		n.copied = info
	}
	return made, nil
}

// addCopy checks the target again and adds the copied items. Callers hold
// s.mu.
func (s *state) addCopy(p *principal, nodes []copyNode, target, name string) (*item, *wire.Error) {
	if aerr := s.checkCopyTarget(p, nodes[0].src, target, name); aerr != nil {
		return nil, aerr
	}
	parent, _ := s.parentFolder(p, target)
	owner := ownerIn(p, parent)
	now := s.nowSec()
	made := make([]*item, len(nodes))
	for i, n := range nodes {
		c := &item{
			typ: n.src.typ, id: s.newID(), name: n.src.name, owner: owner, createdBy: p.user, modBy: p.user,
			description: n.src.description, createdAt: now, modifiedAt: now,
			contentCreatedAt: n.src.contentCreatedAt, contentModifiedAt: n.src.contentModifiedAt,
			syncState: n.src.syncState, url: n.src.url, tags: append([]string(nil), n.src.tags...),
			copiedFrom: n.src.id,
		}
		if i == 0 {
			c.name, c.parentID = name, target
		} else {
			c.parentID = made[n.parent].id
		}
		if c.typ == "file" {
			c.versions = []*version{{id: s.newID(), blob: n.copied, createdAt: now, by: p.user}}
			c.readyAt = s.now().Add(s.cfg.ContentNotReady)
		}
		made[i] = c
		s.addItem(c)
		if c.typ == "file" {
			s.versionAdded(c, c.current())
		}
		s.copyInstances(n.src, c)
		s.dirtyItem(c)
	}
	for _, c := range made {
		c.copiedFrom = ""
	}
	if parent != nil {
		parent.touch(now, nil)
		s.dirtyItem(parent)
	}
	return made[0], nil
}

// copyInstances copies the metadata instances of src whose template says
// copyInstanceOnItemCopy onto c. Callers hold s.mu.
func (s *state) copyInstances(src, c *item) {
	for _, in := range s.metadata.byItem[src.id] {
		if !in.tmpl.copyOnCopy {
			continue
		}
		values := maps.Clone(in.values)
		for k, v := range values {
			v.list = append([]string(nil), v.list...)
			values[k] = v
		}
		s.metadataChanged(s.addInstance(in.tmpl, c, values))
	}
}
