package persist

// What the commit log writes into state.db: the checkpoint's ops, the
// number of the last log state.db holds, and the replay of the logs at
// Open.

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	bolt "go.etcd.io/bbolt"

	"github.com/contentapi/cms/refserver/internal/diskio"
)

// putLogNumber stores n as the last log state.db holds, with the schema
// version when it is still to be written.
func putLogNumber(tx *bolt.Tx, n uint64, schema bool) error {
	b, err := tx.CreateBucketIfNotExists([]byte(schemaBucket))
	if err != nil {
		return err
	}
	if schema {
		if err := b.Put([]byte(schemaKey), []byte(strconv.Itoa(stateSchema))); err != nil {
			return err
		}
	}
	return b.Put([]byte(logKey), []byte(strconv.FormatUint(n, 10)))
}

// logNumber is the number of the last log tx holds (0: none).
func logNumber(tx *bolt.Tx) (uint64, error) {
	b := tx.Bucket([]byte(schemaBucket))
	if b == nil {
		return 0, nil
	}
	v := b.Get([]byte(logKey))
	if v == nil {
		return 0, nil
	}
	n, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("refserver: %s keeps log number %q", StateFileName, v)
	}
	return n, nil
}

// appendFill is the share of a page a checkpoint fills before it splits
// it, in the buckets whose new keys come after the stored ones (small
// blobs: an id starts with its time; events: the position; the kinds
// marked Appended). bbolt's default, half, suits keys in any order.
const appendFill = 0.9

// applyOps writes ops into tx: puts and deletes, bucket by bucket.
func (d *DB) applyOps(tx *bolt.Tx, ops []logOp) error {
	var (
		b    *bolt.Bucket
		last string
	)
	for i, op := range ops {
		if i == 0 || op.bucket != last {
			var err error
			if b, err = tx.CreateBucketIfNotExists([]byte(op.bucket)); err != nil {
				return err
			}
			if d.appendedBucket(op.bucket) {
				b.FillPercent = appendFill
			}
			last = op.bucket
		}
		var err error
		if op.val == nil {
			err = b.Delete([]byte(op.key))
		} else {
			err = b.Put([]byte(op.key), op.val)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// appendedBucket reports whether new keys of bucket come after its
// stored ones (appendFill).
func (d *DB) appendedBucket(bucket string) bool {
	if bucket == smallBucket || bucket == EventsBucket {
		return true
	}
	for _, k := range d.cfg.Kinds {
		if k.Bucket == bucket {
			return k.appended
		}
	}
	return false
}

// sortOps orders ops by bucket and key, keeping the last op of a key
// (bbolt writes sorted keys with fewer page splits).
func sortOps(ops []logOp) {
	slices.SortStableFunc(ops, func(a, b logOp) int {
		return cmp.Or(cmp.Compare(a.bucket, b.bucket), cmp.Compare(a.key, b.key))
	})
}

// replayLogs writes the frames of dir's logs newer than the number
// state.db keeps into state.db, in one transaction that stores the
// number of the last, then deletes the logs. It returns the number of the
// last log state.db now holds. A log with a torn frame ends there (the
// process died while writing it: no answer told of it) and must be the
// last one.
func (d *DB) replayLogs(dir string) (uint64, error) {
	var kept uint64
	if err := d.Bolt.View(func(tx *bolt.Tx) (err error) { kept, err = logNumber(tx); return err }); err != nil {
		return 0, err
	}
	ns, err := logsOf(dir)
	if err != nil {
		return 0, fmt.Errorf("refserver: listing the commit logs: %w", err)
	}
	// Each log is read mapped (diskio.MapRead), its frames noted in an
	// overlay of its own; the overlays are written in order, in one
	// transaction, then unmapped.
	type replayed struct {
		o     *overlay
		data  []byte
		unmap func() error
	}
	var logs []replayed
	defer func() {
		for _, r := range logs {
			_ = r.unmap()
			_ = r.o.f.Close()
		}
	}()
	last := kept
	for i, n := range ns {
		if n <= kept {
			continue // written to state.db, its deletion lost
		}
		f, err := os.Open(filepath.Join(dir, logName(n)))
		if err != nil {
			return 0, fmt.Errorf("refserver: reading the commit log: %w", err)
		}
		var (
			data  []byte
			unmap func() error
		)
		fi, err := f.Stat()
		if err == nil {
			data, unmap, err = diskio.MapRead(f, fi.Size())
		}
		if err != nil {
			_ = f.Close()
			return 0, fmt.Errorf("refserver: reading the commit log %s: %w", logName(n), err)
		}
		o := newOverlay(n, f)
		logs = append(logs, replayed{o: o, data: data, unmap: unmap})
		err = walkLog(data, func(ops []logOp, payload int64, valAt []int) error {
			o.apply(ops, payload, valAt)
			return nil
		})
		if errors.Is(err, errTorn) && i == len(ns)-1 {
			err = nil
		}
		if err != nil {
			return 0, fmt.Errorf("refserver: reading the commit log %s: %w", logName(n), err)
		}
		last = n
	}
	if last > kept {
		err := d.Bolt.Update(func(tx *bolt.Tx) error {
			for _, r := range logs {
				if err := d.applyOps(tx, r.o.ops(r.data)); err != nil {
					return err
				}
			}
			// A database whose first commits were only logged gets its
			// schema version here.
			fresh := tx.Bucket([]byte(schemaBucket)) == nil
			return putLogNumber(tx, last, fresh)
		})
		if err != nil {
			return 0, fmt.Errorf("refserver: writing the commit log to %s: %w", StateFileName, err)
		}
	}
	for _, n := range ns {
		if err := os.Remove(filepath.Join(dir, logName(n))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return 0, fmt.Errorf("refserver: deleting the commit log: %w", err)
		}
	}
	return last, nil
}
