package blob

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

func TestRef(t *testing.T) {
	sha := "da39a3ee5e6b4b0d3255bfef95601890afd80709"
	id := NewID()
	for _, i := range []Info{
		{},
		{ID: id, Size: 12, SHA1: sha},
		{ID: "s" + id, Size: 1 << 40, SHA1: sha},
		{ID: id},
		{SHA1: sha},
		// other forms: kept as they are
		{ID: "b1", Size: 3, SHA1: "x"},
		{ID: "s-100000012347", Size: 1024, SHA1: sha},
		{ID: "S" + id[:31] + "A", SHA1: sha},
		{ID: id, SHA1: "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709"},
		{ID: "\x00" + id},
		{ID: "é" + id[1:]},
		{ID: id[:31] + "g"},
		{ID: id, SHA1: sha[:39]},
	} {
		r := RefOf(i)
		assert.Equal(t, i, r.Info(), "%+v", i)
		assert.Equal(t, i.ID, r.ID())
		assert.Equal(t, i.SHA1, r.SHA1())
		assert.Equal(t, i.SHA1, string(r.AppendSHA1(nil)))
		assert.Equal(t, i.ID != "", r.HasID())
		assert.Equal(t, r.odd == nil, r.Packed())
		assert.Equal(t, r, ParseRef([]byte(i.ID), []byte(i.SHA1), i.Size))
		assert.True(t, r.SameID(RefOf(Info{ID: i.ID, Size: 1})))
		assert.Equal(t, i.ID == id, r.SameID(RefOf(Info{ID: id})))
	}
	assert.Nil(t, RefOf(Info{ID: "s" + id, SHA1: sha}).odd, "the stores' forms hold no Info")
	assert.Equal(t, Ref{}, RefOf(Info{}))
	assert.LessOrEqual(t, unsafe.Sizeof(Ref{}), uintptr(56))
}
