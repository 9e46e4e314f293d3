package cms

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	b := &CreateEmailAliasRequest{Email: "alias@example.com"}
	sweepBodies[reflect.TypeOf(b)] = b
}

func TestEmailAliasesWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("GET /users/{id}/email_aliases", http.StatusOK, `{"total_count":2,"entries":[{"id":"a1","type":"email_alias","email":"ann@example.com","is_confirmed":true},
{"id":"a2","type":"email_alias","email":"a.lee@example.com","is_confirmed":false}]}`)
	w.answer("POST /users/{id}/email_aliases", http.StatusCreated, `{"id":"a3","type":"email_alias","email":"al@example.com","is_confirmed":false}`)
	w.answer("DELETE /users/{id}/email_aliases/{aid}", http.StatusNoContent, "")
	ctx := context.Background()
	es := w.e.client.EmailAliases

	list, _, err := es.List(ctx, "11")
	require.NoError(t, err)
	assert.Equal(t, "/users/11/email_aliases", w.last(t).Path)
	assert.Equal(t, &Collection[*EmailAlias]{TotalCount: 2, Entries: []*EmailAlias{
		{ID: "a1", Type: "email_alias", Email: "ann@example.com", IsConfirmed: true},
		{ID: "a2", Type: "email_alias", Email: "a.lee@example.com"}}}, list)

	a, resp, err := es.Create(ctx, "11", &CreateEmailAliasRequest{Email: "al@example.com"})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.JSONEq(t, `{"email":"al@example.com"}`, w.last(t).Body)
	assert.Equal(t, &EmailAlias{ID: "a3", Type: "email_alias", Email: "al@example.com"}, a)

	_, err = es.Delete(ctx, "11", "a3")
	require.NoError(t, err)
	assert.Equal(t, "DELETE /users/11/email_aliases/a3", w.last(t).Method+" "+w.last(t).Path)

	n := w.count()
	_, _, err = es.List(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = es.Create(ctx, "11", nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	for _, bad := range []string{"", "al", "@example.com", "al@", "a l@example.com"} {
		_, _, err = es.Create(ctx, "11", &CreateEmailAliasRequest{Email: bad})
		assert.ErrorIs(t, err, ErrInvalidArgument, bad)
	}
	_, err = es.Delete(ctx, "11", "")
	assert.ErrorIs(t, err, ErrMissingID)
	_, err = es.Delete(ctx, "", "a3")
	assert.ErrorIs(t, err, ErrMissingID)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("POST /users/{id}/email_aliases", http.StatusConflict, `{"type":"error","status":409,"code":"email_alias_already_exists","message":"In use"}`)
	_, _, err = w2.e.client.EmailAliases.Create(ctx, "11", &CreateEmailAliasRequest{Email: "al@example.com"})
	assert.ErrorIs(t, err, ErrConflict)
}
