package cms

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"time"
	"unicode/utf8"
)

// UsersService handles users (/users).
type UsersService service

// UserRole is a user's role in the enterprise.
type UserRole string

// User roles. Only UserRoleCoadmin and UserRoleUser can be set through the API.
const (
	UserRoleAdmin   UserRole = "admin"
	UserRoleCoadmin UserRole = "coadmin"
	UserRoleUser    UserRole = "user"
)

// UserStatus is a user's account status.
type UserStatus string

// User statuses.
const (
	UserStatusActive                 UserStatus = "active"
	UserStatusInactive               UserStatus = "inactive"
	UserStatusCannotDeleteEdit       UserStatus = "cannot_delete_edit"
	UserStatusCannotDeleteEditUpload UserStatus = "cannot_delete_edit_upload"
)

// UserType filters the users of a list (query user_type).
type UserType string

// User types of UsersService.List.
const (
	UserTypeAll      UserType = "all"
	UserTypeManaged  UserType = "managed"
	UserTypeExternal UserType = "external"
)

func checkUserType(t UserType) error {
	return checkEnum("user_type", t, UserTypeAll, UserTypeManaged, UserTypeExternal)
}

// Enterprise is the enterprise a user belongs to.
type Enterprise struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
	Name string `json:"name,omitzero"`
}

// TrackingCode is an attribute an admin assigns to a user for reports.
type TrackingCode struct {
	// Type is always "tracking_code" (filled in when left empty).
	Type  string `json:"type,omitzero"`
	Name  string `json:"name"`
	Value string `json:"value"`
}

// MarshalJSON sends type "tracking_code" when Type is empty.
func (c TrackingCode) MarshalJSON() ([]byte, error) {
	type plain TrackingCode
	if c.Type == "" {
		c.Type = "tracking_code"
	}
	return json.Marshal(plain(c))
}

// NotificationEmail is a user's alternate address for notifications.
type NotificationEmail struct {
	Email       string `json:"email"`
	IsConfirmed bool   `json:"is_confirmed"`
}

// User is a user (User--Full). The standard fields come by default; the
// others (Role, Enterprise, TrackingCodes, the Is*/Can* flags, ...) only
// when named in FieldsOptions.Fields.
type User struct {
	ID         string    `json:"id"`
	Type       string    `json:"type,omitzero"`
	Name       string    `json:"name,omitzero"`
	Login      string    `json:"login,omitzero"`
	CreatedAt  time.Time `json:"created_at,omitzero"`
	ModifiedAt time.Time `json:"modified_at,omitzero"`
	Language   string    `json:"language,omitzero"`
	Timezone   string    `json:"timezone,omitzero"`
	// SpaceAmount is the quota in bytes; -1 is unlimited.
	SpaceAmount   int64      `json:"space_amount,omitzero"`
	SpaceUsed     int64      `json:"space_used,omitzero"`
	MaxUploadSize int64      `json:"max_upload_size,omitzero"`
	Status        UserStatus `json:"status,omitzero"`
	JobTitle      string     `json:"job_title,omitzero"`
	Phone         string     `json:"phone,omitzero"`
	Address       string     `json:"address,omitzero"`
	AvatarURL     string     `json:"avatar_url,omitzero"`
	// NotificationEmail is nil when the user has none (the service sends
	// null, or sometimes an empty array).
	NotificationEmail *NotificationEmail `json:"notification_email,omitzero"`

	Role                          UserRole       `json:"role,omitzero"`
	TrackingCodes                 []TrackingCode `json:"tracking_codes,omitzero"`
	CanSeeManagedUsers            bool           `json:"can_see_managed_users,omitzero"`
	IsSyncEnabled                 bool           `json:"is_sync_enabled,omitzero"`
	IsExternalCollabRestricted    bool           `json:"is_external_collab_restricted,omitzero"`
	IsExemptFromDeviceLimits      bool           `json:"is_exempt_from_device_limits,omitzero"`
	IsExemptFromLoginVerification bool           `json:"is_exempt_from_login_verification,omitzero"`
	// Enterprise is nil for a user outside any enterprise (a free user), or
	// when the field was not requested.
	Enterprise           *Enterprise `json:"enterprise,omitzero"`
	MyTags               []string    `json:"my_tags,omitzero"`
	Hostname             string      `json:"hostname,omitzero"`
	IsPlatformAccessOnly bool        `json:"is_platform_access_only,omitzero"`
	ExternalAppUserID    string      `json:"external_app_user_id,omitzero"`
}

