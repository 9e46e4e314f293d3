package cms

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const webhookBody = `{"type":"webhook_event","id":"e1","created_at":"2026-11-24T10:00:00Z","trigger":"FILE.UPLOADED",` +
	`"webhook":{"id":"9","type":"webhook"},"created_by":{"type":"user","id":"7","name":"Ann","login":"ann@example.com"},` +
	`"source":{"type":"file","id":"12","name":"a.txt"}}`

// guideSignature computes a signature the way the service's guide spells
// it out (an HMAC of the body, then of the timestamp, base64), on its own,
// to check VerifyWebhook and SignWebhook against.
func guideSignature(key, body, stamp string) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write([]byte(body))
	mac.Write([]byte(stamp))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

func TestVerifyWebhook(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 24, 10, 0, 5, 0, time.UTC)
	keys := WebhookKeys{Primary: "primary-SECRET-key", Secondary: "secondary-SECRET-key"}
	now := func() time.Time { return at.Add(time.Minute) }
	opts := &WebhookVerifyOptions{Now: now}
	signed := SignWebhook([]byte(webhookBody), at, keys)
	stamp := at.Format(time.RFC3339)
	require.Equal(t, guideSignature(keys.Primary, webhookBody, stamp), signed.Get(HeaderWebhookSignaturePrimary))
	require.Equal(t, guideSignature(keys.Secondary, webhookBody, stamp), signed.Get(HeaderWebhookSignatureSecond))

	t.Run("verifies with either key", func(t *testing.T) {
		require.NoError(t, VerifyWebhook([]byte(webhookBody), signed, keys, opts))
		// Rotation: the old secondary is the new primary, a new secondary.
		require.NoError(t, VerifyWebhook([]byte(webhookBody), signed, WebhookKeys{Primary: "new-key", Secondary: keys.Secondary}, opts))
		require.NoError(t, VerifyWebhook([]byte(webhookBody), signed, WebhookKeys{Primary: keys.Primary}, opts))
	})
	cases := map[string]struct {
		body string
		h    func(http.Header)
		keys WebhookKeys
		want error
	}{
		"tampered body":     {body: strings.Replace(webhookBody, "a.txt", "b.txt", 1), want: ErrWebhookSignature},
		"wrong keys":        {keys: WebhookKeys{Primary: "x", Secondary: "y"}, want: ErrWebhookSignature},
		"no keys":           {keys: WebhookKeys{}, want: ErrWebhookUnsigned},
		"no timestamp":      {h: func(h http.Header) { h.Del(HeaderWebhookDeliveryTimestamp) }, want: ErrWebhookUnsigned},
		"bad timestamp":     {h: func(h http.Header) { h.Set(HeaderWebhookDeliveryTimestamp, "yesterday") }, want: ErrWebhookUnsigned},
		"no signatures":     {h: func(h http.Header) { h.Del(HeaderWebhookSignaturePrimary); h.Del(HeaderWebhookSignatureSecond) }, want: ErrWebhookUnsigned},
		"other version":     {h: func(h http.Header) { h.Set(HeaderWebhookSignatureVersion, "2") }, want: ErrWebhookSignature},
		"other algorithm":   {h: func(h http.Header) { h.Set(HeaderWebhookSignatureAlgo, "HmacSHA1") }, want: ErrWebhookSignature},
		"timestamp changed": {h: func(h http.Header) { h.Set(HeaderWebhookDeliveryTimestamp, at.Add(time.Second).Format(time.RFC3339)) }, want: ErrWebhookSignature},
		"swapped signatures": {h: func(h http.Header) {
			p := h.Get(HeaderWebhookSignaturePrimary)
			h.Set(HeaderWebhookSignaturePrimary, h.Get(HeaderWebhookSignatureSecond))
			h.Set(HeaderWebhookSignatureSecond, p)
		}, want: ErrWebhookSignature},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			h := signed.Clone()
			if c.h != nil {
				c.h(h)
			}
			body, k := webhookBody, keys
			if c.body != "" {
				body = c.body
			}
			if c.keys != (WebhookKeys{}) || name == "no keys" {
				k = c.keys
			}
			err := VerifyWebhook([]byte(body), h, k, opts)
			require.ErrorIs(t, err, c.want)
			for _, secret := range []string{keys.Primary, keys.Secondary, signed.Get(HeaderWebhookSignaturePrimary)} {
				assert.NotContains(t, err.Error(), secret, "no secret in the error")
			}
		})
	}
	t.Run("maximum age", func(t *testing.T) {
		late := &WebhookVerifyOptions{Now: func() time.Time { return at.Add(11 * time.Minute) }}
		require.ErrorIs(t, VerifyWebhook([]byte(webhookBody), signed, keys, late), ErrWebhookExpired)
		early := &WebhookVerifyOptions{Now: func() time.Time { return at.Add(-11 * time.Minute) }}
		require.ErrorIs(t, VerifyWebhook([]byte(webhookBody), signed, keys, early), ErrWebhookExpired)
		longer := &WebhookVerifyOptions{Now: late.Now, MaxAge: time.Hour}
		require.NoError(t, VerifyWebhook([]byte(webhookBody), signed, keys, longer))
		var ae *ArgError
		require.ErrorAs(t, VerifyWebhook([]byte(webhookBody), signed, keys, &WebhookVerifyOptions{MaxAge: -1}), &ae)
	})
	t.Run("keys never print", func(t *testing.T) {
		for _, s := range []string{fmt.Sprint(keys), fmt.Sprintf("%v %+v %#v %s", keys, keys, keys, keys)} {
			assert.NotContains(t, s, "SECRET")
		}
	})
}

