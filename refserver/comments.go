package refserver

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Comments (spec /comments, /comments/{comment_id}, /files/{file_id}/comments):
//
//   - POST /comments: message or tagged_message (at most 10,000
//     characters; not blank: 400 bad_request), item {type file|comment,
//     id}: a comment on a file the caller may preview (404 for one they
//     cannot see, 403 access_denied_insufficient_permissions for an uploader
//     who sees only its name), or a reply to a comment on such a file
//     (is_reply_comment, on the same file). tagged_message mentions users as
//     @[user_id:name]; its message is the text without the markup. The same
//     text by the same user on the same item within 10 seconds is 409
//     recent_similar_comment (the service's code for a duplicate).
//   - GET /comments/{id}: who may preview its file; else 404.
//   - PUT /comments/{id} (message) and DELETE: the author, the file's owner
//     or the admin; others 403 access_denied_insufficient_permissions.
//   - GET /files/{file_id}/comments: every comment of the file, replies
//     included, oldest first, offset paged (limit default 100, at most 1000).
//   - Comments leave with their file when it is deleted for good; their
//     text is searchable (content_types=comments).

const (
	codeRecentSimilarComment = "recent_similar_comment"
	maxCommentLength         = 10_000
	similarCommentWindow     = 10 * time.Second
)

// mentionMarkup is a mention in a tagged message: @[user_id:name].
var mentionMarkup = regexp.MustCompile(`@\[(\d+):([^\]]*)\]`)

// comment is a comment on a file. Fields are guarded by Server.mu.
type comment struct {
	id         string
	file       *item
	replyTo    string // the comment it answers, "" for none
	message    string // the text (mentions as their names)
	tagged     string // tagged_message as sent, "" for none
	by         *user
	createdAt  time.Time
	modifiedAt time.Time
}

// commentState is the server's comments, guarded by Server.mu.
type commentState struct {
	byID   map[string]*comment
	byFile map[string][]*comment // oldest first
}

func (s *state) initComments() {
	s.comments = commentState{byID: map[string]*comment{}, byFile: map[string][]*comment{}}
}

func (s *state) commentRecord(c *comment) map[string]any {
	rec := map[string]any{
		"type": "comment", "id": c.id, "is_reply_comment": c.replyTo != "", "message": c.message,
		"created_by": c.by.mini(), "created_at": fmtTime(c.createdAt), "modified_at": fmtTime(c.modifiedAt),
		"item": map[string]any{"type": "file", "id": c.file.id},
	}
	if c.replyTo != "" {
		rec["item"] = map[string]any{"type": "comment", "id": c.replyTo}
	}
	if c.tagged != "" {
		rec["tagged_message"] = c.tagged
	}
	return rec
}

// commentTexts are the texts of a file's comments (for the search index).
func (s *state) commentTexts(f *item) []string {
	var out []string
	for _, c := range s.comments.byFile[f.id] {
		out = append(out, c.message)
	}
	return out
}

func (s *state) addComment(c *comment) {
	s.comments.byID[c.id] = c
	s.comments.byFile[c.file.id] = append(s.comments.byFile[c.file.id], c)
	s.dirty(kComments, c.id)
	s.search.changed(c.file)
}

func (s *state) dropComment(c *comment) {
	delete(s.comments.byID, c.id)
	rest := wire.RemoveFrom(s.comments.byFile[c.file.id], c)
	if len(rest) == 0 {
		delete(s.comments.byFile, c.file.id)
	} else {
		s.comments.byFile[c.file.id] = rest
	}
	s.dirty(kComments, c.id)
	s.search.changed(c.file)
}

// commentsItemPurged drops the comments of a file deleted for good.
func (s *state) commentsItemPurged(it *item) {
	for _, c := range slices.Clone(s.comments.byFile[it.id]) {
		s.dropComment(c)
	}
}

// commentText checks and reads message or tagged_message.
func commentText(message, tagged *string) (msg, tag string, aerr *wire.Error) {
	if tagged != nil {
		tag = *tagged
		msg = mentionMarkup.ReplaceAllString(tag, "$2")
	} else if message != nil {
		msg = *message
	}
	if strings.TrimSpace(msg) == "" {
		return "", "", wire.BadRequest("A comment needs message or tagged_message text")
	}
	if utf8.RuneCountInString(msg) > maxCommentLength || utf8.RuneCountInString(tag) > maxCommentLength {
		return "", "", wire.BadRequest("A comment has at most %d characters", maxCommentLength)
	}
	return msg, tag, nil
}

