package state

import (
	"bytes"
	"testing"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// referenceEvent is the Event record as a map, which wire.Marshal wrote
// before appendEvent wrote it directly.
func (s *ReadTx) referenceEvent(e *Event, p *Principal) map[string]any {
	by := UnknownUser
	if e.By != nil {
		by = e.By.Mini()
	}
	typ, src := e.Admin, e.AdminSrc
	if p != nil {
		typ, src = e.Typ, s.trimmedSource(p, e)
	}
	return map[string]any{
		"type": "event", "event_id": e.ID, "event_type": typ, "created_by": by,
		"created_at": FmtTime(e.At), "recorded_at": FmtTime(e.At), "source": src,
		"session_id": nil, "additional_details": nil,
	}
}

// TestEventPageMatchesMaps: an events page, its entries written directly,
// is byte for byte the page of the events' maps, on the user and the
// enterprise streams: item sources, a record's source, no source, an
// event by nobody, names that JSON escapes, a page cut by its limit.
func TestEventPageMatchesMaps(t *testing.T) {
	checkEventPages(t, eventNames{user: `Zoë <b> & "q" ` + "\u2028", folder: "dir <&>", file: "a\u2029.txt", note: "<x>"})
}

// FuzzEventPageMatchesMaps is TestEventPageMatchesMaps with any names (a
// user's, a folder's, a file's, a record's note): whatever bytes a client
// sent, invalid UTF-8 included, the page written directly is the maps'.
func FuzzEventPageMatchesMaps(f *testing.F) {
	f.Add(`Zoë <b> & "q" `+"\u2028", "dir <&>", "a\u2029.txt", "<x>")
	f.Add("\xff\xfe", "\x00\x1f\x7f", "\xe2\x82", "\\\"")
	f.Add("", "", "", "")
	f.Fuzz(func(t *testing.T, user, folder, file, note string) {
		checkEventPages(t, eventNames{user: user, folder: folder, file: file, note: note})
	})
}

// eventNames are the names checkEventPages gives its user, items and
// record.
type eventNames struct{ user, folder, file, note string }

// checkEventPages records events of every kind of source with names n and
// compares the pages of both streams with the events' maps.
func checkEventPages(t *testing.T, n eventNames) {
	w := newMemWorld(t)
	w.st.Update(func(tx *Tx) {
		tx.Events.Max = 100 // the memory world keeps no history
		u := tx.User
		u.Name = n.user
		d := w.item(tx, "folder", n.folder, RootID)
		f := w.item(tx, "file", n.file, d.ID)
		tx.ItemEvent("ITEM_CREATE", d, u)
		tx.ItemEvent("ITEM_UPLOAD", f, u)
		tx.ItemEvent("ITEM_PREVIEW", f, nil) // nobody signed in
		tx.RecordEvent("COLLABORATION_INVITE", u, f, map[string]any{"type": "collaboration", "id": "7", "note": n.note})
		tx.RecordEvent("GROUP_ADD_USER", u, nil, nil)
	})
	for _, c := range []struct {
		name string
		p    *Principal
		q    EventQuery
	}{
		{"user all", w.user, EventQuery{StreamType: "all", Limit: 100}},
		{"user changes, limit 2", w.user, EventQuery{StreamType: "changes", Limit: 2}},
		{"user after 2", w.user, EventQuery{StreamType: "all", After: 2, Limit: 100}},
		{"enterprise", w.admin, EventQuery{StreamType: "admin_logs", Limit: 100}},
		{"now", w.user, EventQuery{StreamType: "all", Now: true, Limit: 100}},
	} {
		w.st.View(func(tx *ReadTx) {
			page, err := tx.EventPage(c.p, &c.q, nil)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			want := map[string]any{"chunk_size": page["chunk_size"], "next_stream_position": page["next_stream_position"]}
			entries := []any{}
			if !c.q.Now {
				for _, e := range tx.Events.Since(c.q.After) {
					if int64(len(entries)) >= c.q.Limit {
						break
					}
					switch {
					case c.q.Admin() && tx.adminSees(&c.q, e):
						entries = append(entries, tx.referenceEvent(e, nil))
					case !c.q.Admin() && tx.UserSees(c.p, c.q.StreamType, e):
						entries = append(entries, tx.referenceEvent(e, c.p))
					}
				}
			}
			want["entries"] = entries
			if page["chunk_size"] != len(entries) {
				t.Errorf("%s: chunk_size %v, want %d", c.name, page["chunk_size"], len(entries))
			}
			if !c.q.Now && len(entries) == 0 {
				t.Errorf("%s: no event on the page; the case checks nothing", c.name)
			}
			got, err := wire.Marshal(page)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := wire.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, ref) {
				t.Errorf("%s:\n got %s\nwant %s", c.name, got, ref)
			}
		})
	}
}