// UnmarshalJSON decodes a user, reading a notification_email that is not
// an object (null, []) as none.
func (u *User) UnmarshalJSON(b []byte) error {
	type plain User
	var w struct {
		plain
		NotificationEmail json.RawMessage `json:"notification_email"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*u = User(w.plain)
	if len(w.NotificationEmail) > 0 && w.NotificationEmail[0] == '{' {
		u.NotificationEmail = new(NotificationEmail)
		return json.Unmarshal(w.NotificationEmail, u.NotificationEmail)
	}
	return nil
}

// Lengths the service allows for user fields.
const (
	maxUserNameLen = 50
	maxJobTitleLen = 100
	maxPhoneLen    = 100
	maxAddressLen  = 255
)

// checkUserEnums checks role, status and space_amount before a request is
// sent: only coadmin and user can be set as a role (admin is the
// enterprise's own), status is one of the four, and -1 is the only
// negative quota (unlimited).
func checkUserEnums(role UserRole, status UserStatus, spaceAmount *int64) error {
	if role == UserRoleAdmin {
		return invalidArg("role", "admin cannot be set through the API (coadmin or user)")
	}
	if spaceAmount != nil && *spaceAmount < -1 {
		return invalidArg("space_amount", "negative (only -1, unlimited)")
	}
	return firstErr(
		checkEnum("role", role, UserRoleCoadmin, UserRoleUser),
		checkEnum("status", status, UserStatusActive, UserStatusInactive, UserStatusCannotDeleteEdit, UserStatusCannotDeleteEditUpload),
	)
}

// userFieldLengths checks the length limits of name, job_title, phone and
// address before a request is sent.
func userFieldLengths(name string, jobTitle, phone, address *string) error {
	if utf8.RuneCountInString(name) > maxUserNameLen {
		return invalidArg("name", "longer than 50 characters")
	}
	for _, f := range []struct {
		arg string
		v   *string
		max int
	}{{"job_title", jobTitle, maxJobTitleLen}, {"phone", phone, maxPhoneLen}, {"address", address, maxAddressLen}} {
		if f.v != nil && utf8.RuneCountInString(*f.v) > f.max {
			return invalidArg(f.arg, "too long")
		}
	}
	return nil
}

// CreateUserRequest is the body of UsersService.Create. Name is required,
// and Login unless IsPlatformAccessOnly (an app user) is true.
type CreateUserRequest struct {
	Name                 string `json:"name"`
	Login                string `json:"login,omitzero"`
	IsPlatformAccessOnly bool   `json:"is_platform_access_only,omitzero"`
	// Role is coadmin or user (the default); admin cannot be set.
	Role     UserRole `json:"role,omitzero"`
	Language string   `json:"language,omitzero"`
	Timezone string   `json:"timezone,omitzero"`
	JobTitle string   `json:"job_title,omitzero"`
	Phone    string   `json:"phone,omitzero"`
	Address  string   `json:"address,omitzero"`
	// SpaceAmount is the quota in bytes (-1 unlimited); nil keeps the default.
	SpaceAmount   *int64         `json:"space_amount,omitempty"`
	TrackingCodes []TrackingCode `json:"tracking_codes,omitzero"`
	Status        UserStatus     `json:"status,omitzero"`
	// The flags; nil keeps the service's default.
	IsSyncEnabled                 *bool `json:"is_sync_enabled,omitempty"`
	CanSeeManagedUsers            *bool `json:"can_see_managed_users,omitempty"`
	IsExternalCollabRestricted    *bool `json:"is_external_collab_restricted,omitempty"`
	IsExemptFromDeviceLimits      *bool `json:"is_exempt_from_device_limits,omitempty"`
	IsExemptFromLoginVerification *bool `json:"is_exempt_from_login_verification,omitempty"`
	// ExternalAppUserID ties an app user to an identity of another system.
	ExternalAppUserID string `json:"external_app_user_id,omitzero"`
}

// Create creates a managed user, or an app user with IsPlatformAccessOnly
// (POST /users). Admin only. A login in use fails with an *APIError of
// code user_login_already_used (matching ErrUserLoginAlreadyUsed and ErrConflict).
func (s *UsersService) Create(ctx context.Context, body *CreateUserRequest, opts *FieldsOptions) (*User, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if body.Name == "" {
		return nil, nil, invalidArg("name", "empty")
	}
	if body.Login == "" && !body.IsPlatformAccessOnly {
		return nil, nil, invalidArg("login", "empty (required unless IsPlatformAccessOnly)")
	}
	if err := userFieldLengths(body.Name, &body.JobTitle, &body.Phone, &body.Address); err != nil {
		return nil, nil, err
	}
	if err := checkUserEnums(body.Role, body.Status, body.SpaceAmount); err != nil {
		return nil, nil, err
	}
	return callAPI[User](ctx, s.client, http.MethodPost, body, opts, "users")
}

// Get fetches a user (GET /users/{user_id}).
func (s *UsersService) Get(ctx context.Context, userID string, opts *FieldsOptions) (*User, *Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, nil, err
	}
	return getAPI[User](ctx, s.client, opts, "users", userID)
}

// GetMe fetches the user the client acts as (GET /users/me): the token's
// user, or the As-User one. Ask for Fields "enterprise" to learn the
// enterprise id (the metadata scope enterprise_<id>, device pins).
func (s *UsersService) GetMe(ctx context.Context, opts *FieldsOptions) (*User, *Response, error) {
	return getAPI[User](ctx, s.client, opts, "users", "me")
}

// UpdateUserRequest is the body of UsersService.Update. Zero fields are
// left as they are; pointers set a value that may be zero.
type UpdateUserRequest struct {
	// Enterprise set to Null rolls the user out of the enterprise: they
	// become a free user (with Notify, they get an e-mail).
	Enterprise Nullable[string] `json:"enterprise,omitzero"`
	Notify     *bool            `json:"notify,omitempty"`
	Name       string           `json:"name,omitzero"`
	Login      string           `json:"login,omitzero"`
	// Role is coadmin or user; admin cannot be set (an *ArgError).
	Role     UserRole `json:"role,omitzero"`
	Language string   `json:"language,omitzero"`
	Timezone string   `json:"timezone,omitzero"`
	// JobTitle, Phone and Address: a pointer to "" clears the field.
	JobTitle      *string        `json:"job_title,omitempty"`
	Phone         *string        `json:"phone,omitempty"`
	Address       *string        `json:"address,omitempty"`
	SpaceAmount   *int64         `json:"space_amount,omitempty"`
	Status        UserStatus     `json:"status,omitzero"`
	TrackingCodes []TrackingCode `json:"tracking_codes,omitzero"`
	// NotificationEmail set to Null removes the alternate address.
	NotificationEmail             Nullable[NotificationEmailRequest] `json:"notification_email,omitzero"`
	IsSyncEnabled                 *bool                              `json:"is_sync_enabled,omitempty"`
	CanSeeManagedUsers            *bool                              `json:"can_see_managed_users,omitempty"`
	IsExternalCollabRestricted    *bool                              `json:"is_external_collab_restricted,omitempty"`
	IsExemptFromDeviceLimits      *bool                              `json:"is_exempt_from_device_limits,omitempty"`
	IsExemptFromLoginVerification *bool                              `json:"is_exempt_from_login_verification,omitempty"`
	IsPasswordResetRequired       *bool                              `json:"is_password_reset_required,omitempty"`
	// ExternalAppUserID applies to app users only.
	ExternalAppUserID string `json:"external_app_user_id,omitzero"`
}

// NotificationEmailRequest sets a user's alternate notification address.
type NotificationEmailRequest struct {
	Email string `json:"email"`
}

// Update changes a user (PUT /users/{user_id}). Admin only. Set Enterprise
// to Null[string]() to roll the user out of the enterprise.
func (s *UsersService) Update(ctx context.Context, userID string, body *UpdateUserRequest, opts *FieldsOptions) (*User, *Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := userFieldLengths(body.Name, body.JobTitle, body.Phone, body.Address); err != nil {
		return nil, nil, err
	}
	if err := checkUserEnums(body.Role, body.Status, body.SpaceAmount); err != nil {
		return nil, nil, err
	}
	if e, ok := body.NotificationEmail.Get(); ok && e.Email == "" {
		return nil, nil, invalidArg("notification_email", "empty address (use Null to remove it)")
	}
	return callAPI[User](ctx, s.client, http.MethodPut, body, opts, "users", userID)
}

// DeleteUserOptions are the options of UsersService.Delete.
type DeleteUserOptions struct {
	// Notify e-mails the user about the deletion (query notify).
	Notify bool `url:"notify,omitempty"`
	// Force deletes a user who still owns items, and the items (query
	// force). Without it such a delete fails (ErrUserHasContent on the
	// reference server).
	Force bool `url:"force,omitempty"`
}

// Delete deletes a user (DELETE /users/{user_id}). Admin only.
func (s *UsersService) Delete(ctx context.Context, userID string, opts *DeleteUserOptions) (*Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &DeleteUserOptions{}
	}
	return deleteAPI(ctx, s.client, opts, "users", userID)
}

// ListUsersOptions are the options of the offset-paged UsersService.List.
type ListUsersOptions struct {
	// FilterTerm keeps users whose name or login starts with it (query filter_term).
	FilterTerm string `url:"filter_term,omitempty"`
	// UserType is all, managed or external (query user_type).
	UserType UserType `url:"user_type,omitempty"`
	// ExternalAppUserID keeps the app users with this external id.
	ExternalAppUserID string   `url:"external_app_user_id,omitempty"`
	Fields            []string `url:"fields,comma,omitempty"`
	// Offset (at most 10000) and Limit (at most 1000) page the list.
	Offset int `url:"offset,omitempty"`
	Limit  int `url:"limit,omitempty"`
}

// List returns one offset page of the enterprise's users (GET /users).
func (s *UsersService) List(ctx context.Context, opts *ListUsersOptions) (*OffsetPage[*User], *Response, error) {
	if opts == nil {
		opts = &ListUsersOptions{}
	}
	if err := firstErr(checkOffsetLimit(opts.Offset, opts.Limit), checkUserType(opts.UserType)); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*User]](ctx, s.client, opts, "users")
}

// listPages pages List by offset with a private copy of opts.
func (s *UsersService) listPages(opts *ListUsersOptions) (int, offsetPageFunc[*User]) {
	return pageFuncs(opts, func(o *ListUsersOptions) *int { return &o.Offset }, s.List)
}

// ListIter yields every user of the enterprise, fetching offset pages (GET
// /users) lazily as the loop advances, from opts.Offset. Offset paging
// stops at offset 10000 (the service answers 400 past it): for a longer
// list use ListByMarkerIter, which pages by marker. The method says which
// paging it uses; no option value switches it. It never changes opts.
func (s *UsersService) ListIter(ctx context.Context, opts *ListUsersOptions) iter.Seq2[*User, error] {
	start, fetch := s.listPages(opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListPaginator walks the enterprise's users one offset page at a time
// (GET /users). It never changes opts.
func (s *UsersService) NewListPaginator(opts *ListUsersOptions) *OffsetPaginator[*User] {
	return newOffsetPaginator(s.listPages(opts))
}

// ListUsersByMarkerOptions are the options of the marker-paged
// UsersService.ListByMarker.
type ListUsersByMarkerOptions struct {
	FilterTerm        string   `url:"filter_term,omitempty"`
	UserType          UserType `url:"user_type,omitempty"`
	ExternalAppUserID string   `url:"external_app_user_id,omitempty"`
	Fields            []string `url:"fields,comma,omitempty"`
	// Marker is a NextMarker of an earlier page; "" for the first page.
	Marker string `url:"marker,omitempty"`
	Limit  int    `url:"limit,omitempty"`
}

// usersMarkerQuery adds usemarker=true.
type usersMarkerQuery struct {
	*ListUsersByMarkerOptions
	UseMarker bool `url:"usemarker"`
}

// ListByMarker returns one marker page of the enterprise's users
// (GET /users?usemarker=true). Response.NextMarker fetches the next page.
func (s *UsersService) ListByMarker(ctx context.Context, opts *ListUsersByMarkerOptions) (*MarkerPage[*User], *Response, error) {
	if opts == nil {
		opts = &ListUsersByMarkerOptions{}
	}
	if err := firstErr(checkLimit(opts.Limit), checkUserType(opts.UserType)); err != nil {
		return nil, nil, err
	}
	return withNextMarker(getAPI[MarkerPage[*User]](ctx, s.client, usersMarkerQuery{opts, true}, "users"))
}

// markerPages pages ListByMarker with a private copy of opts.
func (s *UsersService) markerPages(opts *ListUsersByMarkerOptions) (string, markerPageFunc[*User]) {
	return pageFuncs(opts, func(o *ListUsersByMarkerOptions) *string { return &o.Marker }, s.ListByMarker)
}

// ListByMarkerIter yields every user of the enterprise, fetching marker
// pages (GET /users?usemarker=true) lazily. It never changes opts.
func (s *UsersService) ListByMarkerIter(ctx context.Context, opts *ListUsersByMarkerOptions) iter.Seq2[*User, error] {
	marker, fetch := s.markerPages(opts)
	return markerSeq(ctx, marker, fetch)
}

// NewListByMarkerPaginator walks the enterprise's users one marker page at
// a time (GET /users?usemarker=true); keep NextMarker to resume later.
func (s *UsersService) NewListByMarkerPaginator(opts *ListUsersByMarkerOptions) *MarkerPaginator[*User] {
	marker, fetch := s.markerPages(opts)
	return newMarkerPaginator(marker, fetch)
}