// createComment serves POST /comments: 201 Comment.
func (s *Server) createComment(w http.ResponseWriter, r *http.Request, p *principal) error {
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

	return s.change(w, func() (reply, *wire.Error) {
		return s.createCommentTx(p, body, msg, tag, fields)
	})
}

// createCommentTx is the transaction of POST /comments (createComment): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) createCommentTx(p *principal, body struct {
	Message       *string "json:\"message\""
	TaggedMessage *string "json:\"tagged_message\""
	Item          *struct {
		ID   *string "json:\"id\""
		Type *string "json:\"type\""
	} "json:\"item\""
}, msg string, tag string, fields []string) (reply, *wire.Error) {
	c, aerr := s.addCommentBy(p, *body.Item.Type, *body.Item.ID, msg, tag)
	if aerr != nil {
		return reply{}, aerr
	}
	return reply{http.StatusCreated, pickFields(s.commentRecord(c), fields, "type", "id")}, nil
}

// addCommentBy makes p's comment on the file id (typ "file") or answer to
// the comment id (typ "comment"): 404 for what p cannot see, 403 when p
// may not preview the file, 409 recent_similar_comment for the same text
// again. Callers hold mu.
func (s *state) addCommentBy(p *principal, typ, id, msg, tag string) (*comment, *wire.Error) {
	c := &comment{message: msg, tagged: tag, by: p.user, createdAt: s.nowSec()}
	c.modifiedAt = c.createdAt
	if typ == "comment" {
		parent, ok := s.comments.byID[id]
		if !ok || !s.visible(p, parent.file) {
			return nil, wire.NotFound("comment")
		}
		c.replyTo, c.file = parent.id, parent.file
		if !s.can(p, c.file, actPreview) {
			return nil, errDenied("file")
		}
	} else {
		if !validID(id) {
			return nil, wire.NotFound("file")
		}
		f, aerr := s.lookupFor(p, "file", id, actPreview)
		if aerr != nil {
			return nil, aerr
		}
		c.file = f
	}
	for _, o := range s.comments.byFile[c.file.id] {
		if o.by == c.by && o.replyTo == c.replyTo && o.message == c.message && s.now().Sub(o.createdAt) < similarCommentWindow {
			return nil, wire.Errorf(http.StatusConflict, codeRecentSimilarComment, "The same comment was just made")
		}
	}
	c.id = s.newID()
	s.addComment(c)
	s.recordEvent(evCommentCreate, p.user, c.file, s.commentRecord(c))
	return c, nil
}

// commentFor finds the comment with id for p (who may preview its file).
// Callers hold mu.
func (s *state) commentFor(id string, p *principal) (*comment, *wire.Error) {
	c, ok := s.comments.byID[id]
	if !ok || s.inTrash(c.file) || !s.can(p, c.file, actPreview) {
		return nil, wire.NotFound("comment")
	}
	return c, nil
}

// mayTx reports whether p may edit or delete c: its author, the
// file's owner, the admin.
func (s *state) mayTx(p *principal, c *comment) bool {
	return c.by == p.user || c.file.owner == p.user || p.seesAll()
}

// getComment serves GET /comments/{comment_id}.
func (s *Server) getComment(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	id := r.PathValue("comment_id")
	return replyRecord(s, w, func() (*comment, *wire.Error) { return s.commentFor(id, p) },
		func(c *comment) map[string]any { return pickFields(s.commentRecord(c), fields, "type", "id") })
}

// updateComment serves PUT /comments/{comment_id}: the message.
func (s *Server) updateComment(w http.ResponseWriter, r *http.Request, p *principal) error {
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
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateCommentTx(id, p, msg, fields)
	})
}

// updateCommentTx is the transaction of PUT /comments/{comment_id}
// (updateComment): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) updateCommentTx(id string, p *principal, msg string, fields []string) (reply, *wire.Error) {
	c, aerr := s.editComment(id, p, msg)
	if aerr != nil {
		return reply{}, aerr
	}
	return reply{http.StatusOK, pickFields(s.commentRecord(c), fields, "type", "id")}, nil
}

