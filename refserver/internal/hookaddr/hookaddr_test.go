package hookaddr

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"testing"
)

func TestCheckURL(t *testing.T) {
	t.Parallel()
	allowing, err := NewPolicy([]string{"hooks.corp", "10.1.2.3", "fd00:1::/32", "Receiver.Test."})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url    string
		p      *Policy
		accept bool
	}{
		{"https://example.com/hook", nil, true},
		{"https://example.com:443/hook", nil, true},
		{"https://93.184.216.34/hook", nil, true},
		{"https://[2606:4700::1111]/hook", nil, true},
		{"http://127.0.0.1:8080/hook", nil, true},
		{"http://127.9.9.9/hook", nil, true},
		{"http://[::1]:9/hook", nil, true},
		{"http://localhost:8080/hook", nil, true},
		{"http://LOCALHOST./hook", nil, true},

		{"https://169.254.169.254/latest/meta-data", nil, false},
		{"https://10.0.0.1/hook", nil, false},
		{"https://172.16.5.4/hook", nil, false},
		{"https://192.168.1.1/hook", nil, false},
		{"https://100.64.0.1/hook", nil, false},
		{"https://0.0.0.0/hook", nil, false},
		{"https://[fd00::1]/hook", nil, false},
		{"https://[fe80::1]/hook", nil, false},
		{"https://[::ffff:10.0.0.1]/hook", nil, false},
		{"https://[64:ff9b::a00:1]/hook", nil, false},
		{"https://[::]/hook", nil, false},
		{"https://127.0.0.1/hook", nil, false},
		{"https://localhost/hook", nil, false},
		{"https://metadata.google.internal/computeMetadata/v1/", nil, false},
		{"https://metadata/hook", nil, false},
		{"https://instance-data/hook", nil, false},
		{"https://metadata.azure.com/hook", nil, false},
		{"https://printer.local/hook", nil, false},
		{"https://app.localhost/hook", nil, false},
		{"https://2130706433/hook", nil, false},
		{"https://127.1/hook", nil, false},
		{"https://0x7f.1/hook", nil, false},
		{"https://example.com:8443/hook", nil, false},
		{"https://example.com:80/hook", nil, false},
		{"http://example.com/hook", nil, false},
		{"http://10.0.0.1/hook", nil, false},
		{"https://user:pw@example.com/hook", nil, false},
		{"ftp://example.com/hook", nil, false},
		{"/relative", nil, false},
		{"https://", nil, false},
		{"mailto:a@example.com", nil, false},

		{"http://hooks.corp:8080/h", allowing, true},
		{"https://10.1.2.3:9443/h", allowing, true},
		{"https://[fd00:1:2::3]/h", allowing, true},
		{"http://receiver.test/h", allowing, true},
		{"https://10.1.2.4/h", allowing, false},
		{"https://other.corp/h", allowing, false},
	} {
		err := c.p.CheckURL(c.url)
		if c.accept && err != nil {
			t.Errorf("%s: refused: %v", c.url, err)
		}
		if !c.accept && !errors.Is(err, ErrForbidden) {
			t.Errorf("%s: taken (%v)", c.url, err)
		}
	}
}

func TestNewPolicyRefusesBadEntries(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "https://example.com", "example.com:443", "10.0.0.0/33"} {
		if _, err := NewPolicy([]string{bad}); err == nil {
			t.Errorf("%q taken", bad)
		}
	}
}

// TestDialerChecksResolvedAddresses: a public name that resolves to a
// loopback, private, link-local or metadata address is not dialled (the
// Control hook refuses before the connection is made, so no packet
// leaves); an allowed name is dialled wherever it resolves to, here a
// loopback listener; a public address on another port than 443 is
// refused too. No test traffic leaves the loopback interface.
func TestDialerChecksResolvedAddresses(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	resolved := map[string][]string{
		"evil.example.com":    {"127.0.0.1"},
		"private.example.com": {"10.0.0.7", "192.168.1.9"},
		"meta.example.com":    {"169.254.169.254"},
		"mapped.example.com":  {"::ffff:127.0.0.1"},
		"ula.example.com":     {"fd00::5"},
		"receiver.test":       {"127.0.0.1"},
		"localhost":           {"127.0.0.1"},
	}
	lookups := 0
	p, err := NewPolicy([]string{"receiver.test"})
	if err != nil {
		t.Fatal(err)
	}
	d := &Dialer{Policy: p, Lookup: func(_ context.Context, host string) ([]netip.Addr, error) {
		lookups++
		var out []netip.Addr
		for _, s := range resolved[host] {
			out = append(out, netip.MustParseAddr(s))
		}
		return out, nil
	}}
	ctx := context.Background()
	for _, host := range []string{"evil.example.com", "private.example.com", "meta.example.com", "mapped.example.com", "ula.example.com"} {
		for _, port := range []string{"443", strconv.Itoa(port)} {
			conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, port))
			if err == nil {
				conn.Close()
				t.Fatalf("%s:%s dialled", host, port)
			}
			if !errors.Is(err, ErrForbidden) {
				t.Fatalf("%s:%s: %v, want ErrForbidden", host, port, err)
			}
		}
	}
	if lookups != 10 {
		t.Fatalf("%d lookups, want 10 (the check is after resolution)", lookups)
	}
	select {
	case <-accepted:
		t.Fatal("a refused dial reached the listener")
	default:
	}

	conn, err := d.DialContext(ctx, "tcp", net.JoinHostPort("receiver.test", strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("allowed host: %v", err)
	}
	conn.Close()
	<-accepted
	conn, err = d.DialContext(ctx, "tcp", net.JoinHostPort("localhost", strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("loopback host: %v", err)
	}
	conn.Close()
	<-accepted

	// The dial rule itself, for addresses a test must not dial.
	for _, c := range []struct {
		host, addr string
		ok         bool
	}{
		{"example.com", "93.184.216.34:443", true},
		{"example.com", "93.184.216.34:8443", false},
		{"example.com", "[2606:4700::1111]:443", true},
		{"example.com", "[::ffff:169.254.169.254]:443", false},
		{"localhost", "93.184.216.34:80", false},
		{"10.1.2.3", "10.1.2.3:9000", false},
	} {
		err := (*Policy)(nil).CheckDial(c.host, netip.MustParseAddrPort(c.addr))
		if (err == nil) != c.ok {
			t.Errorf("%s -> %s: %v", c.host, c.addr, err)
		}
	}
}

// FuzzCheckURL: any address is judged without panicking, and one the rule
// takes without allowed hosts is https on 443 to a host that is not an
// internal address, or http on a loopback host.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://example.com/h", "http://127.0.0.1:8080/", "https://[::ffff:10.0.0.1]/", "https://2130706433/", "http://[fe80::1%25eth0]/", "https://a@b/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if (*Policy)(nil).CheckURL(s) != nil {
			return
		}
		u, err := url.Parse(s)
		if err != nil {
			t.Fatalf("%q taken but does not parse: %v", s, err)
		}
		host := u.Hostname()
		switch u.Scheme {
		case "http":
			if !LoopbackHost(host) {
				t.Fatalf("%q: http to a host that is not loopback", s)
			}
		case "https":
			if p := u.Port(); p != "" && p != "443" {
				t.Fatalf("%q: port %s", s, p)
			}
			if ip, err := netip.ParseAddr(host); err == nil && !PublicAddr(ip) {
				t.Fatalf("%q: internal address", s)
			}
		default:
			t.Fatalf("%q: scheme %q", s, u.Scheme)
		}
	})
}
