//go:build go1.25

package cms_test

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEventStreamLongPollsAndReconnects runs Stream against the reference
// server on synctest's clock: the server answers a long poll with
// "reconnect" after a minute, so the stream reconnects twice (a new
// OPTIONS /events each time) before an upload three minutes in wakes it;
// the events come in order, from where the stream started, and Position
// follows.
func TestEventStreamLongPollsAndReconnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{LongPollTimeout: time.Minute})
		c := srv.Client(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		start, _, err := c.Events.Get(ctx, &cms.EventsOptions{StreamPosition: "now"})
		require.NoError(t, err)

		uploaded := make(chan struct{})
		go func() {
			defer close(uploaded)
			time.Sleep(3*time.Minute + 30*time.Second) // on the bubble's clock
			for _, name := range []string{"a.txt", "b.txt"} {
				_, _, err := c.Files.Upload(context.Background(), "0", name, strings.NewReader(name), int64(len(name)), nil)
				assert.NoError(t, err)
			}
		}()
		defer func() { <-uploaded }()
		var pos cms.StreamPosition
		began := time.Now()
		var names []string
		for e, err := range c.Events.Stream(ctx, &cms.EventStreamOptions{StreamPosition: start.NextStreamPosition, Position: &pos}) {
			require.NoError(t, err)
			require.Equal(t, cms.EventTypeItemUpload, e.EventType)
			it, ok := e.Item()
			require.True(t, ok)
			names = append(names, it.Name)
			if len(names) == 2 {
				break
			}
		}
		assert.Equal(t, []string{"a.txt", "b.txt"}, names)
		assert.GreaterOrEqual(t, time.Since(began), 3*time.Minute+30*time.Second)
		options := 0
		for _, r := range srv.Requests() {
			if r.Method == "OPTIONS" && strings.HasSuffix(r.Path, "/events") {
				options++
			}
		}
		assert.Equal(t, 4, options, "the first server, then one after each of three reconnects")
		page, _, err := c.Events.Get(ctx, &cms.EventsOptions{StreamPosition: pos})
		require.NoError(t, err)
		assert.Empty(t, page.Entries, "Position is past both uploads")
	})
}
