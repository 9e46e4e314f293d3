package refserver

import (
	"context"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// uploadAttributes is the attributes part of POST /files/content.
type uploadAttributes struct {
	Name   *string `json:"name"`
	Parent *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	ContentCreatedAt  *string `json:"content_created_at"`
	ContentModifiedAt *string `json:"content_modified_at"`
}

// versionAttributes is the attributes part of POST /files/{id}/content;
// the schema has no parent, so parent is rejected as an unknown field.
type versionAttributes struct {
	Name              *string `json:"name"`
	ContentModifiedAt *string `json:"content_modified_at"`
}

// parseTime reads an optional RFC 3339 attribute.
func parseTime(name string, v *string) (time.Time, *wire.Error) {
	if v == nil {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, *v)
	if err != nil {
		return time.Time{}, wire.BadRequest("Invalid value for %s", name)
	}
	return t.UTC().Truncate(time.Second), nil
}

// readUpload streams a multipart/form-data upload: the attributes part must
// come first; it is decoded strictly into attrs and checked by validate
// before any file byte is read. The file part is streamed into the store
// while hashing. The optional content-md5 header (hex SHA1) is checked
// against the stored bytes. On any failure nothing is kept.
//
// The file part is the part named "file" or, whatever its name, any part
// that carries a filename in its Content-Disposition: the service takes the
// part with a filename as the content (box-node-sdk has always sent it as
// name="content"; the name of the field does not matter to the service).
// With attrsOptional (new versions), a body with no attributes part at all
// is accepted and validate runs with attrs left zero; an attributes part
// after the file part is still metadata_after_file_contents.
func (s *Server) readUpload(r *http.Request, attrs any, attrsOptional bool, validate func() *wire.Error) (BlobInfo, error) {
	ct := r.Header.Get("Content-Type")
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return BlobInfo{}, wire.BadRequest("Content-Type must be multipart/form-data with a boundary")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return BlobInfo{}, wire.BadRequest("Malformed multipart body")
	}
	var (
		blob      BlobInfo
		haveAttrs bool
		haveFile  bool
	)
	fail := func(e error) (BlobInfo, error) {
		if haveFile {
			_ = s.store.Delete(context.WithoutCancel(r.Context()), blob.ID)
		}
		return BlobInfo{}, e
	}
	for {
		part, err := mr.NextPart()
		// Only a plain io.EOF is the closing boundary: a body that ends
		// without it is "multipart: NextPart: EOF", which wraps io.EOF,
		// and is a truncated body.
		if err == io.EOF { //nolint:errorlint // the sentinel itself, not a wrapped one
			break
		}
		if err != nil {
			if r.Context().Err() != nil {
				return fail(r.Context().Err())
			}
			return fail(wire.BadRequest("Malformed multipart body"))
		}
		name := part.FormName()
		if name != "attributes" && part.FileName() != "" {
			name = "file"
		}
		switch name {
		case "attributes":
			if haveFile {
				return fail(wire.Errorf(http.StatusBadRequest, wire.CodeMetadataAfterFile, "Metadata must be sent before file contents"))
			}
			if haveAttrs {
				return fail(wire.BadRequest("Duplicate attributes part"))
			}
			haveAttrs = true
			if aerr := wire.DecodeJSON(part, attrs); aerr != nil {
				return fail(aerr)
			}
			if aerr := validate(); aerr != nil {
				return fail(aerr)
			}
		case "file":
			if haveFile {
				return fail(wire.BadRequest("Duplicate file part"))
			}
			if !haveAttrs {
				if !attrsOptional {
					return fail(wire.Errorf(http.StatusBadRequest, wire.CodeMetadataAfterFile, "Metadata must be sent before file contents"))
				}
				if aerr := validate(); aerr != nil {
					return fail(aerr)
				}
			}
			info, err := s.store.Put(r.Context(), part)
			if err != nil {
				if r.Context().Err() != nil {
					return fail(r.Context().Err())
				}
				// Reading the part failed: a malformed or truncated body.
				return fail(wire.BadRequest("Malformed multipart body"))
			}
			blob, haveFile = info, true
		default:
			// Other form fields are ignored, as the service does.
			if _, err := io.Copy(io.Discard, part); err != nil {
				return fail(wire.BadRequest("Malformed multipart body"))
			}
		}
	}
	if !haveAttrs && !attrsOptional {
		return fail(wire.BadRequest("Missing attributes part"))
	}
	if !haveFile {
		return fail(wire.BadRequest("Missing file part"))
	}
	if want := r.Header.Get("Content-Md5"); want != "" && !strings.EqualFold(strings.TrimSpace(want), blob.SHA1) {
		return fail(wire.Errorf(http.StatusBadRequest, wire.CodeBadDigest, "The specified content-md5 did not match what we received"))
	}
	return blob, nil
}

