package refserver

import (
	"github.com/contentapi/cms/refserver/internal/oauth/oauthrec"
	"github.com/contentapi/cms/refserver/internal/persist"
	"github.com/contentapi/cms/refserver/internal/state"
)

// recordKinds is the table of kinds, indexed by state.KindID, bound to s.
func (s *Server) recordKinds() []persist.Kind {
	apps, access, refresh, codes, jtis := persist.OAuthKinds(oauthRoom{s})
	return []persist.Kind{
		state.KMeta: persist.MetaKind(persist.FixedTokens{
			AdminToken: s.opts.AdminToken, UserToken: s.opts.UserToken, AppToken: s.opts.AppToken,
			WebhookPrimaryKey: s.opts.WebhookPrimaryKey, WebhookSecondaryKey: s.opts.WebhookSecondaryKey,
		}),
		state.KUsers:           persist.KindOf("users", persist.UserKeys, persist.UserRec, persist.LoadUser, persist.UsersLoaded),
		state.KItems:           persist.KindOf("items", persist.ItemKeys, persist.ItemRec, persist.LoadItem, nil).Detached().Appended(),
		state.KVersions:        persist.KindOf("file_versions", persist.VersionKeys, persist.VersionRec, persist.LoadVersion, persist.VersionsLoaded).Detached().Appended(),
		state.KSessions:        persist.KindOf("sessions", persist.SessionKeys, persist.SessionRec, persist.LoadSession, nil),
		state.KParts:           persist.KindOf("session_parts", persist.PartKeys, persist.PartRec, persist.LoadPart, nil),
		state.KEnded:           persist.KindOf("ended_sessions", persist.EndedKeys, persist.EndedRec, persist.LoadEnded, nil),
		state.KTasks:           persist.KindOf("tasks", persist.TaskKeys, persist.TaskRec, persist.LoadTask, persist.TasksLoaded),
		state.KWatermarks:      persist.KindOf("watermarks", persist.WatermarkKeys, persist.WatermarkRec, persist.LoadWatermark, nil),
		state.KMetadata:        persist.KindOf("metadata", persist.MetadataKeys, persist.MetadataRec, persist.LoadMetadata, nil),
		state.KTemplates:       persist.KindOf("metadata_templates", persist.TemplateKeys, persist.TemplateRec, persist.LoadTemplate, persist.TemplatesLoaded),
		state.KInstances:       persist.KindOf("metadata_instances", persist.InstanceKeys, persist.InstanceRec, persist.LoadInstance, persist.InstancesLoaded),
		state.KRetPolicies:     persist.KindOf("retention_policies", persist.RetPolicyKeys, persist.RetPolicyRec, persist.LoadRetPolicy, nil),
		state.KRetAssignments:  persist.KindOf("retention_assignments", persist.RetAssignmentKeys, persist.RetAssignmentRec, persist.LoadRetAssignment, nil),
		state.KRetVersions:     persist.KindOf("file_version_retentions", persist.FvrKeys, persist.FvrRec, persist.LoadFVR, persist.RetentionLoaded),
		state.KHoldPolicies:    persist.KindOf("legal_hold_policies", persist.HoldPolicyKeys, persist.HoldPolicyRec, persist.LoadHoldPolicy, nil),
		state.KHoldAssignments: persist.KindOf("legal_hold_assignments", persist.HoldAssignmentKeys, persist.HoldAssignmentRec, persist.LoadHoldAssignment, nil),
		state.KHoldVersions:    persist.KindOf("file_version_legal_holds", persist.HoldKeys, persist.HoldRec, persist.LoadHold, persist.HoldsLoaded),
		state.KGroups:          persist.KindOf("groups", persist.GroupKeys, persist.GroupRec, persist.LoadGroup, nil),
		state.KMemberships:     persist.KindOf("group_memberships", persist.MembershipKeys, persist.MembershipRec, persist.LoadMembership, nil),
		state.KPins:            persist.KindOf("device_pins", persist.PinKeys, persist.PinRec, persist.LoadPin, nil),
		state.KApps:            apps,
		state.KAccessTokens:    access,
		state.KRefreshTokens:   refresh,
		state.KAuthCodes:       codes,
		state.KJWTIDs:          jtis,
		state.KCollabs:         persist.KindOf("collaborations", persist.CollabKeys, persist.CollabRec, persist.LoadCollab, nil),
		state.KComments:        persist.KindOf("comments", persist.CommentKeys, persist.CommentRec, persist.LoadComment, persist.CommentsLoaded),
		state.KWebhooks:        persist.KindOf("webhooks", persist.WebhookKeys, persist.WebhookRec, persist.LoadWebhook, nil),
		state.KEmailAliases:    persist.KindOf("email_aliases", persist.EmailAliasKeys, persist.EmailAliasRec, persist.LoadEmailAlias, nil),
		state.KInvites:         persist.KindOf("invites", persist.InviteKeys, persist.InviteRec, persist.LoadInvite, nil),
		state.KFileRequests:    persist.KindOf("file_requests", persist.FileRequestKeys, persist.FileRequestRec, persist.LoadFileRequest, nil),
		state.KCascadePolicies: persist.KindOf("metadata_cascade_policies", persist.CascadeKeys, persist.CascadeRec, persist.LoadCascade, persist.CascadesLoaded),
		state.KAvatars:         persist.KindOf("avatars", persist.AvatarKeys, persist.AvatarRec, persist.LoadAvatar, nil),
		state.KFolderLocks:     persist.KindOf("folder_locks", persist.FolderLockKeys, persist.FolderLockRec, persist.LoadFolderLock, nil),
		state.KFavorites:       persist.KindOf("collections", persist.FavoritesKeys, persist.FavoritesRec, persist.LoadFavorites, nil),
		state.KRecentItems:     persist.KindOf("recent_items", persist.RecentItemKeys, persist.RecentItemRec, persist.LoadRecentItem, nil).Detached(),
		state.KZipDownloads:    persist.KindOf("zip_downloads", persist.ZipDownloadKeys, persist.ZipDownloadRec, persist.LoadZipDownload, nil),
		state.KEvents:          persist.KindOf(persist.EventsBucket, persist.EventKeys, persist.EventRec, persist.LoadEvent, persist.EventsLoaded).Detached(),
	}
}

// clearState empties every part of the state that the records restore,
// keeping the admin, user and app user objects (the principals point to
// them; their records fill them in).
func (s *Server) clearState(tx *state.Tx) {
	tx.EmptyItems()
	tx.InitItemIndexes()
	tx.EmptySessions()
	tx.InitTasks()
	tx.InitWatermarks()
	tx.EmptyMetadata()
	tx.InitRetention()
	tx.InitLegalHolds()
	tx.EmptyUsers()
	tx.InitGroups()
	tx.InitDevicePins()
	s.initOAuth()
	tx.InitEvents()
	tx.InitWebhooks()
	tx.InitCollabs()
	tx.InitComments()
	tx.InitEmailAliases()
	tx.InitInvites()
	tx.InitFileRequests()
	tx.InitCascadePolicies()
	tx.InitAvatars()
	tx.InitFolderLocks()
	tx.InitFavorites()
	tx.InitRecentItems()
	tx.InitZipDownloads()
}

// oauthRoom is the server's oauth room, whichever it is (a restore makes
// a new one), for the persistence of its records.
type oauthRoom struct{ s *Server }

// Records are the records of the room of the moment.
func (r oauthRoom) Records() oauthrec.Records[*state.Principal] { return r.s.oauth.Records() }
