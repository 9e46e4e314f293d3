package refserver

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
)

// recordKind is how one kind of record is listed, encoded and loaded.
type recordKind struct {
	bucket string
	// keys lists the keys of every live record (dumps, checks, the first write).
	keys func(s *Server) []string
	// encode is the live record with key, false when the object is gone.
	encode func(s *Server, key string) ([]byte, bool)
	// load adds a stored record to the state being restored.
	load func(s *Server, key string, b []byte) error
	// done, when set, runs after every record of the kind is loaded
	// (orders, indexes).
	done func(s *Server) error
}

// kind builds a recordKind from a record type R: get returns the live
// record with key (false when gone), load restores one.
func kind[R any](bucket string, keys func(*Server) []string, get func(*Server, string) (R, bool),
	load func(*Server, string, R) error, done func(*Server) error) recordKind {
	return recordKind{
		bucket: bucket,
		keys:   keys,
		encode: func(s *Server, key string) ([]byte, bool) {
			r, ok := get(s, key)
			if !ok {
				return nil, false
			}
			b, err := json.Marshal(r)
			if err != nil {
				panic(fmt.Sprintf("refserver: encoding %s/%s: %v", bucket, key, err)) // record types are plain data
			}
			return b, true
		},
		load: func(s *Server, key string, b []byte) error {
			var r R
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil {
				return err
			}
			return load(s, key, r)
		},
		done: done,
	}
}

// stKeys, stRec, stLoad and stDone adapt the state's record methods to
// recordKind's functions of the server.
func stKeys(f func(*state.State) []string) func(*Server) []string {
	return func(s *Server) []string { return f(s.st) }
}

func stRec[R any](f func(*state.State, string) (R, bool)) func(*Server, string) (R, bool) {
	return func(s *Server, key string) (R, bool) { return f(s.st, key) }
}

func stLoad[R any](f func(*state.State, string, R) error) func(*Server, string, R) error {
	return func(s *Server, key string, r R) error { return f(s.st, key, r) }
}

func stDone(f func(*state.State) error) func(*Server) error {
	return func(s *Server) error { return f(s.st) }
}

