package cms

import (
	"encoding/json"
	"time"
)

// UserMini is the short form of a user (User--Mini).
type UserMini struct {
	ID    string `json:"id"`
	Type  string `json:"type,omitzero"`
	Name  string `json:"name,omitzero"`
	Login string `json:"login,omitzero"`
}

// FolderMini is the short form of a folder (Folder--Mini).
type FolderMini struct {
	ID         string `json:"id"`
	Type       string `json:"type,omitzero"`
	ETag       string `json:"etag,omitzero"`
	SequenceID string `json:"sequence_id,omitzero"`
	Name       string `json:"name,omitzero"`
}

// FileVersionMini is the short form of a file version.
type FileVersionMini struct {
	ID   string `json:"id"`
	Type string `json:"type,omitzero"`
	SHA1 string `json:"sha1,omitzero"`
}

// FileMini is the short form of a file (File--Mini).
type FileMini struct {
	ID          string           `json:"id"`
	Type        string           `json:"type,omitzero"`
	ETag        string           `json:"etag,omitzero"`
	SequenceID  string           `json:"sequence_id,omitzero"`
	Name        string           `json:"name,omitzero"`
	SHA1        string           `json:"sha1,omitzero"`
	FileVersion *FileVersionMini `json:"file_version,omitzero"`
}

// PathCollection lists the folders from the root down to an item's parent.
type PathCollection struct {
	TotalCount int           `json:"total_count"`
	Entries    []*FolderMini `json:"entries"`
}

// SharedLinkPermissions say what a shared link allows.
type SharedLinkPermissions struct {
	CanDownload bool `json:"can_download"`
	CanPreview  bool `json:"can_preview"`
	CanEdit     bool `json:"can_edit"`
}

// SharedLink is an item's shared link.
type SharedLink struct {
	URL                 string                 `json:"url"`
	DownloadURL         string                 `json:"download_url,omitzero"`
	VanityURL           string                 `json:"vanity_url,omitzero"`
	VanityName          string                 `json:"vanity_name,omitzero"`
	Access              string                 `json:"access,omitzero"`
	EffectiveAccess     string                 `json:"effective_access,omitzero"`
	EffectivePermission string                 `json:"effective_permission,omitzero"`
	UnsharedAt          time.Time              `json:"unshared_at,omitzero"`
	IsPasswordEnabled   bool                   `json:"is_password_enabled"`
	Permissions         *SharedLinkPermissions `json:"permissions,omitzero"`
	DownloadCount       int                    `json:"download_count"`
	PreviewCount        int                    `json:"preview_count"`
}

// ItemPermissions are what the caller may do with a file or folder.
type ItemPermissions struct {
	CanDelete              bool `json:"can_delete"`
	CanDownload            bool `json:"can_download"`
	CanInviteCollaborator  bool `json:"can_invite_collaborator"`
	CanRename              bool `json:"can_rename"`
	CanSetShareAccess      bool `json:"can_set_share_access"`
	CanShare               bool `json:"can_share"`
	CanAnnotate            bool `json:"can_annotate,omitzero"`
	CanComment             bool `json:"can_comment,omitzero"`
	CanPreview             bool `json:"can_preview,omitzero"`
	CanUpload              bool `json:"can_upload,omitzero"`
	CanViewAnnotationsAll  bool `json:"can_view_annotations_all,omitzero"`
	CanViewAnnotationsSelf bool `json:"can_view_annotations_self,omitzero"`
	CanApplyWatermark      bool `json:"can_apply_watermark,omitzero"`
}

// ExpiringEmbedLink is a short-lived URL to embed a file's preview.
type ExpiringEmbedLink struct {
	AccessToken  string                 `json:"access_token,omitzero"`
	ExpiresIn    int64                  `json:"expires_in,omitzero"`
	TokenType    string                 `json:"token_type,omitzero"`
	RestrictedTo []EmbedLinkRestriction `json:"restricted_to,omitzero"`
	URL          string                 `json:"url"`
}

// EmbedLinkRestriction is one scope an expiring embed link's token is
// restricted to, on one object (FileOrFolderScope).
type EmbedLinkRestriction struct {
	Scope string `json:"scope"`
	// Object is the file or folder, as sent.
	Object json.RawMessage `json:"object,omitzero"`
}

// WatermarkInfo says whether an item is watermarked.
type WatermarkInfo struct {
	IsWatermarked               bool `json:"is_watermarked"`
	IsWatermarkInherited        bool `json:"is_watermark_inherited,omitzero"`
	IsWatermarkedByAccessPolicy bool `json:"is_watermarked_by_access_policy,omitzero"`
}

