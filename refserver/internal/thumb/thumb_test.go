package thumb

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// testImage is a w×h image, red on the left half, blue on the right.
func testImage(w, h int) image.Image {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{R: 255, A: 255}
			if x >= w/2 {
				c = color.RGBA{B: 255, A: 255}
			}
			img.Set(x, y, c)
		}
	}
	return img
}

func encodeAs(t *testing.T, img image.Image, kind string) []byte {
	t.Helper()
	var buf bytes.Buffer
	switch kind {
	case "png":
		require.NoError(t, png.Encode(&buf, img))
	case "jpeg":
		require.NoError(t, jpeg.Encode(&buf, img, nil))
	case "gif":
		require.NoError(t, gif.Encode(&buf, img, nil))
	}
	return buf.Bytes()
}

func put(t *testing.T, st blob.Store, data []byte) string {
	t.Helper()
	info, err := st.Put(context.Background(), bytes.NewReader(data))
	require.NoError(t, err)
	return info.ID
}

func TestScaleRealImages(t *testing.T) {
	t.Parallel()
	st := blob.NewMemory()
	svc := New(st, Options{})
	t.Cleanup(svc.Close)
	for _, kind := range []string{"png", "jpeg", "gif"} {
		for _, f := range []Format{PNG, JPG} {
			id := put(t, st, encodeAs(t, testImage(400, 200), kind))
			data, status := svc.Wait(context.Background(), Key{BlobID: id, Format: f, Side: 94})
			require.Equal(t, Ready, status, "%s as %s", kind, f)
			img, format, err := image.Decode(bytes.NewReader(data))
			require.NoError(t, err)
			assert.Equal(t, map[Format]string{PNG: "png", JPG: "jpeg"}[f], format)
			assert.Equal(t, image.Rect(0, 0, 94, 47), img.Bounds(), "%s as %s: aspect ratio kept", kind, f)
			r, _, b, _ := img.At(5, 20).RGBA()
			assert.Greater(t, r, b, "left is red")
			r, _, b, _ = img.At(88, 20).RGBA()
			assert.Greater(t, b, r, "right is blue")
		}
	}
	// A small image is not scaled up.
	id := put(t, st, encodeAs(t, testImage(20, 10), "png"))
	data, status := svc.Wait(context.Background(), Key{BlobID: id, Format: PNG, Side: 320})
	require.Equal(t, Ready, status)
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, 20, cfg.Width)
}

func TestJPEGOfTransparentImageIsOnWhite(t *testing.T) {
	t.Parallel()
	st := blob.NewMemory()
	svc := New(st, Options{})
	t.Cleanup(svc.Close)
	clear := image.NewNRGBA(image.Rect(0, 0, 40, 40)) // fully transparent
	id := put(t, st, encodeAs(t, clear, "png"))
	data, status := svc.Wait(context.Background(), Key{BlobID: id, Format: JPG, Side: 32})
	require.Equal(t, Ready, status)
	img, err := jpeg.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	r, g, b, _ := img.At(10, 10).RGBA()
	assert.Greater(t, min(r, g, b), uint32(0xf000), "transparent shows white")
}

func TestPendingThenReady(t *testing.T) {
	t.Parallel()
	st := blob.NewMemory()
	svc := New(st, Options{})
	t.Cleanup(svc.Close)
	k := Key{BlobID: put(t, st, encodeAs(t, testImage(64, 64), "png")), Format: PNG, Side: 32}
	_, status, done := svc.Get(k)
	require.Equal(t, Pending, status, "the first ask queues the job and does not wait")
	require.NotNil(t, done)
	<-done
	data, status, _ := svc.Get(k)
	assert.Equal(t, Ready, status)
	assert.NotEmpty(t, data)
}

func TestRefusals(t *testing.T) {
	t.Parallel()
	st := blob.NewMemory()
	svc := New(st, Options{MaxPixels: 100 * 100})
	t.Cleanup(svc.Close)
	ctx := context.Background()
	// Too many pixels: refused from the header, before decoding.
	big := put(t, st, encodeAs(t, testImage(101, 100), "png"))
	_, status := svc.Wait(ctx, Key{BlobID: big, Format: PNG, Side: 32})
	assert.Equal(t, Failed, status)
	// Not an image.
	text := put(t, st, []byte("hello, world"))
	_, status = svc.Wait(ctx, Key{BlobID: text, Format: JPG, Side: 32})
	assert.Equal(t, Failed, status)
	// A truncated image.
	whole := encodeAs(t, testImage(50, 50), "png")
	cut := put(t, st, whole[:len(whole)/2])
	_, status = svc.Wait(ctx, Key{BlobID: cut, Format: PNG, Side: 32})
	assert.Equal(t, Failed, status)
	// An unknown blob.
	_, status = svc.Wait(ctx, Key{BlobID: "nope", Format: PNG, Side: 32})
	assert.Equal(t, Failed, status)
}

