package refserver

import "net/http"

// mountRetention registers the routes of retention policies, assignments and file version retentions.
func (s *Server) mountRetention(mux *http.ServeMux) {}

// retentionState is the server's state for retention policies, assignments and file version retentions, guarded by Server.mu.
type retentionState struct{}

// initRetention prepares the state of retention policies, assignments and file version retentions; called once by newServer.
func (s *Server) initRetention() {}

// retentionVersionAdded applies the retention policies that cover f to its
// new version v.
func (s *Server) retentionVersionAdded(f *item, v *version) {}

// retentionBlocksPurge returns the error that a retained version under it
// gives to a permanent delete, or nil.
func (s *Server) retentionBlocksPurge(it *item) *apiError { return nil }
