package state

import (
	"slices"
	"time"

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
//     @[user_id:name]; its message is the text with each mention as
//     @name (@[16:Bob] reads @Bob). The same
//     text by the same user on the same item within 10 seconds is 409
//     recent_similar_comment (the service's code for a duplicate).
//   - GET /comments/{id}: who may preview its file; else 404.
//   - PUT /comments/{id} (message) and DELETE: the author, the file's owner
//     or the admin; others 403 access_denied_insufficient_permissions.
//   - GET /files/{file_id}/comments: every comment of the file, replies
//     included, oldest first, offset paged (limit default 100, at most 1000).
//   - Comments leave with their file when it is deleted for good; their
//     text is searchable (content_types=comments) by who may preview the
//     file, and their events and COMMENT.* webhooks go to who may preview
//     it (an uploader is shown neither).

// The duplicate comment's error code, the longest message, and how long a
// comment counts as recent for the duplicate check.
const (
	CodeRecentSimilarComment = "recent_similar_comment"
	MaxCommentLength         = 10_000
	similarCommentWindow     = 10 * time.Second
)

// Comment is a comment on a file. Its fields are read and changed only in a transaction.
type Comment struct {
	id         string
	file       *Item
	replyTo    string // the comment it answers, "" for none
	message    string // the text (mentions as @name)
	tagged     string // tagged_message as sent, "" for none
	by         *User
	createdAt  time.Time
	modifiedAt time.Time
}

// commentState is the server's comments, reached only through a transaction.
type commentState struct {
	byID   Table[*Comment]
	byFile map[string][]*Comment // oldest first
}

// InitComments prepares the (empty) state of comments; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitComments() {
	s.comments = commentState{byID: newTable[*Comment](s.Env, KComments), byFile: map[string][]*Comment{}}
}

// CommentRecord is c's Comment record: its item is the file, or the
// comment it answers.
func (s *Tx) CommentRecord(c *Comment) map[string]any {
	rec := map[string]any{
		"type": "comment", "id": c.id, "is_reply_comment": c.replyTo != "", "message": c.message,
		"created_by": c.by.Mini(), "created_at": FmtTime(c.createdAt), "modified_at": FmtTime(c.modifiedAt),
		"item": map[string]any{"type": "file", "id": c.file.ID},
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
func (s *ReadTx) commentTexts(f *Item) []string {
	if f.Typ != "file" { // a folder may share the id (SeparateIDSpaces)
		return nil
	}
	var out []string
	for _, c := range s.comments.byFile[f.ID] {
		out = append(out, c.message)
	}
	return out
}

func (s *Tx) addComment(c *Comment) {
	s.comments.byID.Put(c.id, c)
	s.comments.byFile[c.file.ID] = append(s.comments.byFile[c.file.ID], c)
	s.Search.changed(c.file)
}

func (s *Tx) dropComment(c *Comment) {
	s.comments.byID.Delete(c.id)
	wire.RemoveKeyed(s.comments.byFile, c.file.ID, c)
	s.Search.changed(c.file)
}

// commentsItemPurged drops the comments of a file deleted for good.
func (s *Tx) commentsItemPurged(it *Item) {
	if it.Typ != "file" { // a folder may share the id (SeparateIDSpaces)
		return
	}
	for _, c := range slices.Clone(s.comments.byFile[it.ID]) {
		s.dropComment(c)
	}
}

// CreateComment serves POST /comments (refserver's createComment): p's
// comment msg (tag: the tagged_message as sent) on the item itemType
// itemID: a file, or a comment it replies to (addCommentBy); 201 with its
// record.
func (s *Tx) CreateComment(p *Principal, itemType, itemID, msg, tag string, fields []string) (Reply, *wire.Error) {
	c, aerr := s.addCommentBy(p, itemType, itemID, msg, tag)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusCreated, PickFields(s.CommentRecord(c), fields, "type", "id")}, nil
}

// addCommentBy makes p's comment on the file id (typ "file") or answer to
// the comment id (typ "comment"): 404 for what p cannot see, 403 when p
// may not preview the file, 409 recent_similar_comment for the same text
// again.
func (s *Tx) addCommentBy(p *Principal, typ, id, msg, tag string) (*Comment, *wire.Error) {
	c := &Comment{message: msg, tagged: tag, by: p.User, createdAt: s.NowSec()}
	c.modifiedAt = c.createdAt
	if typ == "comment" {
		parent, ok := s.comments.byID.Get(id)
		if !ok || !s.visible(p, parent.file) {
			return nil, wire.NotFound("comment")
		}
		c.replyTo, c.file = parent.id, parent.file
		if !s.Can(p, c.file, ActPreview) {
			return nil, ErrDenied("file")
		}
	} else {
		if !ValidID(id) {
			return nil, wire.NotFound("file")
		}
		f, aerr := s.LookupFor(p, "file", id, ActPreview)
		if aerr != nil {
			return nil, aerr
		}
		c.file = f
	}
	for _, o := range s.comments.byFile[c.file.ID] {
		if o.by == c.by && o.replyTo == c.replyTo && o.message == c.message && s.Now().Sub(o.createdAt) < similarCommentWindow {
			return nil, wire.Errorf(wire.StatusConflict, CodeRecentSimilarComment, "The same comment was just made")
		}
	}
	c.id = s.NewID()
	s.addComment(c)
	s.RecordEvent(evCommentCreate, p.User, c.file, s.CommentRecord(c))
	return c, nil
}

// CommentFor finds the comment with id for p (who may preview its file).
func (s *Tx) CommentFor(id string, p *Principal) (*Comment, *wire.Error) {
	c, ok := s.comments.byID.Get(id)
	if !ok || s.InTrash(c.file) || !s.Can(p, c.file, ActPreview) {
		return nil, wire.NotFound("comment")
	}
	return c, nil
}

// mayTx reports whether p may edit or delete c: its author, the
// file's owner, the admin.
func (s *Tx) mayTx(p *Principal, c *Comment) bool {
	return c.by == p.User || c.file.Owner == p.User || p.SeesAll()
}

// UpdateComment serves PUT /comments/{comment_id} (updateComment): the
// comment's new message (editComment), 200 with its record.
func (s *Tx) UpdateComment(id string, p *Principal, msg string, fields []string) (Reply, *wire.Error) {
	c, aerr := s.editComment(id, p, msg)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, PickFields(s.CommentRecord(c), fields, "type", "id")}, nil
}

