package state

import (
	"maps"
	"slices"
)

// KindID is a kind of persisted record: one bbolt bucket, keyed by the
// object's id. Adding state to the server means adding a kind here, its
// record type and codec in internal/persist (the only home of codecs: a
// type whose fields are unexported gives a plain view and a restore
// operation, as Collab does with CollabFields and RestoreCollab), its
// entry in refserver's recordKinds (persist_records.go), which names only
// package persist, and a
// table in the model (newTable) through which every write marks the record;
// the persistence tests (TestEveryKindSurvivesARestart) then cover it.
type KindID uint8

// The kinds, in restore order: a kind's records may point only to kinds
// before it.
const (
	KMeta            KindID = iota // the server: ids, tokens, signing key
	KUsers                         // enterprise users, deleted ones included
	KItems                         // files, folders, web links
	KVersions                      // file versions, keyed file/position (VersionKey)
	KSessions                      // open upload sessions
	KParts                         // their parts, keyed session/offset
	KEnded                         // committed and aborted sessions (UploadSession)
	KTasks                         // tasks with their assignments
	KWatermarks                    // by item id
	KMetadata                      // the metadata counters and template order
	KTemplates                     // metadata templates
	KInstances                     // metadata instances
	KRetPolicies                   // retention policies
	KRetAssignments                // retention policy assignments
	KRetVersions                   // file version retentions
	KHoldPolicies                  // legal hold policies
	KHoldAssignments               // legal hold policy assignments
	KHoldVersions                  // file version legal holds
	KGroups                        // groups
	KMemberships                   // group memberships
	KPins                          // device pins
	KApps                          // oauth apps
	KAccessTokens                  // issued access tokens
	KRefreshTokens                 // issued refresh tokens
	KAuthCodes                     // authorization codes
	KJWTIDs                        // used JWT ids
	KCollabs                       // collaborations
	KComments                      // comments
	KWebhooks                      // webhooks
	KEmailAliases                  // email aliases of users
	KInvites                       // invites to the enterprise
	KFileRequests                  // file requests
	KCascadePolicies               // metadata cascade policies
	KAvatars                       // user avatars, by user id
	KFolderLocks                   // folder locks
	KFavorites                     // a user's favorites collection, by user id
	KRecentItems                   // a user's recent items, by user id
	KZipDownloads                  // zip downloads, by id
	KEvents                        // the event history and its head position
	NumKinds
)

// SortedKeys lists a map's keys in order.
func SortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
