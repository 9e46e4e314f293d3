package cms

// Codes of the everyday content endpoints: updates, moves and copies of
// files and folders (PUT /files/{id}, PUT /folders/{id}, POST .../copy),
// locks, collaborations (/collaborations), shared links (/shared_items) and
// comments (/comments). The codes come from the service's common errors
// guide; see docs/content.md for which call answers which.
var (
	// ErrItemNameInvalid: 400 item_name_invalid, a name the service does
	// not take ("/", "\", trailing spaces, "." or "..", non-printable
	// characters).
	ErrItemNameInvalid = &codeError{"item_name_invalid"}
	// ErrItemNameTooLong: 400 item_name_too_long, a name above 255
	// characters.
	ErrItemNameTooLong = &codeError{"item_name_too_long"}
	// ErrCyclicalFolderStructure: 400 cyclical_folder_structure, a folder
	// moved into itself or its own subtree (PUT /folders/{id} with parent).
	ErrCyclicalFolderStructure = &codeError{"cyclical_folder_structure"}
	// ErrCannotMakeCollaboratedSubfolderPrivate: 400
	// cannot_make_collaborated_subfolder_private, a collaborated subfolder
	// moved to a private folder without naming the new owner.
	ErrCannotMakeCollaboratedSubfolderPrivate = &codeError{"cannot_make_collaborated_subfolder_private"}
	// ErrOperationBlockedTemporary: 409 operation_blocked_temporary, the
	// source or destination folder is busy with another move, copy, delete
	// or restore; retry later.
	ErrOperationBlockedTemporary = &codeError{"operation_blocked_temporary"}
	// ErrAccessDeniedItemLocked: 403 access_denied_item_locked, a change
	// (new version, rename, move, delete) or a download the lock another
	// user holds on the file refuses.
	ErrAccessDeniedItemLocked = &codeError{"access_denied_item_locked"}
)

// Codes of the collaborations endpoints (/collaborations).
var (
	// ErrUserAlreadyCollaborator: 400 user_already_collaborator, the user or
	// group already has a collaboration on the item
	// (POST /collaborations).
	ErrUserAlreadyCollaborator = &codeError{"user_already_collaborator"}
	// ErrCollaborationsNotAvailableOnRootFolder: 400
	// collaborations_not_available_on_root_folder, a collaboration on the
	// root folder "0".
	ErrCollaborationsNotAvailableOnRootFolder = &codeError{"collaborations_not_available_on_root_folder"}
	// ErrInvalidCollaborationItem: 400 invalid_collaboration_item, an item
	// that cannot be collaborated on.
	ErrInvalidCollaborationItem = &codeError{"invalid_collaboration_item"}
	// ErrInvalidStatus: 400 invalid_status, a status change of a
	// collaboration that is not pending, or by someone other than the
	// invitee (PUT /collaborations/{id}).
	ErrInvalidStatus = &codeError{"invalid_status"}
)

// Codes of shared links (/shared_items and the boxapi header).
var (
	// ErrIncorrectSharedItemPassword: 403 incorrect_shared_item_password,
	// a shared link whose password is wrong or missing.
	ErrIncorrectSharedItemPassword = &codeError{"incorrect_shared_item_password"}
)

// Codes of the comments endpoints (/comments).
var (
	// ErrRecentSimilarComment: 409 recent_similar_comment, the same comment
	// was just made on the item (POST /comments).
	ErrRecentSimilarComment = &codeError{"recent_similar_comment"}
)
