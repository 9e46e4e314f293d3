package state

import "log/slog"

// ContentLeft notes content that could not be deleted (a blob no record
// names any more, or a session's assembly): it is logged, and the
// directory it is in is no longer clean (LeftContent), so that the next
// start of a persisted server sweeps it (persist.Open).
func (s *State) ContentLeft(msg string, err error, attrs ...any) {
	s.contentLeft.Store(true)
	s.Log.Warn(msg, append(attrs, slog.Any("err", err))...)
}

// LeftContent reports whether content could not be deleted since the state
// was made (ContentLeft).
func (s *State) LeftContent() bool { return s.contentLeft.Load() }
