package state

import (
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPostingListAsAMap: a posting list, short, long (its slice, its
// recent additions, removed items awaiting a merge) and past merges,
// answers as a map of the same changes does.
func TestPostingListAsAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	items := make([]docOrd, 3000)
	for i := range items {
		items[i] = docOrd(rng.Uint32N(maxDocOrd + 1)) // ordinals in any order, large ones too
	}
	l := &postingList{word: "w"}
	want := map[docOrd]SearchField{}
	check := func() {
		t.Helper()
		require.Equal(t, len(want), l.len())
		require.Equal(t, want, maps.Collect(l.all()))
		for _, o := range items[:200] {
			require.Equal(t, want[o], l.get(o))
		}
	}
	for round := range 40_000 {
		o := items[rng.IntN(min(len(items), 10+round/8))]
		if rng.IntN(3) == 0 {
			l.del(o)
			delete(want, o)
		} else {
			f := SearchField(1 + rng.IntN(int(AllSearchFields)))
			l.set(o, f)
			want[o] = f
		}
		if round%997 == 0 {
			check()
		}
	}
	check()
	require.NotNil(t, l.holders().many)
	for o := range want {
		l.del(o)
	}
	require.Zero(t, l.len())
	require.Empty(t, maps.Collect(l.all()))
}

// TestPostingListInline: a list held by one item holds it inline, by two
// a set, and inline again when one leaves; no fields removes.
func TestPostingListInline(t *testing.T) {
	a, b := docOrd(0), docOrd(maxDocOrd)
	l := &postingList{word: "w"}
	l.set(a, FieldName)
	one, ok := l.single()
	require.True(t, ok)
	require.Equal(t, a, one)
	require.Equal(t, FieldName, l.get(a))
	require.Zero(t, l.get(b))
	l.set(b, FieldTags)
	_, ok = l.single()
	require.False(t, ok)
	require.Equal(t, map[docOrd]SearchField{a: FieldName, b: FieldTags}, maps.Collect(l.all()))
	l.del(a)
	one, ok = l.single()
	require.True(t, ok)
	require.Equal(t, b, one)
	require.Equal(t, 1, l.len())
	l.set(b, 0)
	require.Zero(t, l.len())
	require.Nil(t, l.holders())
	require.Empty(t, maps.Collect(l.all()))
}
