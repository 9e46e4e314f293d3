package cms

// WatermarksService handles watermarks on files and folders (/files/{id}/watermark, /folders/{id}/watermark).
type WatermarksService service
