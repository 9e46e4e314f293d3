package state

import (
	"maps"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPostingListAsAMap: a posting list, short, long (its slice, its
// recent additions, removed items awaiting a merge) and past merges,
// answers as a map of the same changes does.
func TestPostingListAsAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	items := make([]*Item, 3000)
	for i := range items {
		items[i] = &Item{Typ: "file", ID: strconv.Itoa(i)}
		if i%7 == 0 {
			items[i].Typ = "folder"
		}
	}
	l := &postingList{word: "w"}
	want := map[*Item]Posting{}
	check := func() {
		t.Helper()
		require.Equal(t, len(want), l.len())
		require.Equal(t, want, maps.Collect(l.all()))
		for _, it := range items[:200] {
			require.Equal(t, want[it], l.get(it))
		}
	}
	for round := range 40_000 {
		it := items[rng.IntN(min(len(items), 10+round/8))]
		if rng.IntN(3) == 0 {
			l.del(it)
			delete(want, it)
		} else {
			p := Posting(rng.Uint64()<<8 | uint64(FieldName))
			l.set(it, p)
			want[it] = p
		}
		if round%997 == 0 {
			check()
		}
	}
	check()
	require.NotNil(t, l.holders().many)
	for it := range want {
		l.del(it)
	}
	require.Zero(t, l.len())
	require.Empty(t, maps.Collect(l.all()))
}

// TestPostingListInline: a list held by one item holds it inline, by two
// a set, and inline again when one leaves; a zero posting removes.
func TestPostingListInline(t *testing.T) {
	a, b := &Item{ID: "1"}, &Item{ID: "2"}
	l := &postingList{word: "w"}
	l.set(a, 5)
	one, ok := l.single()
	require.True(t, ok)
	require.Same(t, a, one)
	require.Equal(t, Posting(5), l.get(a))
	require.Zero(t, l.get(b))
	l.set(b, 6)
	_, ok = l.single()
	require.False(t, ok)
	require.Equal(t, map[*Item]Posting{a: 5, b: 6}, maps.Collect(l.all()))
	l.del(a)
	one, ok = l.single()
	require.True(t, ok)
	require.Same(t, b, one)
	require.Equal(t, 1, l.len())
	l.set(b, 0)
	require.Zero(t, l.len())
	require.Nil(t, l.holders())
	require.Empty(t, maps.Collect(l.all()))
}
