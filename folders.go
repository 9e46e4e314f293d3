package cms

// FoldersService handles folders: /folders and /folders/{id}/items.
type FoldersService service
