package cms

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// EventsService reads the event stream (GET /events, OPTIONS /events):
// pages of a user's or the enterprise's events, and Stream, which follows a
// user's events as they happen.
type EventsService service

// EventStreamType chooses a stream (query stream_type).
type EventStreamType string

// The streams of GET /events.
const (
	// EventStreamTypeAll is every event of the user's content (the default).
	EventStreamTypeAll EventStreamType = "all"
	// EventStreamTypeChanges keeps the events that may change a file tree.
	EventStreamTypeChanges EventStreamType = "changes"
	// EventStreamTypeSync is EventStreamTypeChanges below synced folders.
	EventStreamTypeSync EventStreamType = "sync"
	// EventStreamTypeAdminLogs is the enterprise's history (admins): with
	// CreatedAfter, CreatedBefore and EventTypes.
	EventStreamTypeAdminLogs EventStreamType = "admin_logs"
	// EventStreamTypeAdminLogsStreaming follows the enterprise's events as
	// they are recorded (admins).
	EventStreamTypeAdminLogsStreaming EventStreamType = "admin_logs_streaming"
)

// EventType is the kind of an event (event_type). The user streams and the
// enterprise stream name events differently (ITEM_UPLOAD there, UPLOAD
// here); the constants below are those this SDK's users meet most, and any
// other value of the service passes through as is.
type EventType string

// User stream event types.
const (
	EventTypeItemCreate             EventType = "ITEM_CREATE"
	EventTypeItemUpload             EventType = "ITEM_UPLOAD"
	EventTypeItemRename             EventType = "ITEM_RENAME"
	EventTypeItemMove               EventType = "ITEM_MOVE"
	EventTypeItemCopy               EventType = "ITEM_COPY"
	EventTypeItemTrash              EventType = "ITEM_TRASH"
	EventTypeItemUndeleteViaTrash   EventType = "ITEM_UNDELETE_VIA_TRASH"
	EventTypeItemDownload           EventType = "ITEM_DOWNLOAD"
	EventTypeItemPreview            EventType = "ITEM_PREVIEW"
	EventTypeItemMakeCurrentVersion EventType = "ITEM_MAKE_CURRENT_VERSION"
	EventTypeItemSharedUpdate       EventType = "ITEM_SHARED_UPDATE"
	EventTypeCollabAddCollaborator  EventType = "COLLAB_ADD_COLLABORATOR"
	EventTypeCollabRemove           EventType = "COLLAB_REMOVE_COLLABORATOR"
	EventTypeCollabRoleChange       EventType = "COLLAB_ROLE_CHANGE"
	EventTypeCommentCreate          EventType = "COMMENT_CREATE"
	EventTypeCommentDelete          EventType = "COMMENT_DELETE"
	EventTypeTaskAssignmentCreate   EventType = "TASK_ASSIGNMENT_CREATE"
	EventTypeMetadataInstanceCreate EventType = "METADATA_INSTANCE_CREATE"
	EventTypeMetadataInstanceUpdate EventType = "METADATA_INSTANCE_UPDATE"
	EventTypeMetadataInstanceDelete EventType = "METADATA_INSTANCE_DELETE"
	EventTypeLockCreate             EventType = "LOCK_CREATE"
	EventTypeLockDestroy            EventType = "LOCK_DESTROY"
)

// Enterprise stream event types.
const (
	EventTypeUpload              EventType = "UPLOAD"
	EventTypeDownload            EventType = "DOWNLOAD"
	EventTypeDelete              EventType = "DELETE"
	EventTypeUndelete            EventType = "UNDELETE"
	EventTypeMove                EventType = "MOVE"
	EventTypeCopy                EventType = "COPY"
	EventTypeRename              EventType = "RENAME"
	EventTypeEdit                EventType = "EDIT"
	EventTypeCollaborationInvite EventType = "COLLABORATION_INVITE"
	EventTypeCollaborationRemove EventType = "COLLABORATION_REMOVE"
	EventTypeCommentEdit         EventType = "COMMENT_EDIT"
	EventTypeFileVersionRestore  EventType = "FILE_VERSION_RESTORE"
	EventTypeGroupAddUser        EventType = "GROUP_ADD_USER"
	EventTypeGroupRemoveUser     EventType = "GROUP_REMOVE_USER"
	EventTypeLogin               EventType = "LOGIN"
)

