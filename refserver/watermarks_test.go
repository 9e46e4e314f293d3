package refserver

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const defaultImprint = `{"watermark":{"imprint":"default"}}`

func TestWatermarkLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, Options{})
	tok := e.s.UserToken()
	dir := e.createFolder(tok, "0", "Confidential")
	dirID := dir["id"].(string)
	f := e.uploadFile(tok, dirID, "plan.pdf", []byte("p"))
	fid := f["id"].(string)

	for _, c := range []struct{ typ, id string }{{"files", fid}, {"folders", dirID}} {
		t.Run(c.typ, func(t *testing.T) {
			u := e.api("/" + c.typ + "/" + c.id + "/watermark")
			resp, m := e.doJSON("GET", u, tok, nil, nil)
			requireAPIError(t, resp, m, 404, "not_found")
			resp, m = e.doJSON("DELETE", u, tok, nil, nil)
			requireAPIError(t, resp, m, 404, "not_found")

			resp, m = e.doJSON("PUT", u, tok, defaultImprint, nil)
			require.Equal(t, 201, resp.StatusCode, "%v", m)
			created := m["watermark"].(map[string]any)
			assert.Equal(t, created["created_at"], created["modified_at"])

			e.clock.Advance(time.Minute)
			resp, m = e.doJSON("PUT", u, tok, defaultImprint, nil)
			require.Equal(t, 200, resp.StatusCode, "%v", m)
			updated := m["watermark"].(map[string]any)
			assert.Equal(t, created["created_at"], updated["created_at"])
			assert.NotEqual(t, updated["created_at"], updated["modified_at"])

			resp, m = e.doJSON("GET", u, tok, nil, nil)
			require.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, updated, m["watermark"])
		})
	}

	// watermark_info: the file's own, and inherited from its folder.
	_, m := e.doJSON("GET", e.api("/files/"+fid+"?fields=watermark_info"), tok, nil, nil)
	assert.Equal(t, map[string]any{"is_watermarked": true, "is_watermark_inherited": false, "is_watermarked_by_access_policy": false}, m["watermark_info"])
	e.deleteOK(tok, "/files/"+fid+"/watermark")
	_, m = e.doJSON("GET", e.api("/files/"+fid+"?fields=watermark_info"), tok, nil, nil)
	assert.Equal(t, true, m["watermark_info"].(map[string]any)["is_watermark_inherited"])
	resp, m := e.doJSON("GET", e.api("/files/"+fid+"/watermark"), tok, nil, nil)
	requireAPIError(t, resp, m, 404, "not_found")

	other := e.uploadFile(e.s.AdminToken(), "0", "a.txt", []byte("a"))
	before := collabSnapshot(e.s)
	bad := []struct {
		name, token, method, path, body string
		status                          int
		code                            string
	}{
		{"other imprint", tok, "PUT", "/folders/" + dirID + "/watermark", `{"watermark":{"imprint":"custom"}}`, 400, "bad_request"},
		{"no imprint", tok, "PUT", "/folders/" + dirID + "/watermark", `{"watermark":{}}`, 400, "bad_request"},
		{"empty body", tok, "PUT", "/folders/" + dirID + "/watermark", `{}`, 400, "bad_request"},
		{"unknown field", tok, "PUT", "/folders/" + dirID + "/watermark", `{"watermark":{"imprint":"default","color":"red"}}`, 400, "bad_request"},
		{"other user's file", tok, "PUT", "/files/" + other["id"].(string) + "/watermark", defaultImprint, 404, "not_found"},
		{"root folder", tok, "PUT", "/folders/0/watermark", defaultImprint, 404, "not_found"},
		{"malformed id", tok, "PUT", "/files/x/watermark", defaultImprint, 404, "not_found"},
		{"app token", e.s.AppToken(), "PUT", "/files/" + fid + "/watermark", defaultImprint, 403, "insufficient_scope"},
		{"app token remove", e.s.AppToken(), "DELETE", "/folders/" + dirID + "/watermark", "", 403, "insufficient_scope"},
	}
	for _, c := range bad {
		var body any
		if c.body != "" {
			body = c.body
		}
		resp, m := e.doJSON(c.method, e.api(c.path), c.token, body, nil)
		requireAPIError(t, resp, m, c.status, c.code)
	}
	assert.Equal(t, before, collabSnapshot(e.s), "rejected requests changed state")

	// Hidden in the trash, back with a restore, gone with a purge.
	resp, _ = e.do("DELETE", e.api("/folders/"+dirID+"?recursive=true"), tok, nil, nil)
	require.Equal(t, 204, resp.StatusCode)
	assert.Equal(t, 404, e.getStatus(tok, "/folders/"+dirID+"/watermark"))
	resp, _ = e.do("POST", e.api("/folders/"+dirID), tok, nil, nil)
	require.Equal(t, 201, resp.StatusCode)
	assert.Equal(t, 200, e.getStatus(tok, "/folders/"+dirID+"/watermark"))
	e.deleteOK(tok, "/folders/"+dirID+"?recursive=true")
	e.deleteOK(tok, "/folders/"+dirID+"/trash")
	tx, end := beginTx(e.s.st)
	assert.Zero(t, tx.Watermarks.ByItem.Len())
	end()
}
