package state

import (
	"slices"
	"time"
)

// fireWebhooks queues the deliveries an event triggers.
func (s *Tx) fireWebhooks(e *Event) {
	if s.Webhooks.ByID.Len() == 0 || e.ItemID == "" {
		return
	}
	it := s.Items.At(e.ItemID)
	if it == nil {
		return
	}
	trigger := webhookTrigger(e.Typ, it.Typ)
	if trigger == "" {
		return
	}
	above := map[string]bool{it.ID: true}
	for f := range s.ancestors(it) { // tree.go
		above[f.ID] = true
	}
	for _, hook := range s.Webhooks.ByID.All() {
		if !above[hook.targetID] || !slices.Contains(hook.triggers, trigger) {
			continue
		}
		if !s.visible(s.PrincipalForUser(hook.createdBy), it) {
			continue
		}
		s.out.deliver(newDelivery(hook, trigger, e.By, e.Source))
	}
}

// recWebhook is a webhook.
type recWebhook struct {
	TargetID, TargetType, Address string
	Triggers                      []string
	CreatedBy                     string
	CreatedAt                     time.Time
}

// WebhookKeys lists the ids of the webhooks, sorted: the keys of their
// persisted records.
func (s *ReadTx) WebhookKeys() []string { return s.Webhooks.ByID.Keys() }

// WebhookRec is the persisted record of webhook id, false when it is gone.
func (s *ReadTx) WebhookRec(id string) (recWebhook, bool) {
	w, ok := s.Webhooks.ByID.Get(id)
	if !ok {
		return recWebhook{}, false
	}
	return recWebhook{TargetID: w.targetID, TargetType: w.targetType, Address: w.Address, Triggers: w.triggers,
		CreatedBy: Uid(w.createdBy), CreatedAt: Utc(w.createdAt)}, true
}

// LoadWebhook restores webhook id from its record, on a restore (after
// the users it points to).
func (s *Tx) LoadWebhook(id string, r recWebhook) error {
	by, err := s.UserByRef(r.CreatedBy)
	if err != nil {
		return err
	}
	s.Webhooks.ByID.Put(id, &Webhook{ID: id, targetID: r.TargetID, targetType: r.TargetType, Address: r.Address,
		triggers: r.Triggers, createdBy: by, createdAt: r.CreatedAt})
	return nil
}
