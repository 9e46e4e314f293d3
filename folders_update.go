package cms

import (
	"context"
	"net/http"
)

// FolderSyncState is a folder's sync_state.
type FolderSyncState string

// Folder sync states.
const (
	FolderSyncStateSynced          FolderSyncState = "synced"
	FolderSyncStateNotSynced       FolderSyncState = "not_synced"
	FolderSyncStatePartiallySynced FolderSyncState = "partially_synced"
)

// UpdateFolderRequest is the body of FoldersService.Update
// (PUT /folders/{folder_id}). Zero fields are left out and keep their
// value; pointer fields send false or "" when set to them; Nullable fields
// send an explicit null with cms.Null.
type UpdateFolderRequest struct {
	// Name renames the folder (1 to 255 characters; no "/", "\", trailing
	// spaces, "." or ".."). A name taken in the parent fails with an
	// *APIError matching ErrItemNameInUse.
	Name string `json:"name,omitzero"`
	// Description changes the description (at most 256 characters);
	// cms.Ptr("") clears it (the service takes no null).
	Description *string `json:"description,omitempty"`
	// Parent moves the folder (or restores it from the trash into that
	// folder). Into itself or its own subtree is an *APIError matching
	// ErrCyclicalFolderStructure.
	Parent *FolderRef `json:"parent,omitzero"`
	// SyncState is synced, not_synced or partially_synced.
	SyncState FolderSyncState `json:"sync_state,omitzero"`
	// CanNonOwnersInvite lets collaborators other than the owner invite.
	CanNonOwnersInvite *bool `json:"can_non_owners_invite,omitempty"`
	// CanNonOwnersViewCollaborators lets collaborators other than the owner
	// see the other collaborations; false needs CanNonOwnersInvite false.
	CanNonOwnersViewCollaborators *bool `json:"can_non_owners_view_collaborators,omitempty"`
	// IsCollaborationRestrictedToEnterprise keeps new invitations inside
	// the enterprise.
	IsCollaborationRestrictedToEnterprise *bool `json:"is_collaboration_restricted_to_enterprise,omitempty"`
	// SharedLink creates or changes the shared link (Set) or removes it
	// (Null); a folder link cannot be editable.
	SharedLink Nullable[SharedLinkRequest] `json:"shared_link,omitzero"`
	// FolderUploadEmail turns upload by e-mail on (Set) or off (Null).
	FolderUploadEmail Nullable[FolderUploadEmailAccess] `json:"folder_upload_email,omitzero"`
	// Tags replaces the folder's tags (1 to 100 of them); nil leaves them.
	Tags []string `json:"tags,omitempty"`
}

// Update changes a folder (PUT /folders/{folder_id}): rename, move
// (Parent), description, tags, shared link, upload e-mail and the
// collaboration settings. The errors of a move: ErrItemNameInUse (409),
// ErrCyclicalFolderStructure (400, into its own subtree),
// ErrCannotMakeCollaboratedSubfolderPrivate (400); a stale opts.IfMatch
// is ErrPreconditionFailed (412). The root folder "0" cannot be moved or
// renamed.
func (s *FoldersService) Update(ctx context.Context, folderID string, body *UpdateFolderRequest, opts *UpdateItemOptions) (*Folder, *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if folderID == "0" && (body.Name != "" || body.Parent != nil) {
		return nil, nil, invalidArg("folder id", `the root folder "0" cannot be renamed or moved`)
	}
	if body.Parent != nil && body.Parent.ID == folderID {
		return nil, nil, invalidArg("parent folder id", "a folder cannot be moved into itself")
	}
	if err := checkItemUpdate(body.Name, body.Description, body.Parent, body.Tags, body.SharedLink, true); err != nil {
		return nil, nil, err
	}
	if err := checkEnum("sync state", body.SyncState, FolderSyncStateSynced, FolderSyncStateNotSynced, FolderSyncStatePartiallySynced); err != nil {
		return nil, nil, err
	}
	if e, ok := body.FolderUploadEmail.Get(); ok {
		if err := checkEnum("folder upload email access", e.Access, UploadEmailAccessOpen, UploadEmailAccessCollaborators); err != nil {
			return nil, nil, err
		}
	}
	if opts == nil {
		opts = &UpdateItemOptions{}
	}
	return callAPI[Folder](ctx, s.client, http.MethodPut, body, opts, "folders", folderID)
}

// CopyFolderRequest is the body of FoldersService.Copy.
type CopyFolderRequest struct {
	// Parent is the folder to copy into (required).
	Parent FolderRef `json:"parent"`
	// Name names the copy (1 to 255 characters, the rules of a folder
	// name); empty keeps the folder's name.
	Name string `json:"name,omitzero"`
}

// Copy copies a folder with its whole subtree into another folder
// (POST /folders/{folder_id}/copy; the service answers 201 with the new
// folder). The root folder "0" cannot be copied (an *ArgError; the service
// answers 500). A name taken in the destination fails with an *APIError
// matching ErrItemNameInUse; a busy folder with
// ErrOperationBlockedTemporary.
func (s *FoldersService) Copy(ctx context.Context, folderID string, body *CopyFolderRequest, opts *FieldsOptions) (*Folder, *Response, error) {
	if err := checkID("folder", folderID); err != nil {
		return nil, nil, err
	}
	if folderID == "0" {
		return nil, nil, invalidArg("folder id", `the root folder "0" cannot be copied`)
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("parent folder", body.Parent.ID); err != nil {
		return nil, nil, err
	}
	if body.Name != "" {
		if err := checkItemName("name", body.Name); err != nil {
			return nil, nil, err
		}
	}
	return callAPI[Folder](ctx, s.client, http.MethodPost, body, opts, "folders", folderID, "copy")
}
