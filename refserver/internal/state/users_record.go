package state

import (
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // timezone names are checked the same on every machine
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// The user record (User--Full) beyond the fields every principal has, its
// defaults, its rendering and the rules of its writable fields.

// The user record's constants: the enterprise's name (as a user's record
// shows it), the quotas of users, and the longest values of the writable
// fields.
const (
	EnterpriseName = "Reference Enterprise"

	// Quotas of enterprise users and of free users (after a roll-out).
	defaultSpaceAmount   = 10 << 30
	defaultMaxUploadSize = 5 << 30
	freeSpaceAmount      = 10 << 30
	FreeMaxUploadSize    = 250 << 20

	// Lengths the spec gives for the writable fields.
	MaxUserNameLen    = 50
	maxJobTitleLen    = 100
	maxPhoneLen       = 100
	MaxAddressLen     = 255
	maxTrackingValLen = 255
)

// User roles and statuses of the wire.
const (
	UserRoleAdmin   = "admin"
	userRoleCoadmin = "coadmin"
	userRoleUser    = "user"
)

var userStatuses = []string{"active", "inactive", "cannot_delete_edit", "cannot_delete_edit_upload"}

// UserProfile is the part of a user record beyond id, name, login and role.
// It is embedded in User; every field is read and changed only in a transaction.
type UserProfile struct {
	ModifiedAt                 time.Time
	Status                     string
	Language, Timezone         string
	SpaceAmount, MaxUploadSize int64
	JobTitle, Phone, Address   string
	NotificationEmail          string // "" = none
	TrackingCodes              []TrackingCode

	CanSeeManagedUsers, IsSyncEnabled, IsExternalCollabRestricted bool
	IsExemptFromDeviceLimits, IsExemptFromLoginVerification       bool
	IsPasswordResetRequired                                       bool

	AppUser           bool   // is_platform_access_only
	ExternalAppUserID string // app users only
	Free              bool   // rolled out of the enterprise (enterprise: null)
}

// TrackingCode is one entry of tracking_codes.
type TrackingCode struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Value string `json:"value"`
}

// defaultProfile is the profile of a new enterprise user.
func defaultProfile(now time.Time) UserProfile {
	return UserProfile{
		ModifiedAt: now, Status: "active", Language: "en", Timezone: "America/Los_Angeles",
		SpaceAmount: defaultSpaceAmount, MaxUploadSize: defaultMaxUploadSize,
		CanSeeManagedUsers: true, IsSyncEnabled: true,
	}
}

// userStandard is the standard (default) representation of a user.
func (s *Tx) userStandard(u *User, used int64) map[string]any {
	m := u.Mini()
	m["created_at"] = FmtTime(u.CreatedAt)
	m["modified_at"] = FmtTime(u.ModifiedAt)
	m["language"] = u.Language
	m["timezone"] = u.Timezone
	m["space_amount"] = u.SpaceAmount
	m["space_used"] = used
	m["max_upload_size"] = u.MaxUploadSize
	m["status"] = u.Status
	m["job_title"] = u.JobTitle
	m["phone"] = u.Phone
	m["address"] = u.Address
	m["avatar_url"] = s.APIOrigin() + "/api/avatar/large/" + u.ID
	m["notification_email"] = nil
	if u.NotificationEmail != "" {
		m["notification_email"] = map[string]any{"email": u.NotificationEmail, "is_confirmed": false}
	}
	return m
}

// userFull adds the User--Full fields that are sent only on request.
func (s *Tx) userFull(u *User, m map[string]any) map[string]any {
	m["role"] = u.Role
	m["tracking_codes"] = append(make([]TrackingCode, 0, len(u.TrackingCodes)), u.TrackingCodes...)
	m["can_see_managed_users"] = u.CanSeeManagedUsers
	m["is_sync_enabled"] = u.IsSyncEnabled
	m["is_external_collab_restricted"] = u.IsExternalCollabRestricted
	m["is_exempt_from_device_limits"] = u.IsExemptFromDeviceLimits
	m["is_exempt_from_login_verification"] = u.IsExemptFromLoginVerification
	m["enterprise"] = nil
	if !u.Free {
		m["enterprise"] = s.enterpriseMini()
	}
	m["my_tags"] = []string{}
	m["hostname"] = s.APIOrigin() + "/"
	m["is_platform_access_only"] = u.AppUser
	m["external_app_user_id"] = nil
	if u.ExternalAppUserID != "" {
		m["external_app_user_id"] = u.ExternalAppUserID
	}
	return m
}

func (s *Tx) enterpriseMini() map[string]any {
	return map[string]any{"id": s.EnterpriseID, "type": "enterprise", "name": EnterpriseName}
}

// RenderUser is a user for a fields parameter: the standard record without
// fields; with fields, User--Mini plus the requested ones (standard or
// Full). used is the space the user's content takes.
func (s *Tx) RenderUser(u *User, fields []string, used int64) map[string]any {
	std := s.userStandard(u, used)
	if fields == nil {
		return std
	}
	return PickFields(s.userFull(u, std), fields, "type", "id", "name", "login")
}

// SpaceUsed sums the sizes of every version of every file each user owns
// (trashed ones too: they still take space).
func (s *Tx) SpaceUsed() map[*User]int64 {
	used := map[*User]int64{}
	for _, it := range s.Items.All() {
		for _, v := range it.Versions {
			used[it.Owner] += v.Blob.Size
		}
	}
	return used
}

