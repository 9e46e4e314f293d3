package refserver

import "net/http"

// mountWebLinks registers the routes of web links (/web_links).
func (s *Server) mountWebLinks(mux *http.ServeMux) {}
