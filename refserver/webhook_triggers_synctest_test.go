//go:build go1.25

package refserver

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/state"
)

// bubble is a server in a synctest bubble whose deliveries go to rcv.
type bubble struct {
	t   *testing.T
	s   *Server
	rcv *memReceiver
	// seen is how many deliveries were already looked at (newTriggers).
	seen int
}

func newBubble(t *testing.T) *bubble {
	rcv := &memReceiver{statuses: []int{200}, start: time.Now()}
	s, _ := inBubble(t, rcv)
	return &bubble{t: t, s: s, rcv: rcv}
}

// call sends a request to the server's in-process handler (base: the
// API, upload or download URL) and returns the status and JSON body.
func (b *bubble) call(method, base, path, token string, h hdr, body any) (int, map[string]any) {
	b.t.Helper()
	var rd *bytes.Reader
	ctype := ""
	switch v := body.(type) {
	case nil:
		rd = bytes.NewReader(nil)
	case *multipartUpload:
		rd, ctype = bytes.NewReader(v.body), v.ctype
	default:
		j, err := json.Marshal(v)
		require.NoError(b.t, err)
		rd, ctype = bytes.NewReader(j), "application/json"
	}
	req := httptest.NewRequest(method, base+path, rd)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	b.s.Handler().ServeHTTP(w, req)
	var m map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &m)
	return w.Code, m
}

// api calls the API and requires a status below 300.
func (b *bubble) api(method, path, token string, h hdr, body any) map[string]any {
	b.t.Helper()
	code, m := b.call(method, b.s.BaseURL(), path, token, h, body)
	require.Less(b.t, code, 300, "%s %s: %d %v", method, path, code, m)
	return m
}

type multipartUpload struct {
	body  []byte
	ctype string
}

// upload uploads a new file and returns its id.
func (b *bubble) upload(token, parent, name, content string) string {
	b.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("attributes", `{"name":"`+name+`","parent":{"id":"`+parent+`"}}`)
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write([]byte(content))
	_ = mw.Close()
	code, m := b.call("POST", b.s.UploadURL(), "/files/content", token, nil, &multipartUpload{buf.Bytes(), mw.FormDataContentType()})
	require.Equal(b.t, http.StatusCreated, code, "%v", m)
	return m["entries"].([]any)[0].(map[string]any)["id"].(string)
}

// deliveries waits until the bubble is idle and returns the payloads
// delivered since the last call.
func (b *bubble) deliveries() []map[string]any {
	b.t.Helper()
	synctest.Wait()
	b.rcv.mu.Lock()
	bodies := slices.Clone(b.rcv.bodies[b.seen:])
	b.seen = len(b.rcv.bodies)
	b.rcv.mu.Unlock()
	var out []map[string]any
	for _, body := range bodies {
		var m map[string]any
		require.NoError(b.t, json.Unmarshal([]byte(body), &m))
		out = append(out, m)
	}
	return out
}

// triggersFor lists the triggers delivered since the last look to webhook
// hookID.
func (b *bubble) triggersFor(hookID string) []string {
	b.t.Helper()
	var out []string
	for _, m := range b.deliveries() {
		if m["webhook"].(map[string]any)["id"] == hookID {
			out = append(out, m["trigger"].(string))
		}
	}
	return out
}

