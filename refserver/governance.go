package refserver

import (
	"net/http"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// parseTimeParam reads an optional date-time query parameter.
func parseTimeParam(r *http.Request, name string) (time.Time, *wire.Error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, wire.BadRequest("Invalid value for %q: not an RFC 3339 date-time", name)
	}
	return t, nil
}
