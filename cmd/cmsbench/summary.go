package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// summaryRow is one line of the README table: a measure, the metric read
// from its results, and the implementation it is compared with.
type summaryRow struct {
	label   string
	name    string // result name
	metric  func(result) float64
	unit    string
	peer    string // result impl of the third column: ts-sdk
	ref     string // impl of the reference column: ceiling or net/http
	refName string // result name of the reference ("" = name)
	// refLabel names the reference in its cell ("" = ref).
	refLabel string
}

var (
	mbps  = func(r result) float64 { return r.MBPerSecond }
	ips   = func(r result) float64 { return r.ItemsPerSecond }
	rps   = func(r result) float64 { return r.RequestsPerSec }
	p50   = func(r result) float64 { return r.P50MS }
	p99   = func(r result) float64 { return r.P99MS }
	rssMB = func(r result) float64 { return float64(r.PeakRSSBytes) / (1 << 20) }
)

var summaryRows = []summaryRow{
	{"chunked upload from a file", "upload_file", mbps, "MB/s", "ts-sdk", "ceiling", "", ""},
	// A reader's ceiling reads it as the SDK must (no sendfile); the row
	// after it keeps the file's ceiling, which a reader cannot reach.
	{"chunked upload from a non-seekable reader", "upload_reader", mbps, "MB/s", "ts-sdk", "ceiling", "", "reader ceiling"},
	{"… the same, against the file's ceiling", "upload_reader", mbps, "MB/s", "", "ceiling", "upload_file", "file ceiling"},
	{"download", "download", mbps, "MB/s", "ts-sdk", "net/http", "", ""},
	{"download with SHA1 check", "download_sha1", mbps, "MB/s", "", "net/http", "", ""},
	{"list a folder", "list", ips, "items/s", "ts-sdk", "net/http", "", ""},
	{"burst of small calls", "burst", rps, "requests/s", "", "net/http", "", ""},
	{"burst p50 latency", "burst", p50, "ms", "", "net/http", "", ""},
	{"burst p99 latency", "burst", p99, "ms", "", "net/http", "", ""},
	{"1 GiB upload from a reader, peak RSS", "upload_reader_memory", rssMB, "MiB", "ts-sdk", "", "", ""},
}

// summarize prints the medians of a results file as a Markdown table.
func summarize(path string, out io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rs, err := readResults(f)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "| measure | Go SDK | TS SDK | Go / TS | reference | Go / reference | runs |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|")
	for _, row := range summaryRows {
		goV, n := median(rs, row.name, "go-sdk", row.metric)
		if n == 0 {
			continue
		}
		peer, pn := median(rs, row.name, row.peer, row.metric)
		refName := row.refName
		if refName == "" {
			refName = row.name
		}
		ref, rn := median(rs, refName, row.ref, row.metric)
		cells := []string{row.label + " (" + row.unit + ")", num(goV), "—", "—", "—", "—", fmt.Sprint(n)}
		if pn > 0 && row.peer != "" {
			cells[2], cells[3] = num(peer), ratio(goV, peer, row.unit)
		}
		if rn > 0 && row.ref != "" {
			label := row.refLabel
			if label == "" {
				label = row.ref
			}
			cells[4], cells[5] = label+" "+num(ref), ratio(goV, ref, row.unit)
		}
		fmt.Fprintln(out, "| "+strings.Join(cells, " | ")+" |")
	}
	if ctx := contextLine(rs); ctx != "" {
		fmt.Fprintln(out)
		fmt.Fprintln(out, ctx)
	}
	return nil
}

// readResults reads JSON lines; lines that are not results are skipped.
func readResults(r io.Reader) ([]result, error) {
	var rs []result
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var res result
		if err := json.Unmarshal([]byte(line), &res); err != nil || res.Name == "" {
			continue
		}
		rs = append(rs, res)
	}
	return rs, sc.Err()
}

// median is the median of metric over the results of one measure and
// implementation, with the number of runs.
func median(rs []result, name, impl string, metric func(result) float64) (float64, int) {
	var vs []float64
	for _, r := range rs {
		if r.Name == name && r.Impl == impl {
			vs = append(vs, metric(r))
		}
	}
	if len(vs) == 0 {
		return 0, 0
	}
	slices.Sort(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2], len(vs)
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2, len(vs)
}

// contextLine states the sizes the table was measured with.
func contextLine(rs []result) string {
	var parts []string
	for _, r := range rs {
		if r.Impl != "go-sdk" {
			continue
		}
		switch {
		case r.Name == "upload_file" && !slices.Contains(parts, "upload"):
			parts = append(parts, "upload", fmt.Sprintf("uploads and download of %d MiB, concurrency %d", r.SizeBytes>>20, r.Concurrency))
		case r.Name == "list" && !slices.Contains(parts, "list"):
			parts = append(parts, "list", fmt.Sprintf("listing %d items with pages of %d", r.Items, r.PageSize))
		case r.Name == "burst" && !slices.Contains(parts, "burst"):
			parts = append(parts, "burst", fmt.Sprintf("burst of %d requests from %d goroutines (file get, list page of %d, folder create)", r.Requests, r.Goroutines, burstFiles))
		}
	}
	var out []string
	for i := 1; i < len(parts); i += 2 {
		out = append(out, parts[i])
	}
	if len(out) == 0 {
		return ""
	}
	return "Medians of interleaved runs; " + strings.Join(out, "; ") + "."
}

func num(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// ratio is a/b as "1.23×"; for latencies and memory (lower is better) it
// is still a/b, so below 1× is better there.
func ratio(a, b float64, _ string) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", a/b)
}
