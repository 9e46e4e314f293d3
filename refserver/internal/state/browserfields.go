package state

// The fields web clients (Box UI Elements among them) read on items and on
// the root folder: the download URL and whether a download is possible,
// the shared-link access levels and invitee roles the caller may choose,
// and the root folder's Full fields. The caller's permissions are
// access.go's (callerPermissions).

// sharedLinkAccessLevels are the access levels a shared link may have, in
// the service's order.
var sharedLinkAccessLevels = []string{"open", "company", "collaborators"}

// browserField computes the fields of a file or folder that appear only
// when requested and that web clients ask for; ok is false for the others.
func (s *Tx) browserField(it *Item, field string, p *Principal) (any, bool) {
	switch field {
	case "allowed_shared_link_access_levels":
		if it.Typ == "web_link" || p != nil && !s.Can(p, it, actShareCreate) {
			return []string{}, true
		}
		return sharedLinkAccessLevels, true
	case "allowed_invitee_roles":
		if p != nil && !s.Can(p, it, actInvite) {
			return []string{}, true
		}
		return []string{"editor", "viewer", "previewer", "uploader", "previewer uploader", "viewer uploader", "co-owner"}, true
	case "is_associated_with_app_item":
		return false, true
	}
	if it.Typ != "file" {
		return nil, false
	}
	switch field {
	case "authenticated_download_url":
		// The API's download endpoint: a client adds its token
		// (Authorization, or ?access_token= where a page cannot).
		return s.BaseURL + "/files/" + it.ID + "/content", true
	case "is_download_available":
		return p == nil || s.Can(p, it, ActDownload) && s.LockRefuses(p, it, ActDownload) == nil, true
	case "representations":
		return s.representations(it), true // representations.go
	}
	return nil, false
}

// rootExtra is the Full-only fields of folder "0" for its user p: they may
// upload into it and download from it, and nothing else (the root is
// neither renamed, deleted, shared nor collaborated on).
func rootExtra() map[string]any {
	return map[string]any{
		"permissions": map[string]any{
			"can_delete": false, "can_download": true, "can_invite_collaborator": false, "can_rename": false,
			"can_set_share_access": false, "can_share": false, "can_upload": true,
		},
		"has_collaborations": false, "is_externally_owned": false, "is_accessible_via_shared_link": false,
		"is_associated_with_app_item": false,
		"watermark_info": map[string]any{
			"is_watermarked": false, "is_watermark_inherited": false, "is_watermarked_by_access_policy": false,
		},
		"allowed_shared_link_access_levels": []string{}, "allowed_invitee_roles": []string{},
		"tags": []string{}, "sync_state": "synced", "can_non_owners_invite": false,
		"can_non_owners_view_collaborators": false, "is_collaboration_restricted_to_enterprise": false,
		"classification": nil,
	}
}