// TestWebhookHandler: a verified delivery reaches the callback decoded, with
// its delivery id; a tampered one is 401 and never reaches it; the
// callback's error is a 500 (the service delivers again).
func TestWebhookHandler(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	keys := WebhookKeys{Primary: "p-key", Secondary: "s-key"}
	var got []*WebhookPayload
	fail := false
	h, err := NewWebhookHandler(keys, &WebhookVerifyOptions{Now: func() time.Time { return at }}, func(_ context.Context, p *WebhookPayload) error {
		got = append(got, p)
		if fail {
			return errors.New("busy")
		}
		return nil
	})
	require.NoError(t, err)
	send := func(body string, hdr http.Header) int {
		r := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(body))
		for k, v := range hdr {
			r.Header[k] = v
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w.Code
	}
	hdr := SignWebhook([]byte(webhookBody), at, keys)
	hdr.Set(HeaderWebhookDeliveryID, "d-1")
	assert.Equal(t, http.StatusOK, send(webhookBody, hdr))
	require.Len(t, got, 1)
	assert.Equal(t, WebhookTriggerFileUploaded, got[0].Trigger)
	assert.Equal(t, "9", got[0].Webhook.ID)
	assert.Equal(t, "d-1", got[0].DeliveryID)
	require.NotNil(t, got[0].Source)
	assert.Equal(t, "12", got[0].Source.ID)
	assert.Equal(t, "ann@example.com", got[0].CreatedBy.Login)

	assert.Equal(t, http.StatusUnauthorized, send(strings.Replace(webhookBody, "12", "13", 1), hdr))
	assert.Len(t, got, 1, "a tampered delivery never reaches the callback")
	notEvent := `{"type":"file","id":"1"}`
	assert.Equal(t, http.StatusBadRequest, send(notEvent, SignWebhook([]byte(notEvent), at, keys)))
	fail = true
	assert.Equal(t, http.StatusInternalServerError, send(webhookBody, hdr))
	r := httptest.NewRequest(http.MethodGet, "/hook", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	assert.Equal(t, http.StatusMethodNotAllowed, w.Code)

	_, err = NewWebhookHandler(WebhookKeys{}, nil, func(context.Context, *WebhookPayload) error { return nil })
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = NewWebhookHandler(keys, nil, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
}

// FuzzVerifyWebhook: any body and header values are verified or refused
// with one of the three errors, without a panic; what SignWebhook signed
// always verifies.
func FuzzVerifyWebhook(f *testing.F) {
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	f.Add([]byte(webhookBody), at.Format(time.RFC3339), "sig", "1", "HmacSHA256", "key")
	f.Add([]byte{}, "", "", "", "", "")
	f.Add([]byte("\x00\xff"), "2026-11-24T10:00:00+01:00", "====", "2", "x", "k")
	f.Fuzz(func(t *testing.T, body []byte, stamp, sig, version, algo, key string) {
		opts := &WebhookVerifyOptions{Now: func() time.Time { return at }}
		h := http.Header{}
		h.Set(HeaderWebhookDeliveryTimestamp, stamp)
		h.Set(HeaderWebhookSignaturePrimary, sig)
		h.Set(HeaderWebhookSignatureVersion, version)
		h.Set(HeaderWebhookSignatureAlgo, algo)
		err := VerifyWebhook(body, h, WebhookKeys{Primary: key}, opts)
		if err != nil && !errors.Is(err, ErrWebhookSignature) && !errors.Is(err, ErrWebhookUnsigned) && !errors.Is(err, ErrWebhookExpired) {
			t.Fatalf("unexpected error %v", err)
		}
		if key != "" {
			require.NoError(t, VerifyWebhook(body, SignWebhook(body, at, WebhookKeys{Primary: key}), WebhookKeys{Primary: key}, opts))
		}
		_, _ = ParseWebhookPayload(body)
	})
}