// TestWebhookEveryTriggerFires: every trigger a webhook may ask for fires
// when its change is made below the webhook's folder (one step each, the
// table lists them all), and a trigger that cannot happen on this server
// is refused when the webhook is created.
func TestWebhookEveryTriggerFires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBubble(t)
		user, admin := b.s.UserToken(), b.s.AdminToken()
		w := b.api("POST", "/folders", user, nil, map[string]any{"name": "watched", "parent": map[string]any{"id": "0"}})["id"].(string)

		for _, never := range []string{"FOLDER.DOWNLOADED", "SIGN_REQUEST.COMPLETED"} {
			code, m := b.call("POST", b.s.BaseURL(), "/webhooks", user, nil, hookBody(w, "folder", "https://example.com/h", never))
			require.Equal(t, http.StatusBadRequest, code, "%s: %v", never, m)
			require.Equal(t, "bad_request", m["code"])
		}
		hook := b.api("POST", "/webhooks", user, nil, hookBody(w, "folder", "https://example.com/h", state.FiringTriggers()...))["id"].(string)

		// ids the steps share.
		var sub, f, cp, subCopy, comment, assignment, invite string
		md := func() string { return "/files/" + f + "/metadata/global/properties" }
		inviteUser := func(login string) string {
			c := b.api("POST", "/collaborations", user, nil, map[string]any{"item": map[string]any{"type": "folder", "id": sub},
				"accessible_by": map[string]any{"type": "user", "login": login}, "role": "viewer"})
			b.api("POST", "/users", admin, nil, map[string]any{"name": "Invitee", "login": login})
			return c["id"].(string)
		}
		invitee := func(login string) hdr {
			m := b.api("GET", "/users?filter_term="+url.QueryEscape(login), admin, nil, nil)
			return hdr{"As-User": m["entries"].([]any)[0].(map[string]any)["id"].(string)}
		}
		steps := []struct {
			trigger string
			do      func()
		}{
			{"FOLDER.CREATED", func() {
				sub = b.api("POST", "/folders", user, nil, map[string]any{"name": "sub", "parent": map[string]any{"id": w}})["id"].(string)
			}},
			{"FILE.UPLOADED", func() { f = b.upload(user, sub, "f.txt", "hello") }},
			{"FILE.PREVIEWED", func() {
				link := b.api("GET", "/files/"+f+"?fields=expiring_embed_link", user, nil, nil)["expiring_embed_link"].(map[string]any)["url"].(string)
				u, err := url.Parse(link)
				require.NoError(t, err)
				code, _ := b.call("GET", b.s.DownloadURL(), strings.TrimPrefix(u.RequestURI(), strings.TrimPrefix(b.s.DownloadURL(), u.Scheme+"://"+u.Host)), "", nil, nil)
				require.Equal(t, http.StatusOK, code)
			}},
			{"FILE.DOWNLOADED", func() {
				code, _ := b.call("GET", b.s.BaseURL(), "/files/"+f+"/content", user, nil, nil)
				require.Equal(t, http.StatusFound, code)
			}},
			{"FILE.RENAMED", func() { b.api("PUT", "/files/"+f, user, nil, map[string]any{"name": "g.txt"}) }},
			{"FILE.LOCKED", func() { b.api("PUT", "/files/"+f, user, nil, map[string]any{"lock": map[string]any{"access": "lock"}}) }},
			{"FILE.UNLOCKED", func() { b.api("PUT", "/files/"+f, user, nil, map[string]any{"lock": nil}) }},
			{"FILE.COPIED", func() {
				cp = b.api("POST", "/files/"+f+"/copy", user, nil, map[string]any{"parent": map[string]any{"id": sub}, "name": "copy.txt"})["id"].(string)
			}},
			{"FILE.MOVED", func() { b.api("PUT", "/files/"+cp, user, nil, map[string]any{"parent": map[string]any{"id": w}}) }},
			{"SHARED_LINK.CREATED", func() {
				b.api("PUT", "/files/"+f, user, nil, map[string]any{"shared_link": map[string]any{"access": "open"}})
			}},
			{"SHARED_LINK.UPDATED", func() {
				b.api("PUT", "/files/"+f, user, nil, map[string]any{"shared_link": map[string]any{"access": "company"}})
			}},
			{"SHARED_LINK.DELETED", func() { b.api("PUT", "/files/"+f, user, nil, map[string]any{"shared_link": nil}) }},
			{"COMMENT.CREATED", func() {
				comment = b.api("POST", "/comments", user, nil, map[string]any{"message": "one", "item": map[string]any{"type": "file", "id": f}})["id"].(string)
			}},
			{"COMMENT.UPDATED", func() { b.api("PUT", "/comments/"+comment, user, nil, map[string]any{"message": "two"}) }},
			{"COMMENT.DELETED", func() { b.api("DELETE", "/comments/"+comment, user, nil, nil) }},
			{"TASK_ASSIGNMENT.CREATED", func() {
				task := b.api("POST", "/tasks", user, nil, map[string]any{"item": map[string]any{"type": "file", "id": f}})["id"].(string)
				assignment = b.api("POST", "/task_assignments", user, nil, map[string]any{"task": map[string]any{"type": "task", "id": task},
					"assign_to": map[string]any{"id": b.s.UserID()}})["id"].(string)
			}},
			{"TASK_ASSIGNMENT.UPDATED", func() {
				b.api("PUT", "/task_assignments/"+assignment, user, nil, map[string]any{"resolution_state": "approved"})
			}},
			{"METADATA_INSTANCE.CREATED", func() { b.api("POST", md(), user, nil, map[string]any{"k": "v"}) }},
			{"METADATA_INSTANCE.UPDATED", func() {
				code, m := b.call("PUT", b.s.BaseURL(), md(), user, hdr{"Content-Type": "application/json-patch+json"},
					[]any{map[string]any{"op": "replace", "path": "/k", "value": "w"}})
				require.Equal(t, http.StatusOK, code, "%v", m)
			}},
			{"METADATA_INSTANCE.DELETED", func() { b.api("DELETE", md(), user, nil, nil) }},
			{"FILE.TRASHED", func() { b.api("DELETE", "/files/"+cp, user, nil, nil) }},
			{"FILE.RESTORED", func() { b.api("POST", "/files/"+cp, user, nil, map[string]any{}) }},
			{"FILE.DELETED", func() {
				b.api("DELETE", "/files/"+cp, user, nil, nil)
				b.api("DELETE", "/files/"+cp+"/trash", user, nil, nil)
			}},
			{"FOLDER.RENAMED", func() { b.api("PUT", "/folders/"+sub, user, nil, map[string]any{"name": "sub2"}) }},
			{"FOLDER.COPIED", func() {
				subCopy = b.api("POST", "/folders/"+sub+"/copy", user, nil, map[string]any{"parent": map[string]any{"id": w}, "name": "sub copy"})["id"].(string)
			}},
			{"FOLDER.MOVED", func() {
				b.api("PUT", "/folders/"+subCopy, user, nil, map[string]any{"parent": map[string]any{"id": sub}})
			}},
			{"FOLDER.TRASHED", func() { b.api("DELETE", "/folders/"+subCopy+"?recursive=true", user, nil, nil) }},
			{"FOLDER.RESTORED", func() { b.api("POST", "/folders/"+subCopy, user, nil, map[string]any{}) }},
			{"FOLDER.DELETED", func() {
				b.api("DELETE", "/folders/"+subCopy+"?recursive=true", user, nil, nil)
				b.api("DELETE", "/folders/"+subCopy+"/trash", user, nil, nil)
			}},
			{"COLLABORATION.CREATED", func() { invite = inviteUser("one@example.com") }},
			{"COLLABORATION.ACCEPTED", func() {
				b.api("PUT", "/collaborations/"+invite, admin, invitee("one@example.com"), map[string]any{"status": "accepted"})
			}},
			{"COLLABORATION.UPDATED", func() { b.api("PUT", "/collaborations/"+invite, user, nil, map[string]any{"role": "editor"}) }},
			{"COLLABORATION.REMOVED", func() {
				b.api("PUT", "/collaborations/"+invite, user, nil, map[string]any{"role": "editor"})
				require.Empty(t, b.triggersFor(hook), "the same role again changes nothing")
				b.api("DELETE", "/collaborations/"+invite, user, nil, nil)
			}},
			{"COLLABORATION.REJECTED", func() {
				id := inviteUser("two@example.com")
				b.deliveries() // COLLABORATION.CREATED
				b.api("PUT", "/collaborations/"+id, admin, invitee("two@example.com"), map[string]any{"status": "rejected"})
			}},
			{"WEBHOOK.DELETED", func() { b.api("DELETE", "/webhooks/"+hook, user, nil, nil) }},
		}
		var covered []string
		for _, st := range steps {
			b.deliveries()
			st.do()
			require.Contains(t, b.triggersFor(hook), st.trigger, "the change of step %s fires it", st.trigger)
			covered = append(covered, st.trigger)
		}
		slices.Sort(covered)
		require.Equal(t, state.FiringTriggers(), covered, "the table has one step for every trigger the server accepts")
	})
}

