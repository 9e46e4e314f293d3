package state

import (
	"fmt"
)

// HideFromPages hides the users, groups and group memberships with ids
// from offset pages (refserver's Server.HideFromPages): they keep their
// place, but are left out of entries. It changes nothing when an id is
// unknown.
func (s *Tx) HideFromPages(ids []string) error {
	for _, id := range ids {
		_, isUser := s.Users.ByID.Get(id)
		_, isGroup := s.Groups.ByID.Get(id)
		_, isMembership := s.Groups.Memberships.Get(id)
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
// HideFromPages hid.
func (s *Tx) userHidden(u *User) bool             { return s.pageHidden[u.ID] }
func (s *Tx) groupHidden(g *Group) bool           { return s.pageHidden[g.ID] }
func (s *Tx) membershipHidden(m *Membership) bool { return s.pageHidden[m.ID] }
