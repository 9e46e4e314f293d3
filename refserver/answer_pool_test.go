package refserver

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Replies are encoded into buffers that go back to a pool once written,
// or, on a persisted server, once the held answer is sent after its
// commit: many clients at once each get their own reply, whole (a buffer
// given back while still being written would show here as another
// request's body, and to the race detector).
func TestRepliesFromPooledBuffers(t *testing.T) {
	t.Parallel()
	for _, persisted := range []bool{false, true} {
		t.Run(fmt.Sprintf("persisted=%v", persisted), func(t *testing.T) {
			t.Parallel()
			opts := Options{}
			if persisted {
				opts.DataDir = t.TempDir()
			}
			e := newEnv(t, opts)
			U := e.s.UserToken()
			call := func(method, path, body string) (map[string]any, error) {
				req, err := http.NewRequest(method, e.api(path), strings.NewReader(body))
				if err != nil {
					return nil, err
				}
				req.Header.Set("Authorization", "Bearer "+U)
				resp, err := e.hc.Do(req)
				if err != nil {
					return nil, err
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				if err != nil {
					return nil, err
				}
				var m map[string]any
				if err := json.Unmarshal(b, &m); err != nil {
					return nil, fmt.Errorf("%s %s: %d %q: %w", method, path, resp.StatusCode, b, err)
				}
				return m, nil
			}
			const clients, calls = 8, 25
			errs := make(chan error, clients)
			var wg sync.WaitGroup
			for g := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- func() error {
						for i := range calls {
							name := fmt.Sprintf("client %d folder %d %s", g, i, strings.Repeat("x", 1+i*8)) // replies of many sizes
							m, err := call("POST", "/folders", fmt.Sprintf(`{"name":%q,"parent":{"id":"0"}}`, name))
							if err != nil {
								return err
							}
							id, _ := m["id"].(string)
							if m["name"] != name || id == "" {
								return fmt.Errorf("created %q, answered %v", name, m["name"])
							}
							if m, err = call("GET", "/folders/"+id, ""); err != nil {
								return err
							}
							if m["id"] != id || m["name"] != name {
								return fmt.Errorf("got folder %s (%q), answered %v (%q)", id, name, m["id"], m["name"])
							}
							if m, err = call("GET", "/folders/"+id+"/items?limit=10", ""); err != nil {
								return err
							}
							if m["total_count"] != float64(0) {
								return fmt.Errorf("listed the new folder %s: %v", id, m)
							}
						}
						return nil
					}()
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				require.NoError(t, err)
			}
		})
	}
}
