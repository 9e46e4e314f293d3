// Package connect is how the example programs reach a service: the one the
// environment names, or a reference server started in the process.
//
// The environment: CMS_BASE_URL (the API root, …/2.0), CMS_UPLOAD_URL (the
// upload root, …/api/2.0; required when CMS_BASE_URL is not the public
// service, and the SDK refuses to start without it) and CMS_TOKEN.
package connect

import (
	"errors"
	"os"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// The environment variables Open reads.
const (
	EnvBaseURL   = "CMS_BASE_URL"
	EnvUploadURL = "CMS_UPLOAD_URL"
	EnvToken     = "CMS_TOKEN"
)

// Conn is a client and what it is connected to.
type Conn struct {
	// Client is the client of the principal Open asked for (the token of
	// CMS_TOKEN when the environment names a service).
	Client *cms.Client
	// Server is the reference server started by Open, nil when the
	// environment names a service.
	Server *refserver.Server
	// Where describes the service for the program's first line.
	Where string
	// roots are the options that name the roots (no token).
	roots []cms.Option
	close func()
}

// Open connects to the service of the environment when CMS_BASE_URL and
// CMS_TOKEN are set, else starts a reference server with srvOpts and
// connects to it as role. hint tells, for the reference-server case, which
// variables point the program at a real service.
func Open(role refserver.Role, srvOpts refserver.Options, hint string) (*Conn, error) {
	if base, token := os.Getenv(EnvBaseURL), os.Getenv(EnvToken); base != "" && token != "" {
		roots := []cms.Option{cms.WithBaseURL(base)}
		if up := os.Getenv(EnvUploadURL); up != "" {
			roots = append(roots, cms.WithUploadURL(up))
		}
		c := &Conn{Where: base, roots: roots, close: func() {}}
		var err error
		if c.Client, err = c.WithToken(token); err != nil {
			return nil, err
		}
		return c, nil
	}
	srv, err := refserver.Start(srvOpts)
	if err != nil {
		return nil, err
	}
	ep, err := srv.Endpoint(role)
	if err != nil {
		srv.Close()
		return nil, err
	}
	if hint == "" {
		hint = "set CMS_BASE_URL, CMS_UPLOAD_URL and CMS_TOKEN for a real service"
	}
	c := &Conn{
		Server: srv,
		Where:  "a reference server at " + srv.BaseURL() + " (" + hint + ")",
		roots:  []cms.Option{cms.WithURLs(ep.BaseURL, ep.UploadURL)},
		close:  func() { srv.Close() },
	}
	if c.Client, err = c.WithToken(ep.Token); err != nil {
		srv.Close()
		return nil, err
	}
	return c, nil
}

// WithToken returns a client of the same service with another token (a
// second user of an example), with opts added.
func (c *Conn) WithToken(token string, opts ...cms.Option) (*cms.Client, error) {
	if token == "" {
		return nil, errors.New("connect: empty token")
	}
	all := append(append([]cms.Option{}, c.roots...), cms.WithToken(token))
	return cms.NewClient(append(all, opts...)...)
}

// Roots returns the options naming the service's roots, for clients the
// program builds itself (with their own token source).
func (c *Conn) Roots() []cms.Option { return append([]cms.Option{}, c.roots...) }

// Close stops the reference server, if Open started one.
func (c *Conn) Close() { c.close() }
