package cms

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/youmark/pkcs8"
)

// AppConfig is an app's config.json as the developer console generates it
// for server authentication (JWT, and client credentials with its
// clientID/clientSecret). Its String, GoString and LogValue methods never
// show the secret, the private key or the passphrase.
type AppConfig struct {
	BoxAppSettings AppSettings `json:"boxAppSettings"`
	EnterpriseID   string      `json:"enterpriseID"`
}

// AppSettings is the boxAppSettings object of an app config.
type AppSettings struct {
	ClientID     string  `json:"clientID"`
	ClientSecret string  `json:"clientSecret"`
	AppAuth      AppAuth `json:"appAuth"`
}

// AppAuth is the appAuth object of an app config: the id of the public key
// registered with the app and the matching private key, an encrypted
// PKCS#8 PEM ("BEGIN ENCRYPTED PRIVATE KEY") opened with Passphrase.
type AppAuth struct {
	PublicKeyID string `json:"publicKeyID"`
	PrivateKey  string `json:"privateKey"`
	Passphrase  string `json:"passphrase"`
}

// LoadAppConfig reads and parses an app config file (config.json).
func LoadAppConfig(path string) (*AppConfig, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cms: app config: %w", err)
	}
	return ParseAppConfig(b)
}

// ParseAppConfig parses an app config (config.json). It checks that the
// client id and secret are present; the key is checked by
// NewJWTTokenSource. Errors never quote the file's content.
func ParseAppConfig(data []byte) (*AppConfig, error) {
	var c AppConfig
	if err := json.Unmarshal(data, &c); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("cms: app config: invalid JSON at offset %d", se.Offset)
		}
		return nil, errors.New("cms: app config: a field has the wrong JSON type")
	}
	if c.BoxAppSettings.ClientID == "" {
		return nil, errors.New("cms: app config: boxAppSettings.clientID is missing")
	}
	if c.BoxAppSettings.ClientSecret == "" {
		return nil, errors.New("cms: app config: boxAppSettings.clientSecret is missing")
	}
	return &c, nil
}

// String describes the config without its secrets.
func (c AppConfig) String() string {
	return fmt.Sprintf("AppConfig{clientID: %s, enterpriseID: %s, publicKeyID: %s, secrets: REDACTED}",
		c.BoxAppSettings.ClientID, c.EnterpriseID, c.BoxAppSettings.AppAuth.PublicKeyID)
}

// GoString is String, so %#v does not print the secrets either.
func (c AppConfig) GoString() string { return c.String() }

// LogValue logs the config without its secrets.
func (c AppConfig) LogValue() slog.Value {
	return slog.GroupValue(slog.String("client_id", c.BoxAppSettings.ClientID),
		slog.String("enterprise_id", c.EnterpriseID), slog.String("public_key_id", c.BoxAppSettings.AppAuth.PublicKeyID))
}

// String hides the secrets of the settings as well.
func (s AppSettings) String() string {
	return fmt.Sprintf("AppSettings{clientID: %s, secrets: REDACTED}", s.ClientID)
}

// GoString is String.
func (s AppSettings) GoString() string { return s.String() }

// String hides the key and passphrase.
func (a AppAuth) String() string {
	return fmt.Sprintf("AppAuth{publicKeyID: %s, privateKey: REDACTED, passphrase: REDACTED}", a.PublicKeyID)
}

// GoString is String.
func (a AppAuth) GoString() string { return a.String() }

// privateKey decodes the app's RSA private key: an encrypted PKCS#8 PEM
// (opened with the passphrase), or an unencrypted PKCS#8 or PKCS#1 PEM.
func (c *AppConfig) privateKey() (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(c.BoxAppSettings.AppAuth.PrivateKey))
	if block == nil {
		return nil, errors.New("cms: app config: appAuth.privateKey is not a PEM block")
	}
	var (
		key any
		err error
	)
	switch block.Type {
	case "ENCRYPTED PRIVATE KEY":
		if c.BoxAppSettings.AppAuth.Passphrase == "" {
			return nil, errors.New("cms: app config: appAuth.passphrase is missing for the encrypted private key")
		}
		key, err = decryptPKCS8(block.Bytes, []byte(c.BoxAppSettings.AppAuth.Passphrase))
		if err != nil {
			return nil, errors.New("cms: app config: cannot decrypt appAuth.privateKey (wrong passphrase or unsupported encryption)")
		}
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		if _, legacy := block.Headers["DEK-Info"]; legacy {
			return nil, errors.New("cms: app config: legacy PEM encryption is not supported; use encrypted PKCS#8")
		}
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		return nil, errors.New("cms: app config: appAuth.privateKey is not a private key PEM block")
	}
	if err != nil {
		return nil, errors.New("cms: app config: appAuth.privateKey is not a valid private key")
	}
	rk, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("cms: app config: appAuth.privateKey is not an RSA key")
	}
	return rk, nil
}

// decryptPKCS8 opens an encrypted PKCS#8 key. The library panics on some
// malformed keys (an IV whose length is not the cipher's block size:
// FuzzParseAppConfig); a key from a config file is untrusted input, so the
// panic is an error like any other undecryptable key.
func decryptPKCS8(der, passphrase []byte) (key any, err error) {
	defer func() {
		if recover() != nil {
			key, err = nil, errors.New("malformed encrypted key")
		}
	}()
	return pkcs8.ParsePKCS8PrivateKey(der, passphrase)
}
