package cms

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const cannedComment = `{"id":"k1","type":"comment","is_reply_comment":false,"message":"@Ann please review",
"tagged_message":"@[11:Ann] please review","created_by":{"id":"12","type":"user","name":"Bob","login":"bob@example.com"},
"created_at":"2026-01-02T03:04:05Z","modified_at":"2026-01-02T03:04:06Z","item":{"id":"5","type":"file"}}`

func TestCommentsWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	w.answer("POST /comments", http.StatusCreated, cannedComment)
	w.answer("GET /comments/{id}", http.StatusOK, cannedComment)
	w.answer("PUT /comments/{id}", http.StatusOK, cannedComment)
	w.answer("DELETE /comments/{id}", http.StatusNoContent, "")
	w.serve("GET /files/{id}/comments", offsetPages(5, func(i int) string {
		return fmt.Sprintf(`{"id":"k%d","type":"comment","message":"m%d","is_reply_comment":%t,"item":{"id":"5","type":"file"}}`, i, i, i%2 == 1)
	}))
	ctx := context.Background()
	cs := w.e.client.Comments

	c, resp, err := cs.Create(ctx, &CreateCommentRequest{Item: ItemRef{Type: ItemTypeFile, ID: "5"},
		TaggedMessage: Mentions(Mention{UserID: "11", Name: "Ann"}, " please review")}, &FieldsOptions{Fields: []string{"tagged_message"}})
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	got := w.last(t)
	assert.Equal(t, "/comments", got.Path)
	assert.Equal(t, "fields=tagged_message", got.Query)
	assert.JSONEq(t, `{"item":{"type":"file","id":"5"},"message":"@Ann please review","tagged_message":"@[11:Ann] please review"}`, got.Body,
		"the required message is the tagged message in plain text")
	assert.Equal(t, &Comment{ID: "k1", Type: "comment", Message: "@Ann please review", TaggedMessage: "@[11:Ann] please review",
		CreatedBy: &UserMini{ID: "12", Type: "user", Name: "Bob", Login: "bob@example.com"},
		CreatedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ModifiedAt: time.Date(2026, 1, 2, 3, 4, 6, 0, time.UTC),
		Item: &ItemRef{Type: ItemTypeFile, ID: "5"}}, c)
	assert.Equal(t, []Mention{{UserID: "11", Name: "Ann"}}, ParseMentions(c.TaggedMessage))

	_, _, err = cs.Create(ctx, &CreateCommentRequest{Item: ItemRef{Type: ItemTypeFile, ID: "5"}, Message: "Looks good"}, nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"item":{"type":"file","id":"5"},"message":"Looks good"}`, w.last(t).Body)

	_, _, err = cs.Reply(ctx, "k1", "Done.", nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"item":{"type":"comment","id":"k1"},"message":"Done."}`, w.last(t).Body)
	_, _, err = cs.Reply(ctx, "k1", "@[12:Bob] done", nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"item":{"type":"comment","id":"k1"},"message":"@Bob done","tagged_message":"@[12:Bob] done"}`, w.last(t).Body,
		"a reply with a mention goes as a tagged message")

	_, _, err = cs.Get(ctx, "k1", nil)
	require.NoError(t, err)
	assert.Equal(t, "/comments/k1", w.last(t).Path)
	_, _, err = cs.Update(ctx, "k1", &UpdateCommentRequest{Message: "Reviewed"}, nil)
	require.NoError(t, err)
	assert.Equal(t, http.MethodPut, w.last(t).Method)
	assert.JSONEq(t, `{"message":"Reviewed"}`, w.last(t).Body)
	_, err = cs.Delete(ctx, "k1")
	require.NoError(t, err)
	assert.Equal(t, http.MethodDelete, w.last(t).Method)

	n := w.count()
	var ids []string
	for c, err := range cs.ListByFileIter(ctx, "5", &ListCommentsOptions{Limit: 2}) {
		require.NoError(t, err)
		ids = append(ids, c.ID)
	}
	assert.Equal(t, []string{"k0", "k1", "k2", "k3", "k4"}, ids)
	calls := w.all()[n:]
	require.Len(t, calls, 3)
	assert.Equal(t, []string{"limit=2", "limit=2&offset=2", "limit=2&offset=4"}, []string{calls[0].Query, calls[1].Query, calls[2].Query})
	p := cs.NewListByFilePaginator("5", &ListCommentsOptions{Limit: 4, Fields: []string{"message"}})
	pages := 0
	for p.HasMorePages() {
		pg, _, err := p.NextPage(ctx)
		require.NoError(t, err)
		pages++
		assert.Equal(t, 5, pg.TotalCount)
	}
	assert.Equal(t, 2, pages)
	page, _, err := cs.ListByFile(ctx, "5", &ListCommentsOptions{Offset: 3})
	require.NoError(t, err)
	assert.True(t, page.Entries[0].IsReplyComment)

	n = w.count()
	for _, c := range []struct {
		name string
		body *CreateCommentRequest
		want error
	}{
		{"nil", nil, ErrInvalidArgument},
		{"no message", &CreateCommentRequest{Item: ItemRef{Type: ItemTypeFile, ID: "5"}}, ErrInvalidArgument},
		{"blank message", &CreateCommentRequest{Item: ItemRef{Type: ItemTypeFile, ID: "5"}, Message: "  "}, ErrInvalidArgument},
		{"folder item", &CreateCommentRequest{Item: ItemRef{Type: ItemTypeFolder, ID: "5"}, Message: "x"}, ErrInvalidArgument},
		{"no item id", &CreateCommentRequest{Item: ItemRef{Type: ItemTypeFile}, Message: "x"}, ErrMissingID},
	} {
		_, _, err := cs.Create(ctx, c.body, nil)
		var ae *ArgError
		assert.ErrorAs(t, err, &ae, c.name)
		assert.ErrorIs(t, err, c.want, c.name)
	}
	_, _, err = cs.Reply(ctx, "", "x", nil)
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = cs.Update(ctx, "k1", &UpdateCommentRequest{}, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.ListByFile(ctx, "5", &ListCommentsOptions{Limit: -1})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = cs.Delete(ctx, "")
	assert.ErrorIs(t, err, ErrMissingID)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("POST /comments", http.StatusConflict, `{"type":"error","status":409,"code":"recent_similar_comment","message":"A similar comment has been made recently"}`)
	_, _, err = w2.e.client.Comments.Create(ctx, &CreateCommentRequest{Item: ItemRef{Type: ItemTypeFile, ID: "5"}, Message: "x"}, nil)
	assert.ErrorIs(t, err, ErrRecentSimilarComment)
	assert.ErrorIs(t, err, ErrConflict)
}

func TestMentions(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "@[11:Ann Lee] and @[12:Bob], see p. 3", Mentions(Mention{"11", "Ann Lee"}, " and ", Mention{"12", "Bob"}, ", see p. 3"))
	assert.Equal(t, "@[12:Bob]", Mention{"1]2:", "B[o]b"}.String(), "characters that would end the mention early are dropped")
	for _, c := range []struct {
		tagged string
		want   []Mention
		plain  string
	}{
		{"@[11:Ann] hi @[12:Bob Lee]!", []Mention{{"11", "Ann"}, {"12", "Bob Lee"}}, "@Ann hi @Bob Lee!"},
		{"no mentions", nil, "no mentions"},
		{"@[abc:Ann] is not one", nil, "@[abc:Ann] is not one"},
		{"@[11Ann] @[11:Ann", nil, "@[11Ann] @[11:Ann"},
		{"mail a@[1:x]", []Mention{{"1", "x"}}, "mail a@x"},
		{"@[:Ann]@[5:]", []Mention{{"5", ""}}, "@[:Ann]@"},
		{"@[@[7:Eve]", []Mention{{"7", "Eve"}}, "@[@Eve"},
		{"@[1:a:b]", []Mention{{"1", "a:b"}}, "@a:b"},
	} {
		assert.Equal(t, c.want, ParseMentions(c.tagged), c.tagged)
		assert.Equal(t, c.plain, PlainMessage(c.tagged), c.tagged)
	}
}

// FuzzParseMentions: ParseMentions and PlainMessage take any text without
// panicking; every mention found is numeric and round-trips through
// Mention.String, and the plain text is valid UTF-8 when the input is.
func FuzzParseMentions(f *testing.F) {
	for _, s := range []string{"@[11:Ann] hi", "@[", "@[1:", "@[[1:a]]", "a@[1:x]b@[2:y]", "\xff@[1:\xfe]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range ParseMentions(s) {
			require.NotEmpty(t, m.UserID)
			require.Equal(t, "", strings.Trim(m.UserID, "0123456789"))
			require.Equal(t, []Mention{m}, ParseMentions(m.String()))
		}
		plain := PlainMessage(s)
		if utf8.ValidString(s) {
			require.True(t, utf8.ValidString(plain))
		}
		require.LessOrEqual(t, len(plain), len(s))
	})
}
