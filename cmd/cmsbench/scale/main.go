// Command scale measures a persisted reference server as it grows: it starts
// cmd/refserver with -data in a child process, fills it through the API
// (folders of 1,000 small files, a metadata instance on every tenth file),
// and at each checkpoint prints one JSON line with the latencies of the
// everyday reads (a list page, a file GET, a search, a 10-match metadata
// query), the first search after the bulk writes, the server's resident
// set per item, the time a restart on the same directory takes to its
// first answer, and the restarted server's first search (which waits for
// the index to hold every restored item) with its resident set then.
//
//	go run ./cmd/cmsbench/scale -n 200000 -at 50000,200000
//	go run ./cmd/cmsbench/scale -n 1000000 -at 50000,1000000 -data /var/tmp/scale
//
// The content of the files is a few dozen bytes, so the resident set is the
// state's cost, not the content's. The child is built from this module
// (go build ./cmd/refserver) unless -refserver names a binary.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/contentapi/cms"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

// config is the parsed command line.
type config struct {
	n           int
	at          []int
	dataDir     string
	refserver   string
	concurrency int
	samples     int
	restartAt   string // "all" or "last"
}

func parseArgs(args []string) (config, error) {
	c := config{}
	fs := flag.NewFlagSet("scale", flag.ContinueOnError)
	fs.IntVar(&c.n, "n", 50_000, "files to create in all")
	at := fs.String("at", "", "comma-separated file counts to measure at (default: -n)")
	fs.StringVar(&c.dataDir, "data", "", "the server's data directory (default: a new temporary one, removed at the end)")
	fs.StringVar(&c.refserver, "refserver", "", "the cmd/refserver binary (default: built from this module)")
	fs.IntVar(&c.concurrency, "concurrency", 8, "calls in flight while filling")
	fs.IntVar(&c.samples, "samples", 200, "calls per latency measure (searches and queries: a quarter of it)")
	fs.StringVar(&c.restartAt, "restart", "last", "restart at every checkpoint (all) or at the last (last)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if c.n < 1000 || c.concurrency < 1 || c.samples < 4 {
		return c, errors.New("-n must be at least 1000, -concurrency and -samples positive (samples at least 4)")
	}
	if c.restartAt != "all" && c.restartAt != "last" {
		return c, errors.New("-restart is all or last")
	}
	if *at == "" {
		c.at = []int{c.n}
	} else {
		for _, s := range strings.Split(*at, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || v < 100 || v > c.n {
				return c, fmt.Errorf("-at: %q is not a file count between 100 and -n", s)
			}
			c.at = append(c.at, v)
		}
		slices.Sort(c.at)
		c.at = slices.Compact(c.at)
	}
	return c, nil
}

// line is one checkpoint's figures.
type line struct {
	Files            int     `json:"files"`
	Items            int     `json:"items"` // files and folders
	Instances        int     `json:"metadata_instances"`
	FillPerSecond    float64 `json:"fill_files_per_s"`
	ListP50MS        float64 `json:"list_p50_ms"`
	ListP99MS        float64 `json:"list_p99_ms"`
	GetP50MS         float64 `json:"get_p50_ms"`
	GetP99MS         float64 `json:"get_p99_ms"`
	FirstSearchMS    float64 `json:"first_search_ms"`
	SearchP50MS      float64 `json:"search_p50_ms"`
	SearchP99MS      float64 `json:"search_p99_ms"`
	QueryP50MS       float64 `json:"mdquery_p50_ms"`
	QueryP99MS       float64 `json:"mdquery_p99_ms"`
	RSSBytes         int64   `json:"rss_bytes"`
	RSSPerItem       float64 `json:"rss_bytes_per_item"`
	RestartSeconds   float64 `json:"restart_s,omitempty"`
	RestartRSSBytes  int64   `json:"restart_rss_bytes,omitempty"`
	RestartPerItemUS float64 `json:"restart_us_per_item,omitempty"`
	// RestartSearchMS is the first search after the restart, which waits
	// for the search index to hold every restored item, and
	// RestartIndexedRSSBytes the RSS right after it.
	RestartSearchMS          float64 `json:"restart_first_search_ms,omitempty"`
	RestartIndexedRSSBytes   int64   `json:"restart_indexed_rss_bytes,omitempty"`
	RestartIndexedRSSPerItem float64 `json:"restart_indexed_rss_bytes_per_item,omitempty"`
}

// filesPerFolder is the size of a filled folder.
const filesPerFolder = 1000

// templateKey is the metadata template the instances use.
const templateKey = "scalebench"

