package cms

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
)

// TestProgressReaderEnd: the last report has the size once the reader
// ends, whether the end comes with the last bytes (as an HTTP body's often
// does) or after them, and no report repeats.
func TestProgressReaderEnd(t *testing.T) {
	for name, src := range map[string]func() io.Reader{
		"end after the bytes": func() io.Reader { return iotest.HalfReader(strings.NewReader("hello world")) },
		"end with the bytes":  func() io.Reader { return iotest.DataErrReader(strings.NewReader("hello world")) },
	} {
		for _, total := range []int64{-1, 11} {
			var got []Progress
			pr := newProgressReader(src(), total, func(p Progress) { got = append(got, p) })
			_, err := io.Copy(io.Discard, pr)
			assert.NoError(t, err)
			if assert.NotEmpty(t, got, "%s, total %d", name, total) {
				assert.Equal(t, Progress{Bytes: 11, TotalBytes: 11}, got[len(got)-1], "%s, total %d", name, total)
			}
			reports := len(got)
			_, _ = pr.Read(make([]byte, 4))
			assert.Len(t, got, reports, "%s, total %d: a read after the end reported", name, total)
			for i := 1; i < len(got); i++ {
				assert.NotEqual(t, got[i-1], got[i], "%s, total %d: a report repeated", name, total)
			}
		}
	}
}
