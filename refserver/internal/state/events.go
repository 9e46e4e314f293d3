package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// The event log: every change the server makes is recorded once, as one
// event, with a position in one stream (its seq). GET /events reads it
// (events_api.go): the user stream shows the events on items the caller
// may see now (the access model) from the time their access was granted,
// those whose source they may read (comments: preview), downloads and
// previews to the content owner only, and item sources with the path the
// caller is shown (paths.go); the enterprise stream (admin_logs) every
// event that has an enterprise event type. The history is bounded
// (Options.EventHistory): the oldest events are dropped, positions keep
// growing.
//
// Where events come from:
//   - items: s.AddItem (ITEM_UPLOAD for a file, ITEM_CREATE for a folder or
//     a web link, ITEM_COPY when the item is a copy), the folder index's
//     one change path for renames and moves (folderIndexes.Sync compares
//     where an item was filed with where it goes: ITEM_RENAME, ITEM_MOVE),
//     new versions (ITEM_UPLOAD), the trash (ITEM_TRASH,
//     ITEM_UNDELETE_VIA_TRASH) and downloads through the API (ITEM_DOWNLOAD);
//   - previews: the page of an expiring embed link (ITEM_PREVIEW,
//     items_read.go);
//   - the other resources' mutators: shared links (ITEM_SHARED_CREATE,
//     _UPDATE, _UNSHARE) and locks (items_update.go), metadata instances,
//     task assignments (created, updated), collaborations (added, role
//     changed, removed), comments. Changes with a webhook trigger but no
//     user stream event (a collaboration accepted or rejected, a purge)
//     fire it directly (fireTrigger). (GROUP_ADD_USER and GROUP_REMOVE_USER are
//     named below, but no membership change records them yet.)

// Event types of the user stream and their enterprise (admin_logs)
// counterparts (the events guide's lists).
const (
	evItemCreate       = "ITEM_CREATE"
	evItemUpload       = "ITEM_UPLOAD"
	evItemRename       = "ITEM_RENAME"
	evItemMove         = "ITEM_MOVE"
	evItemCopy         = "ITEM_COPY"
	evItemTrash        = "ITEM_TRASH"
	evItemUndelete     = "ITEM_UNDELETE_VIA_TRASH"
	EvItemDownload     = "ITEM_DOWNLOAD"
	evItemMakeCurrent  = "ITEM_MAKE_CURRENT_VERSION"
	EvMetadataCreate   = "METADATA_INSTANCE_CREATE"
	EvMetadataUpdate   = "METADATA_INSTANCE_UPDATE"
	EvMetadataDelete   = "METADATA_INSTANCE_DELETE"
	evTaskAssignCreate = "TASK_ASSIGNMENT_CREATE"
	evGroupAddUser     = "GROUP_ADD_USER"
	evGroupRemoveUser  = "GROUP_REMOVE_USER"
	evTaskAssignUpdate = "TASK_ASSIGNMENT_UPDATE"
	evCollabAdd        = "COLLAB_ADD_COLLABORATOR"
	evCollabRemove     = "COLLAB_REMOVE_COLLABORATOR"
	evCollabRoleChange = "COLLAB_ROLE_CHANGE"
	evCommentCreate    = "COMMENT_CREATE"
	evCommentUpdate    = "COMMENT_UPDATE"
	evCommentDelete    = "COMMENT_DELETE"
	evSharedCreate     = "ITEM_SHARED_CREATE"
	evSharedUpdate     = "ITEM_SHARED_UPDATE"
	evSharedUnshare    = "ITEM_SHARED_UNSHARE"
	evItemPreview      = "ITEM_PREVIEW"
	evLockCreate       = "LOCK_CREATE"
	evLockDestroy      = "LOCK_DESTROY"
)

