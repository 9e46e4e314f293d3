package refserver

// The access model: who may do what to which item, in one place. Handlers
// ask s.can(p, it, action); nothing else decides access to an item.
//
// Today an item is reachable by its owner (unless HideFromUsers hid it) and
// by principals that see everything (the enterprise admin, the app token).
// Collaborations (issue 17) add roles here: a role grants a set of actions
// on the item collaborated on and on its subtree (Box's collaborator
// permission levels: owner, co-owner, editor, viewer uploader, previewer
// uploader, viewer, previewer, uploader).

// action is one thing a principal may do to an item.
type action int

const (
	// actSee: the item exists for the caller (reads its record; 404 otherwise).
	actSee action = iota
	// actPreview: previews the content.
	actPreview
	// actDownload: downloads the content.
	actDownload
	// actUpload: uploads into a folder or a new version of a file.
	actUpload
	// actEdit: renames, moves, changes the description, tags or lock,
	// creates and edits metadata, deletes.
	actEdit
	// actDelete: moves the item to the trash.
	actDelete
	// actShare: creates or changes the item's shared link.
	actShare
	// actManageCollaborators: adds, changes and removes collaborations.
	actManageCollaborators
	// actOwn: what only the owner does (transfers ownership).
	actOwn
)

// can reports whether p may do act to it. Callers hold s.mu.
func (s *Server) can(p *principal, it *item, act action) bool {
	if p.seesAll() {
		return true
	}
	if it.owner == p.user && !it.hidden {
		return true
	}
	return false
}

// visible reports whether p may access it (actSee). Callers hold s.mu.
func (s *Server) visible(p *principal, it *item) bool {
	return s.can(p, it, actSee)
}
