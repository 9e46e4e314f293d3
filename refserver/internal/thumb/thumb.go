package thumb

import (
	"bufio"
	"bytes"
	"container/list"
	"context"
	"errors"
	"image"
	"image/color"
	_ "image/gif" // GIF for image.Decode
	"image/jpeg"
	"image/png"
	"io"
	"sync"

	"golang.org/x/image/draw"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// Key names one thumbnail: the content (a blob id; blobs never change),
// the format and the side of the square it fits in.
type Key struct {
	BlobID string
	Format Format
	Side   int
}

// Status is where a thumbnail stands.
type Status int

const (
	// Pending: queued or being made; ask again later.
	Pending Status = iota
	// Ready: the image is in the cache.
	Ready
	// Failed: it cannot be made (not an image the server decodes, too
	// many pixels, a broken file); a placeholder stands for it.
	Failed
)

// Options bound a Service. Zero values take the defaults.
type Options struct {
	Workers   int   // goroutines making thumbnails (default 1)
	Queue     int   // jobs waiting beyond the workers' (default 64); more are dropped and asked again
	MaxBytes  int64 // cache size in encoded bytes (default 32 MiB)
	MaxPixels int64 // largest image decoded, width × height (default 40 megapixels)
}

// Service makes thumbnails in the background and caches them. Its
// methods are safe for concurrent use.
type Service struct {
	store blob.Store
	opts  Options
	jobs  chan Key

	mu      sync.Mutex
	entries map[Key]*list.Element // of *entry, most recent first in lru
	lru     *list.List
	bytes   int64
	pending map[Key]chan struct{} // closed when the job ends
	failed  map[Key]bool

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

type entry struct {
	key  Key
	data []byte
}

// New starts a Service reading store; Close stops it.
func New(store blob.Store, opts Options) *Service {
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	if opts.Queue <= 0 {
		opts.Queue = 64
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 32 << 20
	}
	if opts.MaxPixels <= 0 {
		opts.MaxPixels = 40_000_000
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{
		store: store, opts: opts, jobs: make(chan Key, opts.Queue),
		entries: map[Key]*list.Element{}, lru: list.New(),
		pending: map[Key]chan struct{}{}, failed: map[Key]bool{},
		ctx: ctx, cancel: cancel,
	}
	for range opts.Workers {
		s.wg.Add(1)
		go s.work()
	}
	return s
}

// Close stops the workers and waits for them.
func (s *Service) Close() {
	s.cancel()
	s.wg.Wait()
}

// Get returns the thumbnail k when it is cached (Ready), or queues it and
// returns Pending with a channel closed when its job ends (nil when the
// queue was full: ask again later), or Failed.
func (s *Service) Get(k Key) ([]byte, Status, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if el, ok := s.entries[k]; ok {
		s.lru.MoveToFront(el)
		return el.Value.(*entry).data, Ready, nil
	}
	if s.failed[k] {
		return nil, Failed, nil
	}
	if done, ok := s.pending[k]; ok {
		return nil, Pending, done
	}
	done := make(chan struct{})
	select {
	case s.jobs <- k:
		s.pending[k] = done
		return nil, Pending, done
	default:
		return nil, Pending, nil // the queue is full
	}
}

// Wait is Get that waits, until ctx is done, for a queued job to end.
func (s *Service) Wait(ctx context.Context, k Key) ([]byte, Status) {
	data, st, done := s.Get(k)
	if st != Pending || done == nil {
		return data, st
	}
	select {
	case <-done:
		data, st, _ = s.Get(k)
		return data, st
	case <-ctx.Done():
		return nil, Pending
	}
}

// Len is the number of cached thumbnails and their size in bytes.
func (s *Service) Len() (n int, bytes int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries), s.bytes
}

func (s *Service) work() {
	defer s.wg.Done()
	for {
		select {
		case <-s.ctx.Done():
			return
		case k := <-s.jobs:
			data, err := s.make(k)
			s.finish(k, data, err)
		}
	}
}

// finish records a job's result and wakes its waiters.
func (s *Service) finish(k Key, data []byte, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			if len(s.failed) >= maxFailed {
				clear(s.failed) // bounded: a forgotten failure is tried again
			}
			s.failed[k] = true // blobs never change: a failure stays one
		}
	} else if int64(len(data)) <= s.opts.MaxBytes {
		s.entries[k] = s.lru.PushFront(&entry{key: k, data: data})
		s.bytes += int64(len(data))
		for s.bytes > s.opts.MaxBytes {
			old := s.lru.Back()
			e := old.Value.(*entry)
			s.lru.Remove(old)
			delete(s.entries, e.key)
			s.bytes -= int64(len(e.data))
		}
	}
	close(s.pending[k])
	delete(s.pending, k)
}

// maxFailed bounds the failures remembered.
const maxFailed = 4096

// ErrTooLarge is an image with more pixels than Options.MaxPixels.
var ErrTooLarge = errors.New("thumb: image too large to decode")

// make decodes the blob (its header first: the size is checked before a
// pixel is decoded) and encodes it scaled to fit a k.Side square.
func (s *Service) make(k Key) ([]byte, error) {
	rc, err := s.store.Open(s.ctx, k.BlobID)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	cfg, _, err := image.DecodeConfig(bufio.NewReader(rc))
	if err != nil {
		return nil, err
	}
	if int64(cfg.Width)*int64(cfg.Height) > s.opts.MaxPixels || cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, ErrTooLarge
	}
	if _, err := rc.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	src, _, err := image.Decode(bufio.NewReader(rc))
	if err != nil {
		return nil, err
	}
	img := Scale(src, k.Side)
	if k.Format == JPG {
		img = onWhite(img) // JPEG has no alpha: transparency shows white, not black
	}
	return Encode(img, k.Format)
}

// onWhite composes img over a white background.
func onWhite(img image.Image) image.Image {
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(dst, dst.Bounds(), image.White, image.Point{}, draw.Src)
	draw.Draw(dst, dst.Bounds(), img, b.Min, draw.Over)
	return dst
}

// Scale returns src scaled down (never up) to fit a side × side square,
// its aspect ratio kept (Catmull-Rom).
func Scale(src image.Image, side int) image.Image {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= side && h <= side {
		return src
	}
	if w >= h {
		w, h = side, max(1, h*side/w)
	} else {
		w, h = max(1, w*side/h), side
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	return dst
}

// Encode writes img as f.
func Encode(img image.Image, f Format) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if f == JPG {
		err = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85})
	} else {
		err = png.Encode(&buf, img)
	}
	return buf.Bytes(), err
}

// Placeholder is the image that stands for a thumbnail not ready or not
// possible: a plain grey square of the given side, in f.
func Placeholder(f Format, side int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.Gray{Y: 0xd8}), image.Point{}, draw.Src)
	data, _ := Encode(img, f)
	return data
}

// ContentType is the media type of f.
func (f Format) ContentType() string {
	if f == JPG {
		return "image/jpeg"
	}
	return "image/png"
}
