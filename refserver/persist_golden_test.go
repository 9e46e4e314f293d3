package refserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
)

// TestRecordBytesUnchanged: records of the kinds whose codecs moved into
// internal/persist read and write the same bytes as before the move. Each
// golden record, every field set, is loaded into a server and encoded
// again: the bytes must come back as they are. A changed field name, order
// or omission fails (a server would no longer read its own data directory).
func TestRecordBytesUnchanged(t *testing.T) {
	e := newEnv(t, Options{})
	var user string
	e.s.st.View(func(tx *state.ReadTx) { user = tx.User.ID })
	item := e.createFolder(e.s.UserToken(), "0", "golden")["id"].(string)
	// The RSA public key below is PKIX DER, base64 (a record's []byte).
	const pub = "MFwwDQYJKoZIhvcNAQEBBQADSwAwSAJBAMbm2rB7iJ0BtaSS4dfLSVlC9vk4j4KiTH2m6t+7SBSkMxWmWW6oLUsZ8Jx9VJ2TTkqjS1NUCq6dsrd8VYbVpYECAwEAAQ=="
	cases := []struct{ bucket, key, rec string }{
		{"oauth_apps", "client-1", `{"ClientSecret":"secret","RedirectURIs":["https://app.test/cb"],"PublicKeys":{"kid1":"` + pub + `"},"NotAuthorized":true}`},
		{"oauth_access_tokens", "tok-1", `{"Kind":"user","User":"` + user + `","ClientID":"client-1","Expires":"2026-11-28T01:02:03Z","Scopes":["item_preview"],"Resource":["file","12"],"Refresh":"ref-1"}`},
		{"oauth_access_tokens", "tok-2", `{"Kind":"user","User":"` + user + `","ClientID":"","Expires":"0001-01-01T00:00:00Z","Scopes":null,"Resource":null,"Refresh":""}`},
		{"oauth_refresh_tokens", "ref-1", `{"ClientID":"client-1","User":"` + user + `","Access":"tok-1","Expires":"2026-12-28T01:02:03Z"}`},
		{"oauth_codes", "code-1", `{"ClientID":"client-1","RedirectURI":"https://app.test/cb","User":"` + user + `","Expires":"2026-11-28T01:02:03Z"}`},
		{"oauth_jwt_ids", "client-1\x00jti-1", `"2026-11-28T01:02:03Z"`},
		{"collaborations", "71", `{"Item":"` + item + `","User":"` + user + `","Group":"","InviteEmail":"a@b.test","Role":"editor","Status":"accepted","AccessOnly":true,"CanViewPath":true,"ExpiresAt":"2027-01-01T00:00:00Z","CreatedAt":"2026-11-28T01:02:03Z","ModifiedAt":"2026-11-28T01:02:04Z","AckAt":"2026-11-28T01:02:05Z","CreatedBy":"` + user + `","GrantedSeq":42}`},
		{"collaborations", "72", `{"Item":"` + item + `","User":"","Group":"","InviteEmail":"c@d.test","Role":"viewer","Status":"pending","AccessOnly":false,"CanViewPath":false,"ExpiresAt":"0001-01-01T00:00:00Z","CreatedAt":"2026-11-28T01:02:03Z","ModifiedAt":"2026-11-28T01:02:03Z","AckAt":"0001-01-01T00:00:00Z","CreatedBy":"` + user + `"}`},
		{"comments", "81", `{"File":"` + item + `","ReplyTo":"80","Message":"hello @[1:x]","Tagged":"1","By":"` + user + `","CreatedAt":"2026-11-28T01:02:03Z","ModifiedAt":"2026-11-28T01:02:04Z"}`},
		{"webhooks", "91", `{"TargetID":"0","TargetType":"folder","Address":"https://hook.test/x","Triggers":["FILE.UPLOADED","FOLDER.CREATED"],"CreatedBy":"` + user + `","CreatedAt":"2026-11-28T01:02:03Z"}`},
	}
	kinds := map[string]int{}
	for i, k := range e.s.recordKinds() {
		kinds[k.Bucket] = i
	}
	for _, c := range cases {
		t.Run(c.bucket+"/"+c.key, func(t *testing.T) {
			k := e.s.recordKinds()[kinds[c.bucket]]
			require.Equal(t, c.bucket, k.Bucket)
			var got []byte
			var ok bool
			var err error
			e.s.st.Update(func(tx *state.Tx) {
				if err = k.Load(tx, c.key, []byte(c.rec)); err == nil {
					got, ok = k.Encode(&tx.ReadTx, c.key)
				}
			})
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, c.rec, string(got))
		})
	}
}
