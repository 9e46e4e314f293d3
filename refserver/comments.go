package refserver

import (
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// mentionMarkup is a mention in a tagged message: @[user_id:name].
var mentionMarkup = regexp.MustCompile(`@\[(\d+):([^\]]*)\]`)

// commentText checks and reads message or tagged_message.
func commentText(message, tagged *string) (msg, tag string, aerr *wire.Error) {
	if tagged != nil {
		tag = *tagged
		msg = mentionMarkup.ReplaceAllString(tag, "@$2") // a mention reads @name in message
	} else if message != nil {
		msg = *message
	}
	if strings.TrimSpace(msg) == "" {
		return "", "", wire.BadRequest("A comment needs message or tagged_message text")
	}
	if utf8.RuneCountInString(msg) > state.MaxCommentLength || utf8.RuneCountInString(tag) > state.MaxCommentLength {
		return "", "", wire.BadRequest("A comment has at most %d characters", state.MaxCommentLength)
	}
	return msg, tag, nil
}

// createComment serves POST /comments: 201 Comment.
func (s *Server) createComment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body struct {
		Message       *string `json:"message"`
		TaggedMessage *string `json:"tagged_message"`
		Item          *struct {
			ID   *string `json:"id"`
			Type *string `json:"type"`
		} `json:"item"`
	}
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	if body.Item == nil || body.Item.ID == nil || body.Item.Type == nil {
		return wire.BadRequest("item (type, id) is required")
	}
	if *body.Item.Type != "file" && *body.Item.Type != "comment" {
		return wire.BadRequest("A comment is on a file or answers a comment")
	}
	msg, tag, aerr := commentText(body.Message, body.TaggedMessage)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateComment(p, *body.Item.Type, *body.Item.ID, msg, tag, fields)
	})
}

// getComment serves GET /comments/{comment_id}.
func (s *Server) getComment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	fields := parseFields(r)
	id := r.PathValue("comment_id")
	return replyRecord(s, w, func(tx *state.Tx) (*state.Comment, *wire.Error) { return tx.CommentFor(id, p) },
		func(tx *state.Tx, c *state.Comment) map[string]any {
			return state.PickFields(tx.CommentRecord(c), fields, "type", "id")
		})
}

// updateComment serves PUT /comments/{comment_id}: the message.
func (s *Server) updateComment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body struct {
		Message *string `json:"message"`
	}
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeBadRequest); aerr != nil {
		return aerr
	}
	msg, _, aerr := commentText(body.Message, nil)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	id := r.PathValue("comment_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateComment(id, p, msg, fields)
	})
}

// deleteComment serves DELETE /comments/{comment_id}: 204.
func (s *Server) deleteComment(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "comment_id", http.StatusNoContent,
		func(tx *state.Tx, id string) (*state.Comment, *wire.Error) { return tx.CommentFor(id, p) },
		func(tx *state.Tx, c *state.Comment) *wire.Error { return tx.DeleteCommentBy(p, c) })
}

// listFileComments serves GET /files/{file_id}/comments.
func (s *Server) listFileComments(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	q, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.ListFileComments(p, id, q, fields)
	})
}