func run(ctx context.Context, args []string, out io.Writer) error {
	c, err := parseArgs(args)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "cms-scale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if c.refserver == "" {
		c.refserver = filepath.Join(tmp, "refserver")
		build := exec.CommandContext(ctx, "go", "build", "-o", c.refserver, "./cmd/refserver")
		build.Stderr = os.Stderr
		if err := build.Run(); err != nil {
			return fmt.Errorf("building cmd/refserver (run from the module's root, or give -refserver): %w", err)
		}
	}
	if c.dataDir == "" {
		c.dataDir = filepath.Join(tmp, "data")
	}
	srv, err := startServer(ctx, c.refserver, c.dataDir)
	if err != nil {
		return err
	}
	f := &filler{cfg: c, srv: srv}
	defer func() { _ = f.srv.stop() }() // the server of the moment: a restart replaces it
	if err := f.setup(ctx); err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	for i, n := range c.at {
		start := time.Now()
		filled := f.files
		if err := f.fill(ctx, n); err != nil {
			return err
		}
		l := line{Files: f.files, Items: f.files + f.folders, Instances: f.instances}
		l.FillPerSecond = float64(f.files-filled) / time.Since(start).Seconds()
		if err := f.measure(ctx, &l); err != nil {
			return err
		}
		if c.restartAt == "all" || i == len(c.at)-1 {
			if err := f.restart(ctx, &l); err != nil {
				return err
			}
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}

// server is the running child.
type server struct {
	bin, dir string
	cmd      *exec.Cmd
	baseURL  string
	upload   string
	token    string
	started  time.Time // when the process was started
	ready    time.Time // when it printed its startup line
}

// adminToken is the fixed admin token, so that a restart keeps it.
const adminToken = "scale-bench-admin-token"

func startServer(ctx context.Context, bin, dir string) (*server, error) {
	s := &server{bin: bin, dir: dir}
	cmd := exec.CommandContext(ctx, bin, "-data", dir, "-admin-token", adminToken, "-event-history", "1000")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s.cmd = cmd
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, errors.New("refserver printed no startup line")
	}
	s.ready = time.Now()
	var startup struct {
		BaseURL   string            `json:"base_url"`
		UploadURL string            `json:"upload_url"`
		Tokens    map[string]string `json:"tokens"`
	}
	if err := json.Unmarshal(sc.Bytes(), &startup); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("reading the startup line: %w", err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	s.baseURL, s.upload, s.token = startup.BaseURL, startup.UploadURL, startup.Tokens["admin"]
	return s, nil
}

// stop ends the child as an interrupt would, and waits for it.
func (s *server) stop() error {
	if s.cmd == nil {
		return nil
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	err := s.cmd.Wait()
	s.cmd = nil
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return nil // ended by the signal
	}
	return err
}

// rss is the child's resident set in bytes (Linux), 0 where unknown.
func (s *server) rss() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// filler fills the server and measures it.
type filler struct {
	cfg       config
	srv       *server
	client    *cms.Client
	scope     cms.MetadataScope
	folderIDs []string
	fileIDs   []string
	files     int
	folders   int
	instances int
}

func (f *filler) connect() error {
	c, err := cms.NewClient(cms.WithURLs(f.srv.baseURL, f.srv.upload), cms.WithToken(f.srv.token))
	f.client = c
	return err
}

func (f *filler) setup(ctx context.Context) error {
	if err := f.connect(); err != nil {
		return err
	}
	scope, _, err := f.client.Metadata.EnterpriseScope(ctx)
	if err != nil {
		return err
	}
	f.scope = scope
	_, _, err = f.client.MetadataTemplates.Create(ctx, &cms.CreateMetadataTemplateRequest{
		Scope: scope, TemplateKey: templateKey, DisplayName: "Scale benchmark",
		Fields: []*cms.MetadataField{{Type: cms.MetadataFieldTypeString, Key: "code", DisplayName: "Code"}},
	})
	return err
}

// fileName is file i's name: two words of a vocabulary of 1,000, so a
// word names about a thousandth of the files.
func fileName(i int) string {
	return fmt.Sprintf("doc-%07d w%03d w%03d.txt", i, i%1000, (i*7+3)%1000)
}

// fill creates files up to n, a folder per 1,000, an instance on every
// tenth file whose code is shared by exactly ten instances.
func (f *filler) fill(ctx context.Context, n int) error {
	for len(f.folderIDs)*filesPerFolder < n {
		fo, _, err := f.client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("f%04d", len(f.folderIDs)), Parent: cms.FolderRef{ID: "0"}}, nil)
		if err != nil {
			return err
		}
		f.folderIDs = append(f.folderIDs, fo.ID)
		f.folders++
	}
	first := f.files
	ids := make([]string, n-first)
	var next atomic.Int64
	next.Store(int64(first))
	var wg sync.WaitGroup
	errs := make(chan error, f.cfg.concurrency)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range f.cfg.concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil {
					return
				}
				name := fileName(i)
				body := name + " scale benchmark content\n"
				file, _, err := f.client.Files.Upload(ctx, f.folderIDs[i/filesPerFolder], name, strings.NewReader(body), int64(len(body)), nil)
				if err == nil && i%10 == 0 {
					_, _, err = f.client.Metadata.Create(ctx, cms.OnFile(file.ID), f.scope, templateKey, map[string]any{"code": "c" + strconv.Itoa(i/100)})
				}
				if err != nil {
					errs <- fmt.Errorf("file %d: %w", i, err)
					cancel()
					return
				}
				ids[i-first] = file.ID
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
	}
	f.fileIDs = append(f.fileIDs, ids...)
	f.files = n
	f.instances = (n + 9) / 10
	return nil
}

