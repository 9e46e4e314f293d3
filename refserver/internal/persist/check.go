package persist

// The check mode (DB.Check) and the dumps it compares: the live state's
// records and the committed ones (state.db with the commit log on top).

import (
	"fmt"
	"maps"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/state"
)

// DumpLive encodes every record of the live state: bucket → key →
// record. It runs under the outer lock (Flush, check).
func (d *DB) DumpLive(tx *state.ReadTx) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, k := range d.cfg.Kinds {
		m := map[string]string{}
		for _, key := range k.Keys(tx) {
			v, ok := k.Encode(tx, key)
			if !ok {
				m[key] = "<listed but not found>"
				continue
			}
			m[key] = string(v)
		}
		if len(m) > 0 {
			out[k.Bucket] = m
		}
	}
	return out
}

// DumpDB reads every record of tx: bucket → key → record.
func (d *DB) DumpDB(tx *bolt.Tx) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, k := range d.cfg.Kinds {
		b := tx.Bucket([]byte(k.Bucket))
		if b == nil {
			continue
		}
		m := map[string]string{}
		_ = b.ForEach(func(key, v []byte) error { m[string(key)] = string(v); return nil })
		if len(m) > 0 {
			out[k.Bucket] = m
		}
	}
	return out
}

// Stored dumps the committed records, bucket → key → record: state.db's,
// with the commit log's on top (tests compare it with DumpLive). A value
// of the log that cannot be read back is an error, not a missing record.
func (d *DB) Stored() (map[string]map[string]string, error) {
	d.flushMu.Lock()
	defer d.flushMu.Unlock()
	return d.stored()
}

// stored is Stored for callers that hold flushMu.
func (d *DB) stored() (map[string]map[string]string, error) {
	var out map[string]map[string]string
	dump := func() { _ = d.Bolt.View(func(tx *bolt.Tx) error { out = d.DumpDB(tx); return nil }) }
	l := d.log
	if l == nil {
		dump()
		return out, nil
	}
	// Under the log's lock, a checkpoint that ends meanwhile cannot drop
	// its overlay (nor close its log) before the overlays are read; one
	// that wrote state.db before the View wrote the same records.
	l.mu.Lock()
	defer l.mu.Unlock()
	dump()
	kinds := map[string]bool{}
	for _, k := range d.cfg.Kinds {
		kinds[k.Bucket] = true
	}
	for _, o := range []*overlay{l.frozen, l.active} {
		if o == nil {
			continue
		}
		for b, recs := range o.recs {
			if !kinds[b] {
				continue // the small blobs
			}
			for k, sp := range recs {
				v, err := o.read(sp)
				if err != nil {
					return nil, fmt.Errorf("reading %s/%s from commit log %d: %w", b, k, o.log, err)
				}
				if v == nil {
					delete(out[b], k)
					if len(out[b]) == 0 {
						delete(out, b)
					}
					continue
				}
				if out[b] == nil {
					out[b] = map[string]string{}
				}
				out[b][k] = string(v)
			}
		}
	}
	return out, nil
}

// StoredValue is bucket/key as committed: the commit log's, else
// state.db's (a copy); ok is false when it is not there. Callers do not
// change val.
func (d *DB) StoredValue(bucket, key string) (val []byte, ok bool, err error) {
	if d.log != nil {
		if v, found, err := d.log.lookup(bucket, key); found || err != nil {
			return v, v != nil, err
		}
	}
	err = d.Bolt.View(func(tx *bolt.Tx) error {
		bk := tx.Bucket([]byte(bucket))
		if bk == nil {
			return nil
		}
		// A cursor, not Bucket.Get, tells an empty value from a missing one.
		k, v := bk.Cursor().Seek([]byte(key))
		if ok = string(k) == key; ok {
			val = append([]byte{}, v...) // v lives as long as tx
		}
		if n := d.ReadsPerPageDrop; n > 0 && d.storedReads.Add(1)%n == 0 {
			dropMapped(tx)
		}
		return nil
	})
	return val, ok, err
}

// check compares the database with the live state when no flush is under
// way and nothing is marked (a mark pending means a flush is due, not a
// difference) and records every difference (CheckErrs).
func (d *DB) check() {
	p := d.st.Persist
	d.flushMu.Lock() // no flush between taking its marks and its commit
	defer d.flushMu.Unlock()
	d.cfg.Outer.Lock()
	defer d.cfg.Outer.Unlock()
	var (
		pending bool
		live    map[string]map[string]string
		named   map[string]bool
	)
	d.st.View(func(tx *state.ReadTx) {
		pending = p.Pending()
		if !pending {
			live = d.DumpLive(tx)
			if d.small != nil {
				named = liveContent(tx)
			}
		}
	})
	if pending {
		return
	}
	errs := d.missingSmall(named)
	if stored, err := d.stored(); err != nil {
		errs = append(errs, err)
	} else {
		errs = append(errs, diffDumps(stored, live)...)
	}
	if len(errs) > 0 {
		d.checkMu.Lock()
		d.checkErrs = append(d.checkErrs, errs...)
		d.checkMu.Unlock()
	}
}

// CheckErrs returns the differences Check found so far.
func (d *DB) CheckErrs() []error {
	d.checkMu.Lock()
	defer d.checkMu.Unlock()
	return slices.Clone(d.checkErrs)
}

// diffDumps lists the differences between a stored and a live dump.
func diffDumps(stored, live map[string]map[string]string) []error {
	var errs []error
	buckets := map[string]bool{}
	for b := range stored {
		buckets[b] = true
	}
	for b := range live {
		buckets[b] = true
	}
	for _, b := range slices.Sorted(maps.Keys(buckets)) {
		keys := map[string]bool{}
		for k := range stored[b] {
			keys[k] = true
		}
		for k := range live[b] {
			keys[k] = true
		}
		for _, k := range slices.Sorted(maps.Keys(keys)) {
			sv, sok := stored[b][k]
			lv, lok := live[b][k]
			switch {
			case !sok:
				errs = append(errs, fmt.Errorf("%s/%s: live but not stored: %s", b, k, lv))
			case !lok:
				errs = append(errs, fmt.Errorf("%s/%s: stored but gone: %s", b, k, sv))
			case sv != lv:
				errs = append(errs, fmt.Errorf("%s/%s: stored %s, live %s", b, k, sv, lv))
			}
		}
	}
	return errs
}
