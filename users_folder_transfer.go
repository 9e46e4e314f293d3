package cms

import (
	"context"
	"net/http"
	"slices"

	"github.com/contentapi/cms/internal/transport"
)

// TransferOwnedFolderRequest is the body of UsersService.TransferOwnedFolder.
type TransferOwnedFolderRequest struct {
	// OwnedBy is the user who receives the items (required).
	OwnedBy UserRef `json:"owned_by"`
}

// TransferOwnedFolderOptions are the options of
// UsersService.TransferOwnedFolder.
type TransferOwnedFolderOptions struct {
	// Fields selects the fields of the folder returned (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Notify says whether the users get an e-mail (query notify); nil
	// leaves it to the service.
	Notify *bool `url:"notify,omitempty"`
}

// TransferOwnedFolder moves everything a user owns into another user's
// account (PUT /users/{user_id}/folders/0), the offboarding step before
// the user is deleted: only the root folder "0" can be transferred, and
// only by an admin. The receiving user gets a new folder named
// "<name>'s Files and Folders" (name being the source user's), owned by
// the receiver, holding the source user's items with their shared links
// and folder collaborations; the call returns that folder. The service may
// finish a large transfer in the background after answering.
//
// Of the retry policy's statuses only 429 (the request was not processed)
// is retried: after a 5xx the service may have moved items, and repeating
// the transfer would spread them over two folders.
func (s *UsersService) TransferOwnedFolder(ctx context.Context, userID string, body *TransferOwnedFolderRequest, opts *TransferOwnedFolderOptions) (*Folder, *Response, error) {
	if err := checkID("user", userID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("owned_by user", body.OwnedBy.ID); err != nil {
		return nil, nil, err
	}
	if body.OwnedBy.ID == userID {
		return nil, nil, invalidArg("owned_by user id", "the user's own id: a transfer goes to another user")
	}
	if opts == nil {
		opts = &TransferOwnedFolderOptions{}
	}
	if err := checkCtx(ctx); err != nil {
		return nil, nil, err
	}
	policy := transport.Policy(s.client.cfg.retry)
	if p, ok := transport.PolicyFrom(ctx); ok {
		policy = p
	}
	policy = policy.WithDefaults()
	policy.RetryStatuses = slices.DeleteFunc(policy.RetryStatuses, func(code int) bool { return code != http.StatusTooManyRequests })
	return callAPI[Folder](transport.WithPolicy(ctx, policy), s.client, http.MethodPut, body, opts, "users", userID, "folders", "0")
}
