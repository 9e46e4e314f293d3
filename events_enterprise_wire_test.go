package cms

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// enterpriseEvent is an enterprise stream event record with an item
// summary as its source.
func enterpriseEvent(id, typ string) string {
	return `{"type":"event","event_id":"` + id + `","event_type":"` + typ + `","created_by":{"type":"user","id":"11"},
	"created_at":"2025-01-02T03:04:05-08:00","source":{"item_type":"file","item_id":"7","item_name":"a.txt",
	"parent":{"type":"folder","id":"3","name":"Docs"},"owned_by":{"type":"user","id":"11"}},"additional_details":{"size":5}}`
}

// TestEnterpriseStreamWire: admin_logs with every filter, page after page
// by next_stream_position (a string or a number), past a short page, to the
// first empty page; Position follows.
func TestEnterpriseStreamWire(t *testing.T) {
	w := newWireLog(t)
	pages := map[string]string{
		"":    `{"chunk_size":2,"next_stream_position":"100","entries":[` + enterpriseEvent("e1", "UPLOAD") + `,` + enterpriseEvent("e2", "DELETE") + `]}`,
		"100": `{"chunk_size":1,"next_stream_position":101,"entries":[` + enterpriseEvent("e3", "UPLOAD") + `]}`,
		"101": `{"chunk_size":0,"next_stream_position":"101","entries":[]}`,
	}
	w.serve("GET /events", func(rw http.ResponseWriter, r *http.Request) {
		writeJSON(rw, http.StatusOK, []byte(pages[r.URL.Query().Get("stream_position")]))
	})
	after := time.Date(2025, 1, 1, 0, 0, 0, 0, time.FixedZone("PST", -8*3600))
	var pos StreamPosition
	opts := &EnterpriseEventsOptions{Limit: 2, EventTypes: []EventType{EventTypeUpload, EventTypeDelete},
		CreatedAfter: after, CreatedBefore: after.Add(48 * time.Hour), Position: &pos}
	var got []string
	for e, err := range w.e.client.Events.EnterpriseStream(context.Background(), opts) {
		require.NoError(t, err)
		got = append(got, e.EventID+":"+string(e.EventType))
		src, ok := e.EnterpriseSource()
		require.True(t, ok)
		assert.Equal(t, EnterpriseEventSource{ItemType: ItemTypeFile, ItemID: "7", ItemName: "a.txt",
			Parent: &FolderMini{Type: "folder", ID: "3", Name: "Docs"}, OwnedBy: &UserMini{Type: "user", ID: "11"}}, *src)
		assert.JSONEq(t, `{"size":5}`, string(e.AdditionalDetails))
	}
	assert.Equal(t, []string{"e1:UPLOAD", "e2:DELETE", "e3:UPLOAD"}, got, "a short page does not end the stream")
	assert.Equal(t, StreamPosition("101"), pos)
	calls := w.all()
	require.Len(t, calls, 3)
	for i, wantPos := range []string{"", "100", "101"} {
		q, err := url.ParseQuery(calls[i].Query)
		require.NoError(t, err)
		want := url.Values{"stream_type": {"admin_logs"}, "limit": {"2"}, "event_type": {"UPLOAD,DELETE"},
			"created_after": {"2025-01-01T08:00:00Z"}, "created_before": {"2025-01-03T08:00:00Z"}}
		if wantPos != "" {
			want.Set("stream_position", wantPos)
		}
		assert.Equal(t, want, q, "request %d", i)
	}
	assert.Equal(t, []EventType{EventTypeUpload, EventTypeDelete}, opts.EventTypes, "opts unchanged")
}

// TestEnterpriseStreamingPolls: admin_logs_streaming from "now" with a
// PollInterval waits (the client's sleep) after a page with no events and
// asks again from the last position; a duplicate is yielded once; a page
// that does not move the position counts as caught up, so a stuck stream
// cannot spin.
func TestEnterpriseStreamingPolls(t *testing.T) {
	var mu sync.Mutex
	var slept []time.Duration
	w := newWireLog(t, WithSleep(func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		slept = append(slept, d)
		mu.Unlock()
		return ctx.Err()
	}))
	var asked []string
	w.serve("GET /events", func(rw http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		assert.Equal(t, "admin_logs_streaming", q.Get("stream_type"))
		assert.Empty(t, q.Get("created_after"))
		p := q.Get("stream_position")
		asked = append(asked, p)
		switch {
		case p == "now":
			writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":0,"next_stream_position":"50","entries":[]}`))
		case p == "50" && len(asked) == 2:
			writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":0,"next_stream_position":"50","entries":[]}`))
		case p == "50":
			writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":2,"next_stream_position":"52","entries":[`+enterpriseEvent("a", "LOGIN")+`,`+enterpriseEvent("b", "LOGIN")+`]}`))
		case p == "52":
			// b again, and the position stays: caught up.
			writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":2,"next_stream_position":"52","entries":[`+enterpriseEvent("b", "LOGIN")+`,`+enterpriseEvent("c", "LOGIN")+`]}`))
		default:
			writeJSON(rw, http.StatusOK, []byte(`{"chunk_size":1,"next_stream_position":"53","entries":[`+enterpriseEvent("d", "LOGIN")+`]}`))
		}
	})
	var got []string
	for e, err := range w.e.client.Events.EnterpriseStream(context.Background(), &EnterpriseEventsOptions{
		StreamType: EventStreamTypeAdminLogsStreaming, StreamPosition: "now", PollInterval: 30 * time.Second}) {
		require.NoError(t, err)
		got = append(got, e.EventID)
		if len(got) == 3 {
			break
		}
	}
	assert.Equal(t, []string{"a", "b", "c"}, got, "b twice, yielded once")
	assert.Equal(t, []string{"now", "50", "50", "52"}, asked)
	mu.Lock()
	assert.Equal(t, []time.Duration{30 * time.Second, 30 * time.Second}, slept, "after each empty page")
	mu.Unlock()

	// Without PollInterval the same stream ends at its first empty page.
	asked = nil
	n := 0
	for _, err := range w.e.client.Events.EnterpriseStream(context.Background(), &EnterpriseEventsOptions{
		StreamType: EventStreamTypeAdminLogsStreaming, StreamPosition: "now"}) {
		require.NoError(t, err)
		n++
	}
	assert.Zero(t, n)
	assert.Equal(t, []string{"now"}, asked)
}

