package cms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/contentapi/cms/internal/atomicfile"
	"golang.org/x/oauth2"
)

// ErrNoToken is returned by TokenStore.Get when nothing is stored.
var ErrNoToken = errors.New("cms: no token stored")

// TokenStore keeps a user's access and refresh token across restarts. The
// authorization-code token source calls Store with every new pair before it
// uses it: refresh tokens are single use, so a pair that is not stored is
// lost. Implementations must be safe for concurrent use.
type TokenStore interface {
	// Get returns the stored token, or ErrNoToken.
	Get(ctx context.Context) (*oauth2.Token, error)
	// Store replaces the stored token.
	Store(ctx context.Context, tok *oauth2.Token) error
	// Clear removes the stored token (after a revocation or sign-out).
	Clear(ctx context.Context) error
}

// storedToken is the persisted form of a token.
type storedToken struct {
	AccessToken  string    `json:"access_token"`
	TokenType    string    `json:"token_type,omitzero"`
	RefreshToken string    `json:"refresh_token,omitzero"`
	Expiry       time.Time `json:"expiry,omitzero"`
}

func toStored(t *oauth2.Token) storedToken {
	return storedToken{AccessToken: t.AccessToken, TokenType: t.TokenType, RefreshToken: t.RefreshToken, Expiry: t.Expiry}
}

func (s storedToken) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: s.AccessToken, TokenType: s.TokenType, RefreshToken: s.RefreshToken, Expiry: s.Expiry}
}

// MemoryTokenStore keeps the token in memory (tests, short-lived programs).
// The zero value is empty and ready to use.
type MemoryTokenStore struct {
	mu  sync.Mutex
	tok *storedToken
}

// NewMemoryTokenStore returns a store holding tok (nil for an empty one).
func NewMemoryTokenStore(tok *oauth2.Token) *MemoryTokenStore {
	m := &MemoryTokenStore{}
	if tok != nil {
		st := toStored(tok)
		m.tok = &st
	}
	return m
}

// Get returns a copy of the stored token, or ErrNoToken.
func (m *MemoryTokenStore) Get(ctx context.Context) (*oauth2.Token, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tok == nil {
		return nil, ErrNoToken
	}
	return m.tok.token(), nil
}

// Store replaces the stored token with a copy of tok.
func (m *MemoryTokenStore) Store(ctx context.Context, tok *oauth2.Token) error {
	if tok == nil {
		return errors.New("cms: token is nil")
	}
	st := toStored(tok)
	m.mu.Lock()
	m.tok = &st
	m.mu.Unlock()
	return nil
}

// Clear empties the store.
func (m *MemoryTokenStore) Clear(ctx context.Context) error {
	m.mu.Lock()
	m.tok = nil
	m.mu.Unlock()
	return nil
}

// FileTokenStore keeps the token in a JSON file readable only by its owner
// (mode 0600). Every Store writes a temporary file in the same directory and
// renames it over the old one, so a crash never leaves half a token.
type FileTokenStore struct {
	path string
	mu   sync.Mutex
}

// NewFileTokenStore returns a store backed by the file at path. The file
// need not exist yet; its directory must.
func NewFileTokenStore(path string) (*FileTokenStore, error) {
	if path == "" {
		return nil, errors.New("cms: token file path is empty")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("cms: token file: %w", err)
	}
	return &FileTokenStore{path: abs}, nil
}

// Path returns the file's path.
func (f *FileTokenStore) Path() string { return f.path }

// Get reads the token from the file, or returns ErrNoToken when there is
// no file.
func (f *FileTokenStore) Get(ctx context.Context) (*oauth2.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	b, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoToken
	}
	if err != nil {
		return nil, fmt.Errorf("cms: token file: %w", err)
	}
	var st storedToken
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("cms: token file %s is not a stored token", f.path)
	}
	if st.AccessToken == "" && st.RefreshToken == "" {
		return nil, ErrNoToken
	}
	return st.token(), nil
}

// Store writes tok to the file atomically with mode 0600.
func (f *FileTokenStore) Store(ctx context.Context, tok *oauth2.Token) error {
	if tok == nil {
		return errors.New("cms: token is nil")
	}
	b, err := json.Marshal(toStored(tok))
	if err != nil {
		return fmt.Errorf("cms: encoding token: %w", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := atomicfile.WriteFile(f.path, b, 0o600); err != nil {
		return fmt.Errorf("cms: token file: %w", err)
	}
	return nil
}

// Clear removes the file.
func (f *FileTokenStore) Clear(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := os.Remove(f.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cms: token file: %w", err)
	}
	return nil
}
