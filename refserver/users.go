package refserver

import (
	"fmt"
	"net/http"
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

const (
	codeUserLoginInUse = "user_login_already_used"
	codeUserHasContent = "user_has_content"
)

// userState is the server's state for enterprise users (/users), guarded by Server.mu.
type userState struct {
	byID    map[string]*user
	byLogin map[string]*user // by lower-case login
	order   []*user          // by numeric id, for paging
	removed map[string]*user // deleted users, which records may still name
}

// initUsers prepares the state of enterprise users (/users); called once by newServer.
func (s *state) initUsers() {
	s.users = userState{byID: map[string]*user{}, byLogin: map[string]*user{}, removed: map[string]*user{}}
	for _, u := range []*user{s.admin, s.user, s.app} {
		u.userProfile = defaultProfile(u.createdAt)
		s.addUser(u)
	}
	s.admin.spaceAmount = -1
	s.app.canSeeManagedUsers = true
}

// addUser registers u. Callers hold s.mu (or run before serving).
func (s *state) addUser(u *user) {
	s.users.byID[u.id] = u
	s.users.byLogin[strings.ToLower(u.login)] = u
	s.users.order = append(s.users.order, u)
	s.dirty(kUsers, u.id)
	sort.SliceStable(s.users.order, func(i, j int) bool { return numID(s.users.order[i].id) < numID(s.users.order[j].id) })
}

func numID(id string) int64 { n, _ := strconv.ParseInt(id, 10, 64); return n }

// enterpriseUser returns the user of the enterprise with id (not deleted,
// not rolled out), or nil. Callers hold s.mu.
func (s *state) enterpriseUser(id string) *user {
	u := s.users.byID[id]
	if u == nil || u.deleted || u.free {
		return nil
	}
	return u
}

// userActive reports whether u may still act (not deleted).
func (s *state) userActive(u *user) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !u.deleted
}

// userID reads {user_id}; a malformed id is 404 (no such user).
func userID(r *http.Request) (string, *wire.Error) { return pathID(r, "user_id", "user") }

// listUsers serves GET /users: offset pages by default, marker pages with
// usemarker=true; users in id order.
func (s *Server) listUsers(w http.ResponseWriter, r *http.Request, p *principal) error {
	q := r.URL.Query()
	userType := q.Get("user_type")
	switch userType {
	case "", "all", "managed", "external":
	default:
		return wire.BadRequest("Invalid value for \"user_type\": all, managed or external")
	}
	filter := strings.ToLower(q.Get("filter_term"))
	extID := q.Get("external_app_user_id")
	pq, aerr := wire.ParseListPage(r.URL.Query(), true)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)

	return s.change(w, func() (reply, *wire.Error) {
		return s.listUsersTx(p, userType, extID, filter, fields, pq)
	})
}

// listUsersTx is the transaction of GET /users (listUsers): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) listUsersTx(p *principal, userType string, extID string, filter string, fields []string, pq wire.Page) (reply, *wire.Error) {
	if !p.isAdmin() && !p.user.canSeeManagedUsers {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The user may not look up the users of the enterprise")
	}
	var match []*user
	for _, u := range s.users.order {
		switch {
		case u.deleted || u.free, userType == "external", // the enterprise has no external users
			extID != "" && u.externalAppUserID != extID,
			filter != "" && !strings.HasPrefix(strings.ToLower(u.name), filter) && !strings.HasPrefix(strings.ToLower(u.login), filter):
			continue
		}
		match = append(match, u)
	}
	used := s.spaceUsed()
	render := func(u *user) any { return s.renderUser(u, fields, used[u]) }
	if pq.UseMarker {
		return reply{http.StatusOK, wire.MarkerEntries(match, pq, func(u *user) int64 { return numID(u.id) }, render)}, nil
	}
	return reply{http.StatusOK, wire.OffsetEntries(match, pq, s.userHidden, render)}, nil
}

// createUserBody is the body of POST /users.
type createUserBody struct {
	userFields
	IsPlatformAccessOnly *bool `json:"is_platform_access_only"`
}

// createUser serves POST /users: 201 with the new managed user or app user.
func (s *Server) createUser(w http.ResponseWriter, r *http.Request, p *principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body createUserBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter); aerr != nil {
		return aerr
	}
	appUser := body.IsPlatformAccessOnly != nil && *body.IsPlatformAccessOnly
	switch {
	case body.Name == nil:
		return wire.BadRequest("Missing required field: name")
	case body.Login == nil && !appUser:
		return wire.BadRequest("Missing required field: login (required unless is_platform_access_only is true)")
	case body.ExternalAppUserID != nil && !appUser:
		return errInvalidParam("external_app_user_id is only for app users (is_platform_access_only)")
	}
	if aerr := body.check(); aerr != nil {
		return aerr
	}
	fields := parseFields(r)

	return s.change(w, func() (reply, *wire.Error) {
		return s.createUserTx(body, appUser, fields)
	})
}

