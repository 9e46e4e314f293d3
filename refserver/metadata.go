package refserver

import "net/http"

// mountMetadata registers the routes of metadata templates, instances and queries.
func (s *Server) mountMetadata(mux *http.ServeMux) {}

// metadataState is the server's state for metadata templates, instances and queries, guarded by Server.mu.
type metadataState struct{}

// initMetadata prepares the state of metadata templates, instances and queries; called once by newServer.
func (s *Server) initMetadata() {}

// metadataItemPurged drops the metadata instances of an item deleted for good.
func (s *Server) metadataItemPurged(it *item) {}