// Event is one event (Event).
type Event struct {
	Type       string    `json:"type,omitzero"`
	EventID    string    `json:"event_id"`
	EventType  EventType `json:"event_type"`
	CreatedBy  *UserMini `json:"created_by,omitzero"`
	CreatedAt  time.Time `json:"created_at,omitzero"`
	RecordedAt time.Time `json:"recorded_at,omitzero"`
	SessionID  string    `json:"session_id,omitzero"`
	// Source is the record the event is about, as sent: a file, folder or
	// web link (see Item), a comment, a collaboration, a metadata instance,
	// or on the enterprise stream an item summary (item_type, item_id,
	// item_name, parent, owned_by).
	Source json.RawMessage `json:"source,omitzero"`
	// AdditionalDetails is what some events add, as sent.
	AdditionalDetails json.RawMessage `json:"additional_details,omitzero"`
}

// Item decodes Source when it is a file, folder or web link; ok is false
// for other sources.
func (e *Event) Item() (item *Item, ok bool) {
	typ, _ := topLevelString(e.Source, "type")
	if typ != "file" && typ != "folder" && typ != "web_link" {
		return nil, false
	}
	item = new(Item)
	if err := decodeJSON(e.Source, item); err != nil {
		return nil, false
	}
	return item, true
}

// StreamPosition is a position in an event stream. The service sends it
// as a JSON number on the user streams and a string on the enterprise
// stream; both decode here.
type StreamPosition string

// UnmarshalJSON takes a number or a string.
func (p *StreamPosition) UnmarshalJSON(b []byte) error {
	var f flexString
	if err := f.UnmarshalJSON(bytes.TrimSpace(b)); err != nil {
		return fmt.Errorf("cms: stream position %s: %w", b, err)
	}
	*p = StreamPosition(f)
	return nil
}

// EventPage is one page of a stream (Events).
type EventPage struct {
	ChunkSize          int            `json:"chunk_size"`
	NextStreamPosition StreamPosition `json:"next_stream_position"`
	Entries            []*Event       `json:"entries"`
}

// EventsOptions are the options of EventsService.Get.
type EventsOptions struct {
	// StreamType is the stream (EventStreamTypeAll when empty).
	StreamType EventStreamType
	// StreamPosition is where to start: "now" (no events, the newest
	// position), "0" or empty (the oldest event kept), or a
	// NextStreamPosition of an earlier page.
	StreamPosition StreamPosition
	// Limit is the page size (at most 500; the service's default 100).
	Limit int
	// EventTypes, CreatedAfter and CreatedBefore filter the enterprise
	// stream (the dates admin_logs only); the user streams ignore them.
	EventTypes                  []EventType
	CreatedAfter, CreatedBefore time.Time
}

func (o *EventsOptions) values() url.Values {
	v := url.Values{}
	if o.StreamType != "" {
		v.Set("stream_type", string(o.StreamType))
	}
	if o.StreamPosition != "" {
		v.Set("stream_position", string(o.StreamPosition))
	}
	if o.Limit > 0 {
		v.Set("limit", strconv.Itoa(o.Limit))
	}
	if len(o.EventTypes) > 0 {
		ts := make([]string, len(o.EventTypes))
		for i, t := range o.EventTypes {
			ts[i] = string(t)
		}
		v.Set("event_type", strings.Join(ts, ","))
	}
	if !o.CreatedAfter.IsZero() {
		v.Set("created_after", o.CreatedAfter.UTC().Format(time.RFC3339))
	}
	if !o.CreatedBefore.IsZero() {
		v.Set("created_before", o.CreatedBefore.UTC().Format(time.RFC3339))
	}
	return v
}

var eventStreamTypes = []EventStreamType{EventStreamTypeAll, EventStreamTypeChanges, EventStreamTypeSync,
	EventStreamTypeAdminLogs, EventStreamTypeAdminLogsStreaming}

// Get returns one page of a stream (GET /events).
func (s *EventsService) Get(ctx context.Context, opts *EventsOptions) (*EventPage, *Response, error) {
	if opts == nil {
		opts = &EventsOptions{}
	}
	if err := firstErr(checkEnum("stream type", opts.StreamType, eventStreamTypes...), checkLimit(opts.Limit)); err != nil {
		return nil, nil, err
	}
	if err := checkStreamPosition(opts.StreamPosition); err != nil {
		return nil, nil, err
	}
	r, err := s.client.newRequest(http.MethodGet, s.client.cfg.baseURL, nil, "events")
	if err != nil {
		return nil, nil, err
	}
	r.url.RawQuery = opts.values().Encode()
	page := new(EventPage)
	resp, err := s.client.do(ctx, r, page)
	if err != nil {
		return nil, resp, err
	}
	return page, resp, nil
}

