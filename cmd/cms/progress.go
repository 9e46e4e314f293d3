package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/contentapi/cms"
	"github.com/schollz/progressbar/v3"
)

// progress shows a transfer's advance on stderr: a bar
// (github.com/schollz/progressbar) when stderr is a terminal, a plain line
// every second otherwise (and at the end), nothing with --quiet.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	bar   *progressbar.ProgressBar
	verb  string
	last  time.Time
	p     cms.Progress
	ended bool
	quiet bool
}

func newProgress(w io.Writer, verb string, quiet bool) *progress {
	pr := &progress{w: w, verb: verb, quiet: quiet}
	if f, ok := w.(*os.File); ok && !quiet {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			pr.bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(w), progressbar.OptionShowBytes(true),
				progressbar.OptionSetDescription(verb), progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish())
		}
	}
	return pr
}

// update takes the transfer's progress (the SDK never calls it from two
// goroutines at once; the lock guards done).
func (pr *progress) update(p cms.Progress) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.quiet || pr.ended {
		return
	}
	pr.p = p
	if pr.bar != nil {
		// The bar counts the bytes to move: unchanged ones are not sent.
		if toMove := p.TotalBytes - p.SkippedBytes; p.TotalBytes > 0 && pr.bar.GetMax64() != toMove {
			pr.bar.ChangeMax64(toMove)
		}
		_ = pr.bar.Set64(p.Bytes)
		if p.TotalFiles > 0 {
			pr.bar.Describe(fmt.Sprintf("%s %d/%d files", pr.verb, p.FilesDone, p.TotalFiles))
		}
		return
	}
	if time.Since(pr.last) >= time.Second {
		pr.last = time.Now()
		pr.line()
	}
}

func (pr *progress) line() {
	if pr.p.TotalFiles > 0 {
		fmt.Fprintf(pr.w, "%s: %d/%d files, %d bytes moved, %d unchanged, of %d\n",
			pr.verb, pr.p.FilesDone, pr.p.TotalFiles, pr.p.Bytes, pr.p.SkippedBytes, pr.p.TotalBytes)
	} else {
		fmt.Fprintf(pr.w, "%s: %d bytes\n", pr.verb, pr.p.Bytes)
	}
}

// done ends the display (once).
func (pr *progress) done() {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.ended || pr.quiet {
		pr.ended = true
		return
	}
	pr.ended = true
	if pr.bar != nil {
		_ = pr.bar.Finish()
		return
	}
	if pr.p.Bytes > 0 || pr.p.TotalFiles > 0 {
		pr.line()
	}
}
