package persist

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// Records of collaborations, comments and webhooks, built from the plain
// views the state gives of them (state.CollabFields, CommentFields,
// WebhookFields) and given back through its restore operations.

// recCollab is a collaboration.
type recCollab struct {
	Item, User, Group, InviteEmail, Role, Status string
	AccessOnly, CanViewPath                      bool
	ExpiresAt, CreatedAt, ModifiedAt, AckAt      time.Time
	CreatedBy                                    string
	GrantedSeq                                   int64 `json:",omitzero"`
}

// CollabKeys lists the ids of the collaborations, sorted.
func CollabKeys(s *state.ReadTx) []string { return s.CollabIDs() }

// CollabRec is the record of collaboration id, false when it is gone.
func CollabRec(s *state.ReadTx, id string) (recCollab, bool) {
	c, ok := s.CollabFields(id)
	if !ok {
		return recCollab{}, false
	}
	r := recCollab{Item: s.Items.Ref(c.Item), User: userID(c.User), InviteEmail: c.InviteEmail, Role: c.Role, Status: c.Status,
		AccessOnly: c.AccessOnly, CanViewPath: c.CanViewPath, ExpiresAt: utcTime(c.ExpiresAt), CreatedAt: utcTime(c.CreatedAt),
		ModifiedAt: utcTime(c.ModifiedAt), AckAt: utcTime(c.AckAt), CreatedBy: userID(c.CreatedBy), GrantedSeq: c.GrantedSeq}
	if c.Group != nil {
		r.Group = c.Group.ID
	}
	return r, true
}

// LoadCollab restores collaboration id (after the items, users and groups
// it points to).
func LoadCollab(s *state.Tx, id string, r recCollab) error {
	it, ok := s.Items.ByRef(r.Item)
	if !ok {
		return state.ErrString("refserver: collaboration " + id + " on a missing item " + r.Item)
	}
	us, err := usersByRef(&s.Users, r.User, r.CreatedBy)
	if err != nil {
		return err
	}
	c := state.CollabFields{ID: id, Item: it, User: us[0], InviteEmail: r.InviteEmail, Role: r.Role, Status: r.Status,
		AccessOnly: r.AccessOnly, CanViewPath: r.CanViewPath, ExpiresAt: r.ExpiresAt, CreatedBy: us[1],
		CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt, AckAt: r.AckAt, GrantedSeq: r.GrantedSeq}
	if r.Group != "" {
		if c.Group = s.Groups.ByID.At(r.Group); c.Group == nil {
			return state.ErrString("refserver: collaboration " + id + " of a missing group " + r.Group)
		}
	}
	s.RestoreCollab(c)
	return nil
}

// recComment is a comment.
type recComment struct {
	File, ReplyTo, Message, Tagged, By string
	CreatedAt, ModifiedAt              time.Time
}

// CommentKeys lists the ids of the comments, sorted.
func CommentKeys(s *state.ReadTx) []string { return s.CommentIDs() }

// CommentRec is the record of comment id, false when it is gone.
func CommentRec(s *state.ReadTx, id string) (recComment, bool) {
	c, ok := s.CommentFields(id)
	if !ok {
		return recComment{}, false
	}
	return recComment{File: c.File.ID, ReplyTo: c.ReplyTo, Message: c.Message, Tagged: c.Tagged, By: userID(c.By),
		CreatedAt: utcTime(c.CreatedAt), ModifiedAt: utcTime(c.ModifiedAt)}, true
}

// LoadComment restores comment id (after the items and users it points
// to); CommentsLoaded files them by file.
func LoadComment(s *state.Tx, id string, r recComment) error {
	f, ok := s.Items.Get("file", r.File)
	if !ok {
		return state.ErrString("refserver: comment " + id + " on a missing file " + r.File)
	}
	by, err := userByRef(&s.Users, r.By)
	if err != nil {
		return err
	}
	s.RestoreComment(state.CommentFields{ID: id, File: f, ReplyTo: r.ReplyTo, Message: r.Message, Tagged: r.Tagged, By: by,
		CreatedAt: r.CreatedAt, ModifiedAt: r.ModifiedAt})
	return nil
}

// CommentsLoaded files the restored comments by file, oldest first.
func CommentsLoaded(s *state.Tx) error {
	s.IndexComments()
	return nil
}

// recWebhook is a webhook.
type recWebhook struct {
	TargetID, TargetType, Address string
	Triggers                      []string
	CreatedBy                     string
	CreatedAt                     time.Time
}

// WebhookKeys lists the ids of the webhooks, sorted.
func WebhookKeys(s *state.ReadTx) []string { return s.Webhooks.ByID.Keys() }

// WebhookRec is the record of webhook id, false when it is gone.
func WebhookRec(s *state.ReadTx, id string) (recWebhook, bool) {
	w, ok := s.Webhooks.ByID.Get(id)
	if !ok {
		return recWebhook{}, false
	}
	f := w.Fields()
	return recWebhook{TargetID: f.TargetID, TargetType: f.TargetType, Address: f.Address, Triggers: f.Triggers,
		CreatedBy: userID(f.CreatedBy), CreatedAt: utcTime(f.CreatedAt)}, true
}

// LoadWebhook restores webhook id (after the users it points to).
func LoadWebhook(s *state.Tx, id string, r recWebhook) error {
	by, err := userByRef(&s.Users, r.CreatedBy)
	if err != nil {
		return err
	}
	s.RestoreWebhook(state.WebhookFields{ID: id, TargetID: r.TargetID, TargetType: r.TargetType, Address: r.Address,
		Triggers: r.Triggers, CreatedBy: by, CreatedAt: r.CreatedAt})
	return nil
}
