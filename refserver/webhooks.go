package refserver

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
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
//   - address must be an absolute https URL; this reference server also
//     takes http on a loopback host (127.0.0.1, ::1, localhost), so tests
//     can receive deliveries; any port (the service: 443 only);
//   - triggers: a non-empty list of the spec's trigger names, those of a
//     folder (FOLDER.*) only on a folder target (400 bad_request);
//   - one webhook per target and user ("one webhook for each item, each
//     application and each authenticated user"): a second is 409 conflict;
//     at most 1000 per user (400 bad_request);
//   - a user lists, reads, changes and deletes the webhooks they created;
//     another's is 404 not_found. The app token has no webhooks (403, as
//     for an application without the manage webhooks scope).

const maxWebhooksPerUser = 1000

// webhookTriggers are the triggers of the spec, each with whether it is
// a folder's only.
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

// webhook is a configured webhook. Fields are guarded by Server.mu.
type webhook struct {
	id         string
	targetID   string
	targetType string
	address    string
	triggers   []string
	createdBy  *user
	createdAt  time.Time
}

// webhookState is the server's webhooks, guarded by Server.mu.
type webhookState struct {
	byID map[string]*webhook
}

func (s *state) initWebhooks() { s.webhooks = webhookState{byID: map[string]*webhook{}} }

func (w *webhook) record() map[string]any {
	return map[string]any{
		"type": "webhook", "id": w.id,
		"target":     map[string]any{"id": w.targetID, "type": w.targetType},
		"created_by": w.createdBy.mini(), "created_at": fmtTime(w.createdAt),
		"address": w.address, "triggers": w.triggers,
	}
}

// webhookBody is the body of POST and PUT /webhooks.
type webhookBody struct {
	Target *struct {
		ID   *string `json:"id"`
		Type *string `json:"type"`
	} `json:"target"`
	Address  *string  `json:"address"`
	Triggers []string `json:"triggers"`
	hasTrig  bool
}

func decodeWebhookBody(r *http.Request) (*webhookBody, *wire.Error) {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return nil, aerr
	}
	b, aerr := wire.ReadBody(r.Body)
	if aerr != nil {
		return nil, aerr
	}
	var body webhookBody
	if aerr := wire.DecodeJSON(bytes.NewReader(b), &body); aerr != nil {
		return nil, aerr
	}
	if aerr := wire.CheckNulls(b, wire.CodeBadRequest); aerr != nil {
		return nil, aerr
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(b, &raw)
	_, body.hasTrig = raw["triggers"]
	return &body, nil
}

// checkWebhookAddress applies the address rule (see the top of the file).
func checkWebhookAddress(a string) *wire.Error {
	u, err := url.Parse(a)
	if err != nil || !u.IsAbs() || u.Host == "" {
		return wire.BadRequest("Invalid address: an absolute https URL")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
			return nil
		}
	}
	return wire.BadRequest("Invalid address: an https URL (this server also takes http on a loopback host)")
}

// checkTriggers applies the trigger rule for a target type.
func checkTriggers(triggers []string, targetType string) ([]string, *wire.Error) {
	if len(triggers) == 0 {
		return nil, wire.BadRequest("triggers must name at least one trigger")
	}
	out := make([]string, 0, len(triggers))
	for _, t := range triggers {
		folderOnly, known := webhookTriggers[t]
		if !known {
			return nil, wire.BadRequest("Invalid trigger %q", t)
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

// webhookTarget checks a target for p. Callers hold s.mu.
func (s *state) webhookTarget(p *principal, id, typ string) (*item, *wire.Error) {
	if typ != "file" && typ != "folder" {
		return nil, wire.BadRequest("target.type must be file or folder")
	}
	if id == rootID {
		return nil, wire.BadRequest("Webhooks cannot be created on the root folder")
	}
	if !validID(id) {
		return nil, wire.NotFound(typ)
	}
	return s.lookup(p, typ, id)
}

// duplicateWebhook returns the user's other webhook on the target, if any.
func (s *state) duplicateWebhook(u *user, targetID string, skip *webhook) *webhook {
	for _, w := range s.webhooks.byID {
		if w != skip && w.createdBy == u && w.targetID == targetID {
			return w
		}
	}
	return nil
}

// createWebhook serves POST /webhooks: 201 Webhook.
func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request, p *principal) error {
	body, aerr := decodeWebhookBody(r)
	if aerr != nil {
		return aerr
	}
	if body.Target == nil || body.Target.ID == nil || body.Target.Type == nil || body.Address == nil || !body.hasTrig {
		return wire.BadRequest("target (id and type), address and triggers are required")
	}
	if aerr := checkWebhookAddress(*body.Address); aerr != nil {
		return aerr
	}
	triggers, aerr := checkTriggers(body.Triggers, *body.Target.Type)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return s.createWebhookTx(p, body, triggers)
	})
}

// createWebhookTx is the transaction of POST /webhooks (createWebhook): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) createWebhookTx(p *principal, body *webhookBody, triggers []string) (reply, *wire.Error) {
	hook, aerr := s.addWebhook(p, *body.Target.ID, *body.Target.Type, *body.Address, triggers)
	if aerr != nil {
		return reply{}, aerr
	}
	return reply{http.StatusCreated, hook.record()}, nil
}

