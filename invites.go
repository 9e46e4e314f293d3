package cms

import (
	"context"
	"net/http"
	"strings"
	"time"
)

// InvitesService invites users of another enterprise, or of none, to join
// the caller's enterprise (/invites). The invited user must already have
// an account; they accept in the web app. It needs an admin with the
// "Manage an enterprise" scope.
type InvitesService service

// Invite is an invitation to join an enterprise (Invite).
type Invite struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
	// InvitedTo is the enterprise the user is invited to.
	InvitedTo *Enterprise `json:"invited_to,omitzero"`
	// ActionableBy is the invited user; InvitedBy the admin who invited.
	ActionableBy *UserMini `json:"actionable_by,omitzero"`
	InvitedBy    *UserMini `json:"invited_by,omitzero"`
	// Status is the invitation's state, for example "pending".
	Status     string    `json:"status,omitzero"`
	CreatedAt  time.Time `json:"created_at,omitzero"`
	ModifiedAt time.Time `json:"modified_at,omitzero"`
}

// EnterpriseRef names an enterprise by id in a request body.
type EnterpriseRef struct {
	ID string `json:"id"`
}

// InviteeRef names the user to invite by login.
type InviteeRef struct {
	Login string `json:"login"`
}

// CreateInviteRequest is the body of InvitesService.Create.
type CreateInviteRequest struct {
	// Enterprise is the enterprise to join (the caller's).
	Enterprise EnterpriseRef `json:"enterprise"`
	// ActionableBy is the user to invite, by login.
	ActionableBy InviteeRef `json:"actionable_by"`
}

// Create invites a user to the enterprise (POST /invites); the user gets
// an e-mail. A POST is not retried blindly.
func (s *InvitesService) Create(ctx context.Context, body *CreateInviteRequest, opts *FieldsOptions) (*Invite, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("enterprise", body.Enterprise.ID); err != nil {
		return nil, nil, err
	}
	login := body.ActionableBy.Login
	if local, domain, ok := strings.Cut(login, "@"); !ok || local == "" || domain == "" || strings.ContainsAny(login, " \t\r\n") {
		return nil, nil, invalidArg("actionable_by login", quoteArg(login)+" is not an e-mail address")
	}
	return callAPI[Invite](ctx, s.client, http.MethodPost, body, opts, "invites")
}

// Get fetches an invitation (GET /invites/{invite_id}).
func (s *InvitesService) Get(ctx context.Context, inviteID string, opts *FieldsOptions) (*Invite, *Response, error) {
	if err := checkID("invite", inviteID); err != nil {
		return nil, nil, err
	}
	return getAPI[Invite](ctx, s.client, opts, "invites", inviteID)
}
