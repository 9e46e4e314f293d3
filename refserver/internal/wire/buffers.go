package wire

import "sync"

// BufferPool keeps the buffers encodings are appended to (replies, the
// records events keep), so that an encoding does not grow a new buffer
// from nothing. A buffer grown past Max is left to the collector. The
// zero value (with Max set) is ready to use.
type BufferPool struct {
	Max  int // the capacity past which a buffer is not kept
	pool sync.Pool
}

// Get returns an empty buffer.
func (p *BufferPool) Get() *[]byte {
	if buf, ok := p.pool.Get().(*[]byte); ok {
		*buf = (*buf)[:0]
		return buf
	}
	return new([]byte)
}

// Put gives back buf (nil: none), into which b was appended, once b is
// no longer used.
func (p *BufferPool) Put(buf *[]byte, b []byte) {
	if buf == nil || cap(b) > p.Max {
		return
	}
	*buf = b[:0]
	p.pool.Put(buf)
}
