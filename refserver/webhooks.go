package refserver

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

func decodeWebhookBody(r *http.Request) (*state.WebhookBody, *wire.Error) {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return nil, aerr
	}
	b, aerr := wire.ReadBody(r.Body)
	if aerr != nil {
		return nil, aerr
	}
	var body state.WebhookBody
	if aerr := wire.DecodeJSON(bytes.NewReader(b), &body); aerr != nil {
		return nil, aerr
	}
	if aerr := wire.CheckNulls(b, wire.CodeBadRequest); aerr != nil {
		return nil, aerr
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(b, &raw)
	_, body.HasTrig = raw["triggers"]
	return &body, nil
}

// createWebhook serves POST /webhooks: 201 Webhook.
func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	body, aerr := decodeWebhookBody(r)
	if aerr != nil {
		return aerr
	}
	if body.Target == nil || body.Target.ID == nil || body.Target.Type == nil || body.Address == nil || !body.HasTrig {
		return wire.BadRequest("target (id and type), address and triggers are required")
	}
	triggers, aerr := state.CheckTriggers(body.Triggers, *body.Target.Type)
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.CreateWebhook(p, body, triggers)
	})
}

// getWebhook serves GET /webhooks/{webhook_id}.
func (s *Server) getWebhook(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	id := r.PathValue("webhook_id")
	return replyRecord(s, w, func(tx *state.Tx) (*state.Webhook, *wire.Error) { return tx.OwnWebhook(id, p) }, func(_ *state.Tx, h *state.Webhook) map[string]any { return h.Record() })
}

// updateWebhook serves PUT /webhooks/{webhook_id}: target, address and
// triggers, each optional, under the rules of a new webhook.
func (s *Server) updateWebhook(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	body, aerr := decodeWebhookBody(r)
	if aerr != nil {
		return aerr
	}
	id := r.PathValue("webhook_id")
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return tx.UpdateWebhook(id, p, body)
	})
}

// deleteWebhook serves DELETE /webhooks/{webhook_id}: 204; a webhook with
// the WEBHOOK.DELETED trigger is told so.
func (s *Server) deleteWebhook(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	return deleteRecord(s, w, r, "webhook_id", http.StatusNoContent,
		func(tx *state.Tx, id string) (*state.Webhook, *wire.Error) { return tx.OwnWebhook(id, p) },
		func(tx *state.Tx, hook *state.Webhook) *wire.Error { tx.RemoveWebhook(hook, p.User); return nil })
}

// listWebhooks serves GET /webhooks: the caller's webhooks by id, marker
// paged.
func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	q, aerr := wire.ParseMarkerPage(r.URL.Query())
	if aerr != nil {
		return aerr
	}
	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return state.Reply{Status: http.StatusOK, Body: tx.WebhooksPage(p, q)}, nil
	})
}
