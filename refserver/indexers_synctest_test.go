//go:build go1.25

package refserver

import (
	"testing"
	"testing/synctest"
	"time"
)

// TestRestoredIndexersStartAfterTheFirstAnswer: a server that restored a
// data directory starts its index builders after its first answer, or
// restoredIndexDelay after it was made when no request comes; a fresh
// server starts them at once.
func TestRestoredIndexersStartAfterTheFirstAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		s, err := New(Options{DataDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		call := bubbleCaller(t, s)
		adm := s.AdminToken()
		call("POST", "/metadata_templates/schema", adm, `{"scope":"enterprise","templateKey":"t","displayName":"T","fields":[{"type":"string","key":"code","displayName":"Code"}]}`)
		folder := call("POST", "/folders", adm, `{"name":"f","parent":{"id":"0"}}`)["id"].(string)
		call("POST", "/folders/"+folder+"/metadata/enterprise/t", adm, `{"code":"x"}`)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}

		restore := func() *Server {
			s, err := New(Options{DataDir: dir})
			if err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
			if n := s.st.MetadataIndexerSteps(); n != 0 {
				t.Fatalf("the builder ran %d steps before a request or the delay", n)
			}
			return s
		}

		idle := restore()
		time.Sleep(restoredIndexDelay)
		synctest.Wait()
		if idle.st.MetadataIndexerSteps() == 0 {
			t.Fatal("no request came and the builder did not start after the delay")
		}
		if err := idle.Close(); err != nil {
			t.Fatal(err)
		}

		asked := restore()
		bubbleCaller(t, asked)("GET", "/folders/0", asked.AdminToken(), "")
		synctest.Wait()
		if asked.st.MetadataIndexerSteps() == 0 {
			t.Fatal("the builder did not start after the first answer")
		}
		if err := asked.Close(); err != nil {
			t.Fatal(err)
		}

		closed := restore()
		if err := closed.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * restoredIndexDelay) // a start still waiting is cancelled by Close
		synctest.Wait()
		if n := closed.st.MetadataIndexerSteps(); n != 0 {
			t.Fatalf("the builder ran %d steps after Close", n)
		}
	})
}