// addWebhook creates p's webhook on the target item: 404 for an item p
// cannot see, 409 for a second webhook of p on it, 400 past
// maxWebhooksPerUser. Callers hold mu.
func (s *state) addWebhook(p *principal, targetID, targetType, address string, triggers []string) (*webhook, *wire.Error) {
	it, aerr := s.webhookTarget(p, targetID, targetType)
	if aerr != nil {
		return nil, aerr
	}
	if s.duplicateWebhook(p.user, it.id, nil) != nil {
		return nil, wire.Errorf(http.StatusConflict, wire.CodeConflict, "A webhook for this target and user already exists")
	}
	n := 0
	for _, o := range s.webhooks.byID {
		if o.createdBy == p.user {
			n++
		}
	}
	if n >= maxWebhooksPerUser {
		return nil, wire.BadRequest("A user can have at most %d webhooks", maxWebhooksPerUser)
	}
	hook := &webhook{id: s.newID(), targetID: it.id, targetType: it.typ, address: address,
		triggers: triggers, createdBy: p.user, createdAt: s.nowSec()}
	s.webhooks.byID[hook.id] = hook
	s.dirty(kWebhooks, hook.id)
	return hook, nil
}

// ownWebhook returns the webhook with id that p created. Callers hold mu.
func (s *state) ownWebhook(id string, p *principal) (*webhook, *wire.Error) {
	hook, ok := s.webhooks.byID[id]
	if !ok || !validID(id) || hook.createdBy != p.user {
		return nil, wire.NotFound("webhook")
	}
	return hook, nil
}

// getWebhook serves GET /webhooks/{webhook_id}.
func (s *Server) getWebhook(w http.ResponseWriter, r *http.Request, p *principal) error {
	id := r.PathValue("webhook_id")
	return replyRecord(s, w, func() (*webhook, *wire.Error) { return s.ownWebhook(id, p) }, (*webhook).record)
}

// updateWebhook serves PUT /webhooks/{webhook_id}: target, address and
// triggers, each optional, under the rules of a new webhook.
func (s *Server) updateWebhook(w http.ResponseWriter, r *http.Request, p *principal) error {
	body, aerr := decodeWebhookBody(r)
	if aerr != nil {
		return aerr
	}
	if body.Address != nil {
		if aerr := checkWebhookAddress(*body.Address); aerr != nil {
			return aerr
		}
	}
	id := r.PathValue("webhook_id")
	return s.change(w, func() (reply, *wire.Error) {
		return s.updateWebhookTx(id, p, body)
	})
}

// updateWebhookTx is the transaction of PUT /webhooks/{webhook_id}
// (updateWebhook): what it checks, reads and changes under the state's lock,
// and its reply. Callers hold mu.
func (s *state) updateWebhookTx(id string, p *principal, body *webhookBody) (reply, *wire.Error) {
	hook, aerr := s.editWebhook(id, p, body)
	if aerr != nil {
		return reply{}, aerr
	}
	return reply{http.StatusOK, hook.record()}, nil
}

// editWebhook changes p's webhook with id as body says (target, address,
// triggers), under the rules of a new webhook; nothing changes when a rule
// refuses. Callers hold mu.
func (s *state) editWebhook(id string, p *principal, body *webhookBody) (*webhook, *wire.Error) {
	hook, aerr := s.ownWebhook(id, p)
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
		if s.duplicateWebhook(p.user, it.id, hook) != nil {
			return nil, wire.Errorf(http.StatusConflict, wire.CodeConflict, "A webhook for this target and user already exists")
		}
		targetID, targetType = it.id, it.typ
	}
	triggers := hook.triggers
	if body.hasTrig || targetType != hook.targetType {
		src := hook.triggers
		if body.hasTrig {
			src = body.Triggers
		}
		if triggers, aerr = checkTriggers(src, targetType); aerr != nil {
			return nil, aerr
		}
	}
	hook.targetID, hook.targetType, hook.triggers = targetID, targetType, triggers
	if body.Address != nil {
		hook.address = *body.Address
	}
	s.dirty(kWebhooks, hook.id)
	return hook, nil
}

// deleteWebhook serves DELETE /webhooks/{webhook_id}: 204; a webhook with
// the WEBHOOK.DELETED trigger is told so.
func (s *Server) deleteWebhook(w http.ResponseWriter, r *http.Request, p *principal) error {
	return deleteRecord(s, w, r, "webhook_id", http.StatusNoContent,
		func(id string) (*webhook, *wire.Error) { return s.ownWebhook(id, p) },
		func(hook *webhook) *wire.Error { s.removeWebhook(hook, p.user); return nil })
}

// removeWebhook deletes hook; one with the WEBHOOK.DELETED trigger is told
// so (by is who deleted it). Callers hold mu.
func (s *state) removeWebhook(hook *webhook, by *user) {
	delete(s.webhooks.byID, hook.id)
	s.dirty(kWebhooks, hook.id)
	if slices.Contains(hook.triggers, "WEBHOOK.DELETED") {
		s.queueHook(hook, "WEBHOOK.DELETED", by, hook.record())
	}
}

// listWebhooks serves GET /webhooks: the caller's webhooks by id, marker
// paged.
func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request, p *principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	return s.change(w, func() (reply, *wire.Error) {
		return reply{http.StatusOK, s.webhooksPage(p, q)}, nil
	})
}

// webhooksPage is a marker page of p's webhooks, by id. Callers hold mu.
func (s *state) webhooksPage(p *principal, q wire.Page) map[string]any {
	var own []*webhook
	for _, hook := range s.webhooks.byID {
		if hook.createdBy == p.user {
			own = append(own, hook)
		}
	}
	slices.SortFunc(own, func(a, b *webhook) int { return wire.CompareIDs(a.id, b.id) })
	return wire.MarkerEntries(own, q, func(h *webhook) int64 { return numID(h.id) }, func(h *webhook) any { return h.record() })
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
	case evItemDownload:
		return prefix + "DOWNLOADED"
	case evTaskAssignCreate:
		return "TASK_ASSIGNMENT.CREATED"
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
