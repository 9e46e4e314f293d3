package state

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Enterprise users: GET/POST /users, GET /users/me, GET/PUT/DELETE
// /users/{user_id}. The admin, the managed user and the app's service
// account of auth.go are users of this state like the ones created here.
//
// Rules: creating, updating and deleting users is for the enterprise admin
// (403 access_denied_insufficient_permissions otherwise); listing and
// reading other users needs the admin or can_see_managed_users; a login is
// unique (409 user_login_already_used); bad field values are 400
// invalid_parameter. Error codes the service does not document:
//   - 409 user_has_content: DELETE of a user who still owns items without
//     force=true (the service only says the call "fails"; 409 because the
//     state, not the request, is in the way, like folder_not_empty's case).
//   - 403 access_denied_insufficient_permissions: deleting, rolling out or
//     changing the role of the enterprise admin or the service account, or
//     deleting oneself.
//   - 400 bad_request: a required field missing (name; login unless app
//     user), a malformed query parameter, offset above 10000.
//   - 401 unauthorized: a token of a deleted user.
//   - 400 invalid_parameter: a member sent as null other than enterprise
//     (roll out) and notification_email (remove it) of an update, the two
//     the spec makes nullable.

// The error codes of a login taken and of a delete that would orphan
// content.
const (
	CodeUserLoginInUse = "user_login_already_used"
	CodeUserHasContent = "user_has_content"
)

// UserState is the server's state for enterprise users (/users), reached only through a transaction.
type UserState struct {
	ByID    Table[*User]
	ByLogin map[string]*User // by lower-case login
	Order   []*User          // by numeric id, for paging
	Removed Table[*User]     // deleted users, which records may still name
}

// EmptyUsers empties the users (before a restore, and before initUsers).
func (s *Tx) EmptyUsers() {
	s.Users = UserState{ByID: newTable[*User](s.Env, KUsers), ByLogin: map[string]*User{}, Removed: newTable[*User](s.Env, KUsers)}
}

// initUsers prepares the state of enterprise users (/users) with the
// admin, the user and the service account; called once by InitResources
// (a restore reads the users from their records).
func (s *Tx) initUsers() {
	s.EmptyUsers()
	for _, u := range []*User{s.Admin, s.User, s.App} {
		u.UserProfile = defaultProfile(u.CreatedAt)
		s.addUser(u)
	}
	s.Admin.SpaceAmount = -1
	s.App.CanSeeManagedUsers = true
}

// addUser registers u.
func (s *Tx) addUser(u *User) {
	s.Users.ByID.Put(u.ID, u)
	s.Users.ByLogin[strings.ToLower(u.Login)] = u
	s.Users.Order = append(s.Users.Order, u)
	sort.SliceStable(s.Users.Order, func(i, j int) bool { return NumID(s.Users.Order[i].ID) < NumID(s.Users.Order[j].ID) })
}

// NumID is a numeric id's value (0 when id is not a number): the order of
// ids.
func NumID(id string) int64 { n, _ := strconv.ParseInt(id, 10, 64); return n }

// EnterpriseUser returns the user of the enterprise with id (not deleted,
// not rolled out), or nil.
func (s *ReadTx) EnterpriseUser(id string) *User {
	u := s.Users.ByID.At(id)
	if u == nil || u.Deleted() || u.Free {
		return nil
	}
	return u
}

// UserActive reports whether u may still act (not deleted). It takes no
// lock: authentication asks it on every request.
func (s *ReadTx) UserActive(u *User) bool {
	return !u.Deleted()
}

// ListUsers serves GET /users (refserver's listUsers): a page (offset or
// marker) of the enterprise's users, by id, of userType, with extID, or
// whose lower-cased name or login starts with filter; for the admin and
// users who can_see_managed_users (403 for others).
func (s *Tx) ListUsers(p *Principal, userType string, extID string, filter string, fields []string, pq wire.Page) (Reply, *wire.Error) {
	if !p.IsAdmin() && !p.User.CanSeeManagedUsers {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The user may not look up the users of the enterprise")
	}
	var match []*User
	for _, u := range s.Users.Order {
		switch {
		case u.Deleted() || u.Free, userType == "external", // the enterprise has no external users
			extID != "" && u.ExternalAppUserID != extID,
			filter != "" && !strings.HasPrefix(strings.ToLower(u.Name), filter) && !strings.HasPrefix(strings.ToLower(u.Login), filter):
			continue
		}
		match = append(match, u)
	}
	used := s.SpaceUsed()
	render := func(u *User) any { return s.RenderUser(u, fields, used[u]) }
	if pq.UseMarker {
		return Reply{wire.StatusOK, wire.MarkerEntries(match, pq, func(u *User) int64 { return NumID(u.ID) }, render)}, nil
	}
	return Reply{wire.StatusOK, wire.OffsetEntries(match, pq, s.userHidden, render)}, nil
}