// userFields are the writable fields POST /users and PUT /users/{id} share.
// Pointers tell "absent" from a value; a JSON null is 400 invalid_parameter
// (wire.DecodeJSONObject): only enterprise and notification_email of an update
// take null.
type userFields struct {
	Name                          *string         `json:"name"`
	Login                         *string         `json:"login"`
	Role                          *string         `json:"role"`
	Language                      *string         `json:"language"`
	IsSyncEnabled                 *bool           `json:"is_sync_enabled"`
	JobTitle                      *string         `json:"job_title"`
	Phone                         *string         `json:"phone"`
	Address                       *string         `json:"address"`
	SpaceAmount                   *int64          `json:"space_amount"`
	TrackingCodes                 *[]TrackingCode `json:"tracking_codes"`
	CanSeeManagedUsers            *bool           `json:"can_see_managed_users"`
	Timezone                      *string         `json:"timezone"`
	IsExternalCollabRestricted    *bool           `json:"is_external_collab_restricted"`
	IsExemptFromDeviceLimits      *bool           `json:"is_exempt_from_device_limits"`
	IsExemptFromLoginVerification *bool           `json:"is_exempt_from_login_verification"`
	Status                        *string         `json:"status"`
	ExternalAppUserID             *string         `json:"external_app_user_id"`
}

var languageRE = regexp.MustCompile(`^[a-z]{2,3}([-_][A-Za-z]{2,4})?$`)

// ValidEmail reports whether v is a bare e-mail address (no display name).
func ValidEmail(v string) bool {
	a, err := mail.ParseAddress(v)
	return err == nil && a.Address == v && a.Name == "" && strings.Contains(v[strings.LastIndexByte(v, '@')+1:], ".")
}

// Check applies the field rules: 400 invalid_parameter for a value out of
// range (lengths, enums, e-mail form, timezone, language, tracking codes).
func (f *userFields) Check() *wire.Error {
	if f.Name != nil {
		if n := utf8.RuneCountInString(*f.Name); n == 0 || n > MaxUserNameLen {
			return wire.InvalidParam("name must be 1 to %d characters", MaxUserNameLen)
		}
	}
	if f.Login != nil && !ValidEmail(*f.Login) {
		return wire.InvalidParam("login must be an e-mail address")
	}
	if f.Role != nil && *f.Role != userRoleCoadmin && *f.Role != userRoleUser {
		return wire.InvalidParam("role must be coadmin or user")
	}
	if f.Language != nil && !languageRE.MatchString(*f.Language) {
		return wire.InvalidParam("language must be a language code such as en")
	}
	for _, c := range []struct {
		name string
		v    *string
		max  int
	}{{"job_title", f.JobTitle, maxJobTitleLen}, {"phone", f.Phone, maxPhoneLen}, {"address", f.Address, MaxAddressLen}} {
		if c.v != nil && utf8.RuneCountInString(*c.v) > c.max {
			return wire.InvalidParam("%s must be at most %d characters", c.name, c.max)
		}
	}
	if f.SpaceAmount != nil && *f.SpaceAmount < -1 {
		return wire.InvalidParam("space_amount must be -1 (unlimited) or a number of bytes")
	}
	if f.TrackingCodes != nil {
		for _, c := range *f.TrackingCodes {
			if c.Type != "" && c.Type != "tracking_code" || c.Name == "" || utf8.RuneCountInString(c.Value) > maxTrackingValLen {
				return wire.InvalidParam("tracking_codes entries are {type: tracking_code, name, value}")
			}
		}
	}
	if f.Timezone != nil {
		if _, err := time.LoadLocation(*f.Timezone); err != nil || *f.Timezone == "" || *f.Timezone == "Local" {
			return wire.InvalidParam("timezone must be a time zone name such as Europe/Paris")
		}
	}
	if f.Status != nil && !slices.Contains(userStatuses, *f.Status) {
		return wire.InvalidParam("status must be one of %s", strings.Join(userStatuses, ", "))
	}
	if f.ExternalAppUserID != nil && *f.ExternalAppUserID == "" {
		return wire.InvalidParam("external_app_user_id must not be empty")
	}
	return nil
}

// Apply writes the fields into u (already checked).
func (f *userFields) Apply(u *User) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	setB := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&u.Name, f.Name)
	set(&u.Login, f.Login)
	set(&u.Role, f.Role)
	set(&u.Language, f.Language)
	set(&u.JobTitle, f.JobTitle)
	set(&u.Phone, f.Phone)
	set(&u.Address, f.Address)
	set(&u.Timezone, f.Timezone)
	set(&u.Status, f.Status)
	set(&u.ExternalAppUserID, f.ExternalAppUserID)
	setB(&u.IsSyncEnabled, f.IsSyncEnabled)
	setB(&u.CanSeeManagedUsers, f.CanSeeManagedUsers)
	setB(&u.IsExternalCollabRestricted, f.IsExternalCollabRestricted)
	setB(&u.IsExemptFromDeviceLimits, f.IsExemptFromDeviceLimits)
	setB(&u.IsExemptFromLoginVerification, f.IsExemptFromLoginVerification)
	if f.SpaceAmount != nil {
		u.SpaceAmount = *f.SpaceAmount
	}
	if f.TrackingCodes != nil {
		u.TrackingCodes = make([]TrackingCode, len(*f.TrackingCodes))
		for i, c := range *f.TrackingCodes {
			c.Type = "tracking_code"
			u.TrackingCodes[i] = c
		}
	}
}
