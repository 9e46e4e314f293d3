package state

import "github.com/contentapi/cms/refserver/internal/wire"

// The resources beyond files, folders and upload sessions each live in a
// file of their own (weblinks.go, tasks.go, metadata.go, ...), which holds
// their state type, its rules and transactions; their handlers and routes
// are in package refserver (route_table.go). This file prepares their state
// and holds the hooks between them.

// InitResources prepares every such resource's state; called once by
// refserver's newServer before the server answers a request (a persisted
// server then restores the records into it).
func (s *Tx) InitResources() {
	s.InitTasks()
	s.InitWatermarks()
	s.initMetadata()
	s.InitRetention()
	s.InitLegalHolds()
	s.initUsers()
	s.InitGroups()
	s.InitDevicePins()
	s.InitEvents()
	s.InitWebhooks()
	s.InitCollabs()
	s.InitComments()
	s.InitEmailAliases()
	s.InitInvites()
	s.InitFileRequests()
	s.InitCascadePolicies()
	s.InitAvatars()
	s.InitFolderLocks()
	s.InitFavorites()
	s.InitRecentItems()
	s.InitZipDownloads()
}

// Cross-resource hooks. The content code (files, folders, uploads, trash)
// calls these at its choke points; each resource fills in its own part in
// its own file. All are methods of the transaction.

// versionAdded is called when a file gets a version: its first one
// (CreateFile, a copy) or a new one (AddVersion, a promotion). The
// version's record is written here (changeVersion); retention and legal
// holds attach to the new version.
func (s *Tx) versionAdded(f *Item, v *Version) {
	s.changeVersion(f, v, nil)
	s.retentionVersionAdded(f, v)
	s.legalHoldVersionAdded(f, v)
}

// MetadataChanged is called when an instance is created on an item or its
// values change. Retention assigned to its template re-evaluates the item
// here.
func (s *Tx) MetadataChanged(in *MDInstance) {
	s.retentionMetadataChanged(in)
}

// PurgeBlocked returns the error that keeps an item (a file, or a folder
// with everything in it) from being deleted for good now, or nil.
func (s *Tx) PurgeBlocked(it *Item) *wire.Error {
	if e := s.retentionBlocksPurge(it); e != nil {
		return e
	}
	return s.legalHoldBlocksPurge(it)
}

// itemPurged is called for every item (each one of a folder tree) when it
// leaves the server for good, so the resources attached to it go too.
func (s *Tx) itemPurged(it *Item) {
	s.persistItemPurged(it)
	s.metadataItemPurged(it)
	s.watermarkItemPurged(it)
	s.tasksItemPurged(it)
	s.collabsItemPurged(it)
	s.commentsItemPurged(it)
	s.fileRequestsItemPurged(it)
	s.cascadeItemPurged(it)
	s.folderLocksItemPurged(it)
	s.favoritesItemPurged(it)
	s.recentItemPurged(it)
}
