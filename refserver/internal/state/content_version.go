package state

import (
	"math"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// A file version, and the times an item or a version holds as Unix
// nanoseconds (8 bytes where a time.Time takes 24: issue 35, a million
// files).

// Version is one file version.
type Version struct {
	ID string
	By *User

	// rare is the version's name once replaced, when and by whom it was
	// put in the trash (file_versions.go), and its last restore; nil for
	// the versions that have none of them, nearly all: a Version is 96
	// bytes, not 176. It is never changed in place (a setter installs a
	// changed copy), so copies of a Version never share a change.
	rare *versionRare

	// created is when the version was made (CreatedAt), in Unix
	// nanoseconds as an item's readyAt: 8 bytes, not a time.Time's 24.
	created int64
	// Blob is the content, its id and SHA1 held as bytes (blob.Ref): no
	// string of its own. Last, so that the collector, which scans an
	// object up to its last pointer, stops before its 48 bytes of digits.
	Blob blob.Ref
}

// versionRare is what a version keeps of its name and its trash.
type versionRare struct {
	// name is the file's name when a newer version replaced this one
	// ("" while it is the current one, whose name is the file's, and
	// for versions kept from before names were): promoting it restores
	// the name (file_versions.go).
	name                  string
	trashedAt, restoredAt time.Time
	trashedBy, restoredBy *User
}

// noRare is the rare fields of a version that has none.
var noRare versionRare

// rareFields is v's rare fields (noRare when it has none).
func (v *Version) rareFields() *versionRare {
	if v.rare == nil {
		return &noRare
	}
	return v.rare
}

// setRare installs r as v's rare fields (nil when r holds nothing).
func (v *Version) setRare(r versionRare) {
	if r.name == "" && r.trashedAt.IsZero() && r.restoredAt.IsZero() && r.trashedBy == nil && r.restoredBy == nil {
		v.rare = nil
		return
	}
	v.rare = &r
}

// Name is the file's name when a newer version replaced this one ("" while
// it is the current one, and for versions kept from before names were).
func (v *Version) Name() string { return v.rareFields().name }

// SetName sets the file's name that the version keeps once replaced.
func (v *Version) SetName(name string) {
	r := *v.rareFields()
	r.name = name
	v.setRare(r)
}

// TrashedAt is when the version was put in the trash (zero: it is not).
func (v *Version) TrashedAt() time.Time { return v.rareFields().trashedAt }

// TrashedBy is who put the version in the trash (nil: it is not).
func (v *Version) TrashedBy() *User { return v.rareFields().trashedBy }

// RestoredAt is when the version was last restored from the trash.
func (v *Version) RestoredAt() time.Time { return v.rareFields().restoredAt }

// RestoredBy is who last restored the version from the trash.
func (v *Version) RestoredBy() *User { return v.rareFields().restoredBy }

// SetTrash sets when and by whom the version was trashed and last restored
// (zeros and nils: never), as a record restores them.
func (v *Version) SetTrash(trashedAt, restoredAt time.Time, trashedBy, restoredBy *User) {
	v.setRare(versionRare{name: v.Name(), trashedAt: trashedAt, restoredAt: restoredAt, trashedBy: trashedBy, restoredBy: restoredBy})
}

// ReadyAt is when the file's content becomes downloadable (zero: it
// always was).
func (it *Item) ReadyAt() time.Time { return timeOfNanos(it.readyAt) }

// SetReadyAt sets ReadyAt to t, to the nanosecond (nanosOf).
func (it *Item) SetReadyAt(t time.Time) { it.readyAt = nanosOf(t) }

// NewVersion is a version with id, content, made at createdAt by by.
func NewVersion(id string, content blob.Ref, createdAt time.Time, by *User) *Version {
	return &Version{ID: id, By: by, created: nanosOf(createdAt), Blob: content}
}

// CreatedAt is when the version was made (UTC).
func (v *Version) CreatedAt() time.Time { return timeOfNanos(v.created) }

// nanosOf is t in Unix nanoseconds, 0 for the zero time; the Unix epoch
// itself is held a nanosecond after, and a time past what Unix
// nanoseconds hold (before 1678 or after 2262) as the nearest they do.
func nanosOf(t time.Time) int64 {
	switch {
	case t.IsZero():
		return 0
	case t.Before(minNanosTime):
		return math.MinInt64
	case t.After(maxNanosTime):
		return math.MaxInt64
	}
	if n := t.UnixNano(); n != 0 {
		return n
	}
	return 1
}

// timeOfNanos is the time (UTC) nanosOf made n of.
func timeOfNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

// minNanosTime and maxNanosTime bound the times Unix nanoseconds hold.
var minNanosTime, maxNanosTime = time.Unix(0, math.MinInt64), time.Unix(0, math.MaxInt64)
