package cms

import (
	"context"
	"net/http"
	"strings"
)

// EmailAliasesService manages the other e-mail addresses of a user
// (/users/{user_id}/email_aliases): a user can sign in with any of them.
// An alias's domain must be one the enterprise has verified.
type EmailAliasesService service

// EmailAlias is an e-mail address of a user besides the login (EmailAlias).
type EmailAlias struct {
	ID    string `json:"id"`
	Type  string `json:"type,omitzero"`
	Email string `json:"email,omitzero"`
	// IsConfirmed says whether the user confirmed the address.
	IsConfirmed bool `json:"is_confirmed"`
}

// CreateEmailAliasRequest is the body of EmailAliasesService.Create.
type CreateEmailAliasRequest struct {
	// Email is the address to add (required).
	Email string `json:"email"`
}

// List returns the e-mail aliases of a user, unpaged
// (GET /users/{user_id}/email_aliases).
func (s *EmailAliasesService) List(ctx context.Context, userID string) (*Collection[*EmailAlias], *Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, nil, err
	}
	return getAPI[Collection[*EmailAlias]](ctx, s.client, nil, "users", userID, "email_aliases")
}

// Create adds an e-mail alias to a user (POST /users/{user_id}/email_aliases;
// the service answers 201). An address already in use fails with an
// *APIError matching ErrConflict. A POST is not retried blindly.
func (s *EmailAliasesService) Create(ctx context.Context, userID string, body *CreateEmailAliasRequest) (*EmailAlias, *Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	local, domain, ok := strings.Cut(body.Email, "@")
	if !ok || local == "" || domain == "" || strings.ContainsAny(body.Email, " \t\r\n") {
		return nil, nil, invalidArg("email", quoteArg(body.Email)+" is not an e-mail address")
	}
	return callAPI[EmailAlias](ctx, s.client, http.MethodPost, body, nil, "users", userID, "email_aliases")
}

// Delete removes an e-mail alias of a user
// (DELETE /users/{user_id}/email_aliases/{email_alias_id}).
func (s *EmailAliasesService) Delete(ctx context.Context, userID, aliasID string) (*Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, err
	}
	if err := checkID("email alias", aliasID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "users", userID, "email_aliases", aliasID)
}
