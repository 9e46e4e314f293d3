package refserver

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// TestWebhookAddressRule: a webhook's address is a public https URL on
// port 443, or http on a loopback host; internal addresses, metadata
// hosts, other ports and plain http elsewhere are refused with 400
// bad_request at creation and at update, and change nothing; a host the
// operator allows (WebhookAllowedHosts) is taken with any scheme and
// port.
func TestWebhookAddressRule(t *testing.T) {
	e := newEnv(t, Options{WebhookAllowedHosts: []string{"hooks.corp", "10.9.0.0/16"}})
	user := e.s.UserToken()
	dir := e.createFolder(user, "0", "watched")["id"].(string)
	other := e.createFolder(user, "0", "other")["id"].(string)

	refused := []string{
		"https://169.254.169.254/latest/meta-data/",
		"https://10.0.0.1/hook",
		"https://192.168.1.10/hook",
		"https://172.20.0.1/hook",
		"https://[fd00::1]/hook",
		"https://[::ffff:10.0.0.1]/hook",
		"https://metadata.google.internal/computeMetadata/v1/",
		"https://metadata/hook",
		"https://127.0.0.1/hook",
		"https://localhost/hook",
		"https://example.com:8443/hook",
		"http://example.com/hook",
		"https://user:secret@example.com/hook",
		"https://10.8.0.1/hook", // outside the allowed prefix
	}
	before := snapshot(e.s)
	for _, a := range refused {
		resp, m := e.createWebhook(user, hookBody(dir, "folder", a, "FILE.UPLOADED"))
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s: %v", a, m)
		require.Equal(t, wire.CodeBadRequest, m["code"], a)
	}
	require.Equal(t, before, snapshot(e.s), "a refused creation changes nothing")

	resp, hook := e.createWebhook(user, hookBody(dir, "folder", "https://example.com/hook", "FILE.UPLOADED"))
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", hook)
	id := hook["id"].(string)
	for _, a := range refused {
		resp, m := e.doJSON("PUT", e.api("/webhooks/"+id), user, map[string]any{"address": a}, nil)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s: %v", a, m)
		require.Equal(t, wire.CodeBadRequest, m["code"], a)
	}
	_, got := e.doJSON("GET", e.api("/webhooks/"+id), user, nil, nil)
	require.Equal(t, "https://example.com/hook", got["address"], "a refused update changes nothing")

	for _, a := range []string{"http://127.0.0.1:8080/hook", "http://localhost:9/h", "http://hooks.corp:8080/h", "https://10.9.3.4:9443/h"} {
		resp, m := e.createWebhook(user, hookBody(other, "folder", a, "FILE.UPLOADED"))
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%s: %v", a, m)
		e.deleteOK(user, "/webhooks/"+m["id"].(string))
	}

	_, err := New(Options{WebhookAllowedHosts: []string{"https://x.example.com"}})
	require.Error(t, err, "an allowed host with a scheme")
}

// TestWebhookDeliveryChecksResolvedAddress: a webhook on a public name
// that resolves to a loopback address at delivery time is not dialled
// (the delivery fails and is logged as refused); a host the operator
// allows is dialled wherever it resolves to. Name resolution is the
// test's: no traffic leaves the loopback interface.
func TestWebhookDeliveryChecksResolvedAddress(t *testing.T) {
	var hits atomic.Int32
	got := make(chan struct{}, 4)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		got <- struct{}{}
	}))
	t.Cleanup(rcv.Close)
	rcvURL, err := url.Parse(rcv.URL)
	require.NoError(t, err)

	var logs syncBuffer
	e := newEnv(t, Options{WebhookAllowedHosts: []string{"receiver.test"}, WebhookRetryDelay: time.Hour,
		Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	var lookups atomic.Int32
	e.s.hookDialer.Lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
		lookups.Add(1)
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil // every name: this machine
	}
	user := e.s.UserToken()
	evil := e.createFolder(user, "0", "evil")["id"].(string)
	good := e.createFolder(user, "0", "good")["id"].(string)
	resp, m := e.createWebhook(user, hookBody(evil, "folder", "https://rebinding.example.com/h", "FILE.UPLOADED"))
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)
	resp, m = e.createWebhook(user, hookBody(good, "folder", "http://receiver.test:"+rcvURL.Port()+"/h", "FILE.UPLOADED"))
	require.Equal(t, http.StatusCreated, resp.StatusCode, "%v", m)

	e.uploadFile(user, evil, "a.txt", []byte("a"))
	e.uploadFile(user, good, "b.txt", []byte("b"))
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the allowed host got no delivery")
	}
	require.Eventually(t, func() bool { return lookups.Load() >= 2 }, 10*time.Second, time.Millisecond, "both deliveries resolved their host")
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "rebinding.example.com resolves to 127.0.0.1:443") },
		10*time.Second, time.Millisecond, "the refused dial is logged")
	require.Equal(t, int32(1), hits.Load(), "only the allowed host was dialled")
}
