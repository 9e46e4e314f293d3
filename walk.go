package cms

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"
)

// DefaultWalkConcurrency is how many folders Walk lists at once unless
// WalkOptions.Concurrency says otherwise.
const DefaultWalkConcurrency = 4

// WalkEntry is one item of a folder's subtree, as FoldersService.Walk
// yields it.
type WalkEntry struct {
	// Path is the item's path below the walked folder, its names joined
	// with "/" ("reports/2026/q3.pdf"). Names are the service's, unchanged:
	// a name may hold characters a local file system refuses.
	Path string
	// Depth is 1 for the walked folder's own items, 2 for theirs, and so on.
	Depth int
	// Item is the file, folder or web link.
	Item *Item
}

// WalkOptions are the options of FoldersService.Walk.
type WalkOptions struct {
	// Concurrency is how many folders are listed at once: 0 means
	// DefaultWalkConcurrency; negative is an *ArgError.
	Concurrency int
	// Fields selects the fields of each item (query fields); the walk adds
	// none of its own.
	Fields []string
	// Limit is the page size of each listing (0: the service's default).
	Limit int
	// Ordered makes the order stable: depth first, a folder's items sorted
	// by name (byte order, as sort.Strings) and each folder followed at
	// once by what is inside it, so two walks of the same tree yield the
	// same sequence (as `cms ls -r` prints it). One folder is listed at a
	// time (Concurrency is not used) and each folder's listing is read
	// whole before its items are yielded, so the walk holds the listings
	// of the folders on the current path.
	Ordered bool
	// Filter, when set, chooses what the walk yields: it is called with
	// each item's path (as WalkEntry.Path) and whether it is a folder, and
	// false leaves the item out, and for a folder everything inside it,
	// which is then never listed. It may be called from several goroutines
	// at once.
	Filter func(path string, isDir bool) bool
}

// Walk yields every item below a folder (not the folder itself), with its
// path: it lists the folder by marker (GET
// /folders/{folder_id}/items?usemarker=true) and every folder below it,
// up to opts.Concurrency folders at once. A folder is yielded before
// anything inside it; items of different folders may interleave, and the
// order may differ from one walk to the next (WalkOptions.Ordered gives a
// stable order: by name, depth first). It is
// lazy and bounded: listing waits while the loop works (a few pages of
// entries at most are held), and a break, an error or the end of ctx stops
// every listing before Walk returns. An error is yielded once, naming the
// folder whose listing failed, and ends the walk. It never changes opts.
func (s *FoldersService) Walk(ctx context.Context, folderID string, opts *WalkOptions) iter.Seq2[*WalkEntry, error] {
	var o WalkOptions
	if opts != nil {
		o = *opts
		o.Fields = append([]string(nil), opts.Fields...)
	}
	fail := func(err error) iter.Seq2[*WalkEntry, error] {
		return func(yield func(*WalkEntry, error) bool) { yield(nil, err) }
	}
	if err := checkCtx(ctx); err != nil {
		return fail(err)
	}
	if err := checkID("folder", folderID); err != nil {
		return fail(err)
	}
	switch {
	case o.Concurrency < 0:
		return fail(invalidArg("concurrency", "negative"))
	case o.Concurrency == 0:
		o.Concurrency = DefaultWalkConcurrency
	}
	if err := checkLimit(o.Limit); err != nil {
		return fail(err)
	}
	if o.Ordered {
		return func(yield func(*WalkEntry, error) bool) {
			if s.walkOrdered(ctx, walkFolder{id: folderID}, o, yield) {
				if err := ctx.Err(); err != nil {
					yield(nil, err)
				}
			}
		}
	}
	return func(yield func(*WalkEntry, error) bool) {
		w := newWalker(ctx, s, o)
		defer w.stop()
		w.push(walkFolder{id: folderID})
		for i := 0; i < o.Concurrency; i++ {
			w.wg.Add(1)
			go w.work()
		}
		go func() { w.wg.Wait(); close(w.out) }()
		for r := range w.out {
			if r.err != nil {
				yield(nil, r.err)
				return
			}
			if !yield(r.entry, nil) {
				return
			}
			if r.entry.Item.Type == "folder" {
				// Listed only once the loop has its entry, so that a folder
				// always comes before what is inside it.
				w.push(walkFolder{id: r.entry.Item.ID, path: r.entry.Path, depth: r.entry.Depth})
			}
			w.done() // this entry is handled
		}
		if err := ctx.Err(); err != nil {
			yield(nil, err) // the caller's ctx ended the walk
		}
	}
}

// walkFolder is a folder waiting to be listed.
type walkFolder struct {
	id, path string
	depth    int
}

// walkResult is an entry found, or the error that ends the walk.
type walkResult struct {
	entry *WalkEntry
	err   error
}