// CreateUserBody is the body of POST /users.
type CreateUserBody struct {
	userFields
	IsPlatformAccessOnly *bool `json:"is_platform_access_only"`
}

// CreateUser serves POST /users (createUser): a new user of the
// enterprise (an app user, with a made-up login, when appUser), 409
// user_login_already_used for a login taken; pending invitations to the
// login become theirs. 201 with the record.
func (s *Tx) CreateUser(body CreateUserBody, appUser bool, fields []string) (Reply, *wire.Error) {
	if body.Login != nil && s.Users.ByLogin[strings.ToLower(*body.Login)] != nil {
		// Refused before the id is taken: a refused request changes nothing.
		return Reply{}, wire.Errorf(wire.StatusConflict, CodeUserLoginInUse, "User with the specified login already exists")
	}
	id := s.NewID()
	login := fmt.Sprintf("AppUser_%s_%s@apps.cms.test", id, RandomHex(4))
	if body.Login != nil {
		login = *body.Login
	}
	now := s.NowSec()
	u := &User{ID: id, Login: login, Role: userRoleUser, CreatedAt: now, UserProfile: defaultProfile(now)}
	u.AppUser = appUser
	body.Login = nil
	body.Apply(u)
	s.addUser(u)
	s.bindInvitations(u) // collaborations.go
	return Reply{wire.StatusCreated, s.RenderUser(u, fields, 0)}, nil
}

// GetUser serves GET /users/{user_id} (getUser): the caller, or for the
// admin and users who can_see_managed_users another enterprise user.
func (s *Tx) GetUser(id string, p *Principal, fields []string) (Reply, *wire.Error) {
	u := s.EnterpriseUser(id)
	if id == p.User.ID {
		u = p.User
	} else if !p.IsAdmin() && !p.User.CanSeeManagedUsers {
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The user may not look up the users of the enterprise")
	}
	if u == nil {
		return Reply{}, wire.NotFound("user")
	}
	return Reply{wire.StatusOK, s.RenderUser(u, fields, s.SpaceUsed()[u])}, nil
}

// UpdateUserBody is the body of PUT /users/{user_id}.
type UpdateUserBody struct {
	userFields
	Enterprise              wire.Nullable[string]        `json:"enterprise"`
	Notify                  *bool                        `json:"notify"`
	IsPasswordResetRequired *bool                        `json:"is_password_reset_required"`
	NotificationEmail       wire.Nullable[notifyAddress] `json:"notification_email"`
}

// notifyAddress is the notification_email object of an update.
type notifyAddress struct {
	Email string `json:"email"`
}