// uploadFile serves POST {upload}/files/content: 201 Files.
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	var attrs uploadAttributes
	var created, modified time.Time
	validate := func() *wire.Error {
		if attrs.Name == nil {
			return wire.BadRequest("Missing required attribute: name")
		}
		if attrs.Parent == nil || attrs.Parent.ID == nil {
			return wire.BadRequest("Missing required attribute: parent.id")
		}
		if aerr := checkName(*attrs.Name); aerr != nil {
			return aerr
		}
		var aerr *wire.Error
		if created, aerr = parseTime("content_created_at", attrs.ContentCreatedAt); aerr != nil {
			return aerr
		}
		if modified, aerr = parseTime("content_modified_at", attrs.ContentModifiedAt); aerr != nil {
			return aerr
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		parent, aerr := s.parentFolder(p, *attrs.Parent.ID)
		if aerr != nil {
			return aerr
		}
		if c := s.conflict(*attrs.Parent.ID, ownerIn(p, parent), *attrs.Name, nil); c != nil {
			return s.errNameInUse(c)
		}
		return nil
	}
	blob, err := s.readUpload(r, &attrs, false, validate)
	if err != nil {
		return err
	}
	s.mu.Lock()
	f, aerr := s.createFile(p, *attrs.Parent.ID, *attrs.Name, blob, created, modified)
	var out map[string]any
	if aerr == nil {
		out = s.render(f, fields, p)
	}
	s.mu.Unlock()
	if aerr != nil {
		s.deleteBlobs(r, []string{blob.ID})
		return aerr
	}
	writeJSON(w, http.StatusCreated, map[string]any{"total_count": 1, "entries": []any{out}})
	return nil
}

// createFile adds a file with its first version, re-checking the parent and
// the name. Callers hold s.mu.
func (s *state) createFile(p *principal, parentID, name string, blob BlobInfo, created, modified time.Time) (*item, *wire.Error) {
	parent, aerr := s.parentFolder(p, parentID)
	if aerr != nil {
		return nil, aerr
	}
	owner := ownerIn(p, parent)
	if c := s.conflict(parentID, owner, name, nil); c != nil {
		return nil, s.errNameInUse(c)
	}
	now := s.nowSec()
	if created.IsZero() {
		created = now
	}
	if modified.IsZero() {
		modified = now
	}
	f := &item{
		typ: "file", id: s.newID(), name: name, parentID: parentID,
		owner: owner, createdBy: p.user, modBy: p.user,
		createdAt: now, modifiedAt: now, contentCreatedAt: created, contentModifiedAt: modified,
		versions: []*version{{id: s.newID(), blob: blob, createdAt: now, by: p.user}},
		readyAt:  s.now().Add(s.cfg.ContentNotReady),
	}
	s.addItem(f)
	s.versionAdded(f, f.current())
	if parent != nil {
		parent.touch(now, nil)
	}
	s.dirtyItem(f, parent)
	return f, nil
}

// addVersion makes blob the current version of f, optionally renaming it,
// re-checking the name. Callers hold s.mu.
func (s *state) addVersion(p *principal, f *item, name string, blob BlobInfo, modified time.Time) *wire.Error {
	if aerr := s.lockRefuses(p, f, actUpload); aerr != nil {
		return aerr
	}
	if name != "" && name != f.name {
		if c := s.conflict(f.parentID, f.owner, name, f); c != nil {
			return s.errNameInUse(c)
		}
		f.name = name
	}
	now := s.nowSec()
	if modified.IsZero() {
		modified = now
	}
	f.versions = append(f.versions, &version{id: s.newID(), blob: blob, createdAt: now, by: p.user})
	s.versionAdded(f, f.current())
	f.contentModifiedAt = modified
	f.readyAt = s.now().Add(s.cfg.ContentNotReady)
	f.touch(now, p.user)
	s.dirtyItem(f)
	if parent, ok := s.items[f.parentID]; ok {
		parent.touch(now, nil)
		s.dirtyItem(parent)
	}
	s.itemEvent(evItemUpload, f, p.user)
	return nil
}

// uploadNewVersion serves POST {upload}/files/{file_id}/content: 200 Files,
// 412 on an if-match mismatch.
func (s *Server) uploadNewVersion(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	check := func(name string) *wire.Error {
		f, aerr := s.lookupFor(p, "file", id, actUpload)
		if aerr != nil {
			return aerr
		}
		if aerr := checkIfMatch(r.Header.Get("If-Match"), f.etag()); aerr != nil {
			return aerr
		}
		if name != "" && name != f.name {
			if c := s.conflict(f.parentID, f.owner, name, f); c != nil {
				return s.errNameInUse(c)
			}
		}
		return nil
	}
	s.mu.Lock()
	aerr = check("")
	s.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	var attrs versionAttributes
	var modified time.Time
	validate := func() *wire.Error {
		name := ""
		if attrs.Name != nil {
			name = *attrs.Name
			if aerr := checkName(name); aerr != nil {
				return aerr
			}
		}
		var aerr *wire.Error
		if modified, aerr = parseTime("content_modified_at", attrs.ContentModifiedAt); aerr != nil {
			return aerr
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		return check(name)
	}
	blob, err := s.readUpload(r, &attrs, true, validate)
	if err != nil {
		return err
	}
	name := ""
	if attrs.Name != nil {
		name = *attrs.Name
	}
	s.mu.Lock()
	aerr = check(name)
	var out map[string]any
	if aerr == nil {
		f := s.items[id]
		if aerr = s.addVersion(p, f, name, blob, modified); aerr == nil {
			out = s.render(f, fields, p)
		}
	}
	s.mu.Unlock()
	if aerr != nil {
		s.deleteBlobs(r, []string{blob.ID})
		return aerr
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": 1, "entries": []any{out}})
	return nil
}