// recordKinds is the table of kinds, indexed by kindID.
var recordKinds = [state.NumKinds]recordKind{
	state.KMeta:            kind("meta", metaKeys, stRec(persist.MetaRec), (*Server).loadMeta, nil),
	state.KUsers:           kind("users", stKeys(persist.UserKeys), stRec(persist.UserRec), stLoad(persist.LoadUser), stDone(persist.UsersLoaded)),
	state.KItems:           kind("items", stKeys(persist.ItemKeys), stRec(persist.ItemRec), (*Server).loadItem, stDone(persist.ItemsLoaded)),
	state.KSessions:        kind("sessions", stKeys(persist.SessionKeys), stRec(persist.SessionRec), stLoad(persist.LoadSession), nil),
	state.KParts:           kind("session_parts", stKeys(persist.PartKeys), stRec(persist.PartRec), stLoad(persist.LoadPart), nil),
	state.KEnded:           kind("ended_sessions", stKeys(persist.EndedKeys), stRec(persist.EndedRec), stLoad(persist.LoadEnded), nil),
	state.KTasks:           kind("tasks", stKeys(persist.TaskKeys), stRec(persist.TaskRec), stLoad(persist.LoadTask), stDone(persist.TasksLoaded)),
	state.KWatermarks:      kind("watermarks", stKeys(persist.WatermarkKeys), stRec(persist.WatermarkRec), stLoad(persist.LoadWatermark), nil),
	state.KMetadata:        kind("metadata", metadataKeys, stRec(persist.MetadataRec), stLoad(persist.LoadMetadata), nil),
	state.KTemplates:       kind("metadata_templates", stKeys(persist.TemplateKeys), stRec(persist.TemplateRec), stLoad(persist.LoadTemplate), stDone(persist.TemplatesLoaded)),
	state.KInstances:       kind("metadata_instances", stKeys(persist.InstanceKeys), stRec(persist.InstanceRec), stLoad(persist.LoadInstance), stDone(persist.InstancesLoaded)),
	state.KRetPolicies:     kind("retention_policies", stKeys(persist.RetPolicyKeys), stRec(persist.RetPolicyRec), stLoad(persist.LoadRetPolicy), nil),
	state.KRetAssignments:  kind("retention_assignments", stKeys(persist.RetAssignmentKeys), stRec(persist.RetAssignmentRec), stLoad(persist.LoadRetAssignment), nil),
	state.KRetVersions:     kind("file_version_retentions", stKeys(persist.FvrKeys), stRec(persist.FvrRec), (*Server).loadFVR, stDone(persist.RetentionLoaded)),
	state.KHoldPolicies:    kind("legal_hold_policies", stKeys(persist.HoldPolicyKeys), stRec(persist.HoldPolicyRec), stLoad(persist.LoadHoldPolicy), nil),
	state.KHoldAssignments: kind("legal_hold_assignments", stKeys(persist.HoldAssignmentKeys), stRec(persist.HoldAssignmentRec), stLoad(persist.LoadHoldAssignment), nil),
	state.KHoldVersions:    kind("file_version_legal_holds", stKeys(persist.HoldKeys), stRec(persist.HoldRec), (*Server).loadHold, stDone(persist.HoldsLoaded)),
	state.KGroups:          kind("groups", stKeys(persist.GroupKeys), stRec(persist.GroupRec), stLoad(persist.LoadGroup), nil),
	state.KMemberships:     kind("group_memberships", stKeys(persist.MembershipKeys), stRec(persist.MembershipRec), stLoad(persist.LoadMembership), nil),
	state.KPins:            kind("device_pins", stKeys(persist.PinKeys), stRec(persist.PinRec), stLoad(persist.LoadPin), nil),
	state.KApps:            kind("oauth_apps", (*Server).appKeys, (*Server).appRec, (*Server).loadApp, nil),
	state.KAccessTokens:    kind("oauth_access_tokens", (*Server).accessKeys, (*Server).accessRec, (*Server).loadAccess, nil),
	state.KRefreshTokens:   kind("oauth_refresh_tokens", (*Server).refreshKeys, (*Server).refreshRec, (*Server).loadRefresh, nil),
	state.KAuthCodes:       kind("oauth_codes", (*Server).codeKeys, (*Server).codeRec, (*Server).loadCode, nil),
	state.KJWTIDs:          kind("oauth_jwt_ids", (*Server).jtiKeys, (*Server).jtiRec, (*Server).loadJTI, nil),
	state.KCollabs:         kind("collaborations", stKeys((*state.State).CollabKeys), stRec((*state.State).CollabRec), stLoad((*state.State).LoadCollab), nil),
	state.KComments:        kind("comments", stKeys((*state.State).CommentKeys), stRec((*state.State).CommentRec), stLoad((*state.State).LoadComment), stDone((*state.State).CommentsLoaded)),
	state.KWebhooks:        kind("webhooks", stKeys((*state.State).WebhookKeys), stRec((*state.State).WebhookRec), stLoad((*state.State).LoadWebhook), nil),
	state.KEvents:          kind("events", stKeys(persist.EventKeys), stRec(persist.EventRec), stLoad(persist.LoadEvent), stDone(persist.EventsLoaded)),
}

// clearState empties every part of the state that the records restore,
// keeping the admin, user and app user objects (the principals point to
// them; their records fill them in).
func (s *Server) clearState() {
	s.st.Items = make(map[string]*state.Item)
	s.st.InitItemIndexes()
	s.st.Sessions = make(map[string]*state.Session)
	s.st.Ended = make(map[string]state.EndedSession)
	s.st.InitTasks()
	s.st.InitWatermarks()
	s.st.Metadata = state.MetadataState{
		Templates: make(map[string]*state.MDTemplate),
		ByID:      make(map[string]*state.MDTemplate),
		ByItem:    make(map[string][]*state.MDInstance),
		ByInstID:  make(map[string]*state.MDInstance),
	}
	s.st.InitRetention()
	s.st.InitLegalHolds()
	s.st.Users = state.UserState{ByID: map[string]*state.User{}, ByLogin: map[string]*state.User{}, Removed: map[string]*state.User{}}
	s.st.InitGroups()
	s.st.InitDevicePins()
	s.initOAuth()
	s.st.InitEvents()
	s.st.InitWebhooks()
	s.st.InitCollabs()
	s.st.InitComments()
}
