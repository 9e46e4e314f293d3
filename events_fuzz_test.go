package cms

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzEventRecords decodes untrusted GET /events and OPTIONS /events
// answers and every typed view of an event's source: no panic; a stream
// position decodes to the digits or text sent, never to JSON syntax; a
// realtime server's numbers come from numbers or numeric strings only.
func FuzzEventRecords(f *testing.F) {
	for _, s := range []string{
		`{"chunk_size":1,"next_stream_position":1152922976252290886,"entries":[{"type":"event","event_id":"a","event_type":"ITEM_UPLOAD","source":{"type":"file","id":"7","name":"a"}}]}`,
		`{"chunk_size":0,"next_stream_position":"1152922976252290886","entries":[]}`,
		`{"next_stream_position":null,"entries":[{"event_id":"b","source":{"item_type":"file","item_id":"7","item_name":"a","parent":null}}]}`,
		`{"entries":[{"source":{"type":"comment","id":"1","message":"m"}},{"source":{"type":"collaboration","id":"2"}},{"source":{"type":"task_assignment","id":"3"}},{"source":{"type":"user","id":"4"}},{"source":[]},{"source":null}]}`,
		`{"chunk_size":1,"entries":[{"type":"realtime_server","url":"http://rt/x?c=1","ttl":"10","max_retries":"10","retry_timeout":610}]}`,
		`{"entries":[{"ttl":10,"max_retries":null,"retry_timeout":"610"}]}`,
		`{"next_stream_position":1e3}`, `{"next_stream_position":{}}`, `[`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var page EventPage
		if err := decodeJSON([]byte(s), &page); err == nil {
			if p := string(page.NextStreamPosition); strings.HasPrefix(p, `"`) || strings.HasPrefix(p, "{") || strings.HasPrefix(p, "[") {
				t.Fatalf("stream position %q kept JSON syntax", p)
			}
			for _, e := range page.Entries {
				if e == nil {
					continue
				}
				_ = e.SourceType()
				_, _ = e.Item()
				_, _ = e.EnterpriseSource()
				_, _ = e.Comment()
				_, _ = e.Collaboration()
				_, _ = e.TaskAssignment()
				_, _ = e.User()
				var anyv any
				_ = e.DecodeSource(&anyv)
			}
		}
		var servers RealtimeServers
		if err := decodeJSON([]byte(s), &servers); err == nil {
			for _, srv := range servers.Entries {
				if srv == nil {
					continue
				}
				// Every number came from JSON: re-encoding and decoding is
				// stable.
				b, err := json.Marshal(srv)
				if err != nil {
					t.Fatal(err)
				}
				var again RealtimeServer
				if err := json.Unmarshal(b, &again); err != nil || again != *srv {
					t.Fatalf("realtime server %+v does not round-trip: %+v, %v", *srv, again, err)
				}
			}
		}
	})
}
