package oauth

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMarksFollowEveryChange: every record a grant, a rotation or a
// revocation writes or deletes is marked for the persistence, by the
// service itself; a refused request marks nothing.
func TestMarksFollowEveryChange(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var marks []string
	svc := New(Config[string]{
		Now:               func() time.Time { return now },
		Mark:              func(k Kind, key string) { marks = append(marks, kindName[k]) },
		EnterpriseSubject: func(id string) (string, bool) { return "enterprise:" + id, id == "42" },
		UserSubject:       func(id string) (string, bool) { return "user:" + id, id == "7" },
		TokenURL:          func() string { return "http://api.test/oauth2/token" },
		ParseResource:     func(string) (*Resource, bool) { return nil, false },
	})
	app, err := svc.Register(App{RedirectURIs: []string{"http://localhost/cb"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"app"}, marks)
	_, err = svc.Register(App{ClientID: app.ClientID})
	require.Error(t, err, "a client id is registered once")

	marks = nil
	_, oerr := svc.Token(url.Values{"grant_type": {"client_credentials"}, "client_id": {app.ClientID}, "client_secret": {"wrong"}})
	require.NotNil(t, oerr)
	assert.Equal(t, "invalid_client", oerr.Code)
	_, oerr = svc.Token(url.Values{"grant_type": {"client_credentials"}, "client_id": {app.ClientID}, "client_secret": {app.ClientSecret},
		"box_subject_type": {"user"}, "box_subject_id": {"8"}})
	require.NotNil(t, oerr)
	assert.Equal(t, "invalid_grant", oerr.Code)
	assert.Empty(t, marks, "refusals change nothing")

	tok, oerr := svc.Token(url.Values{"grant_type": {"client_credentials"}, "client_id": {app.ClientID}, "client_secret": {app.ClientSecret},
		"box_subject_type": {"enterprise"}, "box_subject_id": {"42"}})
	require.Nil(t, oerr)
	assert.Equal(t, []string{"access"}, marks)
	it, ok, _ := svc.Lookup(tok.AccessToken)
	require.True(t, ok)
	assert.Equal(t, "enterprise:42", it.Subject)

	marks = nil
	redirect, oerr := svc.RedirectFor(app.ClientID, "")
	require.Nil(t, oerr)
	code := svc.NewCode(app.ClientID, redirect, "user:7")
	pair, oerr := svc.Token(url.Values{"grant_type": {"authorization_code"}, "client_id": {app.ClientID}, "client_secret": {app.ClientSecret}, "code": {code}})
	require.Nil(t, oerr)
	assert.Equal(t, []string{"code", "code", "refresh", "access"}, marks, "the code is made, used up, and a pair issued")

	marks = nil
	_, oerr = svc.Token(url.Values{"grant_type": {"refresh_token"}, "client_id": {app.ClientID}, "client_secret": {app.ClientSecret}, "refresh_token": {pair.RefreshToken}})
	require.Nil(t, oerr)
	assert.Equal(t, []string{"refresh", "access", "refresh", "access"}, marks, "rotation: the old refresh token and its access token's link, then the new pair")

	marks = nil
	require.Nil(t, svc.Revoke(url.Values{"client_id": {app.ClientID}, "client_secret": {app.ClientSecret}, "token": {tok.AccessToken}}))
	assert.Equal(t, []string{"access", "refresh"}, marks)
	_, ok, expired := svc.Lookup(tok.AccessToken)
	assert.False(t, ok)
	assert.False(t, expired)

	now = now.Add(2 * time.Hour)
	_, ok, expired = svc.Lookup(pair.AccessToken)
	assert.False(t, ok)
	assert.True(t, expired, "an expired token is known as expired")
}

var kindName = map[Kind]string{KindApp: "app", KindAccess: "access", KindRefresh: "refresh", KindCode: "code", KindJTI: "jti"}

// TestParseForm: only a form body, and no parameter twice.
func TestParseForm(t *testing.T) {
	t.Parallel()
	req := func(ct, body string) *http.Request {
		r, err := http.NewRequest(http.MethodPost, "http://x/oauth2/token", strings.NewReader(body))
		require.NoError(t, err)
		r.Header.Set("Content-Type", ct)
		return r
	}
	_, oerr := ParseForm(req("application/json", "{}"))
	require.NotNil(t, oerr)
	assert.Equal(t, "invalid_request", oerr.Code)
	_, oerr = ParseForm(req("application/x-www-form-urlencoded", "a=1&a=2"))
	require.NotNil(t, oerr)
	assert.Contains(t, oerr.Desc, "repeated")
	form, oerr := ParseForm(req("application/x-www-form-urlencoded; charset=utf-8", "grant_type=x"))
	require.Nil(t, oerr)
	assert.Equal(t, "x", form.Get("grant_type"))
}
