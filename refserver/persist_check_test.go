package refserver

import (
	"fmt"
	"testing"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// derivedDump lists the indexes and orders a restore rebuilds instead of
// loading them, by ids.
func derivedDump(s *Server) map[string]any {
	tx, end := beginTx(s.st)
	defer end()
	idsOf := func(n int, id func(int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = id(i)
		}
		return out
	}
	d := map[string]any{}
	us := tx.Users
	d["users.order"] = idsOf(len(us.Order), func(i int) string { return us.Order[i].ID })
	logins := map[string]string{}
	for l, u := range us.ByLogin {
		logins[l] = u.ID
	}
	d["users.byLogin"] = logins
	md := tx.Metadata
	d["metadata.order"] = idsOf(len(md.Order), func(i int) string { return md.Order[i].ID })
	tmpls := map[string]string{}
	for k, t := range md.Templates {
		tmpls[k] = t.ID
		d["template "+t.ID+" bySeq"] = idsOf(len(t.BySeq), func(i int) string { return t.BySeq[i].ID })
		byItem := map[string]string{}
		for it, in := range t.Instances {
			byItem[it] = in.ID
		}
		d["template "+t.ID+" instances"] = byItem
	}
	d["metadata.templates"] = tmpls
	for it, list := range md.ByItem {
		d["metadata.byItem "+it] = idsOf(len(list), func(i int) string { return list[i].ID })
	}
	rs, hs := tx.Retention, tx.Holds
	d["retention.policyOrder"] = idsOf(len(rs.PolicyOrder), func(i int) string { return rs.PolicyOrder[i].ID })
	d["retention.assignOrder"] = idsOf(len(rs.AssignOrder), func(i int) string { return rs.AssignOrder[i].ID })
	d["retention.fvrOrder"] = idsOf(len(rs.FvrOrder), func(i int) string { return rs.FvrOrder[i].ID })
	d["holds.policyOrder"] = idsOf(len(hs.PolicyOrder), func(i int) string { return hs.PolicyOrder[i].ID })
	d["holds.assignOrder"] = idsOf(len(hs.AssignOrder), func(i int) string { return hs.AssignOrder[i].ID })
	d["holds.holdOrder"] = idsOf(len(hs.HoldOrder), func(i int) string { return hs.HoldOrder[i].ID })
	byVersion := map[string]string{}
	for v, x := range rs.ByVersion {
		byVersion["retention "+v] = x.ID
	}
	for v, x := range hs.ByVersion {
		byVersion["hold "+v] = x.ID
	}
	d["byVersion"] = byVersion
	names := map[string]string{}
	for n, g := range tx.Groups.ByName {
		names[n] = g.ID
	}
	d["groups.byName"] = names
	asg := map[string]string{}
	for id, a := range tx.Tasks.Assignments {
		asg[id] = a.Task.ID
	}
	d["tasks.assignments"] = asg
	principals := map[string]string{}
	for tok, p := range tx.Principals {
		principals[tok] = fmt.Sprintf("%s %s", p.Kind, p.User.ID)
	}
	d["principals"] = principals
	for key, fx := range tx.Folders.M {
		owner := ""
		if key.Owner != nil {
			owner = key.Owner.ID
		}
		for k, sortKey := range state.SortKeys {
			d["folder "+key.Folder+"/"+owner+" by "+sortKey] = itemIDs(fx.Page(k, false, 0, fx.Len()))
		}
		if key.Folder != state.TrashKey {
			d["folder "+key.Folder+"/"+owner+" size"] = fx.Size()
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
