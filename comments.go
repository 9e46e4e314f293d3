package cms

import (
	"context"
	"iter"
	"net/http"
	"strings"
	"time"
)

// CommentsService handles comments on files (/comments,
// /files/{file_id}/comments): a comment on a file, or a reply to a
// comment, with @mentions in its tagged message. Only the author (or an
// admin, or the file's owner) may change or delete a comment.
type CommentsService service

// Comment is a comment (Comment--Full).
type Comment struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
	// IsReplyComment is true for a reply to another comment.
	IsReplyComment bool `json:"is_reply_comment"`
	// Message is the comment's text; mentions read as "@name".
	Message string `json:"message,omitzero"`
	// TaggedMessage is the text with its mentions as @[user_id:name]; see
	// ParseMentions.
	TaggedMessage string    `json:"tagged_message,omitzero"`
	CreatedBy     *UserMini `json:"created_by,omitzero"`
	CreatedAt     time.Time `json:"created_at,omitzero"`
	ModifiedAt    time.Time `json:"modified_at,omitzero"`
	// Item is the file the comment is on, or the comment it answers
	// ({id, type}).
	Item *ItemRef `json:"item,omitzero"`
}

// Mention is one @mention of a tagged message: the user mentioned and the
// name shown.
type Mention struct {
	UserID string
	Name   string
}

// String writes the mention as a tagged message takes it: @[user_id:name].
// The characters that would end the mention early ("[", "]" and, in the
// id, ":") are dropped.
func (m Mention) String() string {
	drop := func(s, chars string) string { // bytewise: the characters are ASCII
		b := make([]byte, 0, len(s))
		for i := 0; i < len(s); i++ {
			if strings.IndexByte(chars, s[i]) < 0 {
				b = append(b, s[i])
			}
		}
		return string(b)
	}
	return "@[" + drop(m.UserID, "[]:") + ":" + drop(m.Name, "[]") + "]"
}

// Mentions builds a tagged message from its parts: strings are copied, a
// Mention is written as @[user_id:name]. For example
// Mentions(Mention{"123", "Ann"}, " please review") is
// "@[123:Ann] please review".
func Mentions(parts ...any) string {
	var b strings.Builder
	for _, p := range parts {
		switch p := p.(type) {
		case Mention:
			b.WriteString(p.String())
		case string:
			b.WriteString(p)
		}
	}
	return b.String()
}

// parseMention reads a mention at the start of s ("@[id:name]"), returning
// it and its length; ok is false when s does not start with one.
func parseMention(s string) (m Mention, n int, ok bool) {
	if !strings.HasPrefix(s, "@[") {
		return Mention{}, 0, false
	}
	end := strings.IndexByte(s, ']')
	if end < 0 {
		return Mention{}, 0, false
	}
	inner := s[2:end]
	id, name, found := strings.Cut(inner, ":")
	if !found || id == "" || strings.ContainsAny(inner, "[") {
		return Mention{}, 0, false
	}
	for _, r := range id {
		if r < '0' || r > '9' {
			return Mention{}, 0, false
		}
	}
	return Mention{UserID: id, Name: name}, end + 1, true
}

// ParseMentions returns the mentions of a tagged message, in order: each
// @[user_id:name] whose user_id is a number. Anything else is text.
func ParseMentions(tagged string) []Mention {
	var out []Mention
	for i := 0; i < len(tagged); {
		j := strings.Index(tagged[i:], "@[")
		if j < 0 {
			break
		}
		i += j
		if m, n, ok := parseMention(tagged[i:]); ok {
			out = append(out, m)
			i += n
			continue
		}
		i += 2
	}
	return out
}

// PlainMessage renders a tagged message as plain text: each mention
// becomes "@name" (the service's message for a tagged comment).
func PlainMessage(tagged string) string {
	var b strings.Builder
	for i := 0; i < len(tagged); {
		j := strings.Index(tagged[i:], "@[")
		if j < 0 {
			b.WriteString(tagged[i:])
			break
		}
		b.WriteString(tagged[i : i+j])
		i += j
		if m, n, ok := parseMention(tagged[i:]); ok {
			b.WriteString("@" + m.Name)
			i += n
			continue
		}
		b.WriteString("@[")
		i += 2
	}
	return b.String()
}

// CreateCommentRequest is the body of CommentsService.Create.
type CreateCommentRequest struct {
	// Item is the file to comment on (ItemTypeFile), or the comment to
	// answer (ItemTypeComment).
	Item ItemRef `json:"item"`
	// Message is the text. With TaggedMessage set and Message empty, the
	// SDK sends PlainMessage(TaggedMessage), as the service requires a
	// message.
	Message string `json:"message"`
	// TaggedMessage is the text with @[user_id:name] mentions (see
	// Mentions); each mentioned user is notified.
	TaggedMessage string `json:"tagged_message,omitzero"`
}

