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

// ConfigFromEnv reads CMS_BASE_URL, CMS_UPLOAD_URL and CMS_TOKEN with the
// cms command's rules: the two roots both set (a deployment of its own) or
// neither (the public service), since a custom API root with the public
// upload root would send its token to the public service; and a token
// always. The error names the variables, never their values.
func ConfigFromEnv() (EnvConfig, error) {
	return configFromEnv(os.Getenv)
}

func configFromEnv(getenv func(string) string) (EnvConfig, error) {
	e := EnvConfig{BaseURL: getenv(EnvBaseURL), UploadURL: getenv(EnvUploadURL), Token: getenv(EnvToken)}
	if (e.BaseURL == "") != (e.UploadURL == "") {
		return EnvConfig{}, errors.New("cms: set both " + EnvBaseURL + " and " + EnvUploadURL +
			" (the API root …/2.0 and the upload root …/api/2.0), or neither for the public service")
	}
	if e.Token == "" {
		return EnvConfig{}, errors.New("cms: " + EnvToken + " is not set")
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
