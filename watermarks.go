package cms

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
)

// WatermarksService handles watermarks on files and folders (/files/{id}/watermark, /folders/{id}/watermark).
// An item has at most one watermark; a folder's covers what is in it (see
// the watermark_info field of files and folders).
type WatermarksService service

// Watermark is the watermark of a file or folder.
type Watermark struct {
	CreatedAt  time.Time
	ModifiedAt time.Time
	// Created reports, for an Apply, that the call created the watermark
	// (201) rather than updated the existing one (200). It is false for Get.
	Created bool
}

// watermarkWire is the wire shape: {"watermark": {created_at, modified_at}}.
type watermarkWire struct {
	Watermark struct {
		CreatedAt  time.Time `json:"created_at,omitzero"`
		ModifiedAt time.Time `json:"modified_at,omitzero"`
	} `json:"watermark"`
}

// UnmarshalJSON reads the wire shape.
func (w *Watermark) UnmarshalJSON(b []byte) error {
	var v watermarkWire
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*w = Watermark{CreatedAt: v.Watermark.CreatedAt, ModifiedAt: v.Watermark.ModifiedAt}
	return nil
}

// MarshalJSON writes the wire shape.
func (w Watermark) MarshalJSON() ([]byte, error) {
	var v watermarkWire
	v.Watermark.CreatedAt, v.Watermark.ModifiedAt = w.CreatedAt, w.ModifiedAt
	return json.Marshal(v)
}

func (s *WatermarksService) get(ctx context.Context, k itemKind, id string) (*Watermark, *Response, error) {
	if err := checkID(k.arg, id); err != nil {
		return nil, nil, err
	}
	return getAPI[Watermark](ctx, s.client, nil, k.segment, id, "watermark")
}

// applyWatermarkBody is the only body the service takes.
var applyWatermarkBody = map[string]any{"watermark": map[string]string{"imprint": "default"}}

func (s *WatermarksService) apply(ctx context.Context, k itemKind, id string) (*Watermark, *Response, error) {
	if err := checkID(k.arg, id); err != nil {
		return nil, nil, err
	}
	wm, resp, err := callAPI[Watermark](ctx, s.client, http.MethodPut, applyWatermarkBody, nil, k.segment, id, "watermark")
	if err != nil {
		return nil, resp, err
	}
	wm.Created = resp.StatusCode == http.StatusCreated
	return wm, resp, nil
}

func (s *WatermarksService) remove(ctx context.Context, k itemKind, id string) (*Response, error) {
	if err := checkID(k.arg, id); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, k.segment, id, "watermark")
}

// GetFile fetches a file's watermark (GET /files/{file_id}/watermark). A
// file without one fails with an *APIError matching ErrNotFound.
func (s *WatermarksService) GetFile(ctx context.Context, fileID string) (*Watermark, *Response, error) {
	return s.get(ctx, fileKind, fileID)
}

// GetFolder fetches a folder's watermark (GET /folders/{folder_id}/watermark).
// A folder without one fails with an *APIError matching ErrNotFound.
func (s *WatermarksService) GetFolder(ctx context.Context, folderID string) (*Watermark, *Response, error) {
	return s.get(ctx, folderKind, folderID)
}

// ApplyFile watermarks a file with the default imprint
// (PUT /files/{file_id}/watermark). Watermark.Created tells whether the
// call created it (201) or updated the existing one (200).
func (s *WatermarksService) ApplyFile(ctx context.Context, fileID string) (*Watermark, *Response, error) {
	return s.apply(ctx, fileKind, fileID)
}

// ApplyFolder watermarks a folder and what is in it with the default
// imprint (PUT /folders/{folder_id}/watermark). Watermark.Created tells
// whether the call created it (201) or updated the existing one (200).
func (s *WatermarksService) ApplyFolder(ctx context.Context, folderID string) (*Watermark, *Response, error) {
	return s.apply(ctx, folderKind, folderID)
}

// RemoveFile removes a file's watermark (DELETE /files/{file_id}/watermark).
// A file without one fails with an *APIError matching ErrNotFound.
func (s *WatermarksService) RemoveFile(ctx context.Context, fileID string) (*Response, error) {
	return s.remove(ctx, fileKind, fileID)
}

// RemoveFolder removes a folder's watermark (DELETE /folders/{folder_id}/watermark).
// A folder without one fails with an *APIError matching ErrNotFound.
func (s *WatermarksService) RemoveFolder(ctx context.Context, folderID string) (*Response, error) {
	return s.remove(ctx, folderKind, folderID)
}
