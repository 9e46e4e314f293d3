package cms

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A marker page's order is a list of sort keys, or one sort key as an
// object (GET /recent_items): both decode, into the same list.
func TestMarkerPageOrderListOrObject(t *testing.T) {
	for _, order := range []string{`[{"by":"interacted_at","direction":"DESC"}]`, `{"by":"interacted_at","direction":"DESC"}`} {
		var p MarkerPage[*RecentItem]
		require.NoError(t, json.Unmarshal([]byte(`{"entries":[],"limit":100,"next_marker":null,"order":`+order+`}`), &p), order)
		assert.Equal(t, []Order{{By: "interacted_at", Direction: "DESC"}}, p.Order, order)
	}
	var p MarkerPage[*RecentItem]
	assert.Error(t, json.Unmarshal([]byte(`{"entries":[],"order":"up"}`), &p))
}
