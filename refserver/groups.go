package refserver

import "net/http"

// mountGroups registers the routes of groups and group memberships.
func (s *Server) mountGroups(mux *http.ServeMux) {}

// groupState is the server's state for groups and group memberships, guarded by Server.mu.
type groupState struct{}

// initGroups prepares the state of groups and group memberships; called once by newServer.
func (s *Server) initGroups() {}
