package cms

// WebLinksService handles web links (/web_links).
type WebLinksService service