// RealtimeServer is a long-poll endpoint of the user's stream
// (realtime_server). TTL is in minutes, RetryTimeout in seconds; the
// service sends them as strings or numbers, both decode.
type RealtimeServer struct {
	Type         string `json:"type"`
	URL          string `json:"url"`
	TTL          int    `json:"ttl"`
	MaxRetries   int    `json:"max_retries"`
	RetryTimeout int    `json:"retry_timeout"`
}

// UnmarshalJSON decodes the numbers from strings or numbers.
func (r *RealtimeServer) UnmarshalJSON(b []byte) error {
	var w struct {
		Type         string  `json:"type"`
		URL          string  `json:"url"`
		TTL          flexInt `json:"ttl"`
		MaxRetries   flexInt `json:"max_retries"`
		RetryTimeout flexInt `json:"retry_timeout"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*r = RealtimeServer{Type: w.Type, URL: w.URL, TTL: int(w.TTL), MaxRetries: int(w.MaxRetries), RetryTimeout: int(w.RetryTimeout)}
	return nil
}

// RealtimeServers is the answer of OPTIONS /events.
type RealtimeServers struct {
	ChunkSize int               `json:"chunk_size"`
	Entries   []*RealtimeServer `json:"entries"`
}

// LongPollServers returns the long-poll endpoints of the user's stream
// (OPTIONS /events).
func (s *EventsService) LongPollServers(ctx context.Context) (*RealtimeServers, *Response, error) {
	return callAPI[RealtimeServers](ctx, s.client, http.MethodOptions, nil, nil, "events")
}

// pollResult is how a long poll ended.
type pollResult int

const (
	pollNewChange pollResult = iota // new_change: read the stream again
	pollReconnect                   // reconnect (or another message): a new server entry
	pollTimedOut                    // no answer in retry_timeout: poll the same server again
)

// longPoll waits on a realtime server for a change after pos. An error is
// a failed poll (transport, status, answer); ctx's own end is ctx.Err().
// The token goes only to the API's own origin; a realtime server elsewhere
// carries its own authorization in its URL, as the service's do.
func (s *EventsService) longPoll(ctx context.Context, srv *RealtimeServer, pos StreamPosition) (pollResult, error) {
	u, err := url.Parse(srv.URL)
	if err != nil || !u.IsAbs() || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return 0, fmt.Errorf("cms: realtime server URL %q: not an absolute http(s) URL", sanitizeRealtimeURL(srv.URL))
	}
	q := u.Query()
	q.Set("stream_position", string(pos))
	u.RawQuery = q.Encode()
	timeout := time.Duration(cmp.Or(max(srv.RetryTimeout, 0), defaultRetryTimeout)) * time.Second
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var msg struct {
		Message string `json:"message"`
	}
	api := s.client.cfg.baseURL
	if u.Scheme == api.Scheme && u.Host == api.Host {
		r, rerr := s.client.newRequestURL(http.MethodGet, u, nil)
		if rerr != nil {
			return 0, rerr
		}
		_, err = s.client.do(pctx, r, &msg)
	} else {
		err = s.pollForeign(pctx, u, &msg)
	}
	switch {
	case ctx.Err() != nil:
		return 0, ctx.Err()
	case err != nil && pctx.Err() != nil:
		return pollTimedOut, nil // the poll outlived retry_timeout
	case err != nil:
		return 0, err
	case msg.Message == "new_change":
		return pollNewChange, nil
	}
	return pollReconnect, nil
}

// defaultRetryTimeout is the poll timeout, in seconds, when a server entry
// names none (the service's is 610).
const defaultRetryTimeout = 610

// pollForeign polls a realtime server on another host with the download
// client, which never carries the token.
func (s *EventsService) pollForeign(ctx context.Context, u *url.URL, msg any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return err
	}
	resp, err := s.client.download.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its message repeats the URL, whose query authorizes the poll
		}
		return fmt.Errorf("cms: realtime server %s: %w", u.Host, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("cms: realtime server %s answered %s", u.Host, resp.Status)
	}
	if err := json.Unmarshal(b, msg); err != nil {
		return fmt.Errorf("cms: realtime server answer: %w", err)
	}
	return nil
}

// sanitizeRealtimeURL drops a realtime URL's query (its channel authorizes
// the poll) from messages.
func sanitizeRealtimeURL(raw string) string {
	if i := strings.IndexAny(raw, "?#"); i >= 0 {
		return raw[:i] + "?…"
	}
	return raw
}
