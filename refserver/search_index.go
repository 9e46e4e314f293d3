package refserver

import "github.com/contentapi/cms/refserver/internal/state"

// searchContentTypes are the content_types of the spec and their fields.
var searchContentTypes = map[string]state.SearchField{
	"name": state.FieldName, "description": state.FieldDescription, "tags": state.FieldTags,
	"file_content": state.FieldContent, "comments": state.FieldComments,
}