// TestEnterpriseStreamErrors: options the SDK refuses before sending, and a
// page the service refuses.
func TestEnterpriseStreamErrors(t *testing.T) {
	w := newWireLog(t)
	now := time.Now()
	for _, o := range []*EnterpriseEventsOptions{
		{StreamType: EventStreamTypeAll},
		{StreamType: "admin"},
		{Limit: -1},
		{PollInterval: -time.Second},
		{Remember: -1},
		{StreamPosition: "yesterday"},
		{EventTypes: []EventType{""}},
		{StreamType: EventStreamTypeAdminLogsStreaming, CreatedAfter: now},
		{StreamType: EventStreamTypeAdminLogsStreaming, CreatedBefore: now},
		{CreatedAfter: now, CreatedBefore: now.Add(-time.Hour)},
	} {
		var errs []error
		for _, err := range w.e.client.Events.EnterpriseStream(context.Background(), o) {
			errs = append(errs, err)
		}
		require.Len(t, errs, 1, "%+v", o)
		var ae *ArgError
		require.ErrorAs(t, errs[0], &ae, "%+v", o)
	}
	assert.Zero(t, w.count(), "nothing sent")

	w.answer("GET /events", http.StatusForbidden, `{"type":"error","status":403,"code":"access_denied_insufficient_permissions","message":"admins only"}`)
	var errs []error
	for _, err := range w.e.client.Events.EnterpriseStream(context.Background(), nil) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 1)
	require.ErrorIs(t, errs[0], ErrAccessDeniedInsufficientPermissions)
	assert.Equal(t, "stream_type=admin_logs", w.last(t).Query, "admin_logs by default, nothing else sent")
}

// TestEventSourceViews: the typed views of Source pick the record by its
// type and refuse the others.
func TestEventSourceViews(t *testing.T) {
	ev := func(src string) *Event { return &Event{Source: []byte(src)} }
	c, ok := ev(`{"type":"comment","id":"5","message":"hi","item":{"type":"file","id":"7"}}`).Comment()
	require.True(t, ok)
	assert.Equal(t, "hi", c.Message)
	collab, ok := ev(`{"type":"collaboration","id":"9","role":"editor"}`).Collaboration()
	require.True(t, ok)
	assert.Equal(t, "9", collab.ID)
	ta, ok := ev(`{"type":"task_assignment","id":"12"}`).TaskAssignment()
	require.True(t, ok)
	assert.Equal(t, "12", ta.ID)
	u, ok := ev(`{"type":"user","id":"11","login":"a@b.c"}`).User()
	require.True(t, ok)
	assert.Equal(t, "a@b.c", u.Login)
	it, ok := ev(`{"type":"folder","id":"3","name":"Docs"}`).Item()
	require.True(t, ok)
	assert.Equal(t, "Docs", it.Name)

	file := ev(`{"type":"file","id":"7","name":"a.txt"}`)
	assert.Equal(t, "file", file.SourceType())
	for name, f := range map[string]func(*Event) bool{
		"Comment":          func(e *Event) bool { _, ok := e.Comment(); return ok },
		"Collaboration":    func(e *Event) bool { _, ok := e.Collaboration(); return ok },
		"TaskAssignment":   func(e *Event) bool { _, ok := e.TaskAssignment(); return ok },
		"User":             func(e *Event) bool { _, ok := e.User(); return ok },
		"EnterpriseSource": func(e *Event) bool { _, ok := e.EnterpriseSource(); return ok },
	} {
		assert.False(t, f(file), "%s of a file", name)
		assert.False(t, f(ev(``)), "%s of no source", name)
		assert.False(t, f(ev(`[1,2]`)), "%s of a list", name)
	}
	_, ok = ev(`{"type":"comment","id":5}`).Comment()
	assert.False(t, ok, "a record that does not decode")

	shield := ev(`{"barrier_id":123456,"barrier_status":"ENABLED"}`)
	assert.Empty(t, shield.SourceType())
	var generic struct {
		BarrierID     int    `json:"barrier_id"`
		BarrierStatus string `json:"barrier_status"`
	}
	require.NoError(t, shield.DecodeSource(&generic))
	assert.Equal(t, 123456, generic.BarrierID)
	assert.Error(t, ev(`null`).DecodeSource(&generic))
	assert.Error(t, ev(``).DecodeSource(&generic))
}
