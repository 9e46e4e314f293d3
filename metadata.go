package cms

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// MetadataTemplatesService handles metadata templates (/metadata_templates).
type MetadataTemplatesService service

// MetadataService handles metadata instances on files and folders (/files/{id}/metadata, /folders/{id}/metadata) and metadata queries (/metadata_queries/execute_read).
type MetadataService service

// contentTypeJSONPatch is the media type of JSON-Patch bodies (instance
// updates and template schema updates).
const contentTypeJSONPatch = "application/json-patch+json"

// setJSONPatch makes v the request body, sent as application/json-patch+json.
func (r *request) setJSONPatch(v any) error {
	buf, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("cms: encoding request body: %w", err)
	}
	r.setBytes(contentTypeJSONPatch, buf)
	return nil
}

func itoa(i int) string { return strconv.Itoa(i) }