func TestCacheIsBounded(t *testing.T) {
	t.Parallel()
	st := blob.NewMemory()
	one, err := Encode(Scale(testImage(300, 300), 160), PNG)
	require.NoError(t, err)
	limit := int64(len(one))*3 + 10 // room for three
	svc := New(st, Options{MaxBytes: limit})
	t.Cleanup(svc.Close)
	var keys []Key
	for range 8 {
		k := Key{BlobID: put(t, st, encodeAs(t, testImage(300, 300), "png")), Format: PNG, Side: 160}
		_, status := svc.Wait(context.Background(), k)
		require.Equal(t, Ready, status)
		keys = append(keys, k)
		n, size := svc.Len()
		assert.LessOrEqual(t, size, limit)
		assert.LessOrEqual(t, n, 3)
	}
	// The newest stay; the oldest were evicted and are made again.
	_, status, _ := svc.Get(keys[7])
	assert.Equal(t, Ready, status)
	_, status, _ = svc.Get(keys[0])
	assert.Equal(t, Pending, status)
}

func TestQueueIsBounded(t *testing.T) {
	t.Parallel()
	st := blob.NewMemory()
	svc := New(st, Options{Queue: 1})
	svc.Close() // no worker takes jobs: the queue fills
	id := put(t, st, encodeAs(t, testImage(10, 10), "png"))
	_, status, done := svc.Get(Key{BlobID: id, Format: PNG, Side: 32})
	assert.Equal(t, Pending, status)
	assert.NotNil(t, done)
	_, status, done = svc.Get(Key{BlobID: id, Format: PNG, Side: 94})
	assert.Equal(t, Pending, status)
	assert.Nil(t, done, "a full queue takes no more: ask again later")
}

func TestParseSize(t *testing.T) {
	t.Parallel()
	cases := []struct {
		q    string
		side int
		ok   bool
	}{
		{"", 32, true},
		{"min_width=94", 94, true},
		{"min_width=95", 160, true},
		{"min_width=100&min_height=200", 320, true},
		{"max_width=100", 32, true},
		{"min_width=160&max_height=160", 160, true},
		{"min_width=161&max_width=200", 0, false},
		{"min_width=31", 0, false},
		{"max_height=321", 0, false},
		{"min_width=abc", 0, false},
		{"min_width=", 0, false},
		{"min_width=+94", 0, false}, // a space, as a query decodes "+"
		{"min_width=%2B94", 0, false},
		{"min_width=94&min_width=94", 0, false},
		{"min_width=0094", 0, false},
	}
	for _, c := range cases {
		q, err := url.ParseQuery(c.q)
		require.NoError(t, err)
		side, err := ParseSize(q)
		if !c.ok {
			assert.Error(t, err, c.q)
			var se *SizeError
			assert.ErrorAs(t, err, &se, c.q)
			continue
		}
		assert.NoError(t, err, c.q)
		assert.Equal(t, c.side, side, c.q)
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"", "min_width=94", "min_width=100&max_width=50", "max_height=320&min_height=32", "min_width=-1", "min_width=9999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		side, err := ParseSize(q)
		if err != nil {
			return
		}
		ok := false
		for _, s := range ThumbnailSides {
			ok = ok || s == side
		}
		if !ok {
			t.Fatalf("side %d for %q is not one the service serves", side, raw)
		}
		for _, name := range []string{"min_width", "min_height"} {
			if v := q.Get(name); v != "" {
				if n := mustAtoi(t, v); side < n {
					t.Fatalf("side %d below %s=%d", side, name, n)
				}
			}
		}
		for _, name := range []string{"max_width", "max_height"} {
			if v := q.Get(name); v != "" {
				if n := mustAtoi(t, v); side > n {
					t.Fatalf("side %d above %s=%d", side, name, n)
				}
			}
		}
	})
}

func mustAtoi(t *testing.T, s string) int {
	n := 0
	neg := false
	for i, c := range s {
		switch {
		case i == 0 && (c == '+' || c == '-'):
			neg = c == '-'
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
		default:
			t.Fatalf("accepted %q", s)
		}
	}
	if neg {
		n = -n
	}
	return n
}
