package cms

// TrashService handles the trash: trashed files, folders and web links (/folders/trash/items, /files/{id}/trash, ...).
type TrashService service
