// Package hookaddr is the rule of the addresses webhook deliveries go to
// (the V2 webhooks guide: "the notification URL must be a public HTTPS
// address on port 443"), checked twice: when a webhook is created or
// changed (Policy.CheckURL, on the URL as written), and when a delivery
// connects (Dialer, on every address the host name resolves to, in the
// dialer's Control hook, so a public name that resolves to a private
// address is never dialled).
//
// The rule:
//   - https on port 443 to a public host: a name with a dot whose last
//     label is not a number, and not a name of the local network or of a
//     cloud metadata service (localhost, *.localhost, *.local,
//     *.localdomain, *.internal, *.home.arpa, metadata, instance-data…),
//     or a public IP address (not loopback, private, link-local, shared,
//     multicast, reserved, documentation, 6to4, Teredo or NAT64);
//   - http on a loopback host (localhost, 127.0.0.0/8, ::1), any port: a
//     local test receiver (the service has no such exception);
//   - hosts the operator allows (NewPolicy): a host name, an IP address or
//     a CIDR prefix; an allowed host takes http or https on any port, and
//     an allowed address is dialled whatever name led to it.
//
// No URL carries credentials (user:password@).
package hookaddr

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// ErrForbidden is wrapped by every refusal of the rule.
var ErrForbidden = errors.New("webhook address not allowed")

// Policy is the address rule with the hosts an operator allows. The zero
// Policy (and a nil one) allows no extra host.
type Policy struct {
	names    map[string]bool
	prefixes []netip.Prefix
}

// NewPolicy returns the rule allowing hosts besides the public ones: each
// a host name (matched case-insensitively, without a trailing dot), an IP
// address or a CIDR prefix (10.0.0.0/8, fd00::/8).
func NewPolicy(allowed []string) (*Policy, error) {
	p := &Policy{names: map[string]bool{}}
	for _, a := range allowed {
		a = strings.TrimSpace(a)
		switch {
		case a == "":
			return nil, errors.New("hookaddr: an empty allowed host")
		case strings.Contains(a, "/"):
			pfx, err := netip.ParsePrefix(a)
			if err != nil {
				return nil, fmt.Errorf("hookaddr: allowed host %q: %w", a, err)
			}
			p.prefixes = append(p.prefixes, pfx.Masked())
		default:
			if ip, err := netip.ParseAddr(strings.Trim(a, "[]")); err == nil {
				p.prefixes = append(p.prefixes, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
				continue
			}
			if strings.ContainsAny(a, ":@?#") {
				return nil, fmt.Errorf("hookaddr: allowed host %q: a host name, an IP address or a CIDR prefix, without scheme or port", a)
			}
			p.names[normName(a)] = true
		}
	}
	return p, nil
}

// normName is a host name as the rule compares it.
func normName(h string) string { return strings.TrimSuffix(strings.ToLower(h), ".") }

// allowedName reports whether the operator allows host (a name or an IP
// literal).
func (p *Policy) allowedName(host string) bool {
	if p == nil {
		return false
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return p.allowedAddr(ip)
	}
	return p.names[normName(host)]
}

// allowedAddr reports whether ip is in a prefix the operator allows.
func (p *Policy) allowedAddr(ip netip.Addr) bool {
	if p == nil {
		return false
	}
	ip = ip.Unmap()
	for _, pfx := range p.prefixes {
		if pfx.Contains(ip) {
			return true
		}
	}
	return false
}

// CheckURL applies the rule to a webhook's address as written: nil, or an
// error wrapping ErrForbidden that says why (for the 400 answer).
func (p *Policy) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("%w: an absolute https URL", ErrForbidden)
	}
	if u.User != nil {
		return fmt.Errorf("%w: credentials in the URL", ErrForbidden)
	}
	if u.Scheme != "https" && u.Scheme != "http" {
		return fmt.Errorf("%w: an https URL", ErrForbidden)
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return fmt.Errorf("%w: an absolute https URL", ErrForbidden)
	}
	if p.allowedName(host) {
		return nil
	}
	if u.Scheme == "http" {
		if LoopbackHost(host) {
			return nil
		}
		return fmt.Errorf("%w: an https URL (plain http only to a loopback host)", ErrForbidden)
	}
	if port != "" && port != "443" {
		return fmt.Errorf("%w: https on port 443", ErrForbidden)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if !PublicAddr(ip) {
			return fmt.Errorf("%w: %s is not a public address", ErrForbidden, host)
		}
		return nil
	}
	if !publicName(host) {
		return fmt.Errorf("%w: %s is not a public host name", ErrForbidden, host)
	}
	return nil
}

