package state

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// SignedRef is what a signed content-host token carries. The token is
// base64url(payload) "." base64url(HMAC-SHA256 of payload, keyed with
// SignKey) with payload "kind|file|version|blob|expiry-unix": it is bound
// to one blob of one version and expires (after SignedURLTTL).
type SignedRef struct {
	Kind, FileID, VersionID, BlobID string
	Expires                         time.Time
}

// Sign makes the signed token of ref (see SignedRef).
func (s *Env) Sign(ref SignedRef) string {
	payload := strings.Join([]string{ref.Kind, ref.FileID, ref.VersionID, ref.BlobID, strconv.FormatInt(ref.Expires.Unix(), 10)}, "|")
	mac := hmac.New(sha256.New, s.SignKey)
	mac.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// The errors of Verify: a token that is malformed, signed with another key
// or of another kind; and a good token past its expiry.
var (
	errBadSignature = errors.New("bad signature")
	ErrExpired      = errors.New("expired")
)

// Verify checks a signed token of kind and returns what it carries:
// errBadSignature when it is not one, ErrExpired (with the ref) when it
// has expired.
func (s *Env) Verify(tok, kind string) (SignedRef, error) {
	p64, m64, ok := strings.Cut(tok, ".")
	if !ok {
		return SignedRef{}, errBadSignature
	}
	payload, err1 := base64.RawURLEncoding.DecodeString(p64)
	sum, err2 := base64.RawURLEncoding.DecodeString(m64)
	if err1 != nil || err2 != nil {
		return SignedRef{}, errBadSignature
	}
	mac := hmac.New(sha256.New, s.SignKey)
	mac.Write(payload)
	if !hmac.Equal(sum, mac.Sum(nil)) {
		return SignedRef{}, errBadSignature
	}
	f := strings.Split(string(payload), "|")
	if len(f) != 5 || f[0] != kind {
		return SignedRef{}, errBadSignature
	}
	exp, err := strconv.ParseInt(f[4], 10, 64)
	if err != nil {
		return SignedRef{}, errBadSignature
	}
	ref := SignedRef{Kind: f[0], FileID: f[1], VersionID: f[2], BlobID: f[3], Expires: time.Unix(exp, 0)}
	if !s.Now().Before(ref.Expires) {
		return ref, ErrExpired
	}
	return ref, nil
}

// RetryAfterSeconds is RetryAfter in whole seconds, rounded up.
func (s *Env) RetryAfterSeconds() int {
	return max(1, int(math.Ceil(s.Cfg.RetryAfter.Seconds())))
}

// embedLink is the expiring_embed_link of a file.
func (s *Tx) embedLink(f *Item, _ *Principal) map[string]any {
	v := f.Current()
	tok := s.Sign(SignedRef{Kind: "e", FileID: f.ID, VersionID: v.ID, BlobID: v.Blob.ID(), Expires: s.Now().Add(s.Cfg.SignedURLTTL)})
	return map[string]any{
		"access_token":  tok,
		"expires_in":    int64(s.Cfg.SignedURLTTL / time.Second),
		"token_type":    "bearer",
		"restricted_to": []any{},
		"url":           s.DownloadURL + "/embed/" + tok + "?access_token=" + url.QueryEscape(tok),
	}
}
