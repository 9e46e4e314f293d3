package refserver

import (
	"fmt"
	"github.com/contentapi/cms/refserver/internal/state"
	"time"
)

// collabStateLines fingerprints the state of tasks and watermarks for
// collabSnapshot, in tx.
func collabStateLines(tx *state.Tx) []string {
	var lines []string
	for _, t := range tx.Tasks.Tasks.All() {
		lines = append(lines, fmt.Sprintf("task %s file=%s %s %s %q due=%s n=%d", t.ID, t.FileID, t.Action, t.Rule, t.Message, t.DueAt.Format(time.RFC3339), len(t.Assignments)))
	}
	for _, a := range tx.Tasks.Assignments {
		lines = append(lines, fmt.Sprintf("assignment %s task=%s to=%s %s %q done=%s", a.ID, a.Task.ID, a.To.ID, a.State, a.Message, a.CompletedAt.Format(time.RFC3339)))
	}
	for id, wm := range tx.Watermarks.ByItem.All() {
		lines = append(lines, fmt.Sprintf("watermark %s %s %s", id, wm.CreatedAt.Format(time.RFC3339), wm.ModifiedAt.Format(time.RFC3339)))
	}
	return lines
}
