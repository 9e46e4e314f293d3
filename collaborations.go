package cms

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"slices"
	"time"
)

// CollaborationsService handles collaborations (/collaborations): the
// access a user or a group has to a file or a folder, with a role. A
// collaboration on a folder reaches its whole subtree. Lists: by file and
// by folder (marker paging), by group and the caller's pending invitations
// (offset paging).
type CollaborationsService service

// CollaborationRole is the access a collaboration gives.
type CollaborationRole string

// Collaboration roles (the service's support article on collaborator
// permission levels describes each).
const (
	// CollaborationRoleEditor may upload, download, preview, change and
	// delete, share and invite.
	CollaborationRoleEditor CollaborationRole = "editor"
	// CollaborationRoleViewer may preview and download, and share by link.
	CollaborationRoleViewer CollaborationRole = "viewer"
	// CollaborationRolePreviewer may preview only.
	CollaborationRolePreviewer CollaborationRole = "previewer"
	// CollaborationRoleUploader may upload and see names only.
	CollaborationRoleUploader CollaborationRole = "uploader"
	// CollaborationRolePreviewerUploader may preview and upload.
	CollaborationRolePreviewerUploader CollaborationRole = "previewer uploader"
	// CollaborationRoleViewerUploader may preview, download and upload.
	CollaborationRoleViewerUploader CollaborationRole = "viewer uploader"
	// CollaborationRoleCoOwner may do what the owner does, and manage
	// collaborators, except change the owner.
	CollaborationRoleCoOwner CollaborationRole = "co-owner"
	// CollaborationRoleOwner is the owner's role: set only through
	// CollaborationsService.Update, to transfer the ownership of a folder.
	CollaborationRoleOwner CollaborationRole = "owner"
)

// invitableRoles are the roles a new collaboration may have.
var invitableRoles = []CollaborationRole{
	CollaborationRoleEditor, CollaborationRoleViewer, CollaborationRolePreviewer, CollaborationRoleUploader,
	CollaborationRolePreviewerUploader, CollaborationRoleViewerUploader, CollaborationRoleCoOwner,
}

// CollaborationStatus is the state of a collaboration invitation.
type CollaborationStatus string

// Collaboration statuses.
const (
	CollaborationStatusAccepted CollaborationStatus = "accepted"
	CollaborationStatusPending  CollaborationStatus = "pending"
	CollaborationStatusRejected CollaborationStatus = "rejected"
)

// CollaboratorType tells a user collaborator from a group one
// (accessible_by.type).
type CollaboratorType string

// Collaborator types.
const (
	CollaboratorTypeUser  CollaboratorType = "user"
	CollaboratorTypeGroup CollaboratorType = "group"
)

// Collaborator is who a collaboration gives access to (accessible_by): a
// user (User--Collaborations) or a group (Group--Mini), told apart by Type.
// For a pending collaboration the service sends an empty Name and the
// invitee's Login.
type Collaborator struct {
	ID        string           `json:"id"`
	Type      CollaboratorType `json:"type,omitzero"`
	Name      string           `json:"name,omitzero"`
	Login     string           `json:"login,omitzero"`
	IsActive  bool             `json:"is_active,omitzero"`
	GroupType GroupType        `json:"group_type,omitzero"`
}

// AppItem is an app item a collaboration can give access to (app_item).
type AppItem struct {
	ID              string `json:"id"`
	Type            string `json:"type,omitzero"`
	ApplicationType string `json:"application_type,omitzero"`
}

// CollaborationAcceptanceRequirements is what the invitee must do before
// the collaboration is active (acceptance_requirements_status).
type CollaborationAcceptanceRequirements struct {
	TermsOfServiceRequirement          *TermsOfServiceRequirement          `json:"terms_of_service_requirement,omitzero"`
	StrongPasswordRequirement          *StrongPasswordRequirement          `json:"strong_password_requirement,omitzero"`
	TwoFactorAuthenticationRequirement *TwoFactorAuthenticationRequirement `json:"two_factor_authentication_requirement,omitzero"`
}

