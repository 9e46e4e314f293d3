package state

import "time"

// ItemExtras are the fields of an Item that most items never have: at a
// million items they were 144 of its 512 bytes, now one pointer, nil for
// an item that has none of them (an Item is 352 bytes). An Item's extras
// are never changed in place: each setter installs a changed copy, so
// that an Item copied by value never shares a later change.
type ItemExtras struct {
	Description string
	// Tags are the item's tags (items_update.go).
	Tags []string
	// Link is the shared link of a file or folder (items_update.go), nil
	// for none; URL is a web link's URL (weblinks.go).
	Link *SharedLink
	URL  string
	// Lock is a file's lock (file_locks.go), nil for none.
	Lock *FileLock
	// A folder's sync_state and folder_upload_email access ("": none).
	SyncState, UploadEmail string
	// The trash (trash.go): TrashedAt is set while the item is in the
	// trash; TrashedWith is the id of the folder whose trashing took the
	// item along ("" when the item was trashed itself); only items trashed
	// themselves are listed in, read from and restored from the trash.
	TrashedAt   time.Time
	TrashedWith string
}

// isZero reports whether e holds nothing (tags: nil, not empty).
func (e *ItemExtras) isZero() bool {
	return e.Description == "" && e.Tags == nil && e.Link == nil && e.URL == "" && e.Lock == nil &&
		e.SyncState == "" && e.UploadEmail == "" && e.TrashedAt.IsZero() && e.TrashedWith == ""
}

// Extras is the item's extras (zero when it has none): what the
// accessors below read.
func (it *Item) Extras() ItemExtras { return *it.ext() }

// SetExtras sets all of the item's extras at once (as a load does).
func (it *Item) SetExtras(e ItemExtras) {
	if e.isZero() {
		it.extras = nil
		return
	}
	it.extras = &e
}

// ext is the item's extras (zero when it has none), for reading.
func (it *Item) ext() *ItemExtras {
	if it.extras == nil {
		return &noExtras
	}
	return it.extras
}

// noExtras is what ext reads for an item that has none; never written.
var noExtras ItemExtras

// edit changes a copy of the item's extras with f and installs it (nil
// when nothing is left set).
func (it *Item) edit(f func(e *ItemExtras)) {
	e := *it.ext()
	f(&e)
	if e.isZero() {
		it.extras = nil
		return
	}
	it.extras = &e
}

// Description is the item's description.
func (it *Item) Description() string { return it.ext().Description }

// SetDescription sets the item's description.
func (it *Item) SetDescription(d string) { it.edit(func(e *ItemExtras) { e.Description = d }) }

// Tags is the item's tags (nil: none set).
func (it *Item) Tags() []string { return it.ext().Tags }

// SetTags sets the item's tags.
func (it *Item) SetTags(tags []string) { it.edit(func(e *ItemExtras) { e.Tags = tags }) }

// Link is the shared link of a file or folder, nil for none.
func (it *Item) Link() *SharedLink { return it.ext().Link }

// SetLink sets the shared link of a file or folder (nil: none).
func (it *Item) SetLink(l *SharedLink) { it.edit(func(e *ItemExtras) { e.Link = l }) }

// Lock is a file's lock, nil for none.
func (it *Item) Lock() *FileLock { return it.ext().Lock }

// SetLock sets a file's lock (nil: none).
func (it *Item) SetLock(l *FileLock) { it.edit(func(e *ItemExtras) { e.Lock = l }) }

// URL is a web link's URL.
func (it *Item) URL() string { return it.ext().URL }

// SetURL sets a web link's URL.
func (it *Item) SetURL(u string) { it.edit(func(e *ItemExtras) { e.URL = u }) }

// SyncState is a folder's sync_state ("": unset).
func (it *Item) SyncState() string { return it.ext().SyncState }

// SetSyncState sets a folder's sync_state.
func (it *Item) SetSyncState(s string) { it.edit(func(e *ItemExtras) { e.SyncState = s }) }

// UploadEmail is a folder's folder_upload_email access ("": none).
func (it *Item) UploadEmail() string { return it.ext().UploadEmail }

// SetUploadEmail sets a folder's folder_upload_email access ("": none).
func (it *Item) SetUploadEmail(a string) { it.edit(func(e *ItemExtras) { e.UploadEmail = a }) }

// TrashedAt is when the item was put in the trash, zero while it is not
// in the trash.
func (it *Item) TrashedAt() time.Time { return it.ext().TrashedAt }

// TrashedWith is the id of the folder whose trashing took the item along
// ("" when the item was trashed itself, or is not in the trash).
func (it *Item) TrashedWith() string { return it.ext().TrashedWith }

// SetTrash sets when the item was put in the trash and the id of the
// folder whose trashing took it along (zero and "": it is not in the
// trash).
func (it *Item) SetTrash(at time.Time, with string) {
	it.edit(func(e *ItemExtras) { e.TrashedAt, e.TrashedWith = at, with })
}
