package refserver

import (
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
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

// versionAttributes is the attributes part of POST /files/{id}/content.
// The schema names only name and content_modified_at, but Box's own upload
// client (Box UI Elements) sends parent, description and size too, so the
// service accepts them: parent must name a folder id when given, and the
// three are ignored (a new version does not move the file).
type versionAttributes struct {
	Name              *string `json:"name"`
	ContentModifiedAt *string `json:"content_modified_at"`
	Parent            *struct {
		ID *string `json:"id"`
	} `json:"parent"`
	Description *string `json:"description"`
	Size        *int64  `json:"size"`
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
			s.dropUnreferenced(r, blob.ID)
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
			info, err := s.st.Store.Put(r.Context(), part)
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
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
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
		if aerr := state.CheckName(*attrs.Name); aerr != nil {
			return aerr
		}
		var aerr *wire.Error
		if created, aerr = parseTime("content_created_at", attrs.ContentCreatedAt); aerr != nil {
			return aerr
		}
		if modified, aerr = parseTime("content_modified_at", attrs.ContentModifiedAt); aerr != nil {
			return aerr
		}
		s.st.View(func(tx *state.ReadTx) { aerr = tx.CheckUploadTarget(p, *attrs.Parent.ID, *attrs.Name) })
		return aerr
	}
	blob, err := s.readUpload(r, &attrs, false, validate)
	if err != nil {
		return err
	}
	if err := s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateFileTx(p, *attrs.Parent.ID, *attrs.Name, blob, created, modified, fields)
	}); err != nil {
		s.dropUnreferenced(r, blob.ID)
		return err
	}
	return nil
}

// uploadNewVersion serves POST {upload}/files/{file_id}/content: 200 Files,
// 412 on an if-match mismatch.
func (s *Server) uploadNewVersion(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	ifMatch := r.Header.Get("If-Match")
	check := func(name string) (aerr *wire.Error) {
		s.st.View(func(tx *state.ReadTx) { aerr = tx.CheckNewVersion(p, id, ifMatch, name) })
		return aerr
	}
	if aerr := check(""); aerr != nil {
		return aerr
	}
	var attrs versionAttributes
	var modified time.Time
	validate := func() *wire.Error {
		name := ""
		if attrs.Name != nil {
			name = *attrs.Name
			if aerr := state.CheckName(name); aerr != nil {
				return aerr
			}
		}
		if attrs.Parent != nil && (attrs.Parent.ID == nil || !state.ValidID(*attrs.Parent.ID)) {
			return wire.BadRequest("Invalid value for parent.id")
		}
		var aerr *wire.Error
		if modified, aerr = parseTime("content_modified_at", attrs.ContentModifiedAt); aerr != nil {
			return aerr
		}
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
	if err := s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.AddVersionTx(p, id, ifMatch, name, blob, modified, fields)
	}); err != nil {
		s.dropUnreferenced(r, blob.ID)
		return err
	}
	return nil
}
