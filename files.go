package cms

// FilesService handles files: /files/{id}, downloads, uploads of new files
// and versions, embed links.
type FilesService service
