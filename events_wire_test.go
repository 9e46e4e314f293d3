package cms

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEventsGetWire(t *testing.T) {
	w := newWireLog(t)
	w.answer("GET /events", http.StatusOK, `{"chunk_size":1,"next_stream_position":"1152922976252290886","entries":[
		{"type":"event","event_id":"e1","event_type":"UPLOAD","created_by":{"type":"user","id":"11","login":"a@b.c"},
		 "created_at":"2025-01-02T03:04:05Z","source":{"item_type":"file","item_id":"7","item_name":"a.txt"}}]}`)
	after := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	page, _, err := w.e.client.Events.Get(context.Background(), &EventsOptions{StreamType: EventStreamTypeAdminLogs,
		StreamPosition: "0", Limit: 50, EventTypes: []EventType{EventTypeUpload, EventTypeDelete}, CreatedAfter: after, CreatedBefore: after.Add(time.Hour)})
	require.NoError(t, err)
	assert.Equal(t, "created_after=2025-01-01T00%3A00%3A00Z&created_before=2025-01-01T01%3A00%3A00Z&event_type=UPLOAD%2CDELETE&limit=50&stream_position=0&stream_type=admin_logs", w.last(t).Query)
	assert.Equal(t, StreamPosition("1152922976252290886"), page.NextStreamPosition, "a string position")
	require.Len(t, page.Entries, 1)
	e := page.Entries[0]
	assert.Equal(t, EventTypeUpload, e.EventType)
	assert.Equal(t, "a@b.c", e.CreatedBy.Login)
	_, isItem := e.Item()
	assert.False(t, isItem, "an enterprise source is no item record")

	w.answer("GET /events/n", http.StatusOK, `{"chunk_size":1,"next_stream_position":1152922976252290887,"entries":[
		{"type":"event","event_id":"e2","event_type":"ITEM_UPLOAD","source":{"type":"file","id":"7","name":"a.txt","etag":"1"}}]}`)
	var p EventPage
	require.NoError(t, json.Unmarshal([]byte(`{"next_stream_position":1152922976252290887,"entries":[{"event_id":"e2","event_type":"ITEM_UPLOAD","source":{"type":"file","id":"7","name":"a.txt"}}]}`), &p))
	assert.Equal(t, StreamPosition("1152922976252290887"), p.NextStreamPosition, "a number position keeps every digit")
	it, ok := p.Entries[0].Item()
	require.True(t, ok)
	assert.Equal(t, "a.txt", it.Name)

	for _, bad := range []*EventsOptions{
		{StreamType: "everything"}, {StreamPosition: "later"}, {Limit: -1},
	} {
		_, _, err := w.e.client.Events.Get(context.Background(), bad)
		var argErr *ArgError
		require.ErrorAs(t, err, &argErr, "%+v", bad)
	}
}

// TestEventStreamWire: Stream reads from its position, drops an event the
// service sends twice, long-polls a realtime server on another host
// without the token, reconnects when told, and resumes from the last
// position.
func TestEventStreamWire(t *testing.T) {
	w := newWireLog(t)
	pages := map[string]string{
		"now": `{"chunk_size":0,"next_stream_position":10,"entries":[]}`,
		"10":  `{"chunk_size":2,"next_stream_position":"12","entries":[{"event_id":"A","event_type":"ITEM_CREATE"},{"event_id":"B","event_type":"ITEM_UPLOAD"}]}`,
		"12":  `{"chunk_size":0,"next_stream_position":12,"entries":[]}`,
		"13":  `{"chunk_size":2,"next_stream_position":14,"entries":[{"event_id":"B","event_type":"ITEM_UPLOAD"},{"event_id":"C","event_type":"ITEM_TRASH"}]}`,
	}
	polled := 0
	w.serve("GET /events", func(rw http.ResponseWriter, r *http.Request) {
		pos := r.URL.Query().Get("stream_position")
		if pos == "12" && polled >= 2 {
			pos = "13" // the change the poll announced
		}
		writeJSON(rw, http.StatusOK, []byte(pages[pos]))
	})
	realtime := w.e.contentSrv.URL + "/subscribe?channel=abc&stream_type=all"
	w.serve("OPTIONS /events", func(rw http.ResponseWriter, r *http.Request) {
		writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":1,"entries":[{"type":"realtime_server","url":"`+realtime+`","ttl":"10","max_retries":"10","retry_timeout":610}]}`))
	})
	var pollAuth, pollAt []string
	w.e.content.HandleFunc("GET /subscribe", func(rw http.ResponseWriter, r *http.Request) {
		polled++
		pollAuth = append(pollAuth, r.Header.Get("Authorization"))
		pollAt = append(pollAt, r.URL.Query().Get("stream_position"))
		assert.Equal(t, "abc", r.URL.Query().Get("channel"))
		if polled == 1 {
			writeJSON(rw, http.StatusOK, []byte(`{"message":"reconnect","version":1}`))
			return
		}
		writeJSON(rw, http.StatusOK, []byte(`{"message":"new_change","version":1}`))
	})

	var pos StreamPosition
	var got []string
	for e, err := range w.e.client.Events.Stream(context.Background(), &EventStreamOptions{Position: &pos}) {
		require.NoError(t, err)
		got = append(got, e.EventID)
		if len(got) == 3 {
			break
		}
	}
	assert.Equal(t, []string{"A", "B", "C"}, got, "B came twice and is yielded once")
	assert.Equal(t, StreamPosition("14"), pos)
	assert.Equal(t, []string{"", ""}, pollAuth, "the token never goes to the realtime host")
	assert.Equal(t, []string{"10", "10"}, pollAt, "each poll from the last position")
	options := 0
	for _, c := range w.all() {
		if c.Method == http.MethodOptions {
			options++
		}
	}
	assert.Equal(t, 2, options, "a reconnect asks for a new server")
}

// TestEventStreamStops: the stream ends with ctx, and a failed page is its
// error.
func TestEventStreamStops(t *testing.T) {
	w := newWireLog(t)
	w.answer("GET /events", http.StatusForbidden, `{"type":"error","status":403,"code":"access_denied_insufficient_permissions","message":"no"}`)
	var errs []error
	for _, err := range w.e.client.Events.Stream(context.Background(), &EventStreamOptions{StreamPosition: "0"}) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	require.ErrorIs(t, errs[0], ErrAccessDeniedInsufficientPermissions)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	for range w.e.client.Events.Stream(ctx, nil) {
		n++
	}
	assert.Zero(t, n)
	for _, err := range w.e.client.Events.Stream(context.Background(), &EventStreamOptions{StreamType: EventStreamTypeAdminLogs}) {
		var argErr *ArgError
		require.ErrorAs(t, err, &argErr, "the enterprise stream is not long-polled")
	}
}

func TestIDRingForgetsTheOldest(t *testing.T) {
	r := newIDRing(2, 0)
	assert.True(t, r.add("a"))
	assert.True(t, r.add("b"))
	assert.False(t, r.add("a"))
	assert.True(t, r.add("c")) // forgets a
	assert.True(t, r.add("a"))
	assert.False(t, r.add("c"))
}
