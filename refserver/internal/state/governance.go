package state

import (
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Machinery shared by the governance resources (retention.go,
// retention_assignments.go, legalholds.go, legalhold_assignments.go).

// defaultLegalHoldDelay is how long a legal hold policy stays "applying"
// after it is created, and "releasing" after its release is asked for (and a
// deleted assignment stays listed), when Options.LegalHoldReleaseDelay is 0.
const defaultLegalHoldDelay = 2 * time.Second

// knownUser returns the live enterprise user with id: one of the built-in
// accounts (the admin, the managed user, the app's service account) or any
// user of the enterprise made through POST /users that is not deleted or
// rolled out; nil otherwise. Governance takes any of them (legal hold
// custodians, retention notification recipients, the created_by_user_id
// filter). Callers hold s.mu.
func (s *State) knownUser(id string) *User {
	for _, u := range []*User{s.Admin, s.User, s.App} {
		if u.ID == id {
			return u
		}
	}
	return s.EnterpriseUser(id)
}

// filesUnder lists the files of it: it itself when it is a file, every file
// below it when it is a folder. Callers hold s.mu.
func (s *State) filesUnder(it *Item) []*Item {
	if it.Typ == "file" {
		return []*Item{it}
	}
	var out []*Item
	for _, c := range s.subItems(it.ID) {
		if c.Trashed() && c.TrashedWith == "" {
			continue // in the trash on its own: not deleted with it (as removeTree)
		}
		out = append(out, s.filesUnder(c)...)
	}
	return out
}

// filesByID lists every file of the server in id (creation) order.
func (s *State) filesByID() []*Item {
	var out []*Item
	for _, it := range s.Items {
		if it.Typ == "file" {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b *Item) int { return wire.CompareIDs(a.ID, b.ID) })
	return out
}

// versionNumber is the 1-based position of v among f's versions, or 0.
func versionNumber(f *Item, v *Version) int {
	for i, x := range f.Versions {
		if x == v {
			return i + 1
		}
	}
	return 0
}

// fileVersionMini is the FileVersion--Mini record of a version.
func fileVersionMini(v *Version) map[string]any {
	return map[string]any{"type": "file_version", "id": v.ID, "sha1": v.Blob.SHA1}
}

// userRef is a user named in a request body (User--Base or User--Mini).
type userRef struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Name  string `json:"name"`
	Login string `json:"login"`
}
