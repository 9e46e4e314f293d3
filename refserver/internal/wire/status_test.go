package wire

import (
	"net/http"
	"testing"
)

// TestStatusesMatchNetHTTP: the package's status constants are net/http's.
func TestStatusesMatchNetHTTP(t *testing.T) {
	t.Parallel()
	for got, want := range map[int]int{
		StatusOK: http.StatusOK, StatusCreated: http.StatusCreated, StatusNoContent: http.StatusNoContent, StatusNotModified: http.StatusNotModified,
		StatusBadRequest: http.StatusBadRequest, StatusForbidden: http.StatusForbidden,
		StatusNotFound: http.StatusNotFound, StatusMethodNotAllowed: http.StatusMethodNotAllowed,
		StatusConflict: http.StatusConflict, StatusPreconditionFailed: http.StatusPreconditionFailed,
		StatusRequestedRangeNotSatisfiable: http.StatusRequestedRangeNotSatisfiable,
	} {
		if got != want {
			t.Errorf("status %d, net/http has %d", got, want)
		}
	}
}
