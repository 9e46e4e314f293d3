package cms

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The headers of a webhook delivery (POST to the webhook's address), as the
// service sends them.
const (
	HeaderWebhookDeliveryID        = "Box-Delivery-Id"
	HeaderWebhookDeliveryTimestamp = "Box-Delivery-Timestamp"
	HeaderWebhookSignatureVersion  = "Box-Signature-Version"
	HeaderWebhookSignatureAlgo     = "Box-Signature-Algorithm"
	HeaderWebhookSignaturePrimary  = "Box-Signature-Primary"
	HeaderWebhookSignatureSecond   = "Box-Signature-Secondary"
)

// DefaultWebhookMaxAge is how old a delivery may be (its
// box-delivery-timestamp) and still verify: the service's signature guide
// says 10 minutes, which bounds replays.
const DefaultWebhookMaxAge = 10 * time.Minute

// maxWebhookBody bounds the body NewWebhookHandler reads.
const maxWebhookBody = 1 << 20

// Errors of VerifyWebhook, matched with errors.Is. None of them carries a
// key or a signature.
var (
	// ErrWebhookUnsigned: the delivery lacks its timestamp or signatures,
	// or no key was given.
	ErrWebhookUnsigned = errors.New("cms: webhook delivery not signed")
	// ErrWebhookSignature: neither key's signature matches the body and
	// timestamp (a tampered body, a wrong key).
	ErrWebhookSignature = errors.New("cms: webhook signature does not match")
	// ErrWebhookExpired: the delivery is older than the maximum age (or
	// dated in the future beyond it): a replay, or a clock far off.
	ErrWebhookExpired = errors.New("cms: webhook delivery too old")
)

// WebhookKeys are an application's two signature keys (the developer
// console's primary and secondary keys; the reference server's
// Options.WebhookPrimaryKey and WebhookSecondaryKey). Either verifies a
// delivery, so a key can be rotated without losing one. They are secrets:
// they never appear in errors or logs.
type WebhookKeys struct {
	Primary, Secondary string
}

// String hides the keys.
func (WebhookKeys) String() string { return "cms.WebhookKeys{[redacted]}" }

// GoString hides the keys from %#v too.
func (k WebhookKeys) GoString() string { return k.String() }

// WebhookVerifyOptions tune VerifyWebhook. The zero value is the service's
// rule: a 10-minute maximum age on the real clock.
type WebhookVerifyOptions struct {
	// MaxAge is how old a delivery may be: 0 means DefaultWebhookMaxAge;
	// negative is an *ArgError.
	MaxAge time.Duration
	// Now is the clock (tests); nil is time.Now.
	Now func() time.Time
}

// VerifyWebhook checks a webhook delivery the way the service's signature
// guide says: its box-delivery-timestamp is at most opts.MaxAge old, and
// the HMAC-SHA256 of the body's bytes followed by the timestamp's bytes,
// base64-encoded, equals box-signature-primary under keys.Primary or
// box-signature-secondary under keys.Secondary (either may verify, so keys
// can be rotated), compared in constant time. A signature version other
// than "1" or an algorithm other than HmacSHA256, when the headers name
// one, does not verify. body must be the exact bytes received.
func VerifyWebhook(body []byte, h http.Header, keys WebhookKeys, opts *WebhookVerifyOptions) error {
	var o WebhookVerifyOptions
	if opts != nil {
		o = *opts
	}
	switch {
	case o.MaxAge < 0:
		return invalidArg("max age", "negative")
	case o.MaxAge == 0:
		o.MaxAge = DefaultWebhookMaxAge
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if keys.Primary == "" && keys.Secondary == "" {
		return fmt.Errorf("%w: no key to verify with", ErrWebhookUnsigned)
	}
	stamp := h.Get(HeaderWebhookDeliveryTimestamp)
	if stamp == "" {
		return fmt.Errorf("%w: no %s header", ErrWebhookUnsigned, HeaderWebhookDeliveryTimestamp)
	}
	if v := h.Get(HeaderWebhookSignatureVersion); v != "" && v != "1" {
		return fmt.Errorf("%w: signature version %q", ErrWebhookSignature, truncate(v, 16))
	}
	if a := h.Get(HeaderWebhookSignatureAlgo); a != "" && a != "HmacSHA256" {
		return fmt.Errorf("%w: signature algorithm %q", ErrWebhookSignature, truncate(a, 32))
	}
	at, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return fmt.Errorf("%w: %s is not an RFC 3339 time", ErrWebhookUnsigned, HeaderWebhookDeliveryTimestamp)
	}
	if age := o.Now().Sub(at); age > o.MaxAge || age < -o.MaxAge {
		return fmt.Errorf("%w: delivered at %s, more than %s from now", ErrWebhookExpired, at.UTC().Format(time.RFC3339), o.MaxAge)
	}
	primary, secondary := h.Get(HeaderWebhookSignaturePrimary), h.Get(HeaderWebhookSignatureSecond)
	if primary == "" && secondary == "" {
		return fmt.Errorf("%w: no signature headers", ErrWebhookUnsigned)
	}
	if signatureMatches(keys.Primary, primary, body, stamp) || signatureMatches(keys.Secondary, secondary, body, stamp) {
		return nil
	}
	return ErrWebhookSignature
}

// signatureMatches reports whether sig is webhookSignature(key, body,
// stamp), compared in constant time. An empty key or signature never
// matches.
func signatureMatches(key, sig string, body []byte, stamp string) bool {
	if key == "" || sig == "" {
		return false
	}
	return hmac.Equal([]byte(webhookSignature(key, body, stamp)), []byte(sig))
}

// webhookSignature is the base64 HMAC-SHA256 under key of body followed by
// stamp, as the service signs a delivery.
func webhookSignature(key string, body []byte, stamp string) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write(body)
	mac.Write([]byte(stamp))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// SignWebhook returns the signature headers of a delivery of body at t
// under keys, as the service sends them: for a receiver's tests, or a
// server of one's own. A key left empty gets no header.
func SignWebhook(body []byte, t time.Time, keys WebhookKeys) http.Header {
	stamp := t.UTC().Format(time.RFC3339)
	h := http.Header{}
	h.Set(HeaderWebhookDeliveryTimestamp, stamp)
	h.Set(HeaderWebhookSignatureVersion, "1")
	h.Set(HeaderWebhookSignatureAlgo, "HmacSHA256")
	if keys.Primary != "" {
		h.Set(HeaderWebhookSignaturePrimary, webhookSignature(keys.Primary, body, stamp))
	}
	if keys.Secondary != "" {
		h.Set(HeaderWebhookSignatureSecond, webhookSignature(keys.Secondary, body, stamp))
	}
	return h
}

// WebhookMini names the webhook that delivered a payload.
type WebhookMini struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// WebhookPayload is the body of a webhook delivery (type "webhook_event").
type WebhookPayload struct {
	Type      string    `json:"type"`
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"created_at"`
	// Trigger is the event that fired, such as FILE.UPLOADED.
	Trigger WebhookTrigger `json:"trigger"`
	// Webhook is the webhook that delivered it.
	Webhook WebhookMini `json:"webhook"`
	// CreatedBy is who caused the event.
	CreatedBy *UserMini `json:"created_by,omitzero"`
	// Source is the item the event is about (a file or a folder).
	Source *Item `json:"source,omitzero"`
	// AdditionalInfo carries what some triggers add, as sent.
	AdditionalInfo json.RawMessage `json:"additional_info,omitzero"`
	// DeliveryID is the box-delivery-id header (set by NewWebhookHandler).
	DeliveryID string `json:"-"`
}

// NewWebhookHandler returns an http.Handler for a webhook's address: it
// reads the body (at most 1 MiB; larger is 413), verifies it with
// VerifyWebhook (401 when it does not verify, with no detail), decodes the
// payload (400 when it is not one) and calls handle; handle's error is a
// 500 (the service then delivers again), nil a 200. Only POST is taken
// (405).
func NewWebhookHandler(keys WebhookKeys, opts *WebhookVerifyOptions, handle func(ctx context.Context, p *WebhookPayload) error) (http.Handler, error) {
	if handle == nil {
		return nil, invalidArg("handle", "nil")
	}
	if keys.Primary == "" && keys.Secondary == "" {
		return nil, invalidArg("keys", "no key")
	}
	if opts != nil && opts.MaxAge < 0 {
		return nil, invalidArg("max age", "negative")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxWebhookBody+1))
		if err != nil {
			http.Error(w, "cannot read the body", http.StatusBadRequest)
			return
		}
		if len(body) > maxWebhookBody {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err := VerifyWebhook(body, r.Header, keys, opts); err != nil {
			http.Error(w, "delivery not verified", http.StatusUnauthorized)
			return
		}
		p, err := ParseWebhookPayload(body)
		if err != nil {
			http.Error(w, "not a webhook payload", http.StatusBadRequest)
			return
		}
		p.DeliveryID = r.Header.Get(HeaderWebhookDeliveryID)
		if err := handle(r.Context(), p); err != nil {
			http.Error(w, "not handled", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	}), nil
}

// ParseWebhookPayload decodes a delivery's body (verify it first). A body
// that is not a webhook_event is an error.
func ParseWebhookPayload(body []byte) (*WebhookPayload, error) {
	p := new(WebhookPayload)
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(p); err != nil {
		return nil, fmt.Errorf("cms: webhook payload: %w", err)
	}
	if p.Type != "webhook_event" {
		return nil, fmt.Errorf("cms: webhook payload: type %q is not webhook_event", truncate(p.Type, 32))
	}
	return p, nil
}
