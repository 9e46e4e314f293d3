package governance

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// FileVersionRetentionRecord is the FileVersionRetention record.
func FileVersionRetentionRecord(s *state.Tx, fvr *state.FileVersionRetention) map[string]any {
	a, disp := fvr.Winner()
	return map[string]any{
		"type": "file_version_retention", "id": fvr.ID,
		"file_version":             fileVersionMini(fvr.Version),
		"file":                     s.Mini(fvr.File),
		"applied_at":               state.FmtTime(fvr.Applied),
		"disposition_at":           state.FmtTime(disp),
		"winning_retention_policy": retentionPolicyMini(a.Policy),
	}
}

// ListFileVersionRetentions serves GET /file_version_retentions
// (listFileVersionRetentions): a marker page of the file version
// retentions, filtered by file, version, the winning policy's disposition
// action, the disposition date (before, after) and a policy among the
// sources.
func ListFileVersionRetentions(s *state.Tx, fileID string, versionID string, action string, before time.Time, after time.Time, policyID string, q wire.Page) (state.Reply, *wire.Error) {
	var list []*state.FileVersionRetention
	for _, fvr := range s.Retention.FvrOrder {
		a, disp := fvr.Winner()
		switch {
		case fileID != "" && fvr.File.ID != fileID,
			versionID != "" && fvr.Version.ID != versionID,
			action != "" && a.Policy.Disposition != action,
			!before.IsZero() && (disp.IsZero() || !disp.Before(before)),
			!after.IsZero() && (disp.IsZero() || !disp.After(after)):
			continue
		}
		if policyID != "" && !fvr.RetainedBy(policyID) {
			continue
		}
		list = append(list, fvr)
	}
	return state.Reply{Status: wire.StatusOK, Body: wire.PositionEntries(list, q, func(fvr *state.FileVersionRetention) map[string]any { return FileVersionRetentionRecord(s, fvr) })}, nil
}
