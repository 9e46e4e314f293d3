package cms

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sleepLog is a WithSleep hook that records the waits and returns at once.
type sleepLog struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (l *sleepLog) sleep(ctx context.Context, d time.Duration) error {
	l.mu.Lock()
	l.waits = append(l.waits, d)
	l.mu.Unlock()
	return ctx.Err()
}

func (l *sleepLog) took() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]time.Duration(nil), l.waits...)
}

// TestPollIntervalAndSleepHook: the wait helpers wait with the client's
// sleep hook, 1 s by default (Interval 0) or the Interval given; a negative
// Interval is an *ArgError and nothing is sent.
func TestPollIntervalAndSleepHook(t *testing.T) {
	t.Parallel()
	log := &sleepLog{}
	e := newFilesEnv(t, WithSleep(log.sleep))
	var mu sync.Mutex
	reads := map[string]int{}
	read := func(path string) int {
		mu.Lock()
		defer mu.Unlock()
		reads[path]++
		return reads[path]
	}
	e.api.HandleFunc("GET /legal_hold_policies/{id}", func(w http.ResponseWriter, r *http.Request) {
		status := "applying"
		if read(r.URL.Path) > 2 {
			status = "active"
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": r.PathValue("id"), "type": "legal_hold_policy", "status": status})
	})
	e.api.HandleFunc("GET /legal_hold_policy_assignments/{id}", func(w http.ResponseWriter, r *http.Request) {
		if read(r.URL.Path) > 3 {
			writeError(w, http.StatusNotFound, "not_found")
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": r.PathValue("id"), "type": "legal_hold_policy_assignment"})
	})
	ctx := context.Background()

	p, _, err := e.client.LegalHoldPolicies.WaitForStatus(ctx, "1", LegalHoldPolicyStatusActive, nil)
	require.NoError(t, err)
	assert.Equal(t, LegalHoldPolicyStatusActive, p.Status)
	assert.Equal(t, []time.Duration{time.Second, time.Second}, log.took(), "the default interval, through the hook")

	p, _, err = e.client.LegalHoldPolicies.WaitForStatus(ctx, "2", LegalHoldPolicyStatusActive, &PollOptions{Interval: 0})
	require.NoError(t, err)
	assert.Equal(t, LegalHoldPolicyStatusActive, p.Status)
	assert.Len(t, log.took(), 4, "Interval 0 is the default")

	resp, err := e.client.LegalHoldPolicyAssignments.WaitDeleted(ctx, "3", &PollOptions{Interval: 5 * time.Millisecond})
	require.NoError(t, err)
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode, "the answer that ended the wait")
	assert.Equal(t, []time.Duration{5 * time.Millisecond, 5 * time.Millisecond, 5 * time.Millisecond}, log.took()[4:])

	sent := len(e.requests())
	_, _, err = e.client.LegalHoldPolicies.WaitForStatus(ctx, "1", LegalHoldPolicyStatusActive, &PollOptions{Interval: -5})
	var ae *ArgError
	require.ErrorAs(t, err, &ae)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, "poll interval", ae.Arg)
	_, err = e.client.LegalHoldPolicyAssignments.WaitDeleted(ctx, "3", &PollOptions{Interval: -time.Second})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Len(t, e.requests(), sent, "nothing sent for a negative interval")
}

// TestLegalHoldDeletesReportAccepted: both legal hold deletes say whether
// the service accepted the deletion for later (202) or has done it.
func TestLegalHoldDeletesReportAccepted(t *testing.T) {
	t.Parallel()
	e := newFilesEnv(t)
	e.api.HandleFunc("DELETE /legal_hold_policies/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "done" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})
	e.api.HandleFunc("DELETE /legal_hold_policy_assignments/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusAccepted)
	})
	ctx := context.Background()
	d, resp, err := e.client.LegalHoldPolicies.Delete(ctx, "1")
	require.NoError(t, err)
	assert.True(t, d.Accepted)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	d, _, err = e.client.LegalHoldPolicies.Delete(ctx, "done")
	require.NoError(t, err)
	assert.False(t, d.Accepted, "a 204 is done, not accepted")
	d, _, err = e.client.LegalHoldPolicyAssignments.Delete(ctx, "2")
	require.NoError(t, err)
	assert.True(t, d.Accepted)

	_, _, err = e.client.LegalHoldPolicyAssignments.Delete(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
}