// TermsOfServiceRequirement says whether the invitee accepted the terms of
// service a collaboration requires (terms_of_service_requirement).
type TermsOfServiceRequirement struct {
	IsAccepted     bool                `json:"is_accepted"`
	TermsOfService *TermsOfServiceMini `json:"terms_of_service,omitzero"`
}

// TermsOfServiceMini names terms of service (terms_of_service).
type TermsOfServiceMini struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
}

// StrongPasswordRequirement says whether the invitee meets the
// enterprise's strong-password rule (strong_password_requirement).
type StrongPasswordRequirement struct {
	EnterpriseHasStrongPasswordRequiredForExternalUsers bool `json:"enterprise_has_strong_password_required_for_external_users"`
	UserHasStrongPassword                               bool `json:"user_has_strong_password"`
}

// TwoFactorAuthenticationRequirement says whether the invitee meets the
// enterprise's two-factor rule (two_factor_authentication_requirement).
type TwoFactorAuthenticationRequirement struct {
	EnterpriseHasTwoFactorAuthEnabled     bool `json:"enterprise_has_two_factor_auth_enabled"`
	UserHasTwoFactorAuthenticationEnabled bool `json:"user_has_two_factor_authentication_enabled"`
}

// Collaboration is a collaboration (Collaboration): a user or group given a
// role on an item.
type Collaboration struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
	// Item is the file or folder (Item.File or Item.Folder); nil when the
	// collaboration is on an app item.
	Item         *Item         `json:"item,omitzero"`
	AppItem      *AppItem      `json:"app_item,omitzero"`
	AccessibleBy *Collaborator `json:"accessible_by,omitzero"`
	// InviteEmail is the address of an invitee who has no account yet.
	InviteEmail string            `json:"invite_email,omitzero"`
	Role        CollaborationRole `json:"role,omitzero"`
	// ExpiresAt is when the collaboration is removed; zero for never.
	ExpiresAt    time.Time           `json:"expires_at,omitzero"`
	IsAccessOnly bool                `json:"is_access_only,omitzero"`
	Status       CollaborationStatus `json:"status,omitzero"`
	// AcknowledgedAt is when the invitee accepted or rejected it.
	AcknowledgedAt               time.Time                            `json:"acknowledged_at,omitzero"`
	CreatedBy                    *UserMini                            `json:"created_by,omitzero"`
	CreatedAt                    time.Time                            `json:"created_at,omitzero"`
	ModifiedAt                   time.Time                            `json:"modified_at,omitzero"`
	AcceptanceRequirementsStatus *CollaborationAcceptanceRequirements `json:"acceptance_requirements_status,omitzero"`
}

// CreateCollaborationRequest is the body of CollaborationsService.Create.
// Set Item, Role, and exactly one of User, Login and Group.
type CreateCollaborationRequest struct {
	// Item is the file or folder to share (ItemTypeFile or ItemTypeFolder);
	// the root folder "0" cannot be shared.
	Item ItemRef
	// User is a user by id.
	User *UserRef
	// Login is a user by e-mail address; someone without an account is
	// invited to make one.
	Login string
	// Group is a group by id.
	Group *GroupRef
	// Role is the access given: any role but owner.
	Role CollaborationRole
	// IsAccessOnly gives access without the item showing in the user's
	// All Files list, nor its path.
	IsAccessOnly bool
	// CanViewPath lets the invitee see the path to a folder (folders only;
	// only owners and co-owners may set it).
	CanViewPath bool
	// ExpiresAt is when the collaboration is removed; zero for never (the
	// enterprise must allow expiring collaborations).
	ExpiresAt time.Time
}

// accessibleBy is the wire form of the collaborator: {type, id | login}.
type accessibleBy struct {
	Type  CollaboratorType `json:"type"`
	ID    string           `json:"id,omitzero"`
	Login string           `json:"login,omitzero"`
}

