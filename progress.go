package cms

import "io"

// progressReader reports the bytes read through it to fn, after each read
// that brings bytes and once at the end. Reads come from one goroutine at a
// time (the connection's writer, or the caller's loop), so fn's calls never
// overlap.
type progressReader struct {
	r     io.Reader
	fn    func(Progress)
	p     Progress
	ended bool
}

func newProgressReader(r io.Reader, total int64, fn func(Progress)) *progressReader {
	if total < 0 {
		total = -1
	}
	return &progressReader{r: r, fn: fn, p: Progress{TotalBytes: total}}
}

func (pr *progressReader) Read(b []byte) (int, error) {
	n, err := pr.r.Read(b)
	pr.p.Bytes += int64(n)
	if err == io.EOF && !pr.ended { //nolint:errorlint // a reader's end
		// The end may come with the last bytes (an HTTP body often sends
		// both at once) or after them: either way the size is known now.
		pr.ended = true
		if pr.p.TotalBytes < 0 {
			pr.p.TotalBytes = pr.p.Bytes
			pr.fn(pr.p)
			return n, err
		}
	}
	if n > 0 {
		pr.fn(pr.p)
	}
	return n, err
}

// progressBody is a download body that reports its reads.
type progressBody struct {
	*progressReader
	io.Closer
}
