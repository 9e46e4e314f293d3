package state

import (
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// accessWorld is a state with an owner's collaborated folder: top (in the
// owner's root) holds sub, which holds file; top also holds topFile. Each
// role's user collaborates on top; stranger has no collaboration.
type accessWorld struct {
	st                      *State
	owner, stranger         *User
	byRole                  map[string]*User
	top, sub, file, topFile *Item
}

func newAccessWorld(t *testing.T) *accessWorld {
	t.Helper()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	st := New(&Env{Now: func() time.Time { return now }, Log: slog.New(slog.DiscardHandler)})
	w := &accessWorld{st: st, byRole: map[string]*User{}}
	st.Update(func(tx *Tx) {
		tx.InitItemIndexes()
		if err := tx.InitPrincipals(); err != nil {
			t.Fatal(err)
		}
		tx.InitResources()
		n := 3000000
		user := func(name string) *User {
			n++
			u := &User{ID: fmt.Sprint(n), Name: name, Login: name + "@cms.test", Role: "user", CreatedAt: now}
			u.UserProfile = defaultProfile(now)
			tx.addUser(u)
			return u
		}
		w.owner, w.stranger = user("owner"), user("stranger")
		item := func(typ, name, parent string) *Item {
			it := &Item{Typ: typ, ID: tx.NewID(), Name: name, ParentID: parent, Owner: w.owner, CreatedBy: w.owner, ModBy: w.owner,
				CreatedAt: now, ModifiedAt: now}
			if typ == "file" {
				it.Versions = []*Version{NewVersion(tx.NewID(), blob.RefOf(blob.Info{ID: "b" + it.ID, Size: 1}), now, w.owner)}
			}
			tx.AddItem(it)
			return it
		}
		w.top = item("folder", "top", RootID)
		w.sub = item("folder", "sub", w.top.ID)
		w.file = item("file", "f.txt", w.sub.ID)
		w.topFile = item("file", "g.txt", w.top.ID)
		for role := range RoleActions {
			u := user(role)
			w.byRole[role] = u
			tx.addCollab(&Collab{id: tx.NewID(), item: w.top, user: u, role: role, status: "accepted", createdBy: w.owner, createdAt: now})
		}
	})
	return w
}

// TestAccessMatrix checks the access table (access.go, docs/collab.md) as
// a table: each role of a collaboration on a folder, for the folder itself
// (the top-level item) and for an item below it, and the owner, a
// stranger, the admin, the app token and the service account.
func TestAccessMatrix(t *testing.T) {
	w := newAccessWorld(t)
	acts := []struct {
		name string
		act  Action
	}{
		{"see", ActSee}, {"preview", ActPreview}, {"download", ActDownload}, {"upload", ActUpload},
		{"edit", ActEdit}, {"delete", ActDelete}, {"move", actMove}, {"copy", actCopy},
		{"share-create", actShareCreate}, {"share-change", actShareChange}, {"invite", actInvite},
		{"view-collaborators", actViewCollaborators}, {"manage-collaborators", actManageCollaborators},
		{"folder-settings", actFolderSettings}, {"trash", actTrash}, {"own", actOwn},
	}
	// The letters of each row follow acts: y allowed, . refused. below is
	// an item below the collaborated folder, top the folder itself.
	want := map[string]struct{ below, top string }{
		"owner":              {"yyyyyyyyyyyyyyyy", "yyyyyyyyyyyyyyyy"},
		"co-owner":           {"yyyyyyyyyyyyy...", "yyyyy...yyyyy..."},
		"editor":             {"yyyyyyyyyyyy....", "yyyyy...yyyy...."},
		"viewer uploader":    {"yyyy...yy..y....", "yyyy....y..y...."},
		"previewer uploader": {"yy.y.......y....", "yy.y.......y...."},
		"viewer":             {"yyy....yy..y....", "yyy.....y..y...."},
		"previewer":          {"yy.........y....", "yy.........y...."},
		"uploader":           {"y..y............", "y..y............"},
		"stranger":           {"................", "................"},
		"service account":    {"................", "................"},
		"admin":              {"yyyyyyyyyyyyyyyy", "yyyyyyyyyyyyyyyy"},
		"app token":          {"yyyyyyyyyyyyyyyy", "yyyyyyyyyyyyyyyy"},
	}
	principal := func(who string) *Principal {
		switch who {
		case "owner":
			return &Principal{Kind: "user", User: w.owner}
		case "stranger":
			return &Principal{Kind: "user", User: w.stranger}
		case "service account":
			return w.st.PrincipalForUser(w.st.App)
		case "admin":
			return w.st.PrincipalForUser(w.st.Admin)
		case "app token":
			return &Principal{Kind: "app", User: w.st.App}
		}
		// As-User acts as the user itself: the same principal.
		return w.st.PrincipalForUser(w.byRole[who])
	}
	w.st.View(func(tx *ReadTx) {
		for who, rows := range want {
			p := principal(who)
			for _, c := range []struct {
				where string
				it    *Item
				row   string
			}{{"below", w.file, rows.below}, {"top", w.top, rows.top}} {
				got := make([]byte, len(acts))
				for i, a := range acts {
					got[i] = '.'
					if tx.Can(p, c.it, a.act) {
						got[i] = 'y'
					}
				}
				if string(got) != c.row {
					for i, a := range acts {
						if got[i] != c.row[i] {
							t.Errorf("%s, %s item: %s is %c, want %c", who, c.where, a.name, got[i], c.row[i])
						}
					}
				}
			}
		}
	})
}

// TestAccessLinkHolder: through a shared link, a caller without a role
// reads and previews, downloads only where the link allows, and does
// nothing else; a stranger without the link gets 404.
func TestAccessLinkHolder(t *testing.T) {
	w := newAccessWorld(t)
	stranger := &Principal{Kind: "user", User: w.stranger}
	w.st.Update(func(tx *Tx) {
		off := false
		w.top.SetLink(&SharedLink{Token: "tok", Access: "open", CanDownload: &off})
		link := &BoxapiLink{URL: sharedLinkBase + "/s/tok", URLDecoded: sharedLinkBase + "/s/tok"}
		for _, c := range []struct {
			act  Action
			link *BoxapiLink
			ok   bool
		}{
			{ActSee, link, true}, {ActPreview, link, true}, {ActDownload, link, false}, {ActEdit, link, false},
			{ActUpload, link, false}, {ActDelete, link, false}, {ActSee, nil, false},
		} {
			_, aerr := tx.LookupVia(stranger, c.link, "file", w.file.ID, c.act)
			if (aerr == nil) != c.ok {
				t.Errorf("action %d, link %v: error %v, want allowed %v", c.act, c.link != nil, aerr, c.ok)
			}
		}
		on := true
		w.top.Link().CanDownload = &on
		if _, aerr := tx.LookupVia(stranger, link, "file", w.file.ID, ActDownload); aerr != nil {
			t.Errorf("a link with can_download: %v", aerr)
		}
	})
}

// TestCallerPermissions: the permissions of a record are the caller's.
func TestCallerPermissions(t *testing.T) {
	w := newAccessWorld(t)
	w.st.View(func(tx *ReadTx) {
		for _, c := range []struct {
			who  *User
			want map[string]bool
		}{
			{w.owner, map[string]bool{"can_delete": true, "can_download": true, "can_preview": true, "can_set_share_access": true, "can_invite_collaborator": true}},
			{w.byRole["viewer"], map[string]bool{"can_delete": false, "can_download": true, "can_preview": true, "can_set_share_access": false, "can_share": true, "can_rename": false, "can_upload": false}},
			{w.byRole["previewer"], map[string]bool{"can_download": false, "can_preview": true, "can_comment": true, "can_share": false}},
			{w.byRole["uploader"], map[string]bool{"can_download": false, "can_preview": false, "can_comment": false, "can_upload": true}},
			{w.byRole["editor"], map[string]bool{"can_delete": true, "can_invite_collaborator": true, "can_set_share_access": true}},
		} {
			perms := tx.callerPermissions(&Principal{Kind: "user", User: c.who}, w.file)
			for k, v := range c.want {
				if perms[k] != v {
					t.Errorf("%s: %s is %v, want %v", c.who.Name, k, perms[k], v)
				}
			}
		}
	})
}