// MarshalJSON writes the wire body: item, accessible_by {type, id | login},
// role and the optional members.
func (r CreateCollaborationRequest) MarshalJSON() ([]byte, error) {
	by := accessibleBy{Type: CollaboratorTypeUser, Login: r.Login}
	switch {
	case r.User != nil:
		by.ID = r.User.ID
	case r.Group != nil:
		by = accessibleBy{Type: CollaboratorTypeGroup, ID: r.Group.ID}
	}
	return json.Marshal(struct {
		Item         ItemRef           `json:"item"`
		AccessibleBy accessibleBy      `json:"accessible_by"`
		Role         CollaborationRole `json:"role"`
		IsAccessOnly bool              `json:"is_access_only,omitzero"`
		CanViewPath  bool              `json:"can_view_path,omitzero"`
		ExpiresAt    time.Time         `json:"expires_at,omitzero"`
	}{r.Item, by, r.Role, r.IsAccessOnly, r.CanViewPath, r.ExpiresAt})
}

// check applies the rules the SDK can see: a file or folder other than the
// root, one collaborator, a role a new collaboration may have, can_view_path
// on folders only.
func (r *CreateCollaborationRequest) check() error {
	if err := r.Item.check("item", ItemTypeFile, ItemTypeFolder); err != nil {
		return err
	}
	if r.Item.Type == ItemTypeFolder && r.Item.ID == "0" {
		return invalidArg("item id", `the root folder "0" cannot be collaborated on`)
	}
	set := 0
	for _, on := range []bool{r.User != nil, r.Login != "", r.Group != nil} {
		if on {
			set++
		}
	}
	if set != 1 {
		return invalidArg("accessible_by", "set exactly one of User, Login and Group")
	}
	switch {
	case r.User != nil:
		if err := checkID("user", r.User.ID); err != nil {
			return err
		}
	case r.Group != nil:
		if err := checkID("group", r.Group.ID); err != nil {
			return err
		}
	default:
		if err := checkLogin(r.Login); err != nil {
			return err
		}
	}
	if r.Role == "" {
		return invalidArg("role", "empty")
	}
	if r.Role == CollaborationRoleOwner {
		return invalidArg("role", "a new collaboration cannot be owner: transfer ownership with Update")
	}
	if err := checkEnum("role", r.Role, invitableRoles...); err != nil {
		return err
	}
	if r.CanViewPath && r.Item.Type != ItemTypeFolder {
		return invalidArg("can_view_path", "folders only")
	}
	return nil
}

// checkLogin rejects a login that cannot be an e-mail address (no "@", or
// a line break).
func checkLogin(login string) error {
	at := -1
	for i, r := range login {
		if r == '@' {
			at = i
		}
		if r < 0x20 || r == 0x7f || r == ' ' {
			return invalidArg("login", "contains a space or a control character")
		}
	}
	if at <= 0 || at == len(login)-1 {
		return invalidArg("login", "not an e-mail address")
	}
	return nil
}

// CreateCollaborationOptions are the options of CollaborationsService.Create.
type CreateCollaborationOptions struct {
	// Fields selects the fields returned (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Notify says whether the invitee gets an e-mail (query notify); nil
	// leaves it to the service.
	Notify *bool `url:"notify,omitempty"`
}

// Create shares a file or folder with a user (by id or login) or a group
// (POST /collaborations; the service answers 201). A user of the same
// enterprise gets an accepted collaboration at once, others a pending one.
// A user who already has access fails with an *APIError matching
// ErrUserAlreadyCollaborator. A POST is not retried blindly.
func (s *CollaborationsService) Create(ctx context.Context, body *CreateCollaborationRequest, opts *CreateCollaborationOptions) (*Collaboration, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := body.check(); err != nil {
		return nil, nil, err
	}
	return callAPI[Collaboration](ctx, s.client, http.MethodPost, body, opts, "collaborations")
}