// UpdateUser serves PUT /users/{user_id} (updateUser): body's fields
// (checked) and ne, the notification_email, go into the user; enterprise
// null rolls the user out. The admin's and the service account's role and
// enterprise are fixed (403); a login taken is 409.
func (s *Tx) UpdateUser(id string, body UpdateUserBody, ne wire.Nullable[notifyAddress], fields []string) (Reply, *wire.Error) {
	u := s.EnterpriseUser(id)
	if u == nil {
		return Reply{}, wire.NotFound("user")
	}
	protected := u.Role == UserRoleAdmin || u == s.App
	switch {
	case protected && body.Role != nil && *body.Role != u.Role:
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The role of the enterprise admin or the service account cannot be changed")
	case protected && body.Enterprise.Null:
		return Reply{}, wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The enterprise admin or the service account cannot be rolled out of the enterprise")
	case body.ExternalAppUserID != nil && !u.AppUser:
		return Reply{}, wire.InvalidParam("external_app_user_id is only for app users (is_platform_access_only)")
	}
	if body.Login != nil && !strings.EqualFold(*body.Login, u.Login) {
		if u.AppUser {
			return Reply{}, wire.InvalidParam("The login of an app user cannot be changed")
		}
		if s.Users.ByLogin[strings.ToLower(*body.Login)] != nil {
			return Reply{}, wire.Errorf(wire.StatusConflict, CodeUserLoginInUse, "User with the specified login already exists")
		}
	}
	delete(s.Users.ByLogin, strings.ToLower(u.Login))
	s.Users.ByID.Update(u.ID, func(u *User) {
		body.Apply(u)
		if body.IsPasswordResetRequired != nil {
			u.IsPasswordResetRequired = *body.IsPasswordResetRequired
		}
		if ne.Present {
			u.NotificationEmail = ne.V.Email // "" when null
		}
		u.ModifiedAt = s.NowSec()
	})
	s.Users.ByLogin[strings.ToLower(u.Login)] = u
	if body.Enterprise.Null {
		s.rollOut(u)
	}
	return Reply{wire.StatusOK, s.RenderUser(u, fields, s.SpaceUsed()[u])}, nil
}

// rollOut makes u a free user outside the enterprise: it leaves its
// groups, loses its device pins, gets a free account's quotas and no
// longer appears to the enterprise. Its content stays its own.
func (s *Tx) rollOut(u *User) {
	u.Free = true
	u.Role = userRoleUser
	u.SpaceAmount, u.MaxUploadSize = freeSpaceAmount, FreeMaxUploadSize
	u.TrackingCodes = nil
	u.CanSeeManagedUsers = false
	s.userLeft(u)
}

// userLeft removes what ties u to the enterprise when it is rolled out or
// deleted: group memberships and device pins.
func (s *Tx) userLeft(u *User) {
	s.groupsUserLeft(u)
	s.pinsUserLeft(u)
	s.emailAliasesUserLeft(u)
}

// OwnedTops lists the items u owns whose parent u does not own (the tops
// of u's trees), in id order.
func (s *Tx) OwnedTops(u *User) []*Item {
	var out []*Item
	for _, it := range s.Items.All() {
		if it.Owner != u {
			continue
		}
		if parent, ok := s.Items.Get("folder", it.ParentID); ok && parent.Owner == u {
			continue
		}
		out = append(out, it)
	}
	sort.Slice(out, func(i, j int) bool { return NumID(out[i].ID) < NumID(out[j].ID) })
	return out
}

// RemoveUser deletes u with the items u owns (owned, checked by the
// caller), returning the blobs to delete once the change is committed.
func (s *Tx) RemoveUser(u *User, owned []*Item) []string {
	var blobs []string
	for _, it := range owned {
		blobs = append(blobs, s.RemoveItem(it)...)
	}
	u.SetDeleted()
	s.Users.Removed.Put(u.ID, u)
	s.Users.ByID.Delete(u.ID)
	delete(s.Users.ByLogin, strings.ToLower(u.Login))
	s.Users.Order = wire.RemoveFrom(s.Users.Order, u)
	s.userLeft(u)
	s.collabsCollaboratorGone(u, nil) // a rolled-out user keeps them; a deleted one does not
	return blobs
}

// DeleteUser serves DELETE /users/{id}: the enterprise user goes, and
// with force the items they own too (without it, 409 while they own any).
// The admin, the service account and the caller cannot be deleted. The
// blobs of the items are deleted once the change is committed (the
// outbox).
func (s *Tx) DeleteUser(p *Principal, id string, force bool) *wire.Error {
	u := s.EnterpriseUser(id)
	if u == nil {
		return wire.NotFound("user")
	}
	owned := s.OwnedTops(u)
	switch {
	case u == p.User || u.Role == UserRoleAdmin || u == s.App:
		return wire.Errorf(wire.StatusForbidden, wire.CodeAccessDenied, "The enterprise admin, the service account and the caller cannot be deleted")
	case len(owned) > 0 && !force:
		return wire.Errorf(wire.StatusConflict, CodeUserHasContent, "The user still owns content: move it first or delete with force=true")
	}
	for _, it := range owned {
		if aerr := s.PurgeBlocked(it); aerr != nil {
			return aerr
		}
	}
	s.out.deleteBlobs(s.RemoveUser(u, owned))
	return nil
}
