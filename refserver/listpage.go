package refserver

import "github.com/contentapi/cms/refserver/internal/state"

// HideFromPages makes the users, groups and group memberships with these
// ids invisible in the offset pages of their lists, as the service does
// with records the caller may not see: they still count in total_count and
// take their place in the offset/limit window, so the lists show short or
// empty pages while more entries follow (the next page is still at offset
// + limit). Reading a record by its id is unchanged. Files and folders have
// HideFromUsers. Like faults, this is a test setting and is not persisted.
// It fails, changing nothing, when an id is none of those records.
func (s *Server) HideFromPages(ids ...string) error {
	var err error
	s.st.Update(func(tx *state.Tx) { err = tx.HideFromPages(ids) })
	return err
}
