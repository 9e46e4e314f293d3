package state

import (
	"slices"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Webhooks (V2): POST /webhooks, GET /webhooks (marker pages), GET, PUT and
// DELETE /webhooks/{webhook_id} (spec; the webhooks guide and its
// limitations page). Deliveries are in webhook_delivery.go.
//
// Rules:
//   - target {id, type file|folder} must be an item the caller may see (404
//     not_found otherwise) and not the root folder 0 ("V2 webhooks cannot be
//     created on the root folder": 400 bad_request);
//   - address: a public https URL on port 443, as the service requires;
//     this reference server also takes http on a loopback host (127.0.0.1,
//     ::1, localhost; any port), so tests can receive deliveries, and any
//     URL to a host the operator allows (Options.WebhookAllowedHosts); 400
//     bad_request otherwise (the rule: internal/hookaddr; deliveries check
//     it again, on the resolved addresses);
//   - triggers: a non-empty list of the spec's trigger names, those of a
//     folder (FOLDER.*, COLLABORATION.*) only on a folder target, none that
//     cannot happen on this server (neverFires) (400 bad_request);
//   - one webhook per target and user ("one webhook for each item, each
//     application and each authenticated user"): a second is 409 conflict;
//     at most 1000 per user (400 bad_request);
//   - a user lists, reads, changes and deletes the webhooks they created;
//     another's is 404 not_found. The app token has no webhooks (403, as
//     for an application without the manage webhooks scope).

const maxWebhooksPerUser = 1000

// webhookTriggers are the triggers of the spec, each with whether it is
// a folder's only. Every one fires on this server where its change is
// made (webhookTrigger, fireTrigger; the table test
// TestWebhookEveryTriggerFires), but those in neverFires.
var webhookTriggers = map[string]bool{
	"FILE.UPLOADED": false, "FILE.PREVIEWED": false, "FILE.DOWNLOADED": false, "FILE.TRASHED": false,
	"FILE.DELETED": false, "FILE.RESTORED": false, "FILE.COPIED": false, "FILE.MOVED": false,
	"FILE.LOCKED": false, "FILE.UNLOCKED": false, "FILE.RENAMED": false,
	"COMMENT.CREATED": false, "COMMENT.UPDATED": false, "COMMENT.DELETED": false,
	"TASK_ASSIGNMENT.CREATED": false, "TASK_ASSIGNMENT.UPDATED": false,
	"METADATA_INSTANCE.CREATED": false, "METADATA_INSTANCE.UPDATED": false, "METADATA_INSTANCE.DELETED": false,
	"FOLDER.CREATED": true, "FOLDER.RENAMED": true, "FOLDER.DOWNLOADED": true, "FOLDER.RESTORED": true,
	"FOLDER.DELETED": true, "FOLDER.COPIED": true, "FOLDER.MOVED": true, "FOLDER.TRASHED": true,
	"WEBHOOK.DELETED":       false,
	"COLLABORATION.CREATED": true, "COLLABORATION.ACCEPTED": true, "COLLABORATION.REJECTED": true,
	"COLLABORATION.REMOVED": true, "COLLABORATION.UPDATED": true,
	"SHARED_LINK.DELETED": false, "SHARED_LINK.CREATED": false, "SHARED_LINK.UPDATED": false,
	"SIGN_REQUEST.COMPLETED": false, "SIGN_REQUEST.DECLINED": false, "SIGN_REQUEST.EXPIRED": false,
	"SIGN_REQUEST.SIGNER_EMAIL_BOUNCED": false, "SIGN_REQUEST.SIGN_SIGNER_SIGNED": false,
	"SIGN_REQUEST.SIGN_DOCUMENT_CREATED": false, "SIGN_REQUEST.SIGN_ERROR_FINALIZING": false,
}

// neverFires are the spec's triggers whose change cannot happen on this
// server: it has no Box Sign requests and no folder downloads (zip
// downloads). A webhook asking for one is refused (400 bad_request, as an
// unknown trigger) rather than left waiting forever.
var neverFires = map[string]bool{
	"FOLDER.DOWNLOADED":      true,
	"SIGN_REQUEST.COMPLETED": true, "SIGN_REQUEST.DECLINED": true, "SIGN_REQUEST.EXPIRED": true,
	"SIGN_REQUEST.SIGNER_EMAIL_BOUNCED": true, "SIGN_REQUEST.SIGN_SIGNER_SIGNED": true,
	"SIGN_REQUEST.SIGN_DOCUMENT_CREATED": true, "SIGN_REQUEST.SIGN_ERROR_FINALIZING": true,
}

// FiringTriggers lists, sorted, the triggers a webhook may ask for on
// this server: every trigger of the spec but those in neverFires.
func FiringTriggers() []string {
	var out []string
	for t := range webhookTriggers {
		if !neverFires[t] {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// triggerReadAction is the action a webhook's creator needs on the item
// to be sent a trigger's payload: a comment's text goes to who may preview
// the file (an uploader sees the file's name, not its comments).
func triggerReadAction(trigger string) Action {
	if strings.HasPrefix(trigger, "COMMENT.") {
		return ActPreview
	}
	return ActSee
}

// Webhook is a configured webhook. Its fields are read and changed only in a transaction.
type Webhook struct {
	ID         string
	targetID   string
	targetType string
	Address    string
	triggers   []string
	createdBy  *User
	createdAt  time.Time
}

// webhookState is the server's webhooks, reached only through a transaction.
type webhookState struct {
	ByID Table[*Webhook]
}

// InitWebhooks prepares the (empty) state of webhooks; called by
// InitResources, and to empty the state before a restore.
func (s *Tx) InitWebhooks() { s.Webhooks = webhookState{ByID: newTable[*Webhook](s.Env, KWebhooks)} }

// WebhookFields is a webhook as plain data: what the persistence stores
// (internal/persist builds its record from it) and gives back on a
// restore (RestoreWebhook).
type WebhookFields struct {
	ID, TargetID, TargetType, Address string
	Triggers                          []string
	CreatedBy                         *User
	CreatedAt                         time.Time
}

// Fields is w as plain data.
func (w *Webhook) Fields() WebhookFields {
	return WebhookFields{ID: w.ID, TargetID: w.targetID, TargetType: w.targetType, Address: w.Address,
		Triggers: w.triggers, CreatedBy: w.createdBy, CreatedAt: w.createdAt}
}

// RestoreWebhook keeps a webhook given back by the persistence, on a
// restore (after the users it points to).
func (s *Tx) RestoreWebhook(f WebhookFields) {
	s.Webhooks.ByID.Put(f.ID, &Webhook{ID: f.ID, targetID: f.TargetID, targetType: f.TargetType, Address: f.Address,
		triggers: f.Triggers, createdBy: f.CreatedBy, createdAt: f.CreatedAt})
}

// CreatorID is the id of the user who created the webhook (its owner).
func (w *Webhook) CreatorID() string { return w.createdBy.ID }

// Record is the Webhook record.
func (w *Webhook) Record() map[string]any {
	return map[string]any{
		"type": "webhook", "id": w.ID,
		"target":     map[string]any{"id": w.targetID, "type": w.targetType},
		"created_by": w.createdBy.Mini(), "created_at": FmtTime(w.createdAt),
		"address": w.Address, "triggers": w.triggers,
	}
}

// WebhookBody is the body of POST and PUT /webhooks.
type WebhookBody struct {
	Target *struct {
		ID   *string `json:"id"`
		Type *string `json:"type"`
	} `json:"target"`
	Address  *string  `json:"address"`
	Triggers []string `json:"triggers"`
	HasTrig  bool     `json:"-"` // the body has triggers (set by the handler from the raw body)
}

// CheckTriggers applies the trigger rule for a target type.
func CheckTriggers(triggers []string, targetType string) ([]string, *wire.Error) {
	if len(triggers) == 0 {
		return nil, wire.BadRequest("triggers must name at least one trigger")
	}
	out := make([]string, 0, len(triggers))
	for _, t := range triggers {
		folderOnly, known := webhookTriggers[t]
		if !known {
			return nil, wire.BadRequest("Invalid trigger %q", t)
		}
		if neverFires[t] {
			return nil, wire.BadRequest("Trigger %s never fires on this server", t)
		}
		if folderOnly && targetType != "folder" {
			return nil, wire.BadRequest("Trigger %s is for folder targets", t)
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// checkHookAddress applies the address rule (see the top of the file).
func (s *Tx) checkHookAddress(address string) *wire.Error {
	if err := s.HookAddrs.CheckURL(address); err != nil {
		return wire.BadRequest("Invalid address %q: %v", address, err)
	}
	return nil
}

// webhookTarget checks a target for p.
func (s *Tx) webhookTarget(p *Principal, id, typ string) (*Item, *wire.Error) {
	if typ != "file" && typ != "folder" {
		return nil, wire.BadRequest("target.type must be file or folder")
	}
	if id == RootID {
		return nil, wire.BadRequest("Webhooks cannot be created on the root folder")
	}
	if !ValidID(id) {
		return nil, wire.NotFound(typ)
	}
	return s.Lookup(p, typ, id)
}

// duplicateWebhook returns the user's other webhook on the target, if any.
func (s *Tx) duplicateWebhook(u *User, target *Item, skip *Webhook) *Webhook {
	for _, w := range s.Webhooks.ByID.All() {
		if w != skip && w.createdBy == u && w.targetID == target.ID && w.targetType == target.Typ {
			return w
		}
	}
	return nil
}

// CreateWebhook serves POST /webhooks (refserver's createWebhook): p's
// webhook on body's target with the checked triggers (addWebhook); 201
// with its record.
func (s *Tx) CreateWebhook(p *Principal, body *WebhookBody, triggers []string) (Reply, *wire.Error) {
	if aerr := s.checkHookAddress(*body.Address); aerr != nil {
		return Reply{}, aerr
	}
	hook, aerr := s.addWebhook(p, *body.Target.ID, *body.Target.Type, *body.Address, triggers)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusCreated, hook.Record()}, nil
}

// addWebhook creates p's webhook on the target item: 404 for an item p
// cannot see, 409 for a second webhook of p on it, 400 past
// maxWebhooksPerUser.
func (s *Tx) addWebhook(p *Principal, targetID, targetType, address string, triggers []string) (*Webhook, *wire.Error) {
	it, aerr := s.webhookTarget(p, targetID, targetType)
	if aerr != nil {
		return nil, aerr
	}
	if s.duplicateWebhook(p.User, it, nil) != nil {
		return nil, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A webhook for this target and user already exists")
	}
	n := 0
	for _, o := range s.Webhooks.ByID.All() {
		if o.createdBy == p.User {
			n++
		}
	}
	if n >= maxWebhooksPerUser {
		return nil, wire.BadRequest("A user can have at most %d webhooks", maxWebhooksPerUser)
	}
	hook := &Webhook{ID: s.NewID(), targetID: it.ID, targetType: it.Typ, Address: address,
		triggers: triggers, createdBy: p.User, createdAt: s.NowSec()}
	s.Webhooks.ByID.Put(hook.ID, hook)
	return hook, nil
}

// OwnWebhook returns the webhook with id that p created.
func (s *Tx) OwnWebhook(id string, p *Principal) (*Webhook, *wire.Error) {
	hook, ok := s.Webhooks.ByID.Get(id)
	if !ok || !ValidID(id) || hook.createdBy != p.User {
		return nil, wire.NotFound("webhook")
	}
	return hook, nil
}

// UpdateWebhook serves PUT /webhooks/{webhook_id} (updateWebhook): p's
// webhook takes body's target, address and triggers (editWebhook); 200
// with its record.
func (s *Tx) UpdateWebhook(id string, p *Principal, body *WebhookBody) (Reply, *wire.Error) {
	if body.Address != nil {
		if aerr := s.checkHookAddress(*body.Address); aerr != nil {
			return Reply{}, aerr
		}
	}
	hook, aerr := s.editWebhook(id, p, body)
	if aerr != nil {
		return Reply{}, aerr
	}
	return Reply{wire.StatusOK, hook.Record()}, nil
}

// editWebhook changes p's webhook with id as body says (target, address,
// triggers), under the rules of a new webhook; nothing changes when a rule
// refuses.
func (s *Tx) editWebhook(id string, p *Principal, body *WebhookBody) (*Webhook, *wire.Error) {
	hook, aerr := s.OwnWebhook(id, p)
	if aerr != nil {
		return nil, aerr
	}
	targetID, targetType := hook.targetID, hook.targetType
	if body.Target != nil {
		if body.Target.ID == nil || body.Target.Type == nil {
			return nil, wire.BadRequest("target needs id and type")
		}
		it, aerr := s.webhookTarget(p, *body.Target.ID, *body.Target.Type)
		if aerr != nil {
			return nil, aerr
		}
		if s.duplicateWebhook(p.User, it, hook) != nil {
			return nil, wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A webhook for this target and user already exists")
		}
		targetID, targetType = it.ID, it.Typ
	}
	triggers := hook.triggers
	if body.HasTrig || targetType != hook.targetType {
		src := hook.triggers
		if body.HasTrig {
			src = body.Triggers
		}
		if triggers, aerr = CheckTriggers(src, targetType); aerr != nil {
			return nil, aerr
		}
	}
	s.Webhooks.ByID.Update(hook.ID, func(hook *Webhook) {
		hook.targetID, hook.targetType, hook.triggers = targetID, targetType, triggers
		if body.Address != nil {
			hook.Address = *body.Address
		}
	})
	return hook, nil
}

// RemoveWebhook deletes hook; one with the WEBHOOK.DELETED trigger is told
// so (by is who deleted it).
func (s *Tx) RemoveWebhook(hook *Webhook, by *User) {
	s.Webhooks.ByID.Delete(hook.ID)
	if slices.Contains(hook.triggers, "WEBHOOK.DELETED") {
		s.out.deliver(newDelivery(hook, "WEBHOOK.DELETED", by, hook.Record()))
	}
}

// WebhooksPage is a marker page of p's webhooks, by id.
func (s *Tx) WebhooksPage(p *Principal, q wire.Page) map[string]any {
	var own []*Webhook
	for _, hook := range s.Webhooks.ByID.All() {
		if hook.createdBy == p.User {
			own = append(own, hook)
		}
	}
	slices.SortFunc(own, func(a, b *Webhook) int { return wire.CompareIDs(a.ID, b.ID) })
	return wire.MarkerEntries(own, q, func(h *Webhook) int64 { return NumID(h.ID) }, func(h *Webhook) any { return h.Record() })
}

// webhookTrigger is the trigger of an event on an item of a type, "" for
// none.
func webhookTrigger(eventType, itemType string) string {
	prefix := "FILE."
	if itemType == "folder" {
		prefix = "FOLDER."
	}
	switch eventType {
	case evItemUpload:
		if itemType == "file" {
			return "FILE.UPLOADED"
		}
	case evItemCreate:
		if itemType == "folder" {
			return "FOLDER.CREATED"
		}
	case evItemRename:
		return prefix + "RENAMED"
	case evItemMove:
		return prefix + "MOVED"
	case evItemCopy:
		return prefix + "COPIED"
	case evItemTrash:
		return prefix + "TRASHED"
	case evItemUndelete:
		return prefix + "RESTORED"
	case EvItemDownload:
		return prefix + "DOWNLOADED"
	case evItemPreview:
		if itemType == "file" {
			return "FILE.PREVIEWED"
		}
	case evTaskAssignCreate:
		return "TASK_ASSIGNMENT.CREATED"
	case evTaskAssignUpdate:
		return "TASK_ASSIGNMENT.UPDATED"
	case evSharedCreate:
		return "SHARED_LINK.CREATED"
	case evSharedUpdate:
		return "SHARED_LINK.UPDATED"
	case evSharedUnshare:
		return "SHARED_LINK.DELETED"
	case evCollabRoleChange:
		return "COLLABORATION.UPDATED"
	case evCollabAdd:
		return "COLLABORATION.CREATED"
	case evCollabRemove:
		return "COLLABORATION.REMOVED"
	case evLockCreate:
		return "FILE.LOCKED"
	case evLockDestroy:
		return "FILE.UNLOCKED"
	case evCommentCreate:
		return "COMMENT.CREATED"
	case evCommentUpdate:
		return "COMMENT.UPDATED"
	case evCommentDelete:
		return "COMMENT.DELETED"
	}
	if rest, ok := strings.CutPrefix(eventType, "METADATA_INSTANCE_"); ok {
		return "METADATA_INSTANCE." + rest + "D"
	}
	return ""
}
