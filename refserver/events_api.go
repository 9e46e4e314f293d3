package refserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// GET /events, OPTIONS /events and the long poll (spec get_events,
// options_events; the events guide):
//
//   - stream_type all (default), changes (the events that may change a
//     file tree), sync (changes below folders marked synced): the events on
//     items the caller may see now, or saw when the item is gone (its owner
//     then);
//   - stream_type admin_logs and admin_logs_streaming: every event with an
//     enterprise type, for the enterprise admin only (403
//     access_denied_insufficient_permissions otherwise); event_type filters
//     by type, created_after and created_before by time (admin_logs only);
//   - stream_position: "now" answers no events and the newest position; ""
//     or "0" starts at the oldest event kept; a number continues after that
//     position (a position older than the history starts at its oldest
//     event). Anything else is 400 bad_request, as is an unknown
//     stream_type or a malformed date;
//   - limit defaults to 100 and is lowered to 500; a page stops at limit
//     events, or at the end of the history: next_stream_position is the
//     position after the last event looked at, so a page that filtered
//     everything out still moves on. It is a JSON number on the user
//     streams and a string on the enterprise streams (the spec allows
//     either; the service sends both forms);
//   - OPTIONS /events hands out one realtime_server on this API host
//     (/2.0/events/realtime?channel=…): ttl 10 minutes, max_retries 10,
//     retry_timeout LongPollTimeout + 10 s. A GET of that URL with
//     &stream_position=N answers {"message":"new_change"} as soon as an event
//     after N is one the channel's user may see, and {"message":"reconnect"}
//     after LongPollTimeout, or at once for a channel that expired or never
//     was. The channel authorizes the poll: a bearer token is not needed
//     (and is ignored when sent, as the official SDKs do).

const (
	defaultEventLimit = 100
	maxEventLimit     = 500

	defaultLongPollTimeout = 60 * time.Second
	pollChannelTTL         = 10 * time.Minute
	pollMaxRetries         = "10"
	maxPollChannels        = 10_000

	realtimePath = "/events/realtime"
)

// parseStreamPosition reads a stream position: now, "" or 0, or a number.
func parseStreamPosition(v string) (after int64, now bool, aerr *wire.Error) {
	switch v {
	case "now":
		return 0, true, nil
	case "", "0":
		return 0, false, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, false, wire.BadRequest("Invalid value for \"stream_position\": use now, 0 or a position from next_stream_position")
	}
	return n, false, nil
}

func parseEventQuery(r *http.Request) (*state.EventQuery, *wire.Error) {
	v := r.URL.Query()
	q := &state.EventQuery{StreamType: v.Get("stream_type")}
	if q.StreamType == "" {
		q.StreamType = "all"
	}
	if !slices.Contains([]string{"all", "changes", "sync", "admin_logs", "admin_logs_streaming"}, q.StreamType) {
		return nil, wire.BadRequest("Invalid value for \"stream_type\": use all, changes, sync, admin_logs or admin_logs_streaming")
	}
	var aerr *wire.Error
	if q.After, q.Now, aerr = parseStreamPosition(v.Get("stream_position")); aerr != nil {
		return nil, aerr
	}
	if q.Limit, aerr = wire.PageLimit(r.URL.Query(), defaultEventLimit, maxEventLimit); aerr != nil {
		return nil, aerr
	}
	if !q.Admin() {
		return q, nil // the enterprise filters are ignored, as the spec says
	}
	if types := listParam(v.Get("event_type")); types != nil {
		q.Types = map[string]bool{}
		for _, t := range types {
			q.Types[t] = true
		}
	}
	if q.StreamType == "admin_logs" {
		for name, dst := range map[string]*time.Time{"created_after": &q.CreatedAfter, "created_before": &q.CreatedBefore} {
			if raw := v.Get(name); raw != "" {
				t, err := time.Parse(time.RFC3339, raw)
				if err != nil {
					return nil, wire.BadRequest("Invalid value for %q: not an RFC 3339 date-time", name)
				}
				*dst = t
			}
		}
	}
	return q, nil
}

// getEvents serves GET /events.
func (s *Server) getEvents(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := parseEventQuery(r)
	if aerr != nil {
		return aerr
	}
	if q.Admin() && !p.IsAdmin() {
		return wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The enterprise event stream is for the enterprise admin")
	}
	var (
		page map[string]any
		err  error
	)
	entries := replyBuffer() // the page's entries, copied into its reply
	s.st.View(func(tx *state.ReadTx) { page, err = tx.EventPage(p, q, *entries) })
	if err != nil {
		releaseReply(entries, *entries)
		return fmt.Errorf("encoding an events page: %w", err)
	}
	writePage(w, http.StatusOK, page)
	releaseReply(entries, page["entries"].(json.RawMessage))
	return nil
}

// eventsOptions serves OPTIONS /events: a long-poll channel for the
// caller.
func (s *Server) eventsOptions(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := state.RandomHex(16)
	s.st.Update(func(tx *state.Tx) { tx.OpenPollChannel(p, id, pollChannelTTL, maxPollChannels) })
	timeout := int((s.opts.LongPollTimeout + 10*time.Second + time.Second - 1) / time.Second)
	writeJSON(w, http.StatusOK, map[string]any{"chunk_size": 1, "entries": []any{map[string]any{
		"type":          "realtime_server",
		"url":           s.st.BaseURL + realtimePath + "?channel=" + id + "&stream_type=all",
		"ttl":           strconv.Itoa(int(pollChannelTTL / time.Minute)),
		"max_retries":   pollMaxRetries,
		"retry_timeout": timeout,
	}}})
	return nil
}

// longPoll serves GET /events/realtime: new_change once an event after
// stream_position is one the channel's user sees, reconnect after
// LongPollTimeout or for an unknown or expired channel.
func (s *Server) longPoll(w http.ResponseWriter, r *http.Request, _ *state.Principal) error {
	v := r.URL.Query()
	after, now, aerr := parseStreamPosition(v.Get("stream_position"))
	if aerr != nil {
		return aerr
	}
	streamType := v.Get("stream_type")
	if streamType != "changes" && streamType != "sync" {
		streamType = "all"
	}
	reply := func(msg string) error {
		writeJSON(w, http.StatusOK, map[string]any{"message": msg, "version": 1})
		return nil
	}
	channel := v.Get("channel")
	timer := time.NewTimer(s.opts.LongPollTimeout)
	defer timer.Stop()
	for fromHead := now; ; fromHead = false {
		var (
			live, changed bool
			wake          <-chan struct{}
		)
		s.st.View(func(tx *state.ReadTx) {
			live, changed, after, wake = tx.PollEvents(channel, streamType, after, fromHead)
		})
		switch {
		case !live:
			return reply("reconnect")
		case changed:
			return reply("new_change")
		}
		select {
		case <-wake:
		case <-timer.C:
			return reply("reconnect")
		case <-r.Context().Done():
			return nil
		case <-s.life.closed:
			return reply("reconnect")
		}
	}
}