// adminEventType is the enterprise stream's name of a user stream event.
var adminEventType = map[string]string{
	evItemCreate: "UPLOAD", evItemUpload: "UPLOAD", evItemRename: "RENAME", evItemMove: "MOVE",
	evItemCopy: "COPY", evItemMakeCurrent: "FILE_VERSION_RESTORE", evItemTrash: "DELETE", evItemUndelete: "UNDELETE", EvItemDownload: "DOWNLOAD",
	EvMetadataCreate: EvMetadataCreate, EvMetadataUpdate: EvMetadataUpdate, EvMetadataDelete: EvMetadataDelete,
	evTaskAssignCreate: evTaskAssignCreate, evTaskAssignUpdate: evTaskAssignUpdate, evGroupAddUser: evGroupAddUser, evGroupRemoveUser: evGroupRemoveUser,
	evCollabAdd: "COLLABORATION_INVITE", evCollabRemove: "COLLABORATION_REMOVE", evCollabRoleChange: "COLLABORATION_ROLE_CHANGE",
	evCommentCreate: evCommentCreate, evCommentUpdate: "COMMENT_EDIT", evCommentDelete: evCommentDelete,
	evSharedCreate: "SHARE", evSharedUpdate: "ITEM_SHARED_UPDATE", evSharedUnshare: "UNSHARE", evItemPreview: "PREVIEW", evLockCreate: "LOCK", evLockDestroy: "UNLOCK",
}

// changeEvents are the event types of stream_type=changes: those that may
// change a file tree ("file updates or collaborations").
var changeEvents = map[string]bool{
	evItemCreate: true, evItemUpload: true, evItemRename: true, evItemMove: true, evItemCopy: true,
	evItemTrash: true, evItemUndelete: true, evItemMakeCurrent: true, evCollabAdd: true, evCollabRemove: true,
	evCollabRoleChange: true,
}

// ownerOnlyEvents are the user stream events only the item's owner is
// notified of (the user events guide, "Event notifications": "only the
// content owner gets the notification. Collaborators are not notified").
var ownerOnlyEvents = map[string]bool{EvItemDownload: true, evItemPreview: true}

// eventReadAction is the action a user needs on an event's item to read
// the event's source, besides seeing the item: a comment's text is read
// by who may preview the file (an uploader sees the file's name, not its
// comments).
func eventReadAction(typ string) Action {
	switch typ {
	case evCommentCreate, evCommentUpdate, evCommentDelete:
		return ActPreview
	}
	return ActSee
}

// Event is one recorded change. Its fields are read only in a transaction and never
// change once recorded.
type Event struct {
	Seq      int64  // position: the stream position after it is seq
	ID       string // event_id
	Typ      string // user stream type ("" for enterprise-only events)
	Admin    string // enterprise stream type ("" for user-only events)
	At       time.Time
	By       *User  // created_by (nil: the unknown user)
	ItemRef  string // the item the event is about (ItemTable.Ref), "" for none
	OwnerID  string // the item's owner then (who sees it once the item is gone)
	Source   json.RawMessage
	AdminSrc json.RawMessage // source as the enterprise stream shows it
	// Under are the ids of the folders above the item when the event was
	// recorded (empty for an item in the root): a collaborator on a folder
	// is shown the item's events from when it was below that folder
	// (events_api.go). Nil for an event recorded before the field was:
	// it counts from the grant alone.
	Under []string
}

// eventLog is the server's event history, reached only through a transaction.
type eventLog struct {
	List []*Event // oldest first
	Head int64    // the newest seq (0: none yet)
	Max  int
	// Wake is closed (and replaced) by every new event: long polls wait
	// on it (events_api.go).
	Wake chan struct{}
	// Channels are the long-poll channels handed out by OPTIONS /events.
	Channels map[string]*PollChannel
}

// InitEvents prepares the (empty) event log, keeping Cfg.EventHistory
// events; called by InitResources, and to empty the state before a
// restore.
func (s *Tx) InitEvents() {
	s.Events = eventLog{Max: s.Cfg.EventHistory, Wake: make(chan struct{}), Channels: map[string]*PollChannel{}}
}