// LoopbackHost reports whether host is localhost or a loopback IP
// address.
func LoopbackHost(host string) bool {
	if normName(host) == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// localSuffixes end the names of local networks and of cloud metadata
// services; localNames are such names whole.
var (
	localSuffixes = []string{".localhost", ".local", ".localdomain", ".internal", ".home.arpa", ".lan", ".intranet", ".corp"}
	localNames    = map[string]bool{
		"metadata.goog": true, "metadata.azure.com": true, "metadata.tencentyun.com": true,
		"metadata.platformequinix.com": true,
	}
)

// publicName reports whether name may be a public DNS name: it has a dot,
// its last label is not numeric (127.1, 2130706433 and 0x7f.1 are
// addresses to some resolvers) and it is not a local or metadata name.
func publicName(name string) bool {
	name = normName(name)
	if !strings.Contains(name, ".") || localNames[name] {
		return false
	}
	for _, s := range localSuffixes {
		if strings.HasSuffix(name, s) {
			return false
		}
	}
	last := name[strings.LastIndexByte(name, '.')+1:]
	if last == "" || strings.HasPrefix(last, "0x") || strings.Trim(last, "0123456789") == "" {
		return false
	}
	for _, label := range strings.Split(name, ".") {
		if strings.HasPrefix(label, "0x") && strings.Trim(label[2:], "0123456789abcdef") == "" {
			return false
		}
	}
	return true
}

// notPublic are the ranges beyond netip's predicates that are no public
// unicast address.
var notPublic = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // shared address space (carrier NAT)
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("192.0.2.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("198.51.100.0/24"),
	netip.MustParsePrefix("203.0.113.0/24"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64: an IPv4 address inside
	netip.MustParsePrefix("64:ff9b:1::/48"), // local NAT64
	netip.MustParsePrefix("100::/64"),       // discard
	netip.MustParsePrefix("2001::/32"),      // Teredo: an IPv4 address inside
	netip.MustParsePrefix("2001:db8::/32"),  // documentation
	netip.MustParsePrefix("2002::/16"),      // 6to4: an IPv4 address inside
	netip.MustParsePrefix("fec0::/10"),      // site-local
}

// PublicAddr reports whether ip is a public unicast address (an IPv4
// address mapped into IPv6 is judged as the IPv4 address).
func PublicAddr(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || !ip.IsGlobalUnicast() || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.Zone() != "" {
		return false
	}
	for _, pfx := range notPublic {
		if pfx.Contains(ip) {
			return false
		}
	}
	return true
}

// CheckDial applies the rule to one connection: to addr, resolved from
// host (the URL's host, which CheckURL took). An address the operator
// allows, or any address of an allowed host name, passes; a loopback
// address passes for a loopback host; anything else must be a public
// address on port 443.
func (p *Policy) CheckDial(host string, addr netip.AddrPort) error {
	ip := addr.Addr().Unmap()
	switch {
	case p.allowedName(host), p.allowedAddr(ip):
		return nil
	case LoopbackHost(host) && ip.IsLoopback():
		return nil
	case PublicAddr(ip) && addr.Port() == 443:
		return nil
	}
	return fmt.Errorf("%w: %s resolves to %s", ErrForbidden, host, addr)
}

// Dialer connects to webhook receivers under a Policy: every address it
// is about to connect to passes Policy.CheckDial first, in the Control
// hook of a net.Dialer (after resolution, before the connection), so no
// packet leaves for a refused address.
type Dialer struct {
	Policy *Policy
	// Lookup resolves a host name; nil means net.DefaultResolver's
	// LookupNetIP. A test gives its own.
	Lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dialer is the base dialer (timeouts, keep-alive); its Control is
	// replaced.
	Dialer net.Dialer
}

// DialContext connects to addr ("host:port") on network, trying each
// address the host resolves to in turn; it has the signature of
// http.Transport's DialContext.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else {
		lookup := d.Lookup
		if lookup == nil {
			lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
				return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			}
		}
		if ips, err = lookup(ctx, host); err != nil {
			return nil, err
		}
		if len(ips) == 0 {
			return nil, fmt.Errorf("hookaddr: %s has no address", host)
		}
	}
	nd := d.Dialer
	nd.Control = func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return fmt.Errorf("%w: %s", ErrForbidden, address)
		}
		return d.Policy.CheckDial(host, ap)
	}
	var errs []error
	for _, ip := range ips {
		conn, err := nd.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}
