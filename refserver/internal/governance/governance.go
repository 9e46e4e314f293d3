// Package governance is the reference server's governance room: the
// transactions of the retention policy and legal hold APIs (policies,
// their assignments, the file version retentions and holds they make) on
// the state's governance model. The model, and the rules every change of
// an item must keep (a retained or held file is not purged), are the
// state's (internal/state); this package is what the governance endpoints
// do with it, as functions of the state called under its lock.
package governance

import (
	"slices"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// KnownUser returns the live enterprise user with id: one of the built-in
// accounts (the admin, the managed user, the app's service account) or any
// user of the enterprise made through POST /users that is not deleted or
// rolled out; nil otherwise. Governance takes any of them (legal hold
// custodians, retention notification recipients, the created_by_user_id
// filter).
func KnownUser(s *state.Tx, id string) *state.User {
	for _, u := range []*state.User{s.Admin, s.User, s.App} {
		if u.ID == id {
			return u
		}
	}
	return s.EnterpriseUser(id)
}

// FilesByID lists every file of the server in id (creation) order.
func FilesByID(s *state.Tx) []*state.Item {
	var out []*state.Item
	for _, it := range s.Items.All() {
		if it.Typ == "file" {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b *state.Item) int { return wire.CompareIDs(a.ID, b.ID) })
	return out
}

// versionNumber is the 1-based position of v among f's versions, or 0.
func versionNumber(f *state.Item, v *state.Version) int {
	for i, x := range f.Versions {
		if x == v {
			return i + 1
		}
	}
	return 0
}

// fileVersionMini is the FileVersion--Mini record of a version.
func fileVersionMini(v *state.Version) map[string]any {
	return map[string]any{"type": "file_version", "id": v.ID, "sha1": v.Blob.SHA1()}
}

// userRef is a user named in a request body (User--Base or User--Mini).
type userRef struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Name  string `json:"name"`
	Login string `json:"login"`
}
