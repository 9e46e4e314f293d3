package refserver

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// BenchmarkEventsPage reads a page of 100 events of a user's stream from a
// full history (DefaultEventHistory events, half of them on another
// user's items, which the page skips), and an enterprise page.
func BenchmarkEventsPage(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	tx, end := beginTx(s.st)
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range DefaultEventHistory {
		owner := tx.Admin
		if i%2 == 0 {
			owner = tx.User
		}
		tx.AddItem(&state.Item{Typ: "folder", ID: tx.NewID(), Name: fmt.Sprintf("f%d", i), ParentID: state.RootID,
			Owner: owner, CreatedBy: owner, ModBy: owner, CreatedAt: now, ModifiedAt: now})
	}
	end()
	for name, query := range map[string]string{
		"user":       "stream_position=2000&limit=100",
		"enterprise": "stream_type=admin_logs&stream_position=2000&limit=100",
	} {
		token := s.UserToken()
		if name == "enterprise" {
			token = s.AdminToken()
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchDo(b, s.Handler(), http.MethodGet, "/events?"+query, token, "", "")
			}
		})
	}
}
