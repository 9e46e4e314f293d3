package refserver

import "net/http"

// mountWatermarks registers the routes of watermarks on files and folders.
func (s *Server) mountWatermarks(mux *http.ServeMux) {}

// watermarkState is the server's state for watermarks on files and folders, guarded by Server.mu.
type watermarkState struct{}

// initWatermarks prepares the state of watermarks on files and folders; called once by newServer.
func (s *Server) initWatermarks() {}

// watermarkItemPurged drops the watermark of an item deleted for good.
func (s *Server) watermarkItemPurged(it *item) {}
