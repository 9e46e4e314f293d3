package refserver

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// helpURL is the help_url of every error body, as the real service sends it.
const helpURL = "https://developer.box.com/guides/api-calls/permissions-and-errors/common-errors/"

// Error codes used by the server. Where the public spec names a code for a
// situation it is used verbatim; the others are documented where they are used.
const (
	codeBadRequest          = "bad_request"
	codeUnauthorized        = "unauthorized"
	codeForbidden           = "forbidden"
	codeNotFound            = "not_found"
	codeMethodNotAllowed    = "method_not_allowed"
	codeConflict            = "conflict"
	codePreconditionFailed  = "precondition_failed"
	codeRateLimitExceeded   = "rate_limit_exceeded"
	codeInternalServerError = "internal_server_error"
	codeUnavailable         = "unavailable"
	codeItemNameInvalid     = "item_name_invalid"
	codeItemNameTooLong     = "item_name_too_long"
	codeItemNameInUse       = "item_name_in_use"
	codeInsufficientScope   = "insufficient_scope"
	codeFolderNotEmpty      = "folder_not_empty"
	codeAccessDenied        = "access_denied_insufficient_permissions"
	codeMetadataAfterFile   = "metadata_after_file_contents"
	// codeBadDigest is what the service's "common errors" guide documents for
	// a content-md5 (hex SHA1) that does not match the received bytes; the
	// server uses it for a part whose digest header does not match too.
	codeBadDigest = "bad_digest"
	// codeDigestMismatch is the code the service answers a commit with when the
	// whole-file digest is wrong (seen in box-java-sdk #701, box-windows-sdk-v2 #767).
	codeDigestMismatch = "digest_mismatch"
	// codePartsMismatch is the code the service answers a commit with when the
	// listed parts do not match the uploaded ones (seen in rclone #97).
	codePartsMismatch = "parts_mismatch"
	// codeRangeOverlaps is the code of the chunked-upload guide for a part
	// that overlaps a range already uploaded (409).
	codeRangeOverlaps = "range_overlaps_existing_part"
	// codeRangeNotSatisfiable is used for 416 on part uploads. Neither the spec
	// nor the guides name a code; the service's generic codes are the
	// snake_case of the status text, so this is the snake_case of
	// "Requested Range Not Satisfiable".
	codeRangeNotSatisfiable = "requested_range_not_satisfiable"
	codeMissingDestination  = "missing_destination"
	codeInvalidFolderID     = "invalid_folder_id"
	codeMissingFileSize     = "missing_file_size"
	codeInvalidFileSize     = "invalid_file_size"
	codeFileSizeTooSmall    = "file_size_too_small"
	codeMissingFileName     = "missing_file_name"
	codeInvalidParameter    = "invalid_parameter"
)

// apiError is a failure answered with the standard error body.
type apiError struct {
	Status      int
	Code        string
	Message     string
	ContextInfo any
	RetryAfter  int // seconds; 0 = no header
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func errf(status int, code, format string, args ...any) *apiError {
	return &apiError{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

func errBadRequest(format string, args ...any) *apiError {
	return errf(http.StatusBadRequest, codeBadRequest, format, args...)
}

func errNotFound(what string) *apiError {
	return errf(http.StatusNotFound, codeNotFound, "Not Found: %s", what)
}

// codeForStatus is the standard code for a status, used by injected faults
// and by failures that have no more specific code.
func codeForStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return codeBadRequest
	case http.StatusUnauthorized:
		return codeUnauthorized
	case http.StatusForbidden:
		return codeForbidden
	case http.StatusNotFound:
		return codeNotFound
	case http.StatusMethodNotAllowed:
		return codeMethodNotAllowed
	case http.StatusConflict:
		return codeConflict
	case http.StatusPreconditionFailed:
		return codePreconditionFailed
	case http.StatusRequestedRangeNotSatisfiable:
		return codeRangeNotSatisfiable
	case http.StatusTooManyRequests:
		return codeRateLimitExceeded
	case http.StatusInternalServerError:
		return codeInternalServerError
	case http.StatusServiceUnavailable:
		return codeUnavailable
	case http.StatusBadGateway:
		return "bad_gateway"
	case http.StatusGatewayTimeout:
		return "gateway_timeout"
	default:
		return codeForStatusText(status)
	}
}

func codeForStatusText(status int) string {
	t := http.StatusText(status)
	if t == "" {
		return "error"
	}
	b := make([]byte, 0, len(t))
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+('a'-'A'))
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		default:
			if len(b) > 0 && b[len(b)-1] != '_' {
				b = append(b, '_')
			}
		}
	}
	return string(b)
}

// errorBody is the wire shape of ClientError.
type errorBody struct {
	Type        string `json:"type"`
	Status      int    `json:"status"`
	Code        string `json:"code"`
	Message     string `json:"message"`
	ContextInfo any    `json:"context_info,omitempty"`
	HelpURL     string `json:"help_url"`
	RequestID   string `json:"request_id"`
}

// writeError writes e as the standard error body. The request id was set as
// the box-request-id header when the request arrived.
func writeError(w http.ResponseWriter, e *apiError) {
	h := w.Header()
	if e.RetryAfter > 0 {
		h.Set("Retry-After", fmt.Sprint(e.RetryAfter))
	}
	body := errorBody{
		Type:        "error",
		Status:      e.Status,
		Code:        e.Code,
		Message:     e.Message,
		ContextInfo: e.ContextInfo,
		HelpURL:     helpURL,
		RequestID:   h.Get(headerRequestID),
	}
	writeJSON(w, e.Status, body)
}

// writeJSON writes v as a JSON response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Only server bugs get here: every value written is a plain record.
		status = http.StatusInternalServerError
		b = []byte(`{"type":"error","status":500,"code":"internal_server_error","message":"encoding response"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
