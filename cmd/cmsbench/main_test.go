package main

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunPrintsOneJSONLinePerRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-size", "1MiB", "-part", "64KiB", "-concurrency", "1,3"}, &out))
	dec := json.NewDecoder(&out)
	var got []result
	for dec.More() {
		var r result
		require.NoError(t, dec.Decode(&r))
		got = append(got, r)
	}
	require.Len(t, got, 2)
	assert.Equal(t, 1, got[0].Concurrency)
	assert.Equal(t, 3, got[1].Concurrency)
	assert.Equal(t, int64(1<<20), got[1].SizeBytes)
	assert.Positive(t, got[1].Seconds)
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"512": 512, "64KiB": 64 << 10, "8MiB": 8 << 20, "2GiB": 2 << 30} {
		got, err := parseBytes(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got)
	}
	for _, bad := range []string{"", "-1", "MiB", "1.5MiB", "0"} {
		_, err := parseBytes(bad)
		assert.Error(t, err, bad)
	}
}

// TestMain lets the test binary serve as the ceiling's receiving process,
// which measureCeiling starts from os.Executable, and as the cpu measure's
// reference server and discarding processes.
func TestMain(m *testing.M) {
	if dir := os.Getenv(ceilingDirEnv); dir != "" {
		if err := serveCeiling(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if dir := os.Getenv(refserverDirEnv); dir != "" {
		if err := serveRefserver(dir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if os.Getenv(discardEnv) == "1" {
		if err := serveDiscard(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// TestReadmeSuiteSmoke runs every measure of the readme suite on tiny
// sizes and summarizes the results: a smoke test, no timing is checked.
func TestReadmeSuiteSmoke(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the source file
	var out bytes.Buffer
	args := []string{"-suite", "readme", "-size", "1MiB", "-part", "256KiB", "-memory-size", "1MiB",
		"-items", "25", "-page", "10", "-requests", "30", "-goroutines", "4"}
	require.NoError(t, run(context.Background(), args, &out))
	rs, err := readResults(bytes.NewReader(out.Bytes()))
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, r := range rs {
		seen[r.Name+"/"+r.Impl] = true
		assert.Positive(t, r.Seconds, r.Name)
	}
	for _, want := range []string{"upload_file/ceiling", "upload_reader/ceiling", "upload_file/go-sdk", "upload_reader/go-sdk", "download/go-sdk", "download/net/http", "download_sha1/go-sdk", "download_sha1/net/http",
		"list/go-sdk", "list/net/http", "burst/go-sdk", "burst/net/http", "upload_reader_memory/go-sdk"} {
		assert.True(t, seen[want], want)
	}
	for _, r := range rs {
		if r.Name == "list" {
			assert.Equal(t, 25, r.Items)
		}
	}

	path := filepath.Join(t.TempDir(), "results.jsonl")
	peer := `{"name":"list","impl":"ts-sdk","items":25,"seconds":1,"items_per_s":5}` + "\n"
	require.NoError(t, os.WriteFile(path, append(out.Bytes(), peer...), 0o600))
	var table bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-summarize", path}, &table))
	assert.Contains(t, table.String(), "| list a folder (items/s) |")
	assert.Contains(t, table.String(), "| 5.00 |", "the peer's median")
	assert.Contains(t, table.String(), "| ceiling ")
	assert.Contains(t, table.String(), "| reader ceiling ", "a reader's upload against the reader's ceiling")
	assert.Contains(t, table.String(), "| file ceiling ", "and against the file's")
	assert.Contains(t, table.String(), "| download with SHA1 check (MB/s) |")
}

func TestCPUFigures(t *testing.T) {
	var r result
	upload := cpuTimes{user: 800 * time.Millisecond, sys: 200 * time.Millisecond}
	minimum := cpuTimes{user: 590 * time.Millisecond, sys: 10 * time.Millisecond}
	cpuFigures(&r, 512<<20, upload, minimum) // half a GiB
	assert.InDelta(t, 1.0, r.CPUSeconds, 1e-9)
	assert.InDelta(t, 0.8, r.UserSeconds, 1e-9)
	assert.InDelta(t, 0.2, r.SysSeconds, 1e-9)
	assert.InDelta(t, 2.0, r.CPUPerGiB, 1e-9)
	assert.InDelta(t, 1.2, r.MinCPUPerGiB, 1e-9)
	assert.InDelta(t, 2.0/1.2, r.CPURatio, 1e-9)

	var none result
	cpuFigures(&none, 1<<30, upload, cpuTimes{})
	assert.Zero(t, none.CPURatio, "no ratio without a minimum")
}

func TestCPUOfCountsTheWork(t *testing.T) {
	spent, err := cpuOf(func() error {
		h := sha1.New()
		buf := make([]byte, 1<<20)
		for range 64 {
			h.Write(buf)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Positive(t, spent.total())
	_, err = cpuOf(func() error { return os.ErrClosed })
	assert.ErrorIs(t, err, os.ErrClosed)
}

// TestCPUSuiteSmoke runs the cpu measure on a tiny file against a
// reference server in a process of its own, with a profile: a smoke test,
// no figure is checked but that each is there.
func TestCPUSuiteSmoke(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the source file
	var out bytes.Buffer
	prof := filepath.Join(t.TempDir(), "cpu.pprof")
	require.NoError(t, run(context.Background(), []string{"-suite", "cpu", "-size", "4MiB", "-part", "1MiB", "-concurrency", "2", "-cpuprofile", prof}, &out))
	rs, err := readResults(bytes.NewReader(out.Bytes()))
	require.NoError(t, err)
	require.Len(t, rs, 1)
	r := rs[0]
	assert.Equal(t, "upload_file_cpu", r.Name)
	assert.Equal(t, 2, r.Concurrency)
	assert.Positive(t, r.MinCPUPerGiB)
	assert.Positive(t, r.CPUPerGiB)
	assert.Positive(t, r.TransferCPUPerGiB)
	assert.InDelta(t, r.CPUPerGiB/(r.MinCPUPerGiB+r.TransferCPUPerGiB), r.CPURatioWithTransfer, 1e-9)
	st, err := os.Stat(prof)
	require.NoError(t, err)
	assert.Positive(t, st.Size())
}

// TestCPUReaderSuiteSmoke runs the cpu measure of a reader source on a tiny
// file: its results carry their own name and every figure.
func TestCPUReaderSuiteSmoke(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // the source file
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-suite", "cpu_reader", "-size", "4MiB", "-part", "1MiB", "-concurrency", "2"}, &out))
	rs, err := readResults(bytes.NewReader(out.Bytes()))
	require.NoError(t, err)
	require.Len(t, rs, 1)
	assert.Equal(t, "upload_reader_cpu", rs[0].Name)
	assert.Positive(t, rs[0].MinCPUPerGiB)
	assert.Positive(t, rs[0].CPUPerGiB)
}
