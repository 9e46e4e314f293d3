package main

import (
	"errors"
	"slices"
	"testing"
)

func TestParseArgs(t *testing.T) {
	c, err := parseArgs([]string{"-n", "5000", "-at", "3000, 1000,3000,5000"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1000, 3000, 5000}; !slices.Equal(c.at, want) {
		t.Errorf("at = %v, want %v (sorted, without repeats)", c.at, want)
	}
	if c, _ := parseArgs([]string{"-n", "2000"}); !slices.Equal(c.at, []int{2000}) {
		t.Errorf("at without -at = %v, want [2000]", c.at)
	}
	for _, bad := range [][]string{{"-n", "10"}, {"-n", "2000", "-at", "3000"}, {"-n", "2000", "-at", "x"}, {"-restart", "never"}, {"-concurrency", "0"}} {
		if _, err := parseArgs(bad); err == nil {
			t.Errorf("parseArgs(%q) took it", bad)
		}
	}
}

func TestTimedPercentiles(t *testing.T) {
	calls := 0
	p50, p99, err := timed(100, func(int) error { calls++; return nil })
	if err != nil || calls != 100 || p50 > p99 {
		t.Errorf("timed = %v, %v, %v after %d calls", p50, p99, err, calls)
	}
	boom := errors.New("boom")
	if _, _, err := timed(10, func(i int) error {
		if i == 3 {
			return boom
		}
		return nil
	}); !errors.Is(err, boom) {
		t.Errorf("timed kept going past an error: %v", err)
	}
}

func TestFileNameWords(t *testing.T) {
	if got := fileName(1042); got != "doc-0001042 w042 w297.txt" {
		t.Errorf("fileName(1042) = %q", got)
	}
}
