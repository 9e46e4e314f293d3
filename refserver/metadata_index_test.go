package refserver

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/stretchr/testify/require"
)

// TestSortIndexWalk checks a sort index against a sort of every instance:
// from the start and from every instance's position, in both directions,
// with ties and null values, before and after instances move (remove,
// change, insert, as an update does).
func TestSortIndexWalk(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	value := func() (state.MDVal, bool) {
		if rng.IntN(5) == 0 {
			return state.MDVal{}, false // null
		}
		n := rng.IntN(20) // ties
		return state.MDVal{Kind: state.ValNumber, S: strconv.Itoa(n), F: float64(n)}, true
	}
	tmpl := &state.MDTemplate{}
	for i := range 600 {
		in := &state.MDInstance{Seq: int64(i + 1), Values: state.MDValues{}}
		if v, ok := value(); ok {
			in.Values.Set("amount", v)
		}
		tmpl.BySeq = append(tmpl.BySeq, in)
	}
	x := tmpl.Index("amount")
	walk := func(after *state.Position, desc bool) []int64 {
		var out []int64
		x.Walk(after, desc, func(in *state.MDInstance) bool { out = append(out, in.Seq); return true })
		return out
	}
	check := func() {
		all := slices.Clone(tmpl.BySeq)
		slices.SortFunc(all, func(a, b *state.MDInstance) int { // by value, null last, then creation
			va, aok := a.Values.Get("amount")
			vb, bok := b.Values.Get("amount")
			if c := state.CmpPresent(va, aok, vb, bok); c != 0 {
				return c
			}
			return cmp.Compare(a.Seq, b.Seq)
		})
		var want []int64
		for _, in := range all {
			want = append(want, in.Seq)
		}
		require.Equal(t, want, walk(nil, false))
		require.Equal(t, reversed(want), walk(nil, true))
		for i, in := range all {
			v, ok := in.Values.Get("amount")
			pos := &state.Position{Vals: []state.MDVal{v}, Oks: []bool{ok}, Seq: in.Seq}
			require.Equal(t, orNil(want[i+1:]), walk(pos, false), "after %d", in.Seq)
			require.Equal(t, reversed(want[:i]), walk(pos, true), "before %d", in.Seq)
		}
	}
	check()
	for range 300 {
		in := tmpl.BySeq[rng.IntN(len(tmpl.BySeq))]
		x.Remove(in)
		in.Values.Delete("amount")
		if v, ok := value(); ok {
			in.Values.Set("amount", v)
		}
		x.Insert(in)
	}
	require.Equal(t, len(tmpl.BySeq), x.Len())
	check()
}

// reversed is s backwards, nil when empty (as walk collects).
func reversed(s []int64) []int64 {
	var out []int64
	for _, v := range slices.Backward(s) {
		out = append(out, v)
	}
	return out
}

// orNil is s, nil when empty (as walk collects).
func orNil(s []int64) []int64 {
	if len(s) == 0 {
		return nil
	}
	return s
}
