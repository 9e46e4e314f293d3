package cms

import (
	"context"
	"net/http"
	"time"
)

// FileRequestsService manages file requests (/file_requests): a link that
// lets anyone upload files into a folder. A file request is created in the
// web app; the API reads, changes, copies (to another folder) and deletes
// it.
type FileRequestsService service

// FileRequestStatus says whether a file request takes uploads.
type FileRequestStatus string

// File request statuses.
const (
	FileRequestStatusActive FileRequestStatus = "active"
	// FileRequestStatusInactive takes no more uploads: its URL answers 404.
	FileRequestStatusInactive FileRequestStatus = "inactive"
)

// FileRequest is a file request (FileRequest).
type FileRequest struct {
	ID          string            `json:"id"`
	Type        string            `json:"type,omitzero"`
	Title       string            `json:"title,omitzero"`
	Description string            `json:"description,omitzero"`
	Status      FileRequestStatus `json:"status,omitzero"`
	// IsEmailRequired and IsDescriptionRequired say what the upload form
	// asks of the uploader.
	IsEmailRequired       bool `json:"is_email_required"`
	IsDescriptionRequired bool `json:"is_description_required"`
	// ExpiresAt is when the request stops taking uploads (zero: never).
	ExpiresAt time.Time `json:"expires_at,omitzero"`
	// Folder is where the uploads go.
	Folder *FolderMini `json:"folder,omitzero"`
	// URL is the request's path on the web app (for example
	// "/f/19e57f40ace247278a8e3d336678c64a").
	URL string `json:"url,omitzero"`
	// ETag is the version UpdateFileRequestOptions.IfMatch compares.
	ETag      string    `json:"etag,omitzero"`
	CreatedBy *UserMini `json:"created_by,omitzero"`
	CreatedAt time.Time `json:"created_at,omitzero"`
	UpdatedBy *UserMini `json:"updated_by,omitzero"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// UpdateFileRequestRequest is the body of FileRequestsService.Update
// (FileRequestUpdateRequest): only the fields set are changed.
type UpdateFileRequestRequest struct {
	Title string `json:"title,omitzero"`
	// Description: Ptr("") clears it.
	Description *string           `json:"description,omitzero"`
	Status      FileRequestStatus `json:"status,omitzero"`
	// IsEmailRequired and IsDescriptionRequired: Ptr(false) turns them
	// off.
	IsEmailRequired       *bool     `json:"is_email_required,omitzero"`
	IsDescriptionRequired *bool     `json:"is_description_required,omitzero"`
	ExpiresAt             time.Time `json:"expires_at,omitzero"`
}

func (r *UpdateFileRequestRequest) check() error {
	return checkEnum("status", r.Status, FileRequestStatusActive, FileRequestStatusInactive)
}

// UpdateFileRequestOptions are the options of FileRequestsService.Update.
type UpdateFileRequestOptions struct {
	// IfMatch is the etag the file request must still have (header
	// if-match); on a mismatch the call fails with an *APIError matching
	// ErrPreconditionFailed.
	IfMatch string `url:"-"`
}

func (o *UpdateFileRequestOptions) setHeaders(h http.Header) error {
	return setHeader(h, "If-Match", "if-match", o.IfMatch)
}

// Get fetches a file request (GET /file_requests/{file_request_id}).
func (s *FileRequestsService) Get(ctx context.Context, fileRequestID string) (*FileRequest, *Response, error) {
	if err := checkID("file request", fileRequestID); err != nil {
		return nil, nil, err
	}
	return getAPI[FileRequest](ctx, s.client, nil, "file_requests", fileRequestID)
}

// Update changes a file request (PUT /file_requests/{file_request_id}).
// Setting FileRequestStatusInactive stops its uploads.
func (s *FileRequestsService) Update(ctx context.Context, fileRequestID string, body *UpdateFileRequestRequest, opts *UpdateFileRequestOptions) (*FileRequest, *Response, error) {
	if err := checkID("file request", fileRequestID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := body.check(); err != nil {
		return nil, nil, err
	}
	if opts == nil {
		opts = &UpdateFileRequestOptions{}
	}
	return callAPI[FileRequest](ctx, s.client, http.MethodPut, body, opts, "file_requests", fileRequestID)
}

// Delete deletes a file request (DELETE /file_requests/{file_request_id});
// its URL stops working. The files uploaded stay.
func (s *FileRequestsService) Delete(ctx context.Context, fileRequestID string) (*Response, error) {
	if err := checkID("file request", fileRequestID); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "file_requests", fileRequestID)
}

// CopyFileRequestRequest is the body of FileRequestsService.Copy
// (FileRequestCopyRequest): the folder of the new request and, optionally,
// the settings it changes from the original.
type CopyFileRequestRequest struct {
	// Folder is the folder the new request uploads to (required).
	Folder FolderRef
	UpdateFileRequestRequest
}

// copyFileRequestBody is the wire form of CopyFileRequestRequest.
type copyFileRequestBody struct {
	Folder typedFolderRef `json:"folder"`
	UpdateFileRequestRequest
}

// Copy makes a new file request like an existing one, uploading to another
// folder (POST /file_requests/{file_request_id}/copy; the service answers
// with the new request). A POST is not retried blindly.
func (s *FileRequestsService) Copy(ctx context.Context, fileRequestID string, body *CopyFileRequestRequest) (*FileRequest, *Response, error) {
	if err := checkID("file request", fileRequestID); err != nil {
		return nil, nil, err
	}
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	if err := checkID("folder", body.Folder.ID); err != nil {
		return nil, nil, err
	}
	if err := body.check(); err != nil {
		return nil, nil, err
	}
	wire := &copyFileRequestBody{Folder: typedFolderRef{Type: "folder", ID: body.Folder.ID}, UpdateFileRequestRequest: body.UpdateFileRequestRequest}
	return callAPI[FileRequest](ctx, s.client, http.MethodPost, wire, nil, "file_requests", fileRequestID, "copy")
}
