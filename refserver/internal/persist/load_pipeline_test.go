package persist

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
)

// TestDecodedBatchesReadAsEncodingJSON: a load's batches decode into
// arrays that go from one batch to the next; every record still reads as
// encoding/json reads it, the ones the fast path declines half-way among
// them, and a batch after a longer one keeps nothing of it.
func TestDecodedBatchesReadAsEncodingJSON(t *testing.T) {
	var records [][]byte
	for _, r := range sampleItems() {
		records = append(records, r.appendRecord(nil))
	}
	for _, b := range []string{
		`{"Type":"file","Type":"folder"}`,
		`{"Name":"x","Tags":["a"],"type":"file"}`,
		`{"Seq":5,"Versions":[{"ID":"v","Blob":{"id":"b"}}]}`,
		`{}`,
	} {
		records = append(records, []byte(b))
	}
	var got []RecItem
	k := KindOf[RecItem]("items", nil, nil, func(_ *state.Tx, _ string, r RecItem) error {
		got = append(got, r)
		return nil
	}, nil)
	require.NotNil(t, k.decodeBatch)
	for _, batch := range [][][]byte{records, records[len(records)/2:], records[:1]} {
		keys := make([]string, len(batch))
		for i := range keys {
			keys[i] = fmt.Sprint(i)
		}
		got = got[:0]
		require.NoError(t, k.decodeBatch(keys, batch)(nil))
		require.Len(t, got, len(batch))
		for i, b := range batch {
			var want RecItem
			require.NoError(t, json.Unmarshal(b, &want))
			assert.Equal(t, want, got[i], "%s", b)
		}
	}
}
