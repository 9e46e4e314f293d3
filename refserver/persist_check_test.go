package refserver

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// derivedDump lists the indexes and orders a restore rebuilds instead of
// loading them, by ids.
func derivedDump(s *Server) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	idsOf := func(n int, id func(int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = id(i)
		}
		return out
	}
	d := map[string]any{}
	us := s.users
	d["users.order"] = idsOf(len(us.order), func(i int) string { return us.order[i].id })
	logins := map[string]string{}
	for l, u := range us.byLogin {
		logins[l] = u.id
	}
	d["users.byLogin"] = logins
	md := s.metadata
	d["metadata.order"] = idsOf(len(md.order), func(i int) string { return md.order[i].id })
	tmpls := map[string]string{}
	for k, t := range md.templates {
		tmpls[k] = t.id
		d["template "+t.id+" bySeq"] = idsOf(len(t.bySeq), func(i int) string { return t.bySeq[i].id })
		byItem := map[string]string{}
		for it, in := range t.instances {
			byItem[it] = in.id
		}
		d["template "+t.id+" instances"] = byItem
	}
	d["metadata.templates"] = tmpls
	for it, list := range md.byItem {
		d["metadata.byItem "+it] = idsOf(len(list), func(i int) string { return list[i].id })
	}
	rs, hs := s.retention, s.holds
	d["retention.policyOrder"] = idsOf(len(rs.policyOrder), func(i int) string { return rs.policyOrder[i].id })
	d["retention.assignOrder"] = idsOf(len(rs.assignOrder), func(i int) string { return rs.assignOrder[i].id })
	d["retention.fvrOrder"] = idsOf(len(rs.fvrOrder), func(i int) string { return rs.fvrOrder[i].id })
	d["holds.policyOrder"] = idsOf(len(hs.policyOrder), func(i int) string { return hs.policyOrder[i].id })
	d["holds.assignOrder"] = idsOf(len(hs.assignOrder), func(i int) string { return hs.assignOrder[i].id })
	d["holds.holdOrder"] = idsOf(len(hs.holdOrder), func(i int) string { return hs.holdOrder[i].id })
	byVersion := map[string]string{}
	for v, x := range rs.byVersion {
		byVersion["retention "+v] = x.id
	}
	for v, x := range hs.byVersion {
		byVersion["hold "+v] = x.id
	}
	d["byVersion"] = byVersion
	names := map[string]string{}
	for n, g := range s.groups.byName {
		names[n] = g.id
	}
	d["groups.byName"] = names
	asg := map[string]string{}
	for id, a := range s.tasks.assignments {
		asg[id] = a.task.id
	}
	d["tasks.assignments"] = asg
	principals := map[string]string{}
	for tok, p := range s.principals {
		principals[tok] = fmt.Sprintf("%s %s", p.kind, p.user.id)
	}
	d["principals"] = principals
	for key, fx := range s.folders.m {
		owner := ""
		if key.owner != nil {
			owner = key.owner.id
		}
		for k, sortKey := range sortKeys {
			d["folder "+key.folder+"/"+owner+" by "+sortKey] = itemIDs(fx.page(k, false, 0, fx.len()))
		}
	}
	return d
}

// checkRestore is the end of a test in REFSERVER_PERSIST_CHECK mode: with
// s closed, a second server opens its directory and must hold the stored
// records and, when s's live state is the stored one (a request cut off
// by Close may have changed s without being answered), the same rebuilt
// indexes and orders.
func checkRestore(t *testing.T, s *Server, opts Options) {
	t.Helper()
	s2, err := New(opts)
	require.NoError(t, err, "reopening the state")
	defer s2.Close()
	stored := storedDump(t, s2)
	assert.Equal(t, stored, lockedDump(s2), "restored records")
	if assert.ObjectsAreEqual(stored, lockedDump(s)) {
		assert.Equal(t, derivedDump(s), derivedDump(s2), "rebuilt indexes")
	}
}
