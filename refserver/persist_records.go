package refserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// kindID is a kind of persisted record: one bbolt bucket, keyed by the
// object's id. Adding state to the server means adding a kind here (its
// record type next to the others in persist_*.go) and a dirty mark where
// the state changes; the persistence tests then cover it.
type kindID uint8

// The kinds, in restore order: a kind's records may point only to kinds
// before it.
const (
	kMeta            kindID = iota // the server: ids, tokens, signing key
	kUsers                         // enterprise users, deleted ones included
	kItems                         // files (with their versions), folders, web links
	kSessions                      // open upload sessions
	kParts                         // their parts, keyed session/offset
	kEnded                         // committed and aborted sessions (UploadSession)
	kTasks                         // tasks with their assignments
	kWatermarks                    // by item id
	kMetadata                      // the metadata counters and template order
	kTemplates                     // metadata templates
	kInstances                     // metadata instances
	kRetPolicies                   // retention policies
	kRetAssignments                // retention policy assignments
	kRetVersions                   // file version retentions
	kHoldPolicies                  // legal hold policies
	kHoldAssignments               // legal hold policy assignments
	kHoldVersions                  // file version legal holds
	kGroups                        // groups
	kMemberships                   // group memberships
	kPins                          // device pins
	kApps                          // oauth apps
	kAccessTokens                  // issued access tokens
	kRefreshTokens                 // issued refresh tokens
	kAuthCodes                     // authorization codes
	kJWTIDs                        // used JWT ids
	kCollabs                       // collaborations
	kComments                      // comments
	kWebhooks                      // webhooks
	kEvents                        // the event history and its head position
	numKinds
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

// recordKinds is the table of kinds, indexed by kindID.
var recordKinds = [numKinds]recordKind{
	kMeta:            kind("meta", metaKeys, (*Server).metaRec, (*Server).loadMeta, nil),
	kUsers:           kind("users", (*Server).userKeys, (*Server).userRec, (*Server).loadUser, (*Server).usersLoaded),
	kItems:           kind("items", (*Server).itemKeys, (*Server).itemRec, (*Server).loadItem, (*Server).itemsLoaded),
	kSessions:        kind("sessions", (*Server).sessionKeys, (*Server).sessionRec, (*Server).loadSession, nil),
	kParts:           kind("session_parts", (*Server).partKeys, (*Server).partRec, (*Server).loadPart, nil),
	kEnded:           kind("ended_sessions", (*Server).endedKeys, (*Server).endedRec, (*Server).loadEnded, nil),
	kTasks:           kind("tasks", (*Server).taskKeys, (*Server).taskRec, (*Server).loadTask, (*Server).tasksLoaded),
	kWatermarks:      kind("watermarks", (*Server).watermarkKeys, (*Server).watermarkRec, (*Server).loadWatermark, nil),
	kMetadata:        kind("metadata", metadataKeys, (*Server).metadataRec, (*Server).loadMetadata, nil),
	kTemplates:       kind("metadata_templates", (*Server).templateKeys, (*Server).templateRec, (*Server).loadTemplate, (*Server).templatesLoaded),
	kInstances:       kind("metadata_instances", (*Server).instanceKeys, (*Server).instanceRec, (*Server).loadInstance, (*Server).instancesLoaded),
	kRetPolicies:     kind("retention_policies", (*Server).retPolicyKeys, (*Server).retPolicyRec, (*Server).loadRetPolicy, nil),
	kRetAssignments:  kind("retention_assignments", (*Server).retAssignmentKeys, (*Server).retAssignmentRec, (*Server).loadRetAssignment, nil),
	kRetVersions:     kind("file_version_retentions", (*Server).fvrKeys, (*Server).fvrRec, (*Server).loadFVR, (*Server).retentionLoaded),
	kHoldPolicies:    kind("legal_hold_policies", (*Server).holdPolicyKeys, (*Server).holdPolicyRec, (*Server).loadHoldPolicy, nil),
	kHoldAssignments: kind("legal_hold_assignments", (*Server).holdAssignmentKeys, (*Server).holdAssignmentRec, (*Server).loadHoldAssignment, nil),
	kHoldVersions:    kind("file_version_legal_holds", (*Server).holdKeys, (*Server).holdRec, (*Server).loadHold, (*Server).holdsLoaded),
	kGroups:          kind("groups", (*Server).groupKeys, (*Server).groupRec, (*Server).loadGroup, nil),
	kMemberships:     kind("group_memberships", (*Server).membershipKeys, (*Server).membershipRec, (*Server).loadMembership, nil),
	kPins:            kind("device_pins", (*Server).pinKeys, (*Server).pinRec, (*Server).loadPin, nil),
	kApps:            kind("oauth_apps", (*Server).appKeys, (*Server).appRec, (*Server).loadApp, nil),
	kAccessTokens:    kind("oauth_access_tokens", (*Server).accessKeys, (*Server).accessRec, (*Server).loadAccess, nil),
	kRefreshTokens:   kind("oauth_refresh_tokens", (*Server).refreshKeys, (*Server).refreshRec, (*Server).loadRefresh, nil),
	kAuthCodes:       kind("oauth_codes", (*Server).codeKeys, (*Server).codeRec, (*Server).loadCode, nil),
	kJWTIDs:          kind("oauth_jwt_ids", (*Server).jtiKeys, (*Server).jtiRec, (*Server).loadJTI, nil),
	kCollabs:         kind("collaborations", (*Server).collabKeys, (*Server).collabRec, (*Server).loadCollab, nil),
	kComments:        kind("comments", (*Server).commentKeys, (*Server).commentRec, (*Server).loadComment, (*Server).commentsLoaded),
	kWebhooks:        kind("webhooks", (*Server).webhookKeys, (*Server).webhookRec, (*Server).loadWebhook, nil),
	kEvents:          kind("events", (*Server).eventKeys, (*Server).eventRec, (*Server).loadEvent, (*Server).eventsLoaded),
}

// clearState empties every part of the state that the records restore,
// keeping the admin, user and app user objects (the principals point to
// them; their records fill them in).
func (s *Server) clearState() {
	s.items = make(map[string]*item)
	s.initItemIndexes()
	s.sessions = make(map[string]*session)
	s.ended = make(map[string]UploadSessionInfo)
	s.initTasks()
	s.initWatermarks()
	s.metadata = metadataState{
		templates: make(map[string]*mdTemplate),
		byID:      make(map[string]*mdTemplate),
		byItem:    make(map[string][]*mdInstance),
		byInstID:  make(map[string]*mdInstance),
	}
	s.initRetention()
	s.initLegalHolds()
	s.users = userState{byID: map[string]*user{}, byLogin: map[string]*user{}, removed: map[string]*user{}}
	s.initGroups()
	s.initDevicePins()
	s.initOAuth()
	s.initEvents()
	s.initWebhooks()
	s.initCollabs()
	s.initComments()
}

// sortedKeys lists a map's keys in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// utc drops the location and monotonic reading of t, so that a record
// reads the same before and after a restart.
func utc(t time.Time) time.Time { return t.UTC().Round(0) }

// uid is the id of a user a record points to ("" for none).
func uid(u *user) string {
	if u == nil {
		return ""
	}
	return u.id
}

// userByRef resolves a uid while loading; users load first.
func (s *state) userByRef(id string) (*user, error) {
	if id == "" {
		return nil, nil
	}
	if u := s.users.byID[id]; u != nil {
		return u, nil
	}
	if u := s.users.removed[id]; u != nil {
		return u, nil
	}
	return nil, fmt.Errorf("unknown user %s", id)
}

// usersByRef resolves several uids at once.
func (s *state) usersByRef(ids ...string) ([]*user, error) {
	out := make([]*user, len(ids))
	for i, id := range ids {
		u, err := s.userByRef(id)
		if err != nil {
			return nil, err
		}
		out[i] = u
	}
	return out, nil
}

// orderedByID lists a map's objects by numeric id: the creation order of
// ids from newID.
func orderedByID[T any](m map[string]T, id func(T) string) []T {
	list := slices.Collect(maps.Values(m))
	slices.SortFunc(list, func(a, b T) int { return wire.CompareIDs(id(a), id(b)) })
	return list
}
