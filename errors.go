package cms

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/contentapi/cms/internal/transport"
)

// Sentinel errors. API failures are *APIError values that match these with
// errors.Is; the error itself always keeps the response details.
var (
	ErrBadRequest         = errors.New("cms: bad request")           // 400
	ErrUnauthorized       = errors.New("cms: unauthorized")          // 401
	ErrForbidden          = errors.New("cms: forbidden")             // 403
	ErrNotFound           = errors.New("cms: not found")             // 404
	ErrMethodNotAllowed   = errors.New("cms: method not allowed")    // 405
	ErrConflict           = errors.New("cms: conflict")              // 409
	ErrPreconditionFailed = errors.New("cms: precondition failed")   // 412
	ErrRangeNotSatisfied  = errors.New("cms: range not satisfiable") // 416
	ErrRateLimited        = errors.New("cms: rate limited")          // 429
	ErrServer             = errors.New("cms: server error")          // 5xx
	ErrNotModified        = errors.New("cms: not modified")          // 304

	// ErrMissingID is matched by an *ArgError for an empty id; nothing was sent.
	ErrMissingID = errors.New("cms: missing id")
	// ErrInvalidID is matched by an *ArgError for an id that cannot be a
	// path segment ("..", "/", control characters); nothing was sent.
	ErrInvalidID = errors.New("cms: invalid id")
	// ErrInvalidArgument is matched by an *ArgError for any other argument
	// the SDK rejects before sending.
	ErrInvalidArgument = errors.New("cms: invalid argument")
)

// ErrSourceSize is matched by a *SourceSizeError.
var ErrSourceSize = errors.New("cms: source size differs from the declared size")

// SourceSizeError reports an upload source whose length is not the size
// the caller declared. Nothing more is sent once it is detected.
type SourceSizeError struct {
	Size int64 // the declared size
	Read int64 // bytes read: less than Size when the source ended early, more when it is longer
}

// Error says how the source's length differs from the declared size.
func (e *SourceSizeError) Error() string {
	if e.Read > e.Size {
		return fmt.Sprintf("cms: upload source is longer than the declared %d bytes", e.Size)
	}
	return fmt.Sprintf("cms: upload source ended after %d of the declared %d bytes", e.Read, e.Size)
}

// Is makes a *SourceSizeError match ErrSourceSize.
func (e *SourceSizeError) Is(target error) bool { return target == ErrSourceSize }

// ArgError reports an argument rejected before any request was sent.
type ArgError struct {
	Arg    string // which argument
	Reason string // why, when more than Err says
	Err    error  // ErrMissingID, ErrInvalidID or ErrInvalidArgument
}

// Error names the sentinel, the argument and the reason.
func (e *ArgError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("%v: %s: %s", e.Err, e.Arg, e.Reason)
	}
	return fmt.Sprintf("%v: %s", e.Err, e.Arg)
}

// Unwrap returns the sentinel.
func (e *ArgError) Unwrap() error { return e.Err }

func invalidArg(arg, reason string) error {
	return &ArgError{Arg: arg, Reason: reason, Err: ErrInvalidArgument}
}

// maxErrorBody caps how much of an error response is read.
const maxErrorBody = 1 << 20

// APIError is an error answer of the service: any status other than 2xx.
// Match it with errors.As, and its status with errors.Is and the sentinels
// (ErrNotFound, ErrConflict, ...).
type APIError struct {
	StatusCode int
	Code       string // the service's error code, e.g. "item_name_in_use"
	Message    string
	RequestID  string
	HelpURL    string
	// ContextInfo is the error's free-form details (e.g. the conflicting
	// items of a 409); see Conflicts.
	ContextInfo json.RawMessage
	// RetryAfter is the response's Retry-After, when it had one.
	RetryAfter time.Duration
	// Body is the raw response body (at most 1 MiB).
	Body []byte
	// Method and URL of the request; credentials in the URL are redacted.
	Method, URL string
	// Response is the HTTP response; its body is already consumed and closed.
	Response *http.Response `json:"-"`
}