// createUserTx is the transaction of POST /users (createUser): what it checks,
// reads and changes under the state's lock, and its reply. Callers hold mu.
func (s *state) createUserTx(body createUserBody, appUser bool, fields []string) (reply, *wire.Error) {
	id := s.newID()
	login := fmt.Sprintf("AppUser_%s_%s@apps.cms.test", id, randomHex(4))
	if body.Login != nil {
		login = *body.Login
		if s.users.byLogin[strings.ToLower(login)] != nil {
			return reply{}, wire.Errorf(http.StatusConflict, codeUserLoginInUse, "User with the specified login already exists")
		}
	}
	now := s.nowSec()
	u := &user{id: id, login: login, role: userRoleUser, createdAt: now, userProfile: defaultProfile(now)}
	u.appUser = appUser
	body.Login = nil
	body.apply(u)
	s.addUser(u)
	s.bindInvitations(u) // collaborations.go
	return reply{http.StatusCreated, s.renderUser(u, fields, 0)}, nil
}

// getUserMe serves GET /users/me: the user the token (or As-User) acts as.
func (s *Server) getUserMe(w http.ResponseWriter, r *http.Request, p *principal) error {
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return reply{http.StatusOK, s.renderUser(p.user, fields, s.spaceUsed()[p.user])}, nil
	})
}

// getUser serves GET /users/{user_id}. A user may always read themselves.
func (s *Server) getUser(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := userID(r)
	if aerr != nil {
		return aerr
	}
	fields := parseFields(r)
	return s.change(w, func() (reply, *wire.Error) {
		return s.getUserTx(id, p, fields)
	})
}

// getUserTx is the transaction of GET /users/{user_id}. (getUser): what it
// checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) getUserTx(id string, p *principal, fields []string) (reply, *wire.Error) {
	u := s.enterpriseUser(id)
	if id == p.user.id {
		u = p.user
	} else if !p.isAdmin() && !p.user.canSeeManagedUsers {
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The user may not look up the users of the enterprise")
	}
	if u == nil {
		return reply{}, wire.NotFound("user")
	}
	return reply{http.StatusOK, s.renderUser(u, fields, s.spaceUsed()[u])}, nil
}

