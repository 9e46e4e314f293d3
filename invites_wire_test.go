package cms

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	b := &CreateInviteRequest{Enterprise: EnterpriseRef{ID: "1"}, ActionableBy: InviteeRef{Login: "joe@example.com"}}
	sweepBodies[reflect.TypeOf(b)] = b
}

const cannedInvite = `{"id":"i1","type":"invite","invited_to":{"id":"42","type":"enterprise","name":"Acme"},
"actionable_by":{"id":"77","type":"user","name":"Joe","login":"joe@example.com"},"invited_by":{"id":"11","type":"user","name":"Ann","login":"ann@acme.com"},
"status":"pending","created_at":"2026-01-02T03:04:05Z","modified_at":"2026-01-02T03:04:06Z"}`

func TestInvitesWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("POST /invites", http.StatusOK, cannedInvite)
	w.answer("GET /invites/{id}", http.StatusOK, cannedInvite)
	ctx := context.Background()
	is := w.e.client.Invites

	inv, _, err := is.Create(ctx, &CreateInviteRequest{Enterprise: EnterpriseRef{ID: "42"}, ActionableBy: InviteeRef{Login: "joe@example.com"}},
		&FieldsOptions{Fields: []string{"status"}})
	require.NoError(t, err)
	c := w.last(t)
	assert.Equal(t, "/invites", c.Path)
	assert.Equal(t, "fields=status", c.Query)
	assert.JSONEq(t, `{"enterprise":{"id":"42"},"actionable_by":{"login":"joe@example.com"}}`, c.Body)
	assert.Equal(t, &Invite{ID: "i1", Type: "invite", InvitedTo: &Enterprise{ID: "42", Type: "enterprise", Name: "Acme"},
		ActionableBy: &UserMini{ID: "77", Type: "user", Name: "Joe", Login: "joe@example.com"},
		InvitedBy:    &UserMini{ID: "11", Type: "user", Name: "Ann", Login: "ann@acme.com"}, Status: "pending",
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ModifiedAt: time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC)}, inv)

	got, _, err := is.Get(ctx, "i1", nil)
	require.NoError(t, err)
	assert.Equal(t, "GET /invites/i1", w.last(t).Method+" "+w.last(t).Path)
	assert.Equal(t, inv, got)

	n := w.count()
	_, _, err = is.Create(ctx, nil, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = is.Create(ctx, &CreateInviteRequest{ActionableBy: InviteeRef{Login: "joe@example.com"}}, nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = is.Create(ctx, &CreateInviteRequest{Enterprise: EnterpriseRef{ID: "42"}, ActionableBy: InviteeRef{Login: "joe"}}, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = is.Get(ctx, "", nil)
	assert.ErrorIs(t, err, ErrMissingID)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("POST /invites", http.StatusNotFound, `{"type":"error","status":404,"code":"not_found","message":"No such user"}`)
	_, resp, err := w2.e.client.Invites.Create(ctx, &CreateInviteRequest{Enterprise: EnterpriseRef{ID: "42"}, ActionableBy: InviteeRef{Login: "nobody@example.com"}}, nil)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}
