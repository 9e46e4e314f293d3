package wire

import "testing"

// TestBufferPool: a buffer comes back empty with what it grew to, and one
// grown past Max is not kept.
func TestBufferPool(t *testing.T) {
	p := BufferPool{Max: 1024}
	buf := p.Get()
	if len(*buf) != 0 {
		t.Fatalf("a new buffer holds %d bytes", len(*buf))
	}
	b := append(*buf, make([]byte, 100)...)
	p.Put(buf, b)
	if len(*buf) != 0 || cap(*buf) != cap(b) {
		t.Fatalf("a given-back buffer: len %d cap %d, want 0 and %d", len(*buf), cap(*buf), cap(b))
	}
	big := p.Get()
	grown := append(*big, make([]byte, 2048)...)
	p.Put(big, grown)
	if cap(*big) >= 2048 {
		t.Errorf("a buffer past Max was kept (cap %d)", cap(*big))
	}
	p.Put(nil, b) // nothing to give back
}
