package persist

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
)

// The values records share: times, user references and version keys, as
// the codecs write and read them.

// utcTime drops the location and monotonic reading of t, so that a record
// reads the same before and after a restart.
func utcTime(t time.Time) time.Time { return t.UTC().Round(0) }

// userID is the id of a user a record points to ("" for none).
func userID(u *state.User) string {
	if u == nil {
		return ""
	}
	return u.ID
}

// userByRef resolves a user id while loading ("" is no user): users load
// before every kind that names one, deleted users included.
func userByRef(users *state.UserState, id string) (*state.User, error) {
	if id == "" {
		return nil, nil
	}
	if u := users.ByID.At(id); u != nil {
		return u, nil
	}
	if u := users.Removed.At(id); u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("unknown user %s", id)
}

// usersByRef resolves several user ids at once.
func usersByRef(users *state.UserState, ids ...string) ([]*state.User, error) {
	out := make([]*state.User, len(ids))
	for i, id := range ids {
		u, err := userByRef(users, id)
		if err != nil {
			return nil, err
		}
		out[i] = u
	}
	return out, nil
}

// parseVersionKey splits a state.VersionKey into the file's id and the
// version's position; false when key is not one.
func parseVersionKey(key string) (fileID string, pos int, ok bool) {
	i := strings.LastIndexByte(key, '/')
	if i <= 0 {
		return "", 0, false
	}
	pos, err := strconv.Atoi(key[i+1:])
	if err != nil || pos < 1 || strconv.Itoa(pos) != key[i+1:] {
		return "", 0, false
	}
	return key[:i], pos, true
}
