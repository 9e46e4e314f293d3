package cms

import (
	"errors"
	"log/slog"
	"os"
)

// The environment variables ConfigFromEnv reads, as the cms command does.
const (
	// EnvBaseURL names the API root (…/2.0); unset means the public service.
	EnvBaseURL = "CMS_BASE_URL"
	// EnvUploadURL names the upload root (…/api/2.0); set it together with
	// CMS_BASE_URL, or neither.
	EnvUploadURL = "CMS_UPLOAD_URL"
	// EnvToken is the access token (a developer token, say).
	EnvToken = "CMS_TOKEN"
)

// EnvConfig is a service and token as the environment names them
// (ConfigFromEnv). Its String, GoString and LogValue never show the token.
type EnvConfig struct {
	// BaseURL and UploadURL are the roots; both empty means the public
	// service (DefaultBaseURL, DefaultUploadURL).
	BaseURL, UploadURL string
	// Token is the access token.
	Token string
}

// ErrEnvTokenUnset is the error of ConfigFromEnv and ConfigFromLookup
// when CMS_TOKEN is not set (and the roots are as they should be): the
// config they return then holds the roots, for a caller that has
// credentials of another kind (an app config, as the cms command's
// --app-config).
var ErrEnvTokenUnset = errors.New("cms: " + EnvToken + " is not set")

// ConfigFromEnv reads CMS_BASE_URL, CMS_UPLOAD_URL and CMS_TOKEN with the
// cms command's rules: the two roots both set (a deployment of its own) or
// neither (the public service), since a custom API root with the public
// upload root would send its token to the public service; and a token
// always (ErrEnvTokenUnset). The error names the variables, never their
// values. It is ConfigFromLookup(os.LookupEnv).
func ConfigFromEnv() (EnvConfig, error) {
	return ConfigFromLookup(os.LookupEnv)
}

// ConfigFromLookup is ConfigFromEnv with the variables read through lookup
// (os.LookupEnv's shape) instead of the process environment: a program
// that keeps its own environment (a test, a command run in-process) reads
// it with the same rules. A variable set to "" counts as unset, as for
// the cms command.
func ConfigFromLookup(lookup func(string) (string, bool)) (EnvConfig, error) {
	if lookup == nil {
		return EnvConfig{}, invalidArg("lookup", "nil")
	}
	get := func(k string) string { v, _ := lookup(k); return v }
	e := EnvConfig{BaseURL: get(EnvBaseURL), UploadURL: get(EnvUploadURL), Token: get(EnvToken)}
	if (e.BaseURL == "") != (e.UploadURL == "") {
		return EnvConfig{}, errors.New("cms: set both " + EnvBaseURL + " and " + EnvUploadURL +
			" (the API root …/2.0 and the upload root …/api/2.0), or neither for the public service")
	}
	if e.Token == "" {
		return e, ErrEnvTokenUnset
	}
	return e, nil
}

// Options returns the options that point a client at e's service with its
// token, for NewClient.
func (e EnvConfig) Options() []Option {
	var opts []Option
	if e.BaseURL != "" || e.UploadURL != "" {
		opts = append(opts, WithURLs(e.BaseURL, e.UploadURL))
	}
	return append(opts, WithToken(e.Token))
}

// String describes e without its token.
func (e EnvConfig) String() string {
	base := e.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	token := "unset"
	if e.Token != "" {
		token = "set"
	}
	return "cms.EnvConfig{BaseURL: " + base + ", token " + token + "}"
}

// GoString is String: %#v never prints the token either.
func (e EnvConfig) GoString() string { return e.String() }

// LogValue logs e without its token.
func (e EnvConfig) LogValue() slog.Value {
	return slog.GroupValue(slog.String("base_url", e.BaseURL), slog.String("upload_url", e.UploadURL), slog.Bool("token_set", e.Token != ""))
}

// NewClientFromEnv returns a client of the service and token the
// environment names (ConfigFromEnv), with opts added after them:
//
//	export CMS_TOKEN=…   # the public service
//	export CMS_BASE_URL=http://127.0.0.1:8080/2.0 CMS_UPLOAD_URL=http://127.0.0.1:8081/api/2.0 CMS_TOKEN=…
func NewClientFromEnv(opts ...Option) (*Client, error) {
	e, err := ConfigFromEnv()
	if err != nil {
		return nil, err
	}
	return NewClient(append(e.Options(), opts...)...)
}
