package refserver

import "net/http"

// mountTrash registers the routes of the trash (/folders/trash/items, /files/{id}/trash, ...).
func (s *Server) mountTrash(mux *http.ServeMux) {}