// Get fetches a collaboration (GET /collaborations/{collaboration_id}).
func (s *CollaborationsService) Get(ctx context.Context, collaborationID string, opts *FieldsOptions) (*Collaboration, *Response, error) {
	if err := checkID("collaboration", collaborationID); err != nil {
		return nil, nil, err
	}
	return getAPI[Collaboration](ctx, s.client, opts, "collaborations", collaborationID)
}

// UpdateCollaborationRequest is the body of CollaborationsService.Update.
// Zero fields are left out and keep their value.
type UpdateCollaborationRequest struct {
	// Role changes the role; CollaborationRoleOwner transfers the item's
	// ownership to the collaborator (the old owner becomes co-owner).
	Role CollaborationRole `json:"role,omitzero"`
	// Status accepts (CollaborationStatusAccepted) or rejects
	// (CollaborationStatusRejected) a pending invitation: the invitee only.
	Status CollaborationStatus `json:"status,omitzero"`
	// ExpiresAt sets when the collaboration is removed (Set), or makes it
	// last (Null).
	ExpiresAt Nullable[time.Time] `json:"expires_at,omitzero"`
	// CanViewPath changes whether the invitee sees the path to the folder
	// (the owner only); false is a change.
	CanViewPath *bool `json:"can_view_path,omitempty"`
}

// Update changes a collaboration (PUT /collaborations/{collaboration_id}):
// its role, expiry and can_view_path, or, for the invitee, accepts or
// rejects it. When Role is owner the service replaces the collaboration
// (the old owner becomes co-owner on a new one) and answers 204: Update
// then returns a nil *Collaboration with the Response. A status change of
// a collaboration that is not pending fails with an *APIError matching
// ErrInvalidStatus.
func (s *CollaborationsService) Update(ctx context.Context, collaborationID string, body *UpdateCollaborationRequest, opts *FieldsOptions) (*Collaboration, *Response, error) {
	if err := checkID("collaboration", collaborationID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkEnum("role", body.Role, slices.Concat(invitableRoles, []CollaborationRole{CollaborationRoleOwner})...); err != nil {
		return nil, nil, err
	}
	if err := checkEnum("status", body.Status, CollaborationStatusAccepted, CollaborationStatusRejected, CollaborationStatusPending); err != nil {
		return nil, nil, err
	}
	c, resp, err := callAPI[Collaboration](ctx, s.client, http.MethodPut, body, opts, "collaborations", collaborationID)
	if err == nil && resp.StatusCode == http.StatusNoContent {
		return nil, resp, nil
	}
	return c, resp, err
}

// Accept accepts a pending invitation (PUT /collaborations/{collaboration_id}
// with {"status": "accepted"}): the invitee only.
func (s *CollaborationsService) Accept(ctx context.Context, collaborationID string) (*Collaboration, *Response, error) {
	return s.Update(ctx, collaborationID, &UpdateCollaborationRequest{Status: CollaborationStatusAccepted}, nil)
}

// Reject rejects a pending invitation (PUT /collaborations/{collaboration_id}
// with {"status": "rejected"}): the invitee only.
func (s *CollaborationsService) Reject(ctx context.Context, collaborationID string) (*Collaboration, *Response, error) {
	return s.Update(ctx, collaborationID, &UpdateCollaborationRequest{Status: CollaborationStatusRejected}, nil)
}

// Delete removes a collaboration, and with it the access it gave
// (DELETE /collaborations/{collaboration_id}).
func (s *CollaborationsService) Delete(ctx context.Context, collaborationID string) (*Response, error) {
	if err := checkID("collaboration", collaborationID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "collaborations", collaborationID)
}

// ListItemCollaborationsOptions are the options of the marker-paged
// CollaborationsService.ListByFile and ListByFolder.
type ListItemCollaborationsOptions struct {
	// Fields selects the fields of each collaboration (query fields).
	Fields []string `url:"fields,comma,omitempty"`
	// Marker is the position to start at: a NextMarker of an earlier page
	// (query marker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
}

// itemCollaborationsPage fetches one marker page of the collaborations of
// the file or folder kind/id.
func (s *CollaborationsService) itemCollaborationsPage(ctx context.Context, kind, id string, opts *ListItemCollaborationsOptions) (*MarkerPage[*Collaboration], *Response, error) {
	if err := checkID(kind[:len(kind)-1], id); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListItemCollaborationsOptions{}
	}
	return getMarkerPage[*Collaboration](ctx, s.client, opts.Limit, opts, kind, id, "collaborations")
}