// editComment replaces the message of the comment with id, for its
// author, the file's owner or the admin (403 for others). Callers hold mu.
func (s *state) editComment(id string, p *principal, msg string) (*comment, *wire.Error) {
	c, aerr := s.commentFor(id, p)
	if aerr != nil {
		return nil, aerr
	}
	if !s.mayTx(p, c) {
		return nil, errDenied("comment")
	}
	c.message, c.tagged, c.modifiedAt = msg, "", s.nowSec()
	s.dirty(kComments, c.id)
	s.search.changed(c.file)
	s.recordEvent(evCommentUpdate, p.user, c.file, s.commentRecord(c))
	return c, nil
}

// deleteComment serves DELETE /comments/{comment_id}: 204.
func (s *Server) deleteComment(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "comment_id", http.StatusNoContent,
		func(id string) (*comment, *wire.Error) { return s.commentFor(id, p) },
		func(c *comment) *wire.Error { return s.deleteCommentBy(p, c) })
}

// deleteCommentBy deletes c (and its replies) for its author, the file's
// owner or the admin (403 for others). Callers hold mu.
func (s *state) deleteCommentBy(p *principal, c *comment) *wire.Error {
	if !s.mayTx(p, c) {
		return errDenied("comment")
	}
	s.dropComment(c)
	s.recordEvent(evCommentDelete, p.user, c.file, s.commentRecord(c))
	return nil
}

// listFileComments serves GET /files/{file_id}/comments.
func (s *Server) listFileComments(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := fileIDLoose(r)
	if aerr != nil {
		return aerr
	}
	q, aerr := wire.ParseListPage(r.URL.Query(), false)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.listFileCommentsTx(p, id, q, fields)
	})
}

// listFileCommentsTx is the transaction of GET /files/{file_id}/comments.
// (listFileComments): what it checks, reads and changes under the state's
// lock, and its reply. Callers hold mu.
func (s *state) listFileCommentsTx(p *principal, id string, q wire.Page, fields []string) (reply, *wire.Error) {
	f, aerr := s.lookupFor(p, "file", id, actPreview)
	if aerr != nil {
		return reply{}, aerr
	}
	return reply{http.StatusOK, wire.OffsetEntries(s.comments.byFile[f.id], q, func(*comment) bool { return false },
		func(c *comment) any { return pickFields(s.commentRecord(c), fields, "type", "id") })}, nil
}

// recComment is a comment.
type recComment struct {
	File, ReplyTo, Message, Tagged, By string
	CreatedAt, ModifiedAt              time.Time
}

func (s *state) commentKeys() []string { return sortedKeys(s.comments.byID) }

func (s *state) commentRec(id string) (recComment, bool) {
	c, ok := s.comments.byID[id]
	if !ok {
		return recComment{}, false
	}
	return recComment{File: c.file.id, ReplyTo: c.replyTo, Message: c.message, Tagged: c.tagged, By: uid(c.by),
		CreatedAt: utc(c.createdAt), ModifiedAt: utc(c.modifiedAt)}, true
}

func (s *state) loadComment(id string, r recComment) error {
	f, ok := s.items[r.File]
	if !ok {
		return errString("refserver: comment " + id + " on a missing file " + r.File)
	}
	by, err := s.userByRef(r.By)
	if err != nil {
		return err
	}
	c := &comment{id: id, file: f, replyTo: r.ReplyTo, message: r.Message, tagged: r.Tagged, by: by,
		createdAt: r.CreatedAt, modifiedAt: r.ModifiedAt}
	s.comments.byID[id] = c
	return nil
}

// commentsLoaded orders each file's comments by creation (ids grow).
func (s *state) commentsLoaded() error {
	for _, c := range s.comments.byID {
		s.comments.byFile[c.file.id] = append(s.comments.byFile[c.file.id], c)
	}
	for _, list := range s.comments.byFile {
		slices.SortFunc(list, func(a, b *comment) int { return wire.CompareIDs(a.id, b.id) })
	}
	return nil
}