// updateUserBody is the body of PUT /users/{user_id}.
type updateUserBody struct {
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

// updateUser serves PUT /users/{user_id}: 200 with the user. enterprise:
// null rolls the user out of the enterprise into a free user.
func (s *Server) updateUser(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := userID(r)
	if aerr != nil {
		return aerr
	}
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	var body updateUserBody
	if aerr := wire.DecodeJSONObject(r.Body, &body, wire.CodeInvalidParameter, "enterprise", "notification_email"); aerr != nil {
		return aerr
	}
	if aerr := body.check(); aerr != nil {
		return aerr
	}
	ne := body.NotificationEmail
	if ne.Present && !ne.Null && !validEmail(ne.V.Email) {
		return errInvalidParam("notification_email.email must be an e-mail address")
	}
	if body.Enterprise.Present && !body.Enterprise.Null && body.Enterprise.V != s.enterpriseID {
		return errInvalidParam("enterprise must be null (roll the user out) or the id of the user's enterprise")
	}
	fields := parseFields(r)

	return s.change(w, func() (reply, *wire.Error) {
		return s.updateUserTx(id, body, ne, fields)
	})
}

// updateUserTx is the transaction of PUT /users/{user_id} (updateUser): what
// it checks, reads and changes under the state's lock, and its reply. Callers
// hold mu.
func (s *state) updateUserTx(id string, body updateUserBody, ne wire.Nullable[notifyAddress], fields []string) (reply, *wire.Error) {
	u := s.enterpriseUser(id)
	if u == nil {
		return reply{}, wire.NotFound("user")
	}
	protected := u.role == userRoleAdmin || u == s.app
	switch {
	case protected && body.Role != nil && *body.Role != u.role:
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The role of the enterprise admin or the service account cannot be changed")
	case protected && body.Enterprise.Null:
		return reply{}, wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The enterprise admin or the service account cannot be rolled out of the enterprise")
	case body.ExternalAppUserID != nil && !u.appUser:
		return reply{}, errInvalidParam("external_app_user_id is only for app users (is_platform_access_only)")
	}
	if body.Login != nil && !strings.EqualFold(*body.Login, u.login) {
		if u.appUser {
			return reply{}, errInvalidParam("The login of an app user cannot be changed")
		}
		if s.users.byLogin[strings.ToLower(*body.Login)] != nil {
			return reply{}, wire.Errorf(http.StatusConflict, codeUserLoginInUse, "User with the specified login already exists")
		}
	}
	delete(s.users.byLogin, strings.ToLower(u.login))
	body.apply(u)
	s.users.byLogin[strings.ToLower(u.login)] = u
	if body.IsPasswordResetRequired != nil {
		u.isPasswordResetRequired = *body.IsPasswordResetRequired
	}
	if ne.Present {
		u.notificationEmail = ne.V.Email // "" when null
	}
	u.modifiedAt = s.nowSec()
	s.dirty(kUsers, u.id)
	if body.Enterprise.Null {
		s.rollOut(u)
	}
	return reply{http.StatusOK, s.renderUser(u, fields, s.spaceUsed()[u])}, nil
}

// rollOut makes u a free user outside the enterprise: it leaves its
// groups, loses its device pins, gets a free account's quotas and no
// longer appears to the enterprise. Its content stays its own. Callers
// hold s.mu.
func (s *state) rollOut(u *user) {
	u.free = true
	u.role = userRoleUser
	u.spaceAmount, u.maxUploadSize = freeSpaceAmount, freeMaxUploadSize
	u.trackingCodes = nil
	u.canSeeManagedUsers = false
	s.userLeft(u)
}

// userLeft removes what ties u to the enterprise when it is rolled out or
// deleted: group memberships and device pins. Callers hold s.mu.
func (s *state) userLeft(u *user) {
	s.groupsUserLeft(u)
	s.pinsUserLeft(u)
}

// deleteUser serves DELETE /users/{user_id}?notify&force: 204. A user who
// owns items is only deleted with force=true, and then the items go too.
func (s *Server) deleteUser(w http.ResponseWriter, r *http.Request, p *principal) error {
	id, aerr := userID(r)
	if aerr != nil {
		return aerr
	}
	if _, aerr := wire.QueryBool(r.URL.Query(), "notify"); aerr != nil {
		return aerr
	}
	force, aerr := wire.QueryBool(r.URL.Query(), "force")
	if aerr != nil {
		return aerr
	}
	s.mu.Lock()
	u := s.enterpriseUser(id)
	var owned []*item
	if u != nil {
		owned = s.ownedTops(u)
	}
	switch {
	case u == nil:
		aerr = wire.NotFound("user")
	case u == p.user || u.role == userRoleAdmin || u == s.app:
		aerr = wire.Errorf(http.StatusForbidden, wire.CodeAccessDenied, "The enterprise admin, the service account and the caller cannot be deleted")
	case len(owned) > 0 && !force:
		aerr = wire.Errorf(http.StatusConflict, codeUserHasContent, "The user still owns content: move it first or delete with force=true")
	}
	for _, it := range owned {
		if aerr == nil {
			aerr = s.purgeBlocked(it)
		}
	}
	if aerr != nil {
		s.mu.Unlock()
		return aerr
	}
	blobs := s.removeUser(u, owned)
	s.mu.Unlock()
	s.deleteBlobs(r, blobs)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// ownedTops lists the items u owns whose parent u does not own (the tops
// of u's trees), in id order. Callers hold s.mu.
func (s *state) ownedTops(u *user) []*item {
	var out []*item
	for _, it := range s.items {
		if it.owner != u {
			continue
		}
		if parent, ok := s.items[it.parentID]; ok && parent.owner == u {
			continue
		}
		out = append(out, it)
	}
	sort.Slice(out, func(i, j int) bool { return numID(out[i].id) < numID(out[j].id) })
	return out
}

// removeUser deletes u with the items u owns (owned, checked by the
// caller), returning the blobs to delete once the change is committed.
// Callers hold mu.
func (s *state) removeUser(u *user, owned []*item) []string {
	var blobs []string
	for _, it := range owned {
		blobs = append(blobs, s.removeItem(it)...)
	}
	u.deleted = true
	s.users.removed[u.id] = u
	s.dirty(kUsers, u.id)
	delete(s.users.byID, u.id)
	delete(s.users.byLogin, strings.ToLower(u.login))
	s.users.order = wire.RemoveFrom(s.users.order, u)
	s.userLeft(u)
	return blobs
}
