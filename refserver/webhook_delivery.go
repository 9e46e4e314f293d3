package refserver

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// Webhook deliveries (the V2 webhooks guide, "Flow", "Retries" and the
// signatures guide). Every event of the event log (events.go) that has a
// trigger — FILE.UPLOADED for ITEM_UPLOAD on a file, FOLDER.MOVED for
// ITEM_MOVE on a folder, METADATA_INSTANCE.CREATED, … (webhookTrigger) —
// fires the webhooks with that trigger whose target is the item or a
// folder above it, when the webhook's creator may see the item.
//
// A delivery is a POST of the webhook_event payload {type, id, created_at,
// trigger, webhook, created_by, source, additional_info} with the headers
// box-delivery-id (new for each attempt; the payload's id stays),
// box-delivery-timestamp (RFC 3339), box-signature-primary and
// box-signature-secondary (base64 of the HMAC-SHA256, under the primary and
// secondary key, of the body's bytes followed by the timestamp's bytes),
// box-signature-version 1, box-signature-algorithm HmacSHA256 and
// User-Agent Box-WH-Client/0.1.
//
// It is made off the request path, in its own goroutine (at most
// maxConcurrentDeliveries at once): a slow receiver never slows the API.
// On a persisted server it leaves once the change it reports is committed,
// as an answer does: a receiver never hears of a change that a crash then
// loses.
// An answer outside 200-299, or none within 30 seconds, is a failure: the
// delivery is retried up to maxWebhookRetries times, after
// Options.WebhookRetryDelay (default 2 s) and then twice as long each time
// (the guide: "up to 12 times over a period of 2 hours"). A webhook
// deleted meanwhile is not delivered any more. Deliveries pending when the
// server closes are dropped.

const (
	maxWebhookRetries       = 12
	defaultWebhookRetry     = 2 * time.Second
	webhookDeliveryTimeout  = 30 * time.Second
	maxConcurrentDeliveries = 8
	webhookUserAgent        = "Box-WH-Client/0.1"
)

// delivery is one webhook payload on its way.
type delivery struct {
	hookID, address string
	body            []byte
	final           bool // WEBHOOK.DELETED: delivered although the webhook is gone
}

// WebhookKeys returns the primary and secondary keys the server signs
// webhook deliveries with (Options.WebhookPrimaryKey and
// WebhookSecondaryKey, or random ones kept with the state).
func (s *Server) WebhookKeys() (primary, secondary string) {
	s.st.View(func(tx *state.ReadTx) { primary, secondary = tx.Cfg.WebhookPrimaryKey, tx.Cfg.WebhookSecondaryKey })
	return primary, secondary
}

// initWebhookDelivery sets the keys and the client of deliveries.
func (s *Server) initWebhookDelivery() {
	if s.st.Cfg.WebhookPrimaryKey == "" {
		s.st.Cfg.WebhookPrimaryKey = state.RandomHex(16)
	}
	if s.st.Cfg.WebhookSecondaryKey == "" {
		s.st.Cfg.WebhookSecondaryKey = state.RandomHex(16)
	}
	rt := s.opts.WebhookTransport
	if rt == nil {
		rt = http.DefaultTransport.(*http.Transport).Clone()
	}
	s.hookClient = &http.Client{
		Transport:     rt,
		Timeout:       webhookDeliveryTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	s.hookSlots = make(chan struct{}, maxConcurrentDeliveries)
}

// queueDelivery starts the delivery of one payload. The state calls it
// when it releases the outbox of the transaction that fired the event,
// once that transaction's commit is durable (state.Env.Deliver).
func (s *Server) queueDelivery(dl state.Delivery) {
	body := state.RecordJSON(map[string]any{
		"type": "webhook_event", "id": state.NewUUID(), "created_at": state.FmtTime(s.st.NowSec()), "trigger": dl.Trigger,
		"webhook": map[string]any{"id": dl.HookID, "type": "webhook"}, "created_by": dl.By,
		"source": dl.Source, "additional_info": []any{},
	})
	d := delivery{hookID: dl.HookID, address: dl.Address, body: body, final: dl.Trigger == "WEBHOOK.DELETED"}
	select {
	case <-s.life.closed:
		return
	default:
	}
	s.hookWG.Add(1)
	go s.deliver(d)
}

// deliver makes a delivery's attempts (see the top of the file); its
// change is committed (the outbox released it).
func (s *Server) deliver(d delivery) {
	defer s.hookWG.Done()
	delay := s.opts.WebhookRetryDelay
	for attempt := 0; attempt <= maxWebhookRetries; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-s.life.closed:
				t.Stop()
				return
			}
			delay *= 2
		}
		if !d.final {
			var live bool
			s.st.View(func(tx *state.ReadTx) { _, live = tx.Webhooks.ByID.Get(d.hookID) })
			if !live {
				return
			}
		}
		select {
		case s.hookSlots <- struct{}{}:
		case <-s.life.closed:
			return
		}
		ok := s.post(d)
		<-s.hookSlots
		if ok {
			return
		}
	}
	s.st.Log.Warn("webhook delivery failed after every retry", "webhook", d.hookID)
}

// post makes one attempt; it reports whether the receiver took it.
func (s *Server) post(d delivery) bool {
	ctx, cancel := context.WithTimeout(s.life.baseCtx, webhookDeliveryTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.address, bytes.NewReader(d.body))
	if err != nil {
		return false
	}
	ts := s.st.Now().UTC().Format(time.RFC3339)
	primary, secondary := s.WebhookKeys()
	h := req.Header
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("User-Agent", webhookUserAgent)
	h.Set("box-delivery-id", state.NewUUID())
	h.Set("box-delivery-timestamp", ts)
	h.Set("box-signature-primary", signDelivery(primary, d.body, ts))
	h.Set("box-signature-secondary", signDelivery(secondary, d.body, ts))
	h.Set("box-signature-version", "1")
	h.Set("box-signature-algorithm", "HmacSHA256")
	resp, err := s.hookClient.Do(req)
	if err != nil {
		s.st.Log.Debug("webhook delivery", "webhook", d.hookID, "err", err)
		return false
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode >= 200 && resp.StatusCode <= 299
}

// signDelivery is the base64 HMAC-SHA256 under key of body followed by
// the timestamp.
func signDelivery(key string, body []byte, timestamp string) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write(body)
	mac.Write([]byte(timestamp))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}
