package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

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
