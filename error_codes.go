package cms

// The service's error codes have one mechanism: a sentinel per code,
// matched by an *APIError whose Code is that code, with errors.Is
// (errors.Is(err, ErrUserLoginAlreadyUsed)). The status sentinels
// (ErrConflict, ...) keep matching the same error by its HTTP status, and
// errors.As still gives the *APIError with every detail.

// codeError is a sentinel for one error code of the service.
type codeError struct{ code string }

// Error is "cms: " and the code.
func (e *codeError) Error() string { return "cms: " + e.code }

// Code returns the service's error code the sentinel stands for.
func (e *codeError) Code() string { return e.code }

// Codes shared by many endpoints.
var (
	// ErrInvalidParameter: 400 invalid_parameter, a value out of range
	// (also 409 for a group name in use, POST /groups, PUT /groups/{id}).
	ErrInvalidParameter = &codeError{"invalid_parameter"}
	// ErrAccessDeniedInsufficientPermissions: 403
	// access_denied_insufficient_permissions, the caller may not do this
	// (not an admin, or a permanent delete of retained or held content).
	ErrAccessDeniedInsufficientPermissions = &codeError{"access_denied_insufficient_permissions"}
	// ErrInsufficientScope: 403 insufficient_scope, the token's scopes do
	// not cover the call (an app token, a downscoped token).
	ErrInsufficientScope = &codeError{"insufficient_scope"}
	// ErrDeniedByPolicy: 403 denied_by_policy, an information barrier
	// refuses a user update (PUT /users/{id}).
	ErrDeniedByPolicy = &codeError{"denied_by_policy"}
	// ErrForbiddenByPolicy: 403 forbidden_by_policy, an information barrier
	// refuses a group membership.
	ErrForbiddenByPolicy = &codeError{"forbidden_by_policy"}
	// ErrItemNameInUse: 409 item_name_in_use, a file, folder or web link of
	// that name is in the folder (create, move, restore); see
	// APIError.Conflicts.
	ErrItemNameInUse = &codeError{"item_name_in_use"}
	// ErrParentFolderUnavailable: 409 parent_folder_unavailable, a restore
	// whose folder is gone, with no other parent given.
	ErrParentFolderUnavailable = &codeError{"parent_folder_unavailable"}
)

// Codes of the users endpoints (/users).
var (
	// ErrUserLoginAlreadyUsed: 409 user_login_already_used, another user
	// has the login (POST /users, PUT /users/{id}).
	ErrUserLoginAlreadyUsed = &codeError{"user_login_already_used"}
	// ErrUserHasContent: 409 user_has_content, a delete of a user who still
	// owns items without DeleteUserOptions.Force (DELETE /users/{id}). The
	// service documents no code; the reference server chose this one.
	ErrUserHasContent = &codeError{"user_has_content"}
)

// Codes of the tasks endpoints (/tasks, /task_assignments).
var (
	// ErrTaskAssigneeNotAllowed: 400 task_assignee_not_allowed, a user who
	// cannot be assigned the task (unknown, or without access to the file).
	ErrTaskAssigneeNotAllowed = &codeError{"task_assignee_not_allowed"}
	// ErrTaskCompleted: 403 task_completed, a new assignment on a completed
	// task. The service documents the 403 without a code; the reference
	// server chose this one.
	ErrTaskCompleted = &codeError{"task_completed"}
)

// Codes of the metadata endpoints (/metadata_templates, /files/{id}/metadata,
// /metadata_queries).
var (
	// ErrTupleAlreadyExists: 409 tuple_already_exists, the item already has
	// an instance of the template (update it instead, or use Upsert).
	ErrTupleAlreadyExists = &codeError{"tuple_already_exists"}
	// ErrInstanceNotFound: 404 instance_not_found, the item has no instance
	// of the template (or a metadata query names an unknown template).
	ErrInstanceNotFound = &codeError{"instance_not_found"}
	// ErrInstanceTupleNotFound: 404 instance_tuple_not_found, the template
	// does not exist in that scope.
	ErrInstanceTupleNotFound = &codeError{"instance_tuple_not_found"}
	// ErrSchemaValidationFailed: 400 schema_validation_failed, a value does
	// not fit its template field (type, option key, unknown key).
	ErrSchemaValidationFailed = &codeError{"schema_validation_failed"}
	// ErrFailedJSONPatch: 409 failed_json_patch_application, a JSON-Patch
	// test failed (or an operation could not apply); nothing was changed.
	ErrFailedJSONPatch = &codeError{"failed_json_patch_application"}
	// ErrInvalidQuery: 400 invalid_query, a metadata query the service
	// cannot parse or run.
	ErrInvalidQuery = &codeError{"invalid_query"}
	// ErrUnexpectedJSONType: 400 unexpected_json_type, a metadata query
	// parameter missing from query_params or of the wrong type.
	ErrUnexpectedJSONType = &codeError{"unexpected_json_type"}
)
