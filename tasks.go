package cms

// TasksService handles tasks on files (/tasks).
type TasksService service

// TaskAssignmentsService handles task assignments (/task_assignments).
type TaskAssignmentsService service
