package state

import (
	"encoding/json"
	"slices"
)

// fireWebhooks queues the deliveries an event triggers.
func (s *Tx) fireWebhooks(e *Event) {
	if s.Webhooks.ByID.Len() == 0 || e.ItemRef == "" {
		return
	}
	it, ok := s.Items.ByRef(e.ItemRef)
	if !ok {
		return
	}
	trigger := webhookTrigger(e.Typ, it.Typ)
	if trigger == "" {
		return
	}
	s.fireTrigger(it, trigger, e.By, e.Source)
}

// fireTrigger queues the deliveries of trigger on it (by: who acted,
// source: the payload's source as recorded) to the webhooks on it or on a
// folder above it whose creator may read what the trigger says: see the
// item, and for the triggers that carry content, do what reads it
// (triggerReadAction). The source's path is the one the creator is shown
// (paths.go). Changes with no event of their own (a collaboration
// accepted, a purge) call it directly.
func (s *Tx) fireTrigger(it *Item, trigger string, by *User, source json.RawMessage) {
	if s.Webhooks.ByID.Len() == 0 {
		return
	}
	above := map[*Item]bool{it: true}
	for f := range s.ancestors(it) { // tree.go
		above[f] = true
	}
	for _, hook := range s.Webhooks.ByID.All() {
		if !above[s.Items.At(hook.targetType, hook.targetID)] || !slices.Contains(hook.triggers, trigger) {
			continue
		}
		p := s.PrincipalForUser(hook.createdBy)
		if !s.Can(p, it, triggerReadAction(trigger)) {
			continue
		}
		src := source
		if s.pathHidden(p, it) {
			var rec map[string]any
			if json.Unmarshal(source, &rec) == nil && (rec["path_collection"] != nil || rec["parent"] != nil) {
				s.trimPath(p, it, rec)
				src = RecordJSON(rec)
			}
		}
		s.out.deliver(newDelivery(hook, trigger, by, src))
	}
}
