package state

import (
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// Watermarks: an item has at most one, with the only imprint "default".
// PUT creates it (201) or updates it (200, new modified_at); GET and DELETE
// answer 404 when there is none. A watermark on a folder covers what is in
// it (watermark_info.is_watermark_inherited). It is hidden while its item
// is in the trash and gone when the item is purged.

// Watermark is the watermark of one item.
type Watermark struct {
	CreatedAt, ModifiedAt time.Time
}

// watermarkState is the server's state for watermarks on files and folders, reached only through a transaction.
type watermarkState struct {
	ByItem Table[*Watermark]
}

// InitWatermarks prepares the (empty) state of watermarks on files and
// folders; called by InitResources, and to empty the state before a
// restore.
func (s *Tx) InitWatermarks() {
	s.Watermarks = watermarkState{ByItem: newTable[*Watermark](s.Env, KWatermarks)}
}

// watermarkItemPurged drops the watermark of an item deleted for good.
func (s *Tx) watermarkItemPurged(it *Item) {
	s.Watermarks.ByItem.Delete(s.Items.Ref(it))
}

// applyWatermarkTo gives it a watermark, or refreshes the one it has
// (modified_at); created reports a new one.
func (s *Tx) applyWatermarkTo(it *Item) (wm *Watermark, created bool) {
	now := s.NowSec()
	wm, ok := s.Watermarks.ByItem.Get(s.Items.Ref(it))
	if !ok {
		wm = &Watermark{CreatedAt: now}
		s.Watermarks.ByItem.Put(s.Items.Ref(it), wm)
	}
	s.Watermarks.ByItem.Update(s.Items.Ref(it), func(wm *Watermark) { wm.ModifiedAt = now })
	return wm, !ok
}

// removeWatermarkFrom removes the watermark of it, reporting whether it had
// one.
func (s *Tx) removeWatermarkFrom(it *Item) bool {
	if _, ok := s.Watermarks.ByItem.Get(s.Items.Ref(it)); !ok {
		return false
	}
	s.Watermarks.ByItem.Delete(s.Items.Ref(it))
	return true
}

// watermarkInfo is the watermark_info field of a file or folder.
func (s *Tx) watermarkInfo(it *Item) map[string]any {
	_, own := s.Watermarks.ByItem.Get(s.Items.Ref(it))
	inherited := false
	if !own {
		for f := range s.ancestors(it) {
			if _, inherited = s.Watermarks.ByItem.Get(s.Items.Ref(f)); inherited {
				break
			}
		}
	}
	return map[string]any{
		"is_watermarked": own || inherited, "is_watermark_inherited": inherited,
		"is_watermarked_by_access_policy": false,
	}
}

func watermarkRecord(wm *Watermark) map[string]any {
	return map[string]any{"watermark": map[string]any{
		"created_at": FmtTime(wm.CreatedAt), "modified_at": FmtTime(wm.ModifiedAt),
	}}
}

// watermarkTarget finds the file or folder of a watermark route: a
// malformed id, the root folder or an item p cannot see is 404.
func (s *Tx) watermarkTarget(id string, edit bool, p *Principal, typ string) (*Item, *wire.Error) {
	if !ValidID(id) || id == RootID {
		return nil, wire.NotFound(typ)
	}
	if !edit {
		return s.Lookup(p, typ, id)
	}
	return s.LookupFor(p, typ, id, ActEdit)
}

// GetWatermark serves GET /files/{id}/watermark and
// /folders/{id}/watermark (refserver's getWatermark): the item's own
// watermark, 404 when it has none.
func (s *Tx) GetWatermark(id string, p *Principal, typ string) (Reply, *wire.Error) {
	it, aerr := s.watermarkTarget(id, false, p, typ)
	if aerr != nil {
		return Reply{}, aerr
	}
	wm, ok := s.Watermarks.ByItem.Get(s.Items.Ref(it))
	if !ok {
		return Reply{}, wire.NotFound("watermark")
	}
	return Reply{wire.StatusOK, watermarkRecord(wm)}, nil
}

// ApplyWatermark serves PUT /files/{id}/watermark and
// /folders/{id}/watermark (applyWatermark): a new watermark (201), or the
// item's refreshed (200), for who may edit the item.
func (s *Tx) ApplyWatermark(id string, p *Principal, typ string) (Reply, *wire.Error) {
	it, aerr := s.watermarkTarget(id, true, p, typ)
	if aerr != nil {
		return Reply{}, aerr
	}
	wm, created := s.applyWatermarkTo(it)
	if created {
		return Reply{wire.StatusCreated, watermarkRecord(wm)}, nil
	}
	return Reply{wire.StatusOK, watermarkRecord(wm)}, nil
}

// RemoveWatermark serves DELETE /files/{id}/watermark and
// /folders/{id}/watermark (removeWatermark): the item's watermark goes
// (204; 404 when it has none).
func (s *Tx) RemoveWatermark(id string, p *Principal, typ string) (Reply, *wire.Error) {
	it, aerr := s.watermarkTarget(id, true, p, typ)
	if aerr != nil {
		return Reply{}, aerr
	}
	if !s.removeWatermarkFrom(it) {
		return Reply{}, wire.NotFound("watermark")
	}
	return Reply{Status: wire.StatusNoContent}, nil
}
