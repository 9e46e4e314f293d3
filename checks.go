package cms

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Argument checks shared by the services: what the wire defines for page
// sizes, offsets and enums is refused before sending, as an *ArgError.

// maxPageOffset is the largest offset the offset-paged lists take; the
// service answers 400 above it.
const maxPageOffset = 10000

// checkCtx rejects a nil context before anything is sent.
func checkCtx(ctx context.Context) error {
	if ctx == nil {
		return invalidArg("ctx", "nil context")
	}
	return nil
}

// checkID rejects ids that are empty or could change the request path.
func checkID(arg, id string) error {
	if id == "" {
		return &ArgError{Arg: arg + " id", Err: ErrMissingID}
	}
	if id == "." || id == ".." || strings.ContainsAny(id, "/\\?#%") || strings.ContainsFunc(id, func(r rune) bool { return r < 0x20 || r == 0x7f || r == ' ' }) {
		return &ArgError{Arg: arg + " id", Reason: fmt.Sprintf("%q", id), Err: ErrInvalidID}
	}
	return nil
}

// checkLimit rejects a negative page size. One rule for every list: a
// limit above an endpoint's maximum is sent as it is, and the service
// answers with a page of its maximum (1000 for most lists), as it documents.
func checkLimit(limit int) error {
	if limit < 0 {
		return invalidArg("limit", "negative")
	}
	return nil
}

// checkOffsetLimit rejects a negative offset, one above 10000 (the service
// answers 400 there), and a limit checkLimit refuses.
func checkOffsetLimit(offset, limit int) error {
	switch {
	case offset < 0:
		return invalidArg("offset", "negative")
	case offset > maxPageOffset:
		return invalidArg("offset", fmt.Sprintf("%d is above the maximum, %d (page by marker instead)", offset, maxPageOffset))
	}
	return checkLimit(limit)
}

// checkEnum rejects v unless it is empty (left out) or one of allowed.
func checkEnum[T ~string](arg string, v T, allowed ...T) error {
	if v == "" || slices.Contains(allowed, v) {
		return nil
	}
	want := make([]string, len(allowed))
	for i, a := range allowed {
		want[i] = string(a)
	}
	return invalidArg(arg, fmt.Sprintf("%s is not %s", quoteArg(string(v)), strings.Join(want, ", ")))
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
