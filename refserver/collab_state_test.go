package refserver

import (
	"fmt"
	"time"
)

// collabStateLines fingerprints the state of tasks and watermarks for
// collabSnapshot. Callers hold s.mu.
func collabStateLines(s *Server) []string {
	var lines []string
	for _, t := range s.tasks.tasks {
		lines = append(lines, fmt.Sprintf("task %s file=%s %s %s %q due=%s n=%d", t.id, t.fileID, t.action, t.rule, t.message, t.dueAt.Format(time.RFC3339), len(t.assignments)))
	}
	for _, a := range s.tasks.assignments {
		lines = append(lines, fmt.Sprintf("assignment %s task=%s to=%s %s %q done=%s", a.id, a.task.id, a.to.id, a.state, a.message, a.completedAt.Format(time.RFC3339)))
	}
	for id, wm := range s.watermarks.byItem {
		lines = append(lines, fmt.Sprintf("watermark %s %s %s", id, wm.createdAt.Format(time.RFC3339), wm.modifiedAt.Format(time.RFC3339)))
	}
	return lines
}
