package refserver

import (
	"fmt"
	"time"

	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
)

func (s *Server) loadFVR(id string, r persist.RecFVR) error {
	f, v, err := s.decodeFileRef(r.FileRef, s.st.Persist.Load.Purged)
	if err != nil {
		return err
	}
	fvr := &state.FileVersionRetention{ID: id, File: f, Version: v, Sources: map[*state.RetentionAssignment]time.Time{}, Applied: r.Applied}
	for aid, at := range r.Sources {
		a := s.st.Retention.Assignments[aid]
		if a == nil {
			return fmt.Errorf("unknown retention assignment %s", aid)
		}
		fvr.Sources[a] = at
	}
	s.st.Retention.Fvrs[id] = fvr
	s.st.Retention.ByVersion[v.ID] = fvr
	return nil
}

func (s *Server) loadHold(id string, r persist.RecHold) error {
	f, v, err := s.decodeFileRef(r.FileRef, s.st.Persist.Load.Purged)
	if err != nil {
		return err
	}
	h := &state.FileVersionLegalHold{ID: id, File: f, Version: v}
	for _, aid := range r.Sources {
		a := s.st.Holds.Assignments[aid]
		if a == nil {
			return fmt.Errorf("unknown legal hold assignment %s", aid)
		}
		h.Sources = append(h.Sources, a)
	}
	s.st.Holds.Holds[id] = h
	s.st.Holds.ByVersion[v.ID] = h
	return nil
}
