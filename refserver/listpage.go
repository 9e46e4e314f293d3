package refserver

import (
	"fmt"
)

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
	s.update(func() { err = s.hideFromPages(ids) })
	return err
}

// hideFromPages is HideFromPages under the lock. Callers hold mu.
func (s *state) hideFromPages(ids []string) error {
	for _, id := range ids {
		_, isUser := s.users.byID[id]
		_, isGroup := s.groups.byID[id]
		_, isMembership := s.groups.memberships[id]
		if !isUser && !isGroup && !isMembership {
			return fmt.Errorf("refserver: no user, group or group membership %q", id)
		}
	}
	if s.pageHidden == nil {
		s.pageHidden = make(map[string]bool)
	}
	for _, id := range ids {
		s.pageHidden[id] = true
	}
	return nil
}

// userHidden, groupHidden and membershipHidden tell wire.OffsetEntries what
// HideFromPages hid. Callers hold s.mu.
func (s *state) userHidden(u *user) bool             { return s.pageHidden[u.id] }
func (s *state) groupHidden(g *group) bool           { return s.pageHidden[g.id] }
func (s *state) membershipHidden(m *membership) bool { return s.pageHidden[m.id] }