// Create comments on a file, or answers a comment (POST /comments; the
// service answers 201). The same comment made again at once fails with an
// *APIError matching ErrRecentSimilarComment. A POST is not retried
// blindly.
func (s *CommentsService) Create(ctx context.Context, body *CreateCommentRequest, opts *FieldsOptions) (*Comment, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := body.Item.check("item", ItemTypeFile, ItemTypeComment); err != nil {
		return nil, nil, err
	}
	b := *body
	if b.Message == "" {
		b.Message = PlainMessage(b.TaggedMessage)
	}
	if strings.TrimSpace(b.Message) == "" {
		return nil, nil, invalidArg("message", "empty")
	}
	return callAPI[Comment](ctx, s.client, http.MethodPost, &b, opts, "comments")
}

// Reply answers a comment (POST /comments with item {type: comment}); it is
// Create with the comment as the item. message may carry mentions: it is
// sent as the tagged message when it has any.
func (s *CommentsService) Reply(ctx context.Context, commentID, message string, opts *FieldsOptions) (*Comment, *Response, error) {
	body := &CreateCommentRequest{Item: ItemRef{Type: ItemTypeComment, ID: commentID}, Message: message}
	if len(ParseMentions(message)) > 0 {
		body = &CreateCommentRequest{Item: body.Item, TaggedMessage: message}
	}
	return s.Create(ctx, body, opts)
}

// Get fetches a comment (GET /comments/{comment_id}).
func (s *CommentsService) Get(ctx context.Context, commentID string, opts *FieldsOptions) (*Comment, *Response, error) {
	if err := checkID("comment", commentID); err != nil {
		return nil, nil, err
	}
	return getAPI[Comment](ctx, s.client, opts, "comments", commentID)
}

// UpdateCommentRequest is the body of CommentsService.Update.
type UpdateCommentRequest struct {
	// Message is the new text (required).
	Message string `json:"message"`
}

// Update changes a comment's text (PUT /comments/{comment_id}): the author
// only (or an admin).
func (s *CommentsService) Update(ctx context.Context, commentID string, body *UpdateCommentRequest, opts *FieldsOptions) (*Comment, *Response, error) {
	if err := checkID("comment", commentID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if strings.TrimSpace(body.Message) == "" {
		return nil, nil, invalidArg("message", "empty")
	}
	return callAPI[Comment](ctx, s.client, http.MethodPut, body, opts, "comments", commentID)
}

// Delete deletes a comment for good (DELETE /comments/{comment_id}): the
// author only (or an admin, or the file's owner).
func (s *CommentsService) Delete(ctx context.Context, commentID string) (*Response, error) {
	if err := checkID("comment", commentID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "comments", commentID)
}

// ListCommentsOptions are the options of CommentsService.ListByFile.
type ListCommentsOptions struct {
	// Fields selects the fields of each comment (query fields), for example
	// tagged_message.
	Fields []string `url:"fields,comma,omitempty"`
	// Offset (at most 10000) and Limit (at most 1000) page the list.
	Offset int `url:"offset,omitempty"`
	Limit  int `url:"limit,omitempty"`
}

// ListByFile returns one offset page of a file's comments, replies
// included (GET /files/{file_id}/comments).
func (s *CommentsService) ListByFile(ctx context.Context, fileID string, opts *ListCommentsOptions) (*OffsetPage[*Comment], *Response, error) {
	if err := checkID("file", fileID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListCommentsOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, opts.Limit); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*Comment]](ctx, s.client, opts, "files", fileID, "comments")
}

// listByFilePages pages ListByFile with a private copy of opts.
func (s *CommentsService) listByFilePages(fileID string, opts *ListCommentsOptions) (int, offsetPageFunc[*Comment]) {
	return pageFuncs(opts, func(o *ListCommentsOptions) *int { return &o.Offset },
		func(ctx context.Context, o *ListCommentsOptions) (*OffsetPage[*Comment], *Response, error) {
			return s.ListByFile(ctx, fileID, o)
		})
}

// ListByFileIter yields every comment of a file, fetching offset pages
// (GET /files/{file_id}/comments) lazily. It never changes opts.
func (s *CommentsService) ListByFileIter(ctx context.Context, fileID string, opts *ListCommentsOptions) iter.Seq2[*Comment, error] {
	start, fetch := s.listByFilePages(fileID, opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListByFilePaginator walks a file's comments one offset page at a time
// (GET /files/{file_id}/comments). It never changes opts.
func (s *CommentsService) NewListByFilePaginator(fileID string, opts *ListCommentsOptions) *OffsetPaginator[*Comment] {
	return newOffsetPaginator(s.listByFilePages(fileID, opts))
}
