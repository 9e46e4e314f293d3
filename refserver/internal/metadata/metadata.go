// Package metadata is the reference server's metadata room: the
// transactions of the metadata API on the state's templates and instances
// (templates.go, schema.go: templates and their schema edits; instances.go,
// values.go: instances on files and folders; query.go, query_eval.go,
// index.go: the metadata query engine on internal/mdquery's parser). The
// model itself (templates, instances, values, their indexes) is the
// state's (internal/state), which keeps it consistent as items move, copy
// and go; this package is what the metadata endpoints do with it, as
// functions of the state called under its lock. docs/metadata.md ("The
// reference server") summarises the rules and lists the error codes chosen
// where the service documents none.
package metadata

import "fmt"

// Metadata error codes. The spec names all of these for the metadata
// endpoints (the metadata guides of the service).
const (
	CodeSchemaValidationFailed = "schema_validation_failed"
	codeTupleAlreadyExists     = "tuple_already_exists"
	codeInstanceNotFound       = "instance_not_found"
	codeInstanceTupleNotFound  = "instance_tuple_not_found"
	CodeFailedJSONPatch        = "failed_json_patch_application"
	CodeInvalidQuery           = "invalid_query"
	CodeUnexpectedJSONType     = "unexpected_json_type"
)

// MDError is a failure of the metadata service answered with the
// MetadataError body {code, message, request_id}: no type, no status, no
// help_url (spec schema MetadataError; the live service answers instance
// errors in this shape, box/box-openapi#393). Failures outside the metadata
// service (authentication, an unknown file or folder) keep the standard
// ClientError body.
type MDError struct {
	Status        int
	Code, Message string
}

// Error describes the failure.
func (e *MDError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// MDErrf makes an MDError.
func MDErrf(status int, code, format string, args ...any) *MDError {
	return &MDError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}
