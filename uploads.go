package cms

// UploadsService handles upload sessions (/files/upload_sessions) and the
// chunked uploader.
type UploadsService service
