package refserver

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// parseLock checks a lock member: the lock to set, or unlock (null).
func parseLock(raw wire.Nullable[state.LockBody], now time.Time) (*state.FileLock, bool, *wire.Error) {
	if !raw.Present {
		return nil, false, nil
	}
	if raw.Null {
		return nil, true, nil
	}
	b := raw.V
	kind := b.Access
	if kind == nil {
		kind = b.Type
	}
	if kind == nil || *kind != "lock" || b.Access != nil && b.Type != nil && *b.Type != *b.Access {
		return nil, false, wire.BadRequest("lock.access must be \"lock\"")
	}
	l := &state.FileLock{CreatedAt: now}
	if b.ExpiresAt != nil {
		t, err := state.ParseRFC3339(*b.ExpiresAt)
		if err != nil {
			return nil, false, wire.BadRequest("Invalid value for \"lock.expires_at\": an RFC 3339 date-time")
		}
		if !t.After(now) {
			return nil, false, wire.BadRequest("lock.expires_at must be in the future")
		}
		l.ExpiresAt = t
	}
	if b.IsDownloadPrevented != nil {
		l.DownloadPrevented = *b.IsDownloadPrevented
	}
	return l, false, nil
}