// File is a file (File--Full). Which fields are set depends on the fields
// requested: by default the standard ones.
type File struct {
	ID                string           `json:"id"`
	Type              string           `json:"type,omitzero"`
	ETag              string           `json:"etag,omitzero"`
	SequenceID        string           `json:"sequence_id,omitzero"`
	Name              string           `json:"name,omitzero"`
	SHA1              string           `json:"sha1,omitzero"`
	FileVersion       *FileVersionMini `json:"file_version,omitzero"`
	Description       string           `json:"description,omitzero"`
	Size              int64            `json:"size,omitzero"`
	PathCollection    *PathCollection  `json:"path_collection,omitzero"`
	CreatedAt         time.Time        `json:"created_at,omitzero"`
	ModifiedAt        time.Time        `json:"modified_at,omitzero"`
	TrashedAt         time.Time        `json:"trashed_at,omitzero"`
	PurgedAt          time.Time        `json:"purged_at,omitzero"`
	ContentCreatedAt  time.Time        `json:"content_created_at,omitzero"`
	ContentModifiedAt time.Time        `json:"content_modified_at,omitzero"`
	CreatedBy         *UserMini        `json:"created_by,omitzero"`
	ModifiedBy        *UserMini        `json:"modified_by,omitzero"`
	OwnedBy           *UserMini        `json:"owned_by,omitzero"`
	SharedLink        *SharedLink      `json:"shared_link,omitzero"`
	Parent            *FolderMini      `json:"parent,omitzero"`
	ItemStatus        string           `json:"item_status,omitzero"`

	VersionNumber     string             `json:"version_number,omitzero"`
	CommentCount      int                `json:"comment_count,omitzero"`
	Permissions       *ItemPermissions   `json:"permissions,omitzero"`
	Tags              []string           `json:"tags,omitzero"`
	Lock              *Lock              `json:"lock,omitzero"`
	Extension         string             `json:"extension,omitzero"`
	IsPackage         bool               `json:"is_package,omitzero"`
	ExpiringEmbedLink *ExpiringEmbedLink `json:"expiring_embed_link,omitzero"`
	WatermarkInfo     *WatermarkInfo     `json:"watermark_info,omitzero"`
	// Metadata maps scope → template key → instance, for the
	// metadata.<scope>.<template> fields requested.
	Metadata            map[string]map[string]json.RawMessage `json:"metadata,omitzero"`
	ExpiresAt           time.Time                             `json:"expires_at,omitzero"`
	UploaderDisplayName string                                `json:"uploader_display_name,omitzero"`
	DispositionAt       time.Time                             `json:"disposition_at,omitzero"`
}

// FolderUploadEmail is a folder's upload-by-e-mail address.
type FolderUploadEmail struct {
	Access string `json:"access,omitzero"`
	Email  string `json:"email,omitzero"`
}

// Folder is a folder (Folder--Full).
type Folder struct {
	ID                string             `json:"id"`
	Type              string             `json:"type,omitzero"`
	ETag              string             `json:"etag,omitzero"`
	SequenceID        string             `json:"sequence_id,omitzero"`
	Name              string             `json:"name,omitzero"`
	Description       string             `json:"description,omitzero"`
	Size              int64              `json:"size,omitzero"`
	PathCollection    *PathCollection    `json:"path_collection,omitzero"`
	CreatedAt         time.Time          `json:"created_at,omitzero"`
	ModifiedAt        time.Time          `json:"modified_at,omitzero"`
	TrashedAt         time.Time          `json:"trashed_at,omitzero"`
	PurgedAt          time.Time          `json:"purged_at,omitzero"`
	ContentCreatedAt  time.Time          `json:"content_created_at,omitzero"`
	ContentModifiedAt time.Time          `json:"content_modified_at,omitzero"`
	CreatedBy         *UserMini          `json:"created_by,omitzero"`
	ModifiedBy        *UserMini          `json:"modified_by,omitzero"`
	OwnedBy           *UserMini          `json:"owned_by,omitzero"`
	SharedLink        *SharedLink        `json:"shared_link,omitzero"`
	FolderUploadEmail *FolderUploadEmail `json:"folder_upload_email,omitzero"`
	Parent            *FolderMini        `json:"parent,omitzero"`
	ItemStatus        string             `json:"item_status,omitzero"`
	// ItemCollection holds the first items of the folder (GET /folders/{id}).
	ItemCollection    *OffsetPage[*Item]                    `json:"item_collection,omitzero"`
	SyncState         string                                `json:"sync_state,omitzero"`
	HasCollaborations bool                                  `json:"has_collaborations,omitzero"`
	Permissions       *ItemPermissions                      `json:"permissions,omitzero"`
	Tags              []string                              `json:"tags,omitzero"`
	WatermarkInfo     *WatermarkInfo                        `json:"watermark_info,omitzero"`
	Metadata          map[string]map[string]json.RawMessage `json:"metadata,omitzero"`

	// The collaboration settings FoldersService.Update changes.
	CanNonOwnersInvite                    bool `json:"can_non_owners_invite,omitzero"`
	CanNonOwnersViewCollaborators         bool `json:"can_non_owners_view_collaborators,omitzero"`
	IsCollaborationRestrictedToEnterprise bool `json:"is_collaboration_restricted_to_enterprise,omitzero"`
}

