package refserver

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// writeError writes e as the standard error body. The request id was set
// as the box-request-id header when the request arrived.
func writeError(w http.ResponseWriter, e *wire.Error) {
	h := w.Header()
	if e.RetryAfter > 0 {
		h.Set("Retry-After", fmt.Sprint(e.RetryAfter))
	}
	writeJSON(w, e.Status, e.Body(h.Get(wire.HeaderRequestID)))
}

// writeJSON writes v as a JSON response with the given status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := replyBuffer()
	b, err := wire.AppendJSON(*buf, v)
	if err != nil {
		// Only server bugs get here: every value written is a plain record.
		status, b = internalError()
	}
	writePooled(w, status, b, buf)
}

// writePage writes a list page (a map with "entries"), its raw entries
// copied as they are (wire.AppendPage).
func writePage(w http.ResponseWriter, status int, page map[string]any) {
	buf := replyBuffer()
	b, err := wire.AppendPage(*buf, page)
	if err != nil {
		status, b = internalError()
	}
	writePooled(w, status, b, buf)
}

// replyBuffers holds the buffers replies are encoded into, so that a
// reply does not grow a new one from nothing (a search page grew its
// buffer about ten times: a third of what it allocated); one past 256 KiB
// is left to the collector.
var replyBuffers = wire.BufferPool{Max: 256 << 10}

// replyBuffer is an empty buffer to encode a reply into.
func replyBuffer() *[]byte { return replyBuffers.Get() }

// releaseReply gives back buf (nil: none), into which b was encoded,
// once b is written and no longer used.
func releaseReply(buf *[]byte, b []byte) { replyBuffers.Put(buf, b) }

// writePooled writes b, encoded into buf (nil: a buffer of its own), as a
// JSON response with the given status, and gives buf back once b is
// written. A writer that holds answers (persistHandler's) takes b as it
// is instead of copying it, and gives buf back when it sends it.
func writePooled(w http.ResponseWriter, status int, b []byte, buf *[]byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	if bw, ok := w.(*bufferedWriter); ok {
		if bw.takeBody(b) {
			bw.pooled = buf
		} else {
			releaseReply(buf, b)
		}
		return
	}
	_, _ = w.Write(b)
	releaseReply(buf, b)
}

// internalError is the answer to a value that did not encode: only server
// bugs get there.
func internalError() (int, []byte) {
	return http.StatusInternalServerError,
		[]byte(`{"type":"error","status":500,"code":"internal_server_error","message":"encoding response"}`)
}

// writeBytes writes b as a response of the given status and content type,
// with its length. b may be shared (a cached placeholder image): it is
// copied, never kept, by a writer that holds answers.
func writeBytes(w http.ResponseWriter, status int, contentType string, b []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// codeForStatus is the standard code for a status, used by injected faults
// and by failures that have no more specific code.
func codeForStatus(status int) string {
	switch status {
	case http.StatusBadRequest:
		return wire.CodeBadRequest
	case http.StatusUnauthorized:
		return wire.CodeUnauthorized
	case http.StatusForbidden:
		return wire.CodeForbidden
	case http.StatusNotFound:
		return wire.CodeNotFound
	case http.StatusMethodNotAllowed:
		return wire.CodeMethodNotAllowed
	case http.StatusConflict:
		return wire.CodeConflict
	case http.StatusPreconditionFailed:
		return wire.CodePreconditionFailed
	case http.StatusRequestedRangeNotSatisfiable:
		return wire.CodeRangeNotSatisfiable
	case http.StatusTooManyRequests:
		return wire.CodeRateLimitExceeded
	case http.StatusInternalServerError:
		return wire.CodeInternalServerError
	case http.StatusServiceUnavailable:
		return wire.CodeUnavailable
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
