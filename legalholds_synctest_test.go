//go:build go1.25

package cms_test

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLegalHoldWaitsOnFakeClock runs on synctest's fake clock: the server
// takes 5 s (its clock is the bubble's) to apply and to release a policy,
// and WaitForStatus polls every second (the default) until it is done.
func TestLegalHoldWaitsOnFakeClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := cmstest.NewInProcessServer(t, cmstest.Options{LegalHoldReleaseDelay: 5 * time.Second})
		c := srv.AdminClient(t)
		ctx := context.Background()
		start := time.Now()
		hp, _, err := c.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{PolicyName: "Case", IsOngoing: true})
		require.NoError(t, err)
		assert.Equal(t, cms.LegalHoldPolicyStatusApplying, hp.Status)
		active, _, err := c.LegalHoldPolicies.WaitForStatus(ctx, hp.ID, cms.LegalHoldPolicyStatusActive, nil)
		require.NoError(t, err)
		assert.Equal(t, cms.LegalHoldPolicyStatusActive, active.Status)
		assert.Equal(t, 5*time.Second, time.Since(start))

		del, resp, err := c.LegalHoldPolicies.Delete(ctx, hp.ID)
		require.NoError(t, err)
		assert.True(t, del.Accepted)
		assert.Equal(t, http.StatusAccepted, resp.StatusCode)
		released, _, err := c.LegalHoldPolicies.WaitForStatus(ctx, hp.ID, cms.LegalHoldPolicyStatusReleased, &cms.PollOptions{Interval: 2 * time.Second})
		require.NoError(t, err)
		assert.Equal(t, cms.LegalHoldPolicyStatusReleased, released.Status)
		assert.Equal(t, 11*time.Second, time.Since(start))

		// The wait ends with ctx.
		hp2, _, err := c.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{PolicyName: "Other", IsOngoing: true})
		require.NoError(t, err)
		short, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
		defer cancel()
		_, _, err = c.LegalHoldPolicies.WaitForStatus(short, hp2.ID, cms.LegalHoldPolicyStatusReleased, nil)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})
}
