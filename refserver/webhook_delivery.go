package refserver

import (
	"bytes"
	"container/list"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/contentapi/cms/refserver/internal/hookaddr"
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
// It is made off the request path, in the delivery queue
// (webhook_queue.go: bounded memory, at most maxConcurrentDeliveries
// attempts at once, shared fairly between the webhooks' owners): a slow
// receiver never slows the API. It leaves through the outbox of the
// transaction that fired it, once that transaction's commit is durable: a
// receiver never hears of a change that a crash then loses.
//
// The server's own transport (without Options.WebhookTransport) uses no
// proxy and dials only what the address rule allows, on every address the
// host resolves to (internal/hookaddr); an address the rule refuses, or
// a webhook deleted meanwhile, ends the delivery without retries.
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
	owner           string // the id of the webhook's creator: slots are shared per owner
	body            []byte
	final           bool // WEBHOOK.DELETED: delivered although the webhook is gone

	// The queue's (webhook_queue.go), under its lock.
	attempt int           // attempts made before this one
	delay   time.Duration // the wait before the next retry
	elem    *list.Element // in hookQueue.all; nil once out of the queue
	timer   *time.Timer   // while waiting for a retry
	running bool          // an attempt is in flight
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
		s.hookDialer = &hookaddr.Dialer{Policy: s.st.HookAddrs, Dialer: net.Dialer{Timeout: webhookDeliveryTimeout, KeepAlive: 30 * time.Second}}
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.Proxy = nil // the rule applies to the receiver's addresses, not a proxy's
		t.DialContext = s.hookDialer.DialContext
		rt = t
	}
	s.hookClient = &http.Client{
		Transport:     rt,
		Timeout:       webhookDeliveryTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	limit, size := s.opts.WebhookQueueLimit, s.opts.WebhookQueueBytes
	if limit <= 0 {
		limit = DefaultWebhookQueueLimit
	}
	if size <= 0 {
		size = DefaultWebhookQueueBytes
	}
	s.hooks = &hookQueue{
		slots: maxConcurrentDeliveries, maxCount: limit, maxBytes: size,
		retryDelay: s.opts.WebhookRetryDelay, maxRetries: maxWebhookRetries,
		send: s.attemptDelivery, wg: &s.hookWG, log: s.st.Log,
		owners: map[string]*hookOwner{},
	}
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
	d := &delivery{hookID: dl.HookID, address: dl.Address, owner: dl.Owner, body: body, final: dl.Trigger == "WEBHOOK.DELETED"}
	select {
	case <-s.life.closed:
		return
	default:
	}
	s.hooks.add(d)
}

// attemptDelivery makes one attempt of d, unless its webhook is gone.
func (s *Server) attemptDelivery(d *delivery) attemptResult {
	if !d.final {
		var live bool
		s.st.View(func(tx *state.ReadTx) { _, live = tx.Webhooks.ByID.Get(d.hookID) })
		if !live {
			return attemptDone
		}
	}
	return s.post(d)
}

// post makes one attempt: done when the receiver took it or the address
// is refused, failed otherwise.
func (s *Server) post(d *delivery) attemptResult {
	if err := s.st.HookAddrs.CheckURL(d.address); err != nil {
		// A webhook kept from before the rule, or from a server that
		// allowed its host.
		s.st.Log.Warn("webhook delivery refused", "webhook", d.hookID, "err", err)
		return attemptDone
	}
	ctx, cancel := context.WithTimeout(s.life.baseCtx, webhookDeliveryTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.address, bytes.NewReader(d.body))
	if err != nil {
		return attemptDone
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
		if errors.Is(err, hookaddr.ErrForbidden) {
			s.st.Log.Warn("webhook delivery refused", "webhook", d.hookID, "err", err)
			return attemptDone
		}
		s.st.Log.Debug("webhook delivery", "webhook", d.hookID, "err", err)
		return attemptFailed
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		return attemptDone
	}
	return attemptFailed
}

// signDelivery is the base64 HMAC-SHA256 under key of body followed by
// the timestamp.
func signDelivery(key string, body []byte, timestamp string) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write(body)
	mac.Write([]byte(timestamp))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}