// TestWebhookPayloadsFollowWhatTheCreatorReads: COMMENT.* goes to the
// webhooks of who may preview the file, not an uploader's; a payload's
// item path is the one the webhook's creator is shown.
func TestWebhookPayloadsFollowWhatTheCreatorReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newBubble(t)
		admin, user := b.s.AdminToken(), b.s.UserToken()
		private := b.api("POST", "/folders", admin, nil, map[string]any{"name": "Private", "parent": map[string]any{"id": "0"}})["id"].(string)
		dir := b.api("POST", "/folders", admin, nil, map[string]any{"name": "shared", "parent": map[string]any{"id": private}})["id"].(string)
		pat := b.api("POST", "/users", admin, nil, map[string]any{"name": "Pat", "login": "pat@cms.test"})["id"].(string)
		asPat := hdr{"As-User": pat}
		for who, role := range map[string]string{b.s.UserID(): "uploader", pat: "previewer"} {
			b.api("POST", "/collaborations", admin, nil, map[string]any{"item": map[string]any{"type": "folder", "id": dir},
				"accessible_by": map[string]any{"type": "user", "id": who}, "role": role})
		}
		f := b.upload(admin, dir, "f.txt", "x")
		uploaderHook := b.api("POST", "/webhooks", user, nil, hookBody(dir, "folder", "https://example.com/u", "COMMENT.CREATED", "FILE.RENAMED"))["id"].(string)
		previewerHook := b.api("POST", "/webhooks", admin, asPat, hookBody(dir, "folder", "https://example.com/p", "COMMENT.CREATED"))["id"].(string)
		b.deliveries()

		b.api("POST", "/comments", admin, nil, map[string]any{"message": "walrus remark", "item": map[string]any{"type": "file", "id": f}})
		got := map[string][]string{}
		for _, m := range b.deliveries() {
			id := m["webhook"].(map[string]any)["id"].(string)
			got[id] = append(got[id], m["trigger"].(string))
		}
		require.Equal(t, map[string][]string{previewerHook: {"COMMENT.CREATED"}}, got, "the uploader's webhook is not sent the comment")

		b.api("PUT", "/files/"+f, admin, nil, map[string]any{"name": "g.txt"})
		ds := b.deliveries()
		require.Len(t, ds, 1)
		require.Equal(t, uploaderHook, ds[0]["webhook"].(map[string]any)["id"])
		require.Equal(t, []string{"0", dir}, pathIDs(ds[0]["source"].(map[string]any)), "the payload shows the path its creator sees")
	})
}
