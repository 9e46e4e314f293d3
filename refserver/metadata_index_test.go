package refserver

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSortIndexWalk checks a sort index against a sort of every instance:
// from the start and from every instance's position, in both directions,
// with ties and null values, before and after instances move (remove,
// change, insert, as an update does).
func TestSortIndexWalk(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	value := func() (mdVal, bool) {
		if rng.IntN(5) == 0 {
			return mdVal{}, false // null
		}
		n := rng.IntN(20) // ties
		return mdVal{kind: valNumber, s: strconv.Itoa(n), f: float64(n)}, true
	}
	tmpl := &mdTemplate{}
	for i := range 600 {
		in := &mdInstance{seq: int64(i + 1), values: map[string]mdVal{}}
		if v, ok := value(); ok {
			in.values["amount"] = v
		}
		tmpl.bySeq = append(tmpl.bySeq, in)
	}
	x := tmpl.index("amount")
	walk := func(after *position, desc bool) []int64 {
		var out []int64
		x.walk(after, desc, func(in *mdInstance) bool { out = append(out, in.seq); return true })
		return out
	}
	check := func() {
		all := slices.Clone(tmpl.bySeq)
		slices.SortFunc(all, x.cmp)
		var want []int64
		for _, in := range all {
			want = append(want, in.seq)
		}
		require.Equal(t, want, walk(nil, false))
		require.Equal(t, reversed(want), walk(nil, true))
		for i, in := range all {
			v, ok := in.values["amount"]
			pos := &position{vals: []mdVal{v}, oks: []bool{ok}, seq: in.seq}
			require.Equal(t, orNil(want[i+1:]), walk(pos, false), "after %d", in.seq)
			require.Equal(t, reversed(want[:i]), walk(pos, true), "before %d", in.seq)
		}
	}
	check()
	for range 300 {
		in := tmpl.bySeq[rng.IntN(len(tmpl.bySeq))]
		x.remove(in)
		delete(in.values, "amount")
		if v, ok := value(); ok {
			in.values["amount"] = v
		}
		x.insert(in)
	}
	require.Equal(t, len(tmpl.bySeq), x.tree.Len())
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
