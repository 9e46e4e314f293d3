package cms

// MetadataTemplatesService handles metadata templates (/metadata_templates).
type MetadataTemplatesService service

// MetadataService handles metadata instances on files and folders (/files/{id}/metadata, /folders/{id}/metadata) and metadata queries (/metadata_queries/execute_read).
type MetadataService service
