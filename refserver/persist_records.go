package refserver

import (
	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
)

// bindKeys, bindRec, bindLoad and bindDone bind the state's codecs
// (persist's functions of the state) to st.
func bindKeys(st *state.State, f func(*state.State) []string) func() []string {
	return func() []string { return f(st) }
}

func bindRec[R any](st *state.State, f func(*state.State, string) (R, bool)) func(string) (R, bool) {
	return func(key string) (R, bool) { return f(st, key) }
}

func bindLoad[R any](st *state.State, f func(*state.State, string, R) error) func(string, R) error {
	return func(key string, r R) error { return f(st, key, r) }
}

func bindDone(st *state.State, f func(*state.State) error) func() error {
	return func() error { return f(st) }
}

// recordKinds is the table of kinds, indexed by state.KindID, bound to s.
func (s *Server) recordKinds() []persist.Kind {
	st := s.st
	return []persist.Kind{
		state.KMeta:            persist.KindOf("meta", s.metaKeys, bindRec(st, persist.MetaRec), s.loadMeta, nil),
		state.KUsers:           persist.KindOf("users", bindKeys(st, persist.UserKeys), bindRec(st, persist.UserRec), bindLoad(st, persist.LoadUser), bindDone(st, persist.UsersLoaded)),
		state.KItems:           persist.KindOf("items", bindKeys(st, persist.ItemKeys), bindRec(st, persist.ItemRec), bindLoad(st, persist.LoadItem), nil).Detached(),
		state.KVersions:        persist.KindOf("file_versions", bindKeys(st, persist.VersionKeys), bindRec(st, persist.VersionRec), bindLoad(st, persist.LoadVersion), bindDone(st, persist.VersionsLoaded)),
		state.KSessions:        persist.KindOf("sessions", bindKeys(st, persist.SessionKeys), bindRec(st, persist.SessionRec), bindLoad(st, persist.LoadSession), nil),
		state.KParts:           persist.KindOf("session_parts", bindKeys(st, persist.PartKeys), bindRec(st, persist.PartRec), bindLoad(st, persist.LoadPart), nil),
		state.KEnded:           persist.KindOf("ended_sessions", bindKeys(st, persist.EndedKeys), bindRec(st, persist.EndedRec), bindLoad(st, persist.LoadEnded), nil),
		state.KTasks:           persist.KindOf("tasks", bindKeys(st, persist.TaskKeys), bindRec(st, persist.TaskRec), bindLoad(st, persist.LoadTask), bindDone(st, persist.TasksLoaded)),
		state.KWatermarks:      persist.KindOf("watermarks", bindKeys(st, persist.WatermarkKeys), bindRec(st, persist.WatermarkRec), bindLoad(st, persist.LoadWatermark), nil),
		state.KMetadata:        persist.KindOf("metadata", s.metadataKeys, bindRec(st, persist.MetadataRec), bindLoad(st, persist.LoadMetadata), nil),
		state.KTemplates:       persist.KindOf("metadata_templates", bindKeys(st, persist.TemplateKeys), bindRec(st, persist.TemplateRec), bindLoad(st, persist.LoadTemplate), bindDone(st, persist.TemplatesLoaded)),
		state.KInstances:       persist.KindOf("metadata_instances", bindKeys(st, persist.InstanceKeys), bindRec(st, persist.InstanceRec), bindLoad(st, persist.LoadInstance), bindDone(st, persist.InstancesLoaded)),
		state.KRetPolicies:     persist.KindOf("retention_policies", bindKeys(st, persist.RetPolicyKeys), bindRec(st, persist.RetPolicyRec), bindLoad(st, persist.LoadRetPolicy), nil),
		state.KRetAssignments:  persist.KindOf("retention_assignments", bindKeys(st, persist.RetAssignmentKeys), bindRec(st, persist.RetAssignmentRec), bindLoad(st, persist.LoadRetAssignment), nil),
		state.KRetVersions:     persist.KindOf("file_version_retentions", bindKeys(st, persist.FvrKeys), bindRec(st, persist.FvrRec), bindLoad(st, persist.LoadFVR), bindDone(st, persist.RetentionLoaded)),
		state.KHoldPolicies:    persist.KindOf("legal_hold_policies", bindKeys(st, persist.HoldPolicyKeys), bindRec(st, persist.HoldPolicyRec), bindLoad(st, persist.LoadHoldPolicy), nil),
		state.KHoldAssignments: persist.KindOf("legal_hold_assignments", bindKeys(st, persist.HoldAssignmentKeys), bindRec(st, persist.HoldAssignmentRec), bindLoad(st, persist.LoadHoldAssignment), nil),
		state.KHoldVersions:    persist.KindOf("file_version_legal_holds", bindKeys(st, persist.HoldKeys), bindRec(st, persist.HoldRec), bindLoad(st, persist.LoadHold), bindDone(st, persist.HoldsLoaded)),
		state.KGroups:          persist.KindOf("groups", bindKeys(st, persist.GroupKeys), bindRec(st, persist.GroupRec), bindLoad(st, persist.LoadGroup), nil),
		state.KMemberships:     persist.KindOf("group_memberships", bindKeys(st, persist.MembershipKeys), bindRec(st, persist.MembershipRec), bindLoad(st, persist.LoadMembership), nil),
		state.KPins:            persist.KindOf("device_pins", bindKeys(st, persist.PinKeys), bindRec(st, persist.PinRec), bindLoad(st, persist.LoadPin), nil),
		state.KApps:            persist.KindOf("oauth_apps", s.appKeys, s.appRec, s.loadApp, nil),
		state.KAccessTokens:    persist.KindOf("oauth_access_tokens", s.accessKeys, s.accessRec, s.loadAccess, nil),
		state.KRefreshTokens:   persist.KindOf("oauth_refresh_tokens", s.refreshKeys, s.refreshRec, s.loadRefresh, nil),
		state.KAuthCodes:       persist.KindOf("oauth_codes", s.codeKeys, s.codeRec, s.loadCode, nil),
		state.KJWTIDs:          persist.KindOf("oauth_jwt_ids", s.jtiKeys, s.jtiRec, s.loadJTI, nil),
		state.KCollabs:         persist.KindOf("collaborations", bindKeys(st, (*state.State).CollabKeys), bindRec(st, (*state.State).CollabRec), bindLoad(st, (*state.State).LoadCollab), nil),
		state.KComments:        persist.KindOf("comments", bindKeys(st, (*state.State).CommentKeys), bindRec(st, (*state.State).CommentRec), bindLoad(st, (*state.State).LoadComment), bindDone(st, (*state.State).CommentsLoaded)),
		state.KWebhooks:        persist.KindOf("webhooks", bindKeys(st, (*state.State).WebhookKeys), bindRec(st, (*state.State).WebhookRec), bindLoad(st, (*state.State).LoadWebhook), nil),
		state.KEvents:          persist.KindOf(persist.EventsBucket, bindKeys(st, persist.EventKeys), bindRec(st, persist.EventRec), bindLoad(st, persist.LoadEvent), bindDone(st, persist.EventsLoaded)).Detached(),
	}
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

func (s *Server) metaKeys() []string { return []string{state.MetaKey} }

// loadMeta restores the ids and keys. A token that Options gave wins over
// the stored one (and is stored by the first flush); the others are the
// stored ones, so that clients keep working across a restart.
func (s *Server) loadMeta(_ string, r persist.RecMeta) error {
	s.st.EnterpriseID, s.st.SignKey, s.st.NextID = r.EnterpriseID, r.SignKey, r.NextID
	for _, t := range []struct {
		opt    *string
		fixed  string
		stored string
	}{
		{&s.st.Cfg.AdminToken, s.opts.AdminToken, r.AdminToken},
		{&s.st.Cfg.UserToken, s.opts.UserToken, r.UserToken},
		{&s.st.Cfg.AppToken, s.opts.AppToken, r.AppToken},
		{&s.st.Cfg.WebhookPrimaryKey, s.opts.WebhookPrimaryKey, r.WebhookPrimaryKey},
		{&s.st.Cfg.WebhookSecondaryKey, s.opts.WebhookSecondaryKey, r.WebhookSecondaryKey},
	} {
		if t.fixed == "" && t.stored != "" {
			*t.opt = t.stored
		}
	}
	return nil
}

func (s *Server) metadataKeys() []string { return []string{state.MetadataKey} }