// itemCollaborationsPages pages a file's or folder's collaborations with a
// private copy of opts.
func (s *CollaborationsService) itemCollaborationsPages(kind, id string, opts *ListItemCollaborationsOptions) (string, markerPageFunc[*Collaboration]) {
	return pageFuncs(opts, func(o *ListItemCollaborationsOptions) *string { return &o.Marker },
		func(ctx context.Context, o *ListItemCollaborationsOptions) (*MarkerPage[*Collaboration], *Response, error) {
			return s.itemCollaborationsPage(ctx, kind, id, o)
		})
}

// ListByFile returns one marker page of a file's collaborations, pending
// ones included (GET /files/{file_id}/collaborations).
// Response.NextMarker fetches the next page.
func (s *CollaborationsService) ListByFile(ctx context.Context, fileID string, opts *ListItemCollaborationsOptions) (*MarkerPage[*Collaboration], *Response, error) {
	return s.itemCollaborationsPage(ctx, "files", fileID, opts)
}

// ListByFileIter yields every collaboration of a file, fetching marker pages
// (GET /files/{file_id}/collaborations) lazily. It never changes opts.
func (s *CollaborationsService) ListByFileIter(ctx context.Context, fileID string, opts *ListItemCollaborationsOptions) iter.Seq2[*Collaboration, error] {
	start, fetch := s.itemCollaborationsPages("files", fileID, opts)
	return markerSeq(ctx, start, fetch)
}

// NewListByFilePaginator walks a file's collaborations one marker page at a
// time (GET /files/{file_id}/collaborations). It never changes opts.
func (s *CollaborationsService) NewListByFilePaginator(fileID string, opts *ListItemCollaborationsOptions) *MarkerPaginator[*Collaboration] {
	return newMarkerPaginator(s.itemCollaborationsPages("files", fileID, opts))
}

// ListByFolder returns one marker page of a folder's collaborations,
// pending ones included (GET /folders/{folder_id}/collaborations).
// Collaborations on the folders above it are not listed.
func (s *CollaborationsService) ListByFolder(ctx context.Context, folderID string, opts *ListItemCollaborationsOptions) (*MarkerPage[*Collaboration], *Response, error) {
	return s.itemCollaborationsPage(ctx, "folders", folderID, opts)
}

// ListByFolderIter yields every collaboration of a folder, fetching marker
// pages (GET /folders/{folder_id}/collaborations) lazily. It never changes
// opts.
func (s *CollaborationsService) ListByFolderIter(ctx context.Context, folderID string, opts *ListItemCollaborationsOptions) iter.Seq2[*Collaboration, error] {
	start, fetch := s.itemCollaborationsPages("folders", folderID, opts)
	return markerSeq(ctx, start, fetch)
}

// NewListByFolderPaginator walks a folder's collaborations one marker page
// at a time (GET /folders/{folder_id}/collaborations). It never changes
// opts.
func (s *CollaborationsService) NewListByFolderPaginator(folderID string, opts *ListItemCollaborationsOptions) *MarkerPaginator[*Collaboration] {
	return newMarkerPaginator(s.itemCollaborationsPages("folders", folderID, opts))
}

