package refserver

import "net/http"

// mountUsers registers the routes of enterprise users (/users).
func (s *Server) mountUsers(mux *http.ServeMux) {}

// userState is the server's state for enterprise users (/users), guarded by Server.mu.
type userState struct{}

// initUsers prepares the state of enterprise users (/users); called once by newServer.
func (s *Server) initUsers() {}
