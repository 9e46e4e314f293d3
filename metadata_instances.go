package cms

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
)

// MetadataItem names the file or folder that holds metadata instances:
// OnFile(id) or OnFolder(id).
type MetadataItem struct {
	kind string // "files" or "folders"
	id   string
}

// OnFile names a file for the MetadataService instance methods.
func OnFile(fileID string) MetadataItem { return MetadataItem{"files", fileID} }

// OnFolder names a folder for the MetadataService instance methods. The
// root folder "0" cannot hold metadata.
func OnFolder(folderID string) MetadataItem { return MetadataItem{"folders", folderID} }

// String returns "file <id>" or "folder <id>".
func (it MetadataItem) String() string {
	if it.kind == "folders" {
		return "folder " + it.id
	}
	return "file " + it.id
}

// path returns the path segments of the item's metadata, then extra.
func (it MetadataItem) path(extra ...string) ([]string, error) {
	switch it.kind {
	case "files":
		if err := checkID("file", it.id); err != nil {
			return nil, err
		}
	case "folders":
		if err := checkID("folder", it.id); err != nil {
			return nil, err
		}
		if it.id == "0" {
			return nil, &ArgError{Arg: "folder id", Reason: "the root folder cannot hold metadata", Err: ErrInvalidID}
		}
	default:
		return nil, invalidArg("item", "use OnFile or OnFolder")
	}
	return append([]string{it.kind, it.id, "metadata"}, extra...), nil
}

// instancePath is the path of one instance, after checking the item, scope
// and template key.
func instancePath(item MetadataItem, scope MetadataScope, templateKey string) ([]string, error) {
	if err := checkScopeKey(scope, templateKey); err != nil {
		return nil, err
	}
	return item.path(string(scope), templateKey)
}

// Create applies a template to a file or folder with values
// (POST /files/{file_id}/metadata/{scope}/{template_key}, or the folder
// twin). values is a struct (json tags name the keys), a map, or a
// *MetadataInstance; see MetadataValues. An item that already has the
// template fails with an *APIError matching ErrTupleAlreadyExists (use
// Update or Upsert).
func (s *MetadataService) Create(ctx context.Context, item MetadataItem, scope MetadataScope, templateKey string, values any) (*MetadataInstance, *Response, error) {
	vals, err := MetadataValues(values)
	if err != nil {
		return nil, nil, err
	}
	path, err := instancePath(item, scope, templateKey)
	if err != nil {
		return nil, nil, err
	}
	return callAPI[MetadataInstance](ctx, s.client, http.MethodPost, vals, nil, path...)
}

// Get fetches an instance (GET /files/{file_id}/metadata/{scope}/{template_key},
// or the folder twin). A missing one fails with an *APIError matching
// ErrInstanceNotFound.
func (s *MetadataService) Get(ctx context.Context, item MetadataItem, scope MetadataScope, templateKey string) (*MetadataInstance, *Response, error) {
	path, err := instancePath(item, scope, templateKey)
	if err != nil {
		return nil, nil, err
	}
	return getAPI[MetadataInstance](ctx, s.client, nil, path...)
}

// ListByItem returns every instance on a file or folder, unpaged
// (GET /files/{file_id}/metadata, or the folder twin).
func (s *MetadataService) ListByItem(ctx context.Context, item MetadataItem) (*Collection[*MetadataInstance], *Response, error) {
	path, err := item.path()
	if err != nil {
		return nil, nil, err
	}
	c, resp, err := getAPI[Collection[*MetadataInstance]](ctx, s.client, nil, path...)
	if err != nil {
		return nil, resp, err
	}
	if c.TotalCount == 0 { // the wire sends {entries, limit}
		c.TotalCount = len(c.Entries)
	}
	return c, resp, nil
}

// Update applies a JSON-Patch to an instance, all or none
// (PUT /files/{file_id}/metadata/{scope}/{template_key}, or the folder twin,
// sent as application/json-patch+json). A failed test operation fails with
// an *APIError matching ErrFailedJSONPatch and changes nothing.
func (s *MetadataService) Update(ctx context.Context, item MetadataItem, scope MetadataScope, templateKey string, patch *MetadataPatch) (*MetadataInstance, *Response, error) {
	if patch == nil || len(patch.ops) == 0 && patch.err == nil {
		return nil, nil, invalidArg("patch", "no operations")
	}
	if patch.err != nil {
		return nil, nil, patch.err
	}
	path, err := instancePath(item, scope, templateKey)
	if err != nil {
		return nil, nil, err
	}
	return callAPI[MetadataInstance](ctx, s.client, http.MethodPut, jsonPatch{patch.ops}, nil, path...)
}

// Delete removes an instance from a file or folder
// (DELETE /files/{file_id}/metadata/{scope}/{template_key}, or the folder twin).
func (s *MetadataService) Delete(ctx context.Context, item MetadataItem, scope MetadataScope, templateKey string) (*Response, error) {
	path, err := instancePath(item, scope, templateKey)
	if err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, path...)
}

// Upsert creates the instance with values
// (POST /files/{file_id}/metadata/{scope}/{template_key}, or the folder
// twin), or, when the item already has one (409 tuple_already_exists),
// sets each of the values on it with an add operation
// (PUT /files/{file_id}/metadata/{scope}/{template_key}, sent as
// application/json-patch+json), leaving its other keys alone. Every other error of either call is returned as it is. It makes
// two calls when the instance exists; the Response is the last one's.
func (s *MetadataService) Upsert(ctx context.Context, item MetadataItem, scope MetadataScope, templateKey string, values any) (*MetadataInstance, *Response, error) {
	vals, err := MetadataValues(values)
	if err != nil {
		return nil, nil, err
	}
	inst, resp, err := s.Create(ctx, item, scope, templateKey, vals)
	if !errors.Is(err, ErrTupleAlreadyExists) {
		return inst, resp, err
	}
	if len(vals) == 0 {
		return s.Get(ctx, item, scope, templateKey)
	}
	patch := NewMetadataPatch()
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		patch.Add(k, vals[k])
	}
	return s.Update(ctx, item, scope, templateKey, patch)
}
