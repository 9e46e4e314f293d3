package refserver

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"encoding/pem"
	"fmt"

	"github.com/contentapi/cms/internal/atomicfile"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/youmark/pkcs8"
)

// NewAppConfig registers an app authorized in the server's enterprise, with
// key's public half as its JWT key, and returns the app and its complete
// app config JSON in the service's config.json format
// (boxAppSettings.clientID, clientSecret, appAuth.publicKeyID, privateKey as
// an encrypted PKCS#8 PEM — PBES2, PBKDF2-HMAC-SHA256, AES-256-CBC, as the
// developer console generates — passphrase, and enterpriseID). A nil key
// means a freshly generated 2048-bit one; an empty passphrase a random one.
// redirectURIs are registered for the authorization-code flow.
func (s *Server) NewAppConfig(key *rsa.PrivateKey, passphrase string, redirectURIs ...string) ([]byte, App, error) {
	if key == nil {
		var err error
		if key, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			return nil, App{}, fmt.Errorf("refserver: generating the app key: %w", err)
		}
	}
	if passphrase == "" {
		passphrase = state.RandomHex(16)
	}
	der, err := pkcs8.MarshalPrivateKey(key, []byte(passphrase), &pkcs8.Opts{
		Cipher:  pkcs8.AES256CBC,
		KDFOpts: pkcs8.PBKDF2Opts{SaltSize: 16, IterationCount: 2048, HMACHash: crypto.SHA256},
	})
	if err != nil {
		return nil, App{}, fmt.Errorf("refserver: encrypting the app key: %w", err)
	}
	keyID := state.RandomHex(4)
	app, err := s.RegisterApp(App{PublicKeys: map[string]*rsa.PublicKey{keyID: &key.PublicKey}, RedirectURIs: redirectURIs})
	if err != nil {
		return nil, App{}, err
	}
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: der}))
	b, err := marshalAppConfig(app.ClientID, app.ClientSecret, keyID, keyPEM, passphrase, s.st.EnterpriseID)
	if err != nil {
		return nil, App{}, err
	}
	return b, app, nil
}

// WriteAppConfig is NewAppConfig with a fresh key, writing the config to
// path (mode 0600, through a temporary file renamed into place). It returns
// the app's client id. cmd/refserver's -app-config flag uses it.
func (s *Server) WriteAppConfig(path string) (string, error) {
	b, app, err := s.NewAppConfig(nil, "")
	if err != nil {
		return "", err
	}
	if err := atomicfile.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return "", fmt.Errorf("refserver: app config: %w", err)
	}
	return app.ClientID, nil
}
