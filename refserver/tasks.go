package refserver

import "net/http"

// mountTasks registers the routes of tasks and task assignments (/tasks, /task_assignments).
func (s *Server) mountTasks(mux *http.ServeMux) {}

// taskState is the server's state for tasks and task assignments (/tasks, /task_assignments), guarded by Server.mu.
type taskState struct{}

// initTasks prepares the state of tasks and task assignments (/tasks, /task_assignments); called once by newServer.
func (s *Server) initTasks() {}

// tasksItemPurged drops the tasks of a file deleted for good.
func (s *Server) tasksItemPurged(it *item) {}