// editComment replaces the message of the comment with id, for its
// author, the file's owner or the admin (403 for others).
func (s *Tx) editComment(id string, p *Principal, msg string) (*Comment, *wire.Error) {
	c, aerr := s.CommentFor(id, p)
	if aerr != nil {
		return nil, aerr
	}
	if !s.mayTx(p, c) {
		return nil, ErrDenied("comment")
	}
	s.comments.byID.Update(c.id, func(c *Comment) { c.message, c.tagged, c.modifiedAt = msg, "", s.NowSec() })
	s.Search.changed(c.file)
	s.RecordEvent(evCommentUpdate, p.User, c.file, s.CommentRecord(c))
	return c, nil
}

// DeleteCommentBy deletes c for its author, the file's owner or the admin
// (403 for others); its replies stay.
func (s *Tx) DeleteCommentBy(p *Principal, c *Comment) *wire.Error {
	if !s.mayTx(p, c) {
		return ErrDenied("comment")
	}
	s.dropComment(c)
	s.RecordEvent(evCommentDelete, p.User, c.file, s.CommentRecord(c))
	return nil
}

// ListFileComments serves GET /files/{file_id}/comments
// (listFileComments): an offset page of the file's comments, replies
// included, oldest first, for who may preview it.
func (s *Tx) ListFileComments(p *Principal, id string, q wire.Page, fields []string) (Reply, *wire.Error) {
	f, aerr := s.LookupFor(p, "file", id, ActPreview)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, wire.OffsetEntries(s.comments.byFile[f.ID], q, func(*Comment) bool { return false },
		func(c *Comment) any { return PickFields(s.CommentRecord(c), fields, "type", "id") })}, nil
}

// CommentFields is a comment as plain data: what the persistence stores
// (internal/persist builds its record from it) and gives back on a
// restore (RestoreComment).
type CommentFields struct {
	ID                       string
	File                     *Item
	ReplyTo, Message, Tagged string
	By                       *User
	CreatedAt, ModifiedAt    time.Time
}

// CommentIDs lists the ids of the comments, sorted.
func (s *ReadTx) CommentIDs() []string { return s.comments.byID.Keys() }

// CommentFields is comment id as plain data, false when it is gone.
func (s *ReadTx) CommentFields(id string) (CommentFields, bool) {
	c, ok := s.comments.byID.Get(id)
	if !ok {
		return CommentFields{}, false
	}
	return CommentFields{ID: c.id, File: c.file, ReplyTo: c.replyTo, Message: c.message, Tagged: c.tagged, By: c.by,
		CreatedAt: c.createdAt, ModifiedAt: c.modifiedAt}, true
}

// RestoreComment keeps a comment given back by the persistence, on a
// restore (after the items and users it points to); IndexComments then
// files them by file.
func (s *Tx) RestoreComment(f CommentFields) {
	s.comments.byID.Put(f.ID, &Comment{id: f.ID, file: f.File, replyTo: f.ReplyTo, message: f.Message, tagged: f.Tagged,
		by: f.By, createdAt: f.CreatedAt, modifiedAt: f.ModifiedAt})
}

// IndexComments files every comment under its file, oldest first (ids
// grow): once a restore has given them all back.
func (s *Tx) IndexComments() {
	for _, c := range s.comments.byID.All() {
		s.comments.byFile[c.file.ID] = append(s.comments.byFile[c.file.ID], c)
	}
	for _, list := range s.comments.byFile {
		slices.SortFunc(list, func(a, b *Comment) int { return wire.CompareIDs(a.id, b.id) })
	}
}