// emit records an event. Hand mark: the event log is a bounded ring with a
// head record, not a table; emit is its one writer.
func (s *Tx) emit(e *Event) {
	if s.Events.Max < 0 {
		return
	}
	if e.Admin == "" {
		e.Admin = adminEventType[e.Typ]
	}
	if it, ok := s.Items.ByRef(e.ItemRef); ok {
		// Recorded (empty for an item in the root); tree.go's walk.
		e.Under = []string{}
		for f := range s.ancestors(it) {
			e.Under = append(e.Under, f.ID)
		}
	}
	s.Events.Head++
	e.Seq = s.Events.Head
	e.ID = NewUUID()
	e.At = s.NowSec()
	s.Events.List = append(s.Events.List, e)
	s.Dirty(KEvents, EventKey(e.Seq))
	s.Dirty(KEvents, EventHeadKey)
	if over := len(s.Events.List) - s.Events.Max; over > 0 {
		for _, old := range s.Events.List[:over] {
			s.Dirty(KEvents, EventKey(old.Seq))
		}
		clear(s.Events.List[:over])
		s.Events.List = s.Events.List[over:]
	}
	s.out.wake = true // the long polls, once the event is committed
	s.fireWebhooks(e)
}

// ItemEvent records an event about an item, with the item as its source
// (rendered as it is now).
func (s *Tx) ItemEvent(typ string, it *Item, by *User) {
	e := &Event{Typ: typ, By: by, ItemRef: s.Items.Ref(it)}
	if it.Owner != nil {
		e.OwnerID = it.Owner.ID
	}
	e.Source = RecordJSON(s.Standard(it))
	e.AdminSrc = RecordJSON(s.adminItemSource(it))
	s.emit(e)
	s.recentItemEvent(typ, it, by) // recent_items.go
}

// RecordEvent records an event whose source is another record, about an
// item (it, nil for none).
func (s *Tx) RecordEvent(typ string, by *User, it *Item, source any) {
	e := &Event{Typ: typ, By: by, Source: RecordJSON(source)}
	e.AdminSrc = e.Source
	if it != nil {
		e.ItemRef = s.Items.Ref(it)
		if it.Owner != nil {
			e.OwnerID = it.Owner.ID
		}
		s.recentItemEvent(typ, it, by) // recent_items.go
	}
	s.emit(e)
}

// adminItemSource is an item as the enterprise stream shows it (the
// spec's EventSource: item_type, item_id, item_name, parent, owned_by).
func (s *Tx) adminItemSource(it *Item) map[string]any {
	src := map[string]any{"item_type": it.Typ, "item_id": it.ID, "item_name": it.Name, "parent": nil, "owned_by": nil}
	if p, ok := s.Items.Get("folder", it.ParentID); ok {
		src["parent"] = s.Mini(p)
	} else if it.ParentID == RootID {
		src["parent"] = map[string]any{"type": "folder", "id": RootID, "name": "All Files", "etag": nil, "sequence_id": nil}
	}
	if it.Owner != nil {
		src["owned_by"] = it.Owner.Mini()
	}
	return src
}

// itemFiled hears of every change of where an item is filed (the folder
// index's sync): from was its slot, to its new key. A move or a rename
// between two folders' listings is an event; trash and restore have
// their own (trash.go).
func (s *Tx) itemFiled(it *Item, from itemSlot, to IndexKey, listed bool) {
	if from.home == nil || !listed || from.home.key.Folder == TrashKey || to.Folder == TrashKey {
		return
	}
	if from.home.key.Folder != to.Folder {
		s.ItemEvent(evItemMove, it, it.ModBy)
	}
	if from.name != it.Name {
		s.ItemEvent(evItemRename, it, it.ModBy)
	}
}

// RecordJSON encodes a record built of plain values. The record is
// encoded into a pooled buffer and copied out at its size: an event keeps
// its sources for the whole history, and growing a buffer from 512 bytes
// to an item's 1.2 KB allocated twice what it kept (and kept up to 2 KB).
func RecordJSON(v any) json.RawMessage {
	buf := recordBuffers.Get()
	b, err := wire.AppendJSON(*buf, v)
	if err != nil {
		panic(fmt.Sprintf("refserver: encoding an event source: %v", err))
	}
	out := bytes.Clone(b)
	recordBuffers.Put(buf, b)
	return out
}

// recordBuffers are RecordJSON's buffers; one grown past 64 KiB (a record
// with a large value) is left to the collector.
var recordBuffers = wire.BufferPool{Max: 64 << 10}
