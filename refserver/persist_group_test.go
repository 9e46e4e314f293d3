package refserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPersistGroupCommit: requests whose changes one commit carried are
// answered as soon as that commit is done, without waiting for the
// commits of changes made after theirs; and concurrent requests share a
// commit. Commit 1 (request A's) is held while eight requests B change
// the state; commit 2 carries all eight; commit 3 (request C's, which
// changed the state during commit 2) is held while the eight answers must
// arrive. One commit per request, or a request committing the changes of
// others that came after its own before answering, fails it.
func TestPersistGroupCommit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{DataDir: t.TempDir()})
	p := e.s.db
	parent := e.createFolder(e.s.UserToken(), "0", "group")["id"].(string)
	var commits atomic.Int32
	entered := make(chan int, 8)
	release := []chan struct{}{make(chan struct{}), make(chan struct{}), make(chan struct{})}
	p.BeforeCommit = func() error {
		n := int(commits.Add(1))
		entered <- n
		if n <= len(release) {
			<-release[n-1]
		}
		return nil
	}
	defer func() {
		for _, r := range release {
			select {
			case <-r:
			default:
				close(r)
			}
		}
	}()

	create := func(name string) <-chan int {
		done := make(chan int, 1)
		go func() {
			body, _ := json.Marshal(map[string]any{"name": name, "parent": map[string]any{"id": parent}})
			req, _ := http.NewRequest("POST", e.api("/folders"), bytes.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+e.s.UserToken())
			resp, err := e.hc.Do(req)
			if err != nil {
				done <- 0
				return
			}
			resp.Body.Close()
			done <- resp.StatusCode
		}()
		return done
	}
	// created counts the folders of parent whose name starts with prefix
	// in the live state: their records are marked.
	created := func(prefix string) int {
		tx, end := beginTx(e.s.st)
		defer end()
		n := 0
		for _, it := range tx.Items.All() {
			if it.ParentID == parent && strings.HasPrefix(it.Name, prefix) {
				n++
			}
		}
		return n
	}
	waitCommit := func(want int) {
		t.Helper()
		select {
		case n := <-entered:
			require.Equal(t, want, n)
		case <-time.After(10 * time.Second):
			t.Fatalf("commit %d did not start", want)
		}
	}

	a := create("a")
	waitCommit(1)
	var bs []<-chan int
	for i := range 8 {
		bs = append(bs, create(fmt.Sprintf("b%d", i)))
	}
	require.Eventually(t, func() bool { return created("b") == 8 }, 10*time.Second, time.Millisecond)
	close(release[0]) // A's commit; the next one carries the eight
	assert.Equal(t, 201, <-a)
	waitCommit(2)
	c := create("c")
	require.Eventually(t, func() bool { return created("c") == 1 }, 10*time.Second, time.Millisecond)
	close(release[1]) // the eight's commit; C's is next, and held
	waitCommit(3)
	for i, b := range bs {
		select {
		case status := <-b:
			assert.Equal(t, 201, status, "b%d", i)
		case <-time.After(10 * time.Second):
			t.Fatalf("b%d is not answered while a later commit is under way", i)
		}
	}
	close(release[2])
	assert.Equal(t, 201, <-c)
	assert.EqualValues(t, 3, commits.Load(), "commits: A, the eight B, C")
	e.ok("GET", "/folders/"+parent+"/items", e.s.UserToken(), nil, 200)
}
