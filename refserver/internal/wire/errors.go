// Package wire is the reference server's wire vocabulary: the error body
// and its codes, strict JSON request decoding, tri-state members, query
// parameters, page and marker helpers, and the Content-Range and Digest
// headers. It imports nothing of the server, and no net/http: the state
// layer uses its errors, and the server writes them (refserver/answer.go).
package wire

import (
	"fmt"
)

// HeaderRequestID is the header naming the request in every answer.
const HeaderRequestID = "box-request-id"

// HelpURL is the help_url of every error body, as the real service sends it.
const HelpURL = "https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors/"

// Error codes used by the server. Where the public spec names a code for a
// situation it is used verbatim; the others are documented where they are used.
const (
	CodeBadRequest          = "bad_request"
	CodeUnauthorized        = "unauthorized"
	CodeForbidden           = "forbidden"
	CodeNotFound            = "not_found"
	CodeMethodNotAllowed    = "method_not_allowed"
	CodeConflict            = "conflict"
	CodePreconditionFailed  = "precondition_failed"
	CodeRateLimitExceeded   = "rate_limit_exceeded"
	CodeInternalServerError = "internal_server_error"
	CodeUnavailable         = "unavailable"
	CodeItemNameInvalid     = "item_name_invalid"
	CodeItemNameTooLong     = "item_name_too_long"
	CodeItemNameInUse       = "item_name_in_use"
	CodeInsufficientScope   = "insufficient_scope"
	CodeFolderNotEmpty      = "folder_not_empty"
	CodeAccessDenied        = "access_denied_insufficient_permissions"
	CodeMetadataAfterFile   = "metadata_after_file_contents"
	// CodeCyclicalFolderStructure: a folder moved into itself or below
	// itself (400).
	CodeCyclicalFolderStructure = "cyclical_folder_structure"
	// CodeRequestedPreviewUnavailable: a thumbnail size the service does not serve.
	CodeRequestedPreviewUnavailable = "requested_preview_unavailable"
	// CodeBadDigest is what the service's "common errors" guide documents for
	// a content-md5 (hex SHA1) that does not match the received bytes; the
	// server uses it for a part whose digest header does not match too.
	CodeBadDigest = "bad_digest"
	// CodeDigestMismatch is the code the service answers a commit with when the
	// whole-file digest is wrong (seen in box-java-sdk #701, box-windows-sdk-v2 #767).
	CodeDigestMismatch = "digest_mismatch"
	// CodePartsMismatch is the code the service answers a commit with when the
	// listed parts do not match the uploaded ones (seen in rclone #97).
	CodePartsMismatch = "parts_mismatch"
	// CodeRangeOverlaps is the code of the chunked-upload guide for a part
	// that overlaps a range already uploaded (409).
	CodeRangeOverlaps = "range_overlaps_existing_part"
	// CodeRangeNotSatisfiable is used for 416 on part uploads. Neither the spec
	// nor the guides name a code; the service's generic codes are the
	// snake_case of the status text, so this is the snake_case of
	// "Requested Range Not Satisfiable".
	CodeRangeNotSatisfiable = "requested_range_not_satisfiable"
	CodeMissingDestination  = "missing_destination"
	CodeInvalidFolderID     = "invalid_folder_id"
	CodeMissingFileSize     = "missing_file_size"
	CodeInvalidFileSize     = "invalid_file_size"
	CodeFileSizeTooSmall    = "file_size_too_small"
	CodeMissingFileName     = "missing_file_name"
	CodeInvalidParameter    = "invalid_parameter"
)

// Error is a failure answered with the standard error body.
type Error struct {
	Status      int
	Code        string
	Message     string
	ContextInfo any
	RetryAfter  int // seconds; 0 = no header
}

// Error describes the failure: status, code and message.
func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Errorf makes an Error with a formatted message.
func Errorf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// BadRequest is 400 bad_request with a formatted message.
func BadRequest(format string, args ...any) *Error {
	return Errorf(StatusBadRequest, CodeBadRequest, format, args...)
}

// NotFound is 404 not_found naming what was not found.
func NotFound(what string) *Error {
	return Errorf(StatusNotFound, CodeNotFound, "Not Found: %s", what)
}

// Body is the wire shape of an error (ClientError): the body of every
// failure's answer.
type Body struct {
	Type        string `json:"type"`
	Status      int    `json:"status"`
	Code        string `json:"code"`
	Message     string `json:"message"`
	ContextInfo any    `json:"context_info,omitempty"`
	HelpURL     string `json:"help_url"`
	RequestID   string `json:"request_id"`
}

// Body is e's error body, for the request named requestID.
func (e *Error) Body(requestID string) Body {
	return Body{
		Type:        "error",
		Status:      e.Status,
		Code:        e.Code,
		Message:     e.Message,
		ContextInfo: e.ContextInfo,
		HelpURL:     HelpURL,
		RequestID:   requestID,
	}
}

// InvalidParam is 400 invalid_parameter with a formatted message.
func InvalidParam(format string, args ...any) *Error {
	return Errorf(StatusBadRequest, CodeInvalidParameter, format, args...)
}

// ErrRange is 416 requested_range_not_satisfiable: a part whose range
// breaks the session's rules.
func ErrRange(format string, args ...any) *Error {
	return Errorf(StatusRequestedRangeNotSatisfiable, CodeRangeNotSatisfiable, format, args...)
}