// ListCollaborationsOptions are the options of the offset-paged
// CollaborationsService.ListByGroup and ListPending.
type ListCollaborationsOptions struct {
	// Fields selects the fields of each collaboration (query fields; the
	// group list takes none).
	Fields []string `url:"fields,comma,omitempty"`
	// Offset (at most 10000) and Limit (at most 1000) page the list.
	Offset int `url:"offset,omitempty"`
	Limit  int `url:"limit,omitempty"`
}

// ListByGroup returns one offset page of a group's collaborations
// (GET /groups/{group_id}/collaborations): for admins.
func (s *CollaborationsService) ListByGroup(ctx context.Context, groupID string, opts *ListCollaborationsOptions) (*OffsetPage[*Collaboration], *Response, error) {
	if err := checkID("group", groupID); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &ListCollaborationsOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, opts.Limit); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*Collaboration]](ctx, s.client, opts, "groups", groupID, "collaborations")
}

// listByGroupPages pages ListByGroup with a private copy of opts.
func (s *CollaborationsService) listByGroupPages(groupID string, opts *ListCollaborationsOptions) (int, offsetPageFunc[*Collaboration]) {
	return pageFuncs(opts, func(o *ListCollaborationsOptions) *int { return &o.Offset },
		func(ctx context.Context, o *ListCollaborationsOptions) (*OffsetPage[*Collaboration], *Response, error) {
			return s.ListByGroup(ctx, groupID, o)
		})
}

// ListByGroupIter yields every collaboration of a group, fetching offset
// pages (GET /groups/{group_id}/collaborations) lazily. It never changes
// opts.
func (s *CollaborationsService) ListByGroupIter(ctx context.Context, groupID string, opts *ListCollaborationsOptions) iter.Seq2[*Collaboration, error] {
	start, fetch := s.listByGroupPages(groupID, opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListByGroupPaginator walks a group's collaborations one offset page at
// a time (GET /groups/{group_id}/collaborations). It never changes opts.
func (s *CollaborationsService) NewListByGroupPaginator(groupID string, opts *ListCollaborationsOptions) *OffsetPaginator[*Collaboration] {
	return newOffsetPaginator(s.listByGroupPages(groupID, opts))
}

// pendingQuery adds status=pending to the options.
type pendingQuery struct {
	*ListCollaborationsOptions
	Status CollaborationStatus `url:"status"`
}

// ListPending returns one offset page of the caller's pending invitations
// (GET /collaborations?status=pending); accept or reject them with Accept
// and Reject.
func (s *CollaborationsService) ListPending(ctx context.Context, opts *ListCollaborationsOptions) (*OffsetPage[*Collaboration], *Response, error) {
	if opts == nil {
		opts = &ListCollaborationsOptions{}
	}
	if err := checkOffsetLimit(opts.Offset, opts.Limit); err != nil {
		return nil, nil, err
	}
	return getAPI[OffsetPage[*Collaboration]](ctx, s.client, pendingQuery{opts, CollaborationStatusPending}, "collaborations")
}

// listPendingPages pages ListPending with a private copy of opts.
func (s *CollaborationsService) listPendingPages(opts *ListCollaborationsOptions) (int, offsetPageFunc[*Collaboration]) {
	return pageFuncs(opts, func(o *ListCollaborationsOptions) *int { return &o.Offset }, s.ListPending)
}

// ListPendingIter yields every pending invitation of the caller, fetching
// offset pages (GET /collaborations?status=pending) lazily. It never
// changes opts.
func (s *CollaborationsService) ListPendingIter(ctx context.Context, opts *ListCollaborationsOptions) iter.Seq2[*Collaboration, error] {
	start, fetch := s.listPendingPages(opts)
	return offsetSeq(ctx, start, fetch)
}

// NewListPendingPaginator walks the caller's pending invitations one offset
// page at a time (GET /collaborations?status=pending). It never changes
// opts.
func (s *CollaborationsService) NewListPendingPaginator(opts *ListCollaborationsOptions) *OffsetPaginator[*Collaboration] {
	return newOffsetPaginator(s.listPendingPages(opts))
}