// timed runs call k times and gives the median and 99th percentile in ms.
func timed(k int, call func(i int) error) (p50, p99 float64, err error) {
	d := make([]float64, k)
	for i := range k {
		t := time.Now()
		if err := call(i); err != nil {
			return 0, 0, err
		}
		d[i] = msSince(t)
	}
	slices.Sort(d)
	return d[k/2], d[min(k-1, k*99/100)], nil
}

// msSince is the time since t in milliseconds, to the microsecond.
func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// timedSearch runs one search (a page of 20) for query and times it in
// milliseconds.
func timedSearch(ctx context.Context, c *cms.Client, query string) (float64, error) {
	t := time.Now()
	_, _, err := c.Search.Query(ctx, &cms.SearchOptions{Query: query, Limit: 20})
	return msSince(t), err
}

func (f *filler) measure(ctx context.Context, l *line) error {
	r := rand.New(rand.NewPCG(uint64(f.files), 7))
	word := func() string { return fmt.Sprintf("w%03d", r.IntN(1000)) }
	c := f.client
	var err error
	if l.FirstSearchMS, err = timedSearch(ctx, c, word()); err != nil {
		return err
	}
	full := f.files / filesPerFolder
	if l.ListP50MS, l.ListP99MS, err = timed(f.cfg.samples, func(int) error {
		folder := f.folderIDs[r.IntN(max(full, 1))]
		_, _, err := c.Folders.ListItems(ctx, folder, &cms.ListItemsOptions{Limit: 100, Offset: 100 * r.IntN(9)})
		return err
	}); err != nil {
		return fmt.Errorf("list: %w", err)
	}
	if l.GetP50MS, l.GetP99MS, err = timed(f.cfg.samples, func(int) error {
		_, _, err := c.Files.Get(ctx, f.fileIDs[r.IntN(len(f.fileIDs))], nil)
		return err
	}); err != nil {
		return fmt.Errorf("get: %w", err)
	}
	if l.SearchP50MS, l.SearchP99MS, err = timed(f.cfg.samples/4, func(int) error {
		_, _, err := c.Search.Query(ctx, &cms.SearchOptions{Query: word(), Limit: 20})
		return err
	}); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	groups := f.files / 100 // codes c0 .. c(groups-1) have ten instances each
	if l.QueryP50MS, l.QueryP99MS, err = timed(f.cfg.samples/4, func(int) error {
		code := "c" + strconv.Itoa(r.IntN(max(groups, 1)))
		q := cms.NewMetadataQuery(f.scope, templateKey, "0").Where(cms.QueryField("code").Eq(code)).Limit(100)
		page, _, err := c.Metadata.Query(ctx, q)
		if err == nil && groups > 0 && len(page.Entries) != 10 {
			err = fmt.Errorf("code %s matched %d instances, want 10", code, len(page.Entries))
		}
		return err
	}); err != nil {
		return fmt.Errorf("metadata query: %w", err)
	}
	l.RSSBytes = f.srv.rss()
	l.RSSPerItem = float64(l.RSSBytes) / float64(l.Items)
	return nil
}

// restart stops the server and starts it again on the same directory,
// timing process start to its first answer of GET /folders/0.
func (f *filler) restart(ctx context.Context, l *line) error {
	if err := f.srv.stop(); err != nil {
		return err
	}
	srv, err := startServer(ctx, f.srv.bin, f.srv.dir)
	if err != nil {
		return err
	}
	f.srv = srv
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.baseURL+"/folders/0", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+srv.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("first answer after the restart: %s", resp.Status)
	}
	took := time.Since(srv.started)
	l.RestartSeconds = took.Seconds()
	l.RestartPerItemUS = float64(took.Microseconds()) / float64(l.Items)
	l.RestartRSSBytes = srv.rss()
	if err := f.connect(); err != nil {
		return err
	}
	if l.RestartSearchMS, err = timedSearch(ctx, f.client, "w001"); err != nil {
		return fmt.Errorf("first search after the restart: %w", err)
	}
	l.RestartIndexedRSSBytes = srv.rss()
	l.RestartIndexedRSSPerItem = float64(l.RestartIndexedRSSBytes) / float64(l.Items)
	return nil
}
