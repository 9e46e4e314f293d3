package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/thumb"
)

// registerAPI is the route table of the API root: every path, the methods
// it takes, who may call each (endpoint's access flags: app, noAuth,
// fullToken, admin) and its handler, in one place. The upload and content
// hosts' routes are in routes.go (uploadMux, contentMux).
func (s *Server) registerAPI(mux *http.ServeMux) {
	// Folders and files (folders.go, files.go, download.go)
	mux.Handle(state.APIRoot+"/folders", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createFolder},
	}))
	mux.Handle(state.APIRoot+"/folders/{folder_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getFolder},
		http.MethodPut:    {h: s.updateFolder}, // items_update.go
		http.MethodDelete: {h: s.deleteFolder},
		http.MethodPost:   {h: s.restoreHandler("folder", "folder_id")}, // trash.go
	}))
	mux.Handle(state.APIRoot+"/folders/{folder_id}/copy", s.route(map[string]endpoint{
		http.MethodPost: {h: s.copyFolder}, // items_copy.go
	}))
	mux.Handle(state.APIRoot+"/files/{file_id}/copy", s.route(map[string]endpoint{
		http.MethodPost: {h: s.copyFile}, // items_copy.go
	}))
	mux.Handle(state.APIRoot+"/folders/{folder_id}/items", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFolderItems},
	}))
	mux.Handle(state.APIRoot+"/files/content", s.route(map[string]endpoint{
		http.MethodOptions: {h: s.preflightUpload},
	}))
	mux.Handle(state.APIRoot+"/files/{file_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getFile, app: true},
		http.MethodPut:    {h: s.updateFile}, // items_update.go
		http.MethodDelete: {h: s.deleteFile, app: true},
		http.MethodPost:   {h: s.restoreHandler("file", "file_id")}, // trash.go
	}))
	mux.Handle(state.APIRoot+"/files/{file_id}/versions", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFileVersions}, // file_versions.go
	}))
	mux.Handle(state.APIRoot+"/files/{file_id}/versions/current", s.route(map[string]endpoint{
		http.MethodPost: {h: s.promoteFileVersion},
	}))
	mux.Handle(state.APIRoot+"/files/{file_id}/versions/{file_version_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getFileVersion},
		http.MethodPut:    {h: s.restoreFileVersion},
		http.MethodDelete: {h: s.deleteFileVersion},
	}))
	for _, f := range []thumb.Format{thumb.PNG, thumb.JPG} { // thumbnails.go
		mux.Handle(state.APIRoot+"/files/{file_id}/thumbnail."+string(f), s.route(map[string]endpoint{
			http.MethodGet: {h: s.getThumbnail(f), app: true},
		}))
	}
	mux.Handle(state.APIRoot+"/internal_files/{file_id}/versions/{version_id}/representations/{rep}", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getRepresentationInfo, app: true},
	}))
	mux.Handle(state.APIRoot+"/internal_files/{file_id}/versions/{version_id}/representations/{rep}/content/{asset...}", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getRepresentationContent, app: true},
	}))
	mux.Handle(state.APIRoot+"/files/{file_id}/content", s.route(map[string]endpoint{
		http.MethodGet:     {h: s.downloadFile, app: true},
		http.MethodOptions: {h: s.preflightNewVersion}, // files.go
	}))
	// Collaborations (collaborations.go)
	mux.Handle(state.APIRoot+"/collaborations", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listPendingCollaborations},
		http.MethodPost: {h: s.createCollaboration},
	}))
	mux.Handle(state.APIRoot+"/collaborations/{collaboration_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getCollaboration},
		http.MethodPut:    {h: s.updateCollaboration},
		http.MethodDelete: {h: s.deleteCollaboration},
	}))
	for _, typ := range []string{"file", "folder"} {
		mux.Handle(state.APIRoot+"/"+typ+"s/{"+typ+"_id}/collaborations", s.route(map[string]endpoint{
			http.MethodGet: {h: s.listItemCollaborations(typ)},
		}))
	}
	mux.Handle(state.APIRoot+"/groups/{group_id}/collaborations", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listGroupCollaborations, fullToken: true},
	}))
	// Comments (comments.go)
	mux.Handle(state.APIRoot+"/comments", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createComment},
	}))
	mux.Handle(state.APIRoot+"/comments/{comment_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getComment},
		http.MethodPut:    {h: s.updateComment},
		http.MethodDelete: {h: s.deleteComment},
	}))
	mux.Handle(state.APIRoot+"/files/{file_id}/comments", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFileComments},
	}))
	// Shared items (sharedlink_access.go)
	mux.Handle(state.APIRoot+"/shared_items", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getSharedItem},
	}))
	// Search (search.go)
	mux.Handle(state.APIRoot+"/search", s.route(map[string]endpoint{
		http.MethodGet: {h: s.searchItems},
	}))
	// Events (events_api.go)
	mux.Handle(state.APIRoot+"/events", s.route(map[string]endpoint{
		http.MethodGet:     {h: s.getEvents},
		http.MethodOptions: {h: s.eventsOptions},
	}))
	mux.Handle(state.APIRoot+realtimePath, s.route(map[string]endpoint{
		http.MethodGet: {h: s.longPoll, noAuth: true},
	}))
	// Webhooks (webhooks.go)
	mux.Handle(state.APIRoot+"/webhooks", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listWebhooks},
		http.MethodPost: {h: s.createWebhook},
	}))
	mux.Handle(state.APIRoot+"/webhooks/{webhook_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getWebhook},
		http.MethodPut:    {h: s.updateWebhook},
		http.MethodDelete: {h: s.deleteWebhook},
	}))
	// OAuth (oauth.go)
	mux.Handle("/oauth2/token", onlyMethod(http.MethodPost, s.serveToken))
	mux.Handle("/oauth2/revoke", onlyMethod(http.MethodPost, s.serveRevoke))
	mux.Handle(AuthorizePath, onlyMethod(http.MethodGet, s.serveAuthorize))
	// WebLinks (weblinks.go)
	mux.Handle(state.APIRoot+"/web_links", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createWebLink},
	}))
	mux.Handle(state.APIRoot+"/web_links/{web_link_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getWebLink},
		http.MethodPut:    {h: s.updateWebLink},
		http.MethodDelete: {h: s.deleteWebLink},
		http.MethodPost:   {h: s.restoreHandler("web_link", "web_link_id")},
	}))
	// Tasks (tasks.go)
	mux.Handle(state.APIRoot+"/tasks", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createTask},
	}))
	mux.Handle(state.APIRoot+"/tasks/{task_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getTask},
		http.MethodPut:    {h: s.updateTask},
		http.MethodDelete: {h: s.deleteTask},
	}))
	mux.Handle(state.APIRoot+"/files/{file_id}/tasks", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFileTasks},
	}))
	mux.Handle(state.APIRoot+"/tasks/{task_id}/assignments", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listTaskAssignments},
	}))
	mux.Handle(state.APIRoot+"/task_assignments", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createTaskAssignment},
	}))
	mux.Handle(state.APIRoot+"/task_assignments/{task_assignment_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getTaskAssignment},
		http.MethodPut:    {h: s.updateTaskAssignment},
		http.MethodDelete: {h: s.deleteTaskAssignment},
	}))
	// Folder locks (folder_locks.go)
	mux.Handle(state.APIRoot+"/folder_locks", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listFolderLocks},
		http.MethodPost: {h: s.createFolderLock},
	}))
	mux.Handle(state.APIRoot+"/folder_locks/{folder_lock_id}", s.route(map[string]endpoint{
		http.MethodDelete: {h: s.deleteFolderLock},
	}))
	// Zip downloads (zip_downloads.go; the archive is on the content host, routes.go)
	mux.Handle(state.APIRoot+"/zip_downloads", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createZipDownload},
	}))
	mux.Handle(state.APIRoot+"/zip_downloads/{zip_download_id}/status", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getZipDownloadStatus},
	}))
	// Collections and recent items (collections.go, recent_items.go)
	mux.Handle(state.APIRoot+"/collections", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listCollections},
	}))
	mux.Handle(state.APIRoot+"/collections/{collection_id}", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getCollection},
	}))
	mux.Handle(state.APIRoot+"/collections/{collection_id}/items", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listCollectionItems},
	}))
	mux.Handle(state.APIRoot+"/recent_items", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listRecentItems},
	}))
	// Transfer of a user's owned folder (users_folder_transfer.go)
	mux.Handle(state.APIRoot+"/users/{user_id}/folders/{folder_id}", s.route(map[string]endpoint{
		http.MethodPut: {h: s.transferOwnedFolder, admin: true},
	}))
	// Watermarks (watermarks.go)
	for _, typ := range []string{"file", "folder"} {
		mux.Handle(state.APIRoot+"/"+typ+"s/{id}/watermark", s.route(map[string]endpoint{
			http.MethodGet:    {h: s.getWatermark(typ)},
			http.MethodPut:    {h: s.applyWatermark(typ)},
			http.MethodDelete: {h: s.removeWatermark(typ)},
		}))
	}
	// Trash (trash.go)
	mux.Handle(state.APIRoot+"/folders/trash/items", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listTrash},
	}))
	for _, typ := range []string{"file", "folder", "web_link"} {
		mux.Handle(state.APIRoot+"/"+typ+"s/{id}/trash", s.route(map[string]endpoint{
			http.MethodGet:    {h: s.getTrashed(typ)},
			http.MethodDelete: {h: s.purgeTrashed(typ)},
		}))
	}
	// Metadata (metadata.go)
	mux.Handle(state.APIRoot+"/metadata_templates", s.mdRoute(map[string]endpoint{
		http.MethodGet: {h: s.listTemplatesByInstance},
	}))
	mux.Handle(state.APIRoot+"/metadata_templates/schema", s.mdRoute(map[string]endpoint{
		http.MethodPost: {h: s.createTemplate, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/metadata_templates/enterprise", s.mdRoute(map[string]endpoint{
		http.MethodGet: {h: s.listEnterpriseTemplates},
	}))
	mux.Handle(state.APIRoot+"/metadata_templates/global", s.mdRoute(map[string]endpoint{
		http.MethodGet: {h: s.listGlobalTemplates},
	}))
	mux.Handle(state.APIRoot+"/metadata_templates/{template_id}", s.mdRoute(map[string]endpoint{
		http.MethodGet: {h: s.getTemplateByID},
	}))
	mux.Handle(state.APIRoot+"/metadata_templates/{scope}/{template_key}/schema", s.mdRoute(map[string]endpoint{
		http.MethodGet:    {h: s.getTemplate},
		http.MethodPut:    {h: s.updateTemplate, fullToken: true, admin: true},
		http.MethodDelete: {h: s.deleteTemplate, fullToken: true, admin: true},
	}))
	for _, typ := range []string{"file", "folder"} {
		base := state.APIRoot + "/" + typ + "s/{" + typ + "_id}/metadata"
		mux.Handle(base, s.mdRoute(map[string]endpoint{
			http.MethodGet: {h: s.listInstances(typ)},
		}))
		mux.Handle(base+"/{scope}/{template_key}", s.mdRoute(map[string]endpoint{
			http.MethodGet:    {h: s.getInstance(typ)},
			http.MethodPost:   {h: s.createInstance(typ)},
			http.MethodPut:    {h: s.updateInstance(typ)},
			http.MethodDelete: {h: s.deleteInstance(typ)},
		}))
	}
	mux.Handle(state.APIRoot+"/metadata_queries/execute_read", s.mdRoute(map[string]endpoint{
		http.MethodPost: {h: s.executeMetadataQuery},
	}))
	// Retention (retention.go)
	mux.Handle(state.APIRoot+"/retention_policies", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listRetentionPolicies, fullToken: true, admin: true},
		http.MethodPost: {h: s.createRetentionPolicy, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/retention_policies/{id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getRetentionPolicy, fullToken: true, admin: true},
		http.MethodPut:    {h: s.updateRetentionPolicy, fullToken: true, admin: true},
		http.MethodDelete: {h: s.deleteRetentionPolicy, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/retention_policies/{id}/assignments", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listRetentionPolicyAssignments, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/retention_policy_assignments", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createRetentionAssignment, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/retention_policy_assignments/{id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getRetentionAssignment, fullToken: true, admin: true},
		http.MethodDelete: {h: s.deleteRetentionAssignment, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/retention_policy_assignments/{id}/files_under_retention", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFilesUnderRetention, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/retention_policy_assignments/{id}/file_versions_under_retention", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFileVersionsUnderRetention, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/file_version_retentions", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFileVersionRetentions, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/file_version_retentions/{id}", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getFileVersionRetention, fullToken: true, admin: true},
	}))
	// LegalHolds (legalholds.go)
	mux.Handle(state.APIRoot+"/legal_hold_policies", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listLegalHoldPolicies, fullToken: true, admin: true},
		http.MethodPost: {h: s.createLegalHoldPolicy, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/legal_hold_policies/{id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getLegalHoldPolicy, fullToken: true, admin: true},
		http.MethodPut:    {h: s.updateLegalHoldPolicy, fullToken: true, admin: true},
		http.MethodDelete: {h: s.releaseLegalHoldPolicy, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/legal_hold_policy_assignments", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listLegalHoldAssignments, fullToken: true, admin: true},
		http.MethodPost: {h: s.createLegalHoldAssignment, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/legal_hold_policy_assignments/{id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getLegalHoldAssignment, fullToken: true, admin: true},
		http.MethodDelete: {h: s.deleteLegalHoldAssignment, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/legal_hold_policy_assignments/{id}/files_on_hold", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFilesOnHold, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/legal_hold_policy_assignments/{id}/file_versions_on_hold", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFileVersionsOnHold, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/file_version_legal_holds", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listFileVersionLegalHolds, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/file_version_legal_holds/{id}", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getFileVersionLegalHold, fullToken: true, admin: true},
	}))
	// Users (users.go)
	mux.Handle(state.APIRoot+"/users", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listUsers, fullToken: true},
		http.MethodPost: {h: s.createUser, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/users/me", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getUserMe},
	}))
	mux.Handle(state.APIRoot+"/users/{user_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getUser, fullToken: true},
		http.MethodPut:    {h: s.updateUser, fullToken: true, admin: true},
		http.MethodDelete: {h: s.deleteUser, fullToken: true, admin: true},
	}))
	// Groups (groups.go)
	mux.Handle(state.APIRoot+"/groups", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listGroups, fullToken: true, admin: true},
		http.MethodPost: {h: s.createGroup, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/groups/{group_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getGroup, fullToken: true},
		http.MethodPut:    {h: s.updateGroup, fullToken: true},
		http.MethodDelete: {h: s.deleteGroup, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/groups/{group_id}/memberships", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listGroupMemberships, fullToken: true},
	}))
	// Memberships (memberships.go)
	mux.Handle(state.APIRoot+"/group_memberships", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createMembership, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/group_memberships/{group_membership_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getMembership, fullToken: true},
		http.MethodPut:    {h: s.updateMembership, fullToken: true},
		http.MethodDelete: {h: s.deleteMembership, fullToken: true},
	}))
	mux.Handle(state.APIRoot+"/users/{user_id}/memberships", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listUserMemberships, fullToken: true},
	}))
	// DevicePins (devicepins.go)
	mux.Handle(state.APIRoot+"/enterprises/{enterprise_id}/device_pinners", s.route(map[string]endpoint{
		http.MethodGet: {h: s.listDevicePins, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/device_pinners/{device_pinner_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getDevicePin, fullToken: true, admin: true},
		http.MethodDelete: {h: s.deleteDevicePin, fullToken: true, admin: true},
	}))
	// Email aliases (email_aliases.go)
	mux.Handle(state.APIRoot+"/users/{user_id}/email_aliases", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listEmailAliases, fullToken: true},
		http.MethodPost: {h: s.createEmailAlias, fullToken: true},
	}))
	mux.Handle(state.APIRoot+"/users/{user_id}/email_aliases/{email_alias_id}", s.route(map[string]endpoint{
		http.MethodDelete: {h: s.deleteEmailAlias, fullToken: true},
	}))
	// Invites (invites.go)
	mux.Handle(state.APIRoot+"/invites", s.route(map[string]endpoint{
		http.MethodPost: {h: s.createInvite, fullToken: true, admin: true},
	}))
	mux.Handle(state.APIRoot+"/invites/{invite_id}", s.route(map[string]endpoint{
		http.MethodGet: {h: s.getInvite, fullToken: true, admin: true},
	}))
	// File requests (file_requests.go)
	mux.Handle(state.APIRoot+"/file_requests/{file_request_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getFileRequest},
		http.MethodPut:    {h: s.updateFileRequest},
		http.MethodDelete: {h: s.deleteFileRequest},
	}))
	mux.Handle(state.APIRoot+"/file_requests/{file_request_id}/copy", s.route(map[string]endpoint{
		http.MethodPost: {h: s.copyFileRequest},
	}))
	// Metadata cascade policies (metadata_cascade_policies.go)
	mux.Handle(state.APIRoot+"/metadata_cascade_policies", s.route(map[string]endpoint{
		http.MethodGet:  {h: s.listCascadePolicies},
		http.MethodPost: {h: s.createCascadePolicy},
	}))
	mux.Handle(state.APIRoot+"/metadata_cascade_policies/{metadata_cascade_policy_id}", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getCascadePolicy},
		http.MethodDelete: {h: s.deleteCascadePolicy},
	}))
	mux.Handle(state.APIRoot+"/metadata_cascade_policies/{metadata_cascade_policy_id}/apply", s.route(map[string]endpoint{
		http.MethodPost: {h: s.applyCascadePolicy},
	}))
	// Avatars (avatars.go)
	mux.Handle(state.APIRoot+"/users/{user_id}/avatar", s.route(map[string]endpoint{
		http.MethodGet:    {h: s.getAvatar, fullToken: true},
		http.MethodPost:   {h: s.uploadAvatar, fullToken: true},
		http.MethodDelete: {h: s.deleteAvatar, fullToken: true},
	}))
}
