package refserver

import (
	"net/http"
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
func (s *state) knownUser(id string) *user {
	for _, u := range []*user{s.admin, s.user, s.app} {
		if u.id == id {
			return u
		}
	}
	return s.enterpriseUser(id)
}

// filesUnder lists the files of it: it itself when it is a file, every file
// below it when it is a folder. Callers hold s.mu.
func (s *state) filesUnder(it *item) []*item {
	if it.typ == "file" {
		return []*item{it}
	}
	var out []*item
	for _, c := range s.subItems(it.id) {
		if c.trashed() && c.trashedWith == "" {
			continue // in the trash on its own: not deleted with it (as removeTree)
		}
		out = append(out, s.filesUnder(c)...)
	}
	return out
}

// filesByID lists every file of the server in id (creation) order.
func (s *state) filesByID() []*item {
	var out []*item
	for _, it := range s.items {
		if it.typ == "file" {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b *item) int { return wire.CompareIDs(a.id, b.id) })
	return out
}

// versionNumber is the 1-based position of v among f's versions, or 0.
func versionNumber(f *item, v *version) int {
	for i, x := range f.versions {
		if x == v {
			return i + 1
		}
	}
	return 0
}

// fileVersionMini is the FileVersion--Mini record of a version.
func fileVersionMini(v *version) map[string]any {
	return map[string]any{"type": "file_version", "id": v.id, "sha1": v.blob.SHA1}
}

// userRef is a user named in a request body (User--Base or User--Mini).
type userRef struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Name  string `json:"name"`
	Login string `json:"login"`
}

// parseTimeParam reads an optional date-time query parameter.
func parseTimeParam(r *http.Request, name string) (time.Time, *wire.Error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, wire.BadRequest("Invalid value for %q: not an RFC 3339 date-time", name)
	}
	return t, nil
}
