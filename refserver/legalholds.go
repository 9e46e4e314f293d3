package refserver

import "net/http"

// mountLegalHolds registers the routes of legal hold policies, assignments and file version legal holds.
func (s *Server) mountLegalHolds(mux *http.ServeMux) {}

// legalHoldState is the server's state for legal hold policies, assignments and file version legal holds, guarded by Server.mu.
type legalHoldState struct{}

// initLegalHolds prepares the state of legal hold policies, assignments and file version legal holds; called once by newServer.
func (s *Server) initLegalHolds() {}

// legalHoldVersionAdded keeps the new version v of a held file f on hold.
func (s *Server) legalHoldVersionAdded(f *item, v *version) {}

// legalHoldBlocksPurge returns the error that a held version under it gives
// to a permanent delete, or nil.
func (s *Server) legalHoldBlocksPurge(it *item) *apiError { return nil }