// walker runs one Walk: a queue of folders to list, workers listing them,
// and the entries they found on their way to the loop. pending counts the
// folders queued or being listed and the entries not handled by the loop
// yet: at zero the walk is over.
type walker struct {
	ctx    context.Context
	cancel context.CancelFunc
	s      *FoldersService
	opts   WalkOptions
	out    chan walkResult
	wg     sync.WaitGroup

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []walkFolder
	pending int
	closed  bool
}

func newWalker(ctx context.Context, s *FoldersService, o WalkOptions) *walker {
	ctx, cancel := context.WithCancel(ctx)
	w := &walker{ctx: ctx, cancel: cancel, s: s, opts: o, out: make(chan walkResult, o.Concurrency)}
	w.cond = sync.NewCond(&w.mu)
	context.AfterFunc(ctx, func() { w.mu.Lock(); w.closed = true; w.cond.Broadcast(); w.mu.Unlock() })
	return w
}

// push queues a folder to list.
func (w *walker) push(f walkFolder) {
	w.mu.Lock()
	w.queue = append(w.queue, f)
	w.pending++
	w.cond.Signal()
	w.mu.Unlock()
}

// done marks one folder listing or one entry handled; the last one ends
// the walk.
func (w *walker) done() {
	w.mu.Lock()
	w.pending--
	if w.pending == 0 {
		w.closed = true
		w.cond.Broadcast()
	}
	w.mu.Unlock()
}

// next waits for a folder to list; false when the walk is over.
func (w *walker) next() (walkFolder, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.queue) == 0 && !w.closed {
		w.cond.Wait()
	}
	if w.closed {
		return walkFolder{}, false
	}
	f := w.queue[0]
	w.queue = w.queue[1:]
	return f, true
}

// send hands a result to the loop; false when the walk was stopped.
func (w *walker) send(r walkResult) bool {
	select {
	case w.out <- r:
		return true
	case <-w.ctx.Done():
		return false
	}
}

// work lists folders until the walk is over.
func (w *walker) work() {
	defer w.wg.Done()
	for {
		f, ok := w.next()
		if !ok {
			return
		}
		opts := &ListItemsByMarkerOptions{Fields: w.opts.Fields, Limit: w.opts.Limit}
		for it, err := range w.s.ListItemsByMarkerIter(w.ctx, f.id, opts) {
			if err != nil {
				if w.ctx.Err() == nil {
					where := "/" + f.path
					w.send(walkResult{err: fmt.Errorf("cms: walking %s (folder %s): %w", where, f.id, err)})
				}
				w.cancel()
				return
			}
			p := it.Name // joined as is: no cleaning of "." or ".." here
			if f.path != "" {
				p = f.path + "/" + it.Name
			}
			if w.opts.Filter != nil && !w.opts.Filter(p, it.Type == "folder") {
				continue // left out, and never listed when a folder
			}
			w.mu.Lock()
			w.pending++ // the entry, until the loop has handled it
			w.mu.Unlock()
			if !w.send(walkResult{entry: &WalkEntry{Path: p, Depth: f.depth + 1, Item: it}}) {
				return
			}
		}
		w.done() // the folder is listed
	}
}

// stop ends the walk: listings are cancelled, and every worker has
// returned when it does.
func (w *walker) stop() {
	w.cancel()
	for range w.out { // let the workers end
	}
}

// walkOrdered yields the items of f sorted by name, each folder followed by
// its own subtree; false when the walk ended (an error or the loop's
// break).
func (s *FoldersService) walkOrdered(ctx context.Context, f walkFolder, o WalkOptions, yield func(*WalkEntry, error) bool) bool {
	var items []*Item
	opts := &ListItemsByMarkerOptions{Fields: o.Fields, Limit: o.Limit}
	for it, err := range s.ListItemsByMarkerIter(ctx, f.id, opts) {
		if err != nil {
			if ctx.Err() == nil {
				err = fmt.Errorf("cms: walking /%s (folder %s): %w", f.path, f.id, err)
			}
			yield(nil, err)
			return false
		}
		items = append(items, it)
	}
	slices.SortStableFunc(items, func(a, b *Item) int { return strings.Compare(a.Name, b.Name) })
	for _, it := range items {
		if ctx.Err() != nil {
			return true // the caller's ctx: said once, by Walk
		}
		p := it.Name
		if f.path != "" {
			p = f.path + "/" + it.Name
		}
		if o.Filter != nil && !o.Filter(p, it.Type == "folder") {
			continue
		}
		e := &WalkEntry{Path: p, Depth: f.depth + 1, Item: it}
		if !yield(e, nil) {
			return false
		}
		if it.Type == "folder" && !s.walkOrdered(ctx, walkFolder{id: it.ID, path: p, depth: e.Depth}, o, yield) {
			return false
		}
	}
	return true
}