// Error gives the request (credentials redacted), the status, the
// service's code and message, the request id and any Retry-After.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cms: %s %s: %d", e.Method, e.URL, e.StatusCode)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.RequestID != "" {
		b.WriteString(" (request id " + e.RequestID + ")")
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	return b.String()
}

// Is maps the status code to the package's status sentinels (ErrNotFound,
// ...) and the error code to the code sentinels (ErrTupleAlreadyExists,
// ErrUserLoginAlreadyUsed, ...; see error_codes.go).
func (e *APIError) Is(target error) bool {
	if c, ok := target.(*codeError); ok {
		return e.Code == c.code
	}
	switch target {
	case ErrBadRequest:
		return e.StatusCode == http.StatusBadRequest
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized
	case ErrForbidden:
		return e.StatusCode == http.StatusForbidden
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrMethodNotAllowed:
		return e.StatusCode == http.StatusMethodNotAllowed
	case ErrConflict:
		return e.StatusCode == http.StatusConflict
	case ErrPreconditionFailed:
		return e.StatusCode == http.StatusPreconditionFailed
	case ErrRangeNotSatisfied:
		return e.StatusCode == http.StatusRequestedRangeNotSatisfiable
	case ErrRateLimited:
		return e.StatusCode == http.StatusTooManyRequests
	case ErrServer:
		return e.StatusCode >= 500
	case ErrNotModified:
		return e.StatusCode == http.StatusNotModified
	}
	return false
}

// Conflicts returns the items named in the error's context_info.conflicts
// (409 item_name_in_use and the upload preflight). The service sends either
// one object or an array; both are accepted.
func (e *APIError) Conflicts() []*FileMini {
	var ci struct {
		Conflicts json.RawMessage `json:"conflicts"`
	}
	if len(e.ContextInfo) == 0 || json.Unmarshal(e.ContextInfo, &ci) != nil || len(ci.Conflicts) == 0 {
		return nil
	}
	var many []*FileMini
	if json.Unmarshal(ci.Conflicts, &many) == nil {
		return many
	}
	var one FileMini
	if json.Unmarshal(ci.Conflicts, &one) == nil && one.ID != "" {
		return []*FileMini{&one}
	}
	return nil
}

// CheckResponse returns nil for a 2xx response and an *APIError otherwise,
// reading (at most 1 MiB of) and closing the body.
func CheckResponse(r *http.Response) error {
	if r.StatusCode >= 200 && r.StatusCode < 300 {
		return nil
	}
	defer r.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxErrorBody))
	e := &APIError{StatusCode: r.StatusCode, Body: body, Response: r, RequestID: requestID(r)}
	if r.Request != nil {
		e.Method = r.Request.Method
		e.URL = transport.RedactURL(r.Request.URL)
	}
	if d, ok := transport.ParseRetryAfter(r.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = d
	}
	// Fields are read one by one, so a field of an unexpected type loses
	// only itself; metadata errors come without type and status, which are
	// taken from HTTP.
	var fields map[string]json.RawMessage
	if json.Unmarshal(body, &fields) == nil {
		str := func(k string) string {
			var v string
			_ = json.Unmarshal(fields[k], &v)
			return v
		}
		e.Code, e.Message, e.HelpURL = str("code"), str("message"), str("help_url")
		if id := str("request_id"); id != "" {
			e.RequestID = id
		}
		if ci := fields["context_info"]; len(ci) > 0 && string(ci) != "null" {
			e.ContextInfo = ci
		}
		if e.Code == "" && str("error") != "" { // OAuth errors use error / error_description
			e.Code, e.Message = str("error"), str("error_description")
		}
	}
	if e.Message == "" && e.Code == "" {
		e.Message = http.StatusText(r.StatusCode)
	}
	return e
}

// AcceptedError is returned when the service answered 202 Accepted with a
// Retry-After (content not ready yet, commit still processing) and the wait
// could not be done within the ctx deadline or the configured attempts.
type AcceptedError struct {
	RetryAfter time.Duration
	Response   *Response
}

// Error says the service accepted the request and when to ask again.
func (e *AcceptedError) Error() string {
	return fmt.Sprintf("cms: accepted but not ready; retry after %s", e.RetryAfter)
}
