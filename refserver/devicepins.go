package refserver

import "net/http"

// mountDevicePins registers the routes of device pins.
func (s *Server) mountDevicePins(mux *http.ServeMux) {}

// devicePinState is the server's state for device pins, guarded by Server.mu.
type devicePinState struct{}

// initDevicePins prepares the state of device pins; called once by newServer.
func (s *Server) initDevicePins() {}