// Item is one entry of a folder listing: a file, a folder or a web link,
// told apart by Type ("file", "folder", "web_link"). The common fields are
// set for all three; the record of the item's own type is in File, Folder or
// WebLink.
type Item struct {
	Type string
	ID   string
	Name string
	ETag string

	File    *File
	Folder  *Folder
	WebLink *WebLink
}

// UnmarshalJSON decodes the entry into the record its type names. The type
// is found with a quick look at the top-level keys, so the entry is decoded
// once, straight into its record.
func (it *Item) UnmarshalJSON(b []byte) error {
	// The type is compared as a slice of b: the three known types cost no
	// string of their own.
	var typ string
	if raw, ok := topLevelBytes(b, "type"); ok {
		switch string(raw) {
		case "file":
			typ = "file"
		case "folder":
			typ = "folder"
		case "web_link":
			typ = "web_link"
		default:
			typ = string(raw)
		}
	} else { // no type, or one written with escapes
		var head struct {
			Type string `json:"type"`
		}
		if err := decodeJSON(b, &head); err != nil {
			return err
		}
		typ = head.Type
	}
	switch typ {
	case "file":
		f := new(File)
		if err := decodeJSON(b, f); err != nil {
			return err
		}
		*it = Item{Type: typ, ID: f.ID, Name: f.Name, ETag: f.ETag, File: f}
		return nil
	case "folder":
		f := new(Folder)
		if err := decodeJSON(b, f); err != nil {
			return err
		}
		*it = Item{Type: typ, ID: f.ID, Name: f.Name, ETag: f.ETag, Folder: f}
		return nil
	case "web_link":
		w := new(WebLink)
		if err := decodeJSON(b, w); err != nil {
			return err
		}
		*it = Item{Type: typ, ID: w.ID, Name: w.Name, ETag: w.ETag, WebLink: w}
		return nil
	}
	var head struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
		ETag string `json:"etag"`
	}
	if err := decodeJSON(b, &head); err != nil {
		return err
	}
	*it = Item{Type: head.Type, ID: head.ID, Name: head.Name, ETag: head.ETag}
	return nil
}

// MarshalJSON encodes the record of the item's type.
func (it Item) MarshalJSON() ([]byte, error) {
	switch {
	case it.File != nil:
		return json.Marshal(it.File)
	case it.Folder != nil:
		return json.Marshal(it.Folder)
	case it.WebLink != nil:
		return json.Marshal(it.WebLink)
	}
	return json.Marshal(struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name,omitzero"`
		ETag string `json:"etag,omitzero"`
	}{it.Type, it.ID, it.Name, it.ETag})
}

// WebLink is a bookmark to a URL stored in a folder.
type WebLink struct {
	ID             string          `json:"id"`
	Type           string          `json:"type,omitzero"`
	ETag           string          `json:"etag,omitzero"`
	URL            string          `json:"url,omitzero"`
	SequenceID     string          `json:"sequence_id,omitzero"`
	Name           string          `json:"name,omitzero"`
	Parent         *FolderMini     `json:"parent,omitzero"`
	Description    string          `json:"description,omitzero"`
	PathCollection *PathCollection `json:"path_collection,omitzero"`
	CreatedAt      time.Time       `json:"created_at,omitzero"`
	ModifiedAt     time.Time       `json:"modified_at,omitzero"`
	TrashedAt      time.Time       `json:"trashed_at,omitzero"`
	PurgedAt       time.Time       `json:"purged_at,omitzero"`
	CreatedBy      *UserMini       `json:"created_by,omitzero"`
	ModifiedBy     *UserMini       `json:"modified_by,omitzero"`
	OwnedBy        *UserMini       `json:"owned_by,omitzero"`
	SharedLink     *SharedLink     `json:"shared_link,omitzero"`
	ItemStatus     string          `json:"item_status,omitzero"`
}

// FieldsOptions selects the fields of a returned record (query `fields`).
// Only the named fields plus the record's mini fields come back.
type FieldsOptions struct {
	Fields []string `url:"fields,comma,omitempty"`
}
