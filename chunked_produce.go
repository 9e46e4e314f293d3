package cms

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"

	"github.com/contentapi/cms/internal/transport"
)

// hashBlock is the block size of the uploader's reads and hashes: small
// enough that a block is still in the CPU cache when it is hashed, large
// enough for few system calls.
const hashBlock = 256 << 10

// hand gives a job to a worker unless the upload is being cancelled.
func hand(ctx context.Context, jobs chan<- partJob, job partJob) error {
	select {
	case jobs <- job:
		return nil
	case <-ctx.Done():
		job.release()
		return context.Cause(ctx)
	}
}

// produceFromReaderAt reads ra once, in order, in small blocks, and writes
// each block to the whole-file SHA1 and to its part's SHA1 while it is
// still in the CPU cache; at the end of each part it hands the part to a
// worker with its digest ready. The worker sends the part as a section of
// ra (an *os.File with sendfile where the platform allows, see
// sectionOpener). No part is copied into memory, no byte is read twice for
// the hashes, and one block buffer serves the whole upload.
//
// Both hashes run on this goroutine, one after the other on the same
// block, as the two-hash minimum of cmd/cmsbench's cpu measure does: a
// part hasher of its own beside it (the earlier design) let the hashes run
// on two cores, but paid for a channel handoff per block each way and for
// each block's trip from one core's cache to the other's, about a fifth
// more CPU than the hashes themselves; hashing at one core's pace (about
// 0.9 GB/s for both with SHA-NI) is still well ahead of the parts' sends.
func (run *uploadRun) produceFromReaderAt(ctx context.Context, ra io.ReaderAt, fileHash hash.Hash, jobs chan<- partJob) error {
	open := sectionOpener(ra)
	buf := make([]byte, hashBlock)
	partHash := sha1.New()
	for off := int64(0); off < run.size; off += run.sess.PartSize {
		n := min(run.sess.PartSize, run.size-off)
		partHash.Reset()
		for pos := int64(0); pos < n; {
			if err := ctx.Err(); err != nil {
				return context.Cause(ctx)
			}
			b := buf[:min(hashBlock, n-pos)]
			got, err := ra.ReadAt(b, off+pos)
			if got < len(b) {
				if err == nil || errors.Is(err, io.EOF) {
					return &SourceSizeError{Size: run.size, Read: off + pos + int64(got)} // the source ended before size
				}
				return fmt.Errorf("reading part at %d: %w", off, err)
			}
			fileHash.Write(b)
			partHash.Write(b)
			pos += int64(got)
		}
		job := partJob{offset: off, size: n, release: func() {}, sum: partHash.Sum(nil)}
		job.body = &transport.Body{
			Open:          func() (io.ReadCloser, error) { return open(off, n) },
			ContentLength: n,
			Replayable:    true,
		}
		if skip, err := run.alreadyStored(job); skip || err != nil {
			if err != nil {
				return err
			}
			continue
		}
		if err := hand(ctx, jobs, job); err != nil {
			return err
		}
	}
	return nil
}

// produceFromReader reads r in order into pooled part buffers (at most
// Concurrency+1 exist at once), in small blocks that it writes to the
// whole-file SHA1 and to the part's SHA1 while they are still in the CPU
// cache, and hands each part with its digest ready to a worker, which
// sends it and returns the buffer.
//
// Both hashes run here, on the block just read, as for an io.ReaderAt: a
// worker hashing its part afterwards (the earlier design) read the part's
// bytes back from memory on another core, 8 MiB that had left the
// producer core's cache, and its SHA1 ran about 1.5× slower than on a
// block in cache (cmsbench -suite cpu_reader).
func (run *uploadRun) produceFromReader(ctx context.Context, r io.Reader, fileHash hash.Hash, jobs chan<- partJob) error {
	pool := newBufferPool(run.opts.Concurrency+1, run.sess.PartSize)
	partHash := sha1.New()
	for off := int64(0); off < run.size; off += run.sess.PartSize {
		n := min(run.sess.PartSize, run.size-off)
		buf, err := pool.get(ctx)
		if err != nil {
			return context.Cause(ctx)
		}
		part := buf[:n]
		partHash.Reset()
		if err := readHashing(r, part, fileHash, partHash); err != nil {
			pool.put(buf)
			var short *shortRead
			if errors.As(err, &short) {
				return &SourceSizeError{Size: run.size, Read: off + short.got} // the source ended before size
			}
			return fmt.Errorf("reading part at %d: %w", off, err)
		}
		job := partJob{offset: off, size: n, release: func() { pool.put(buf) }, sum: partHash.Sum(nil)}
		job.body = &transport.Body{
			Open:          func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(part)), nil },
			ContentLength: n,
			Replayable:    true,
		}
		if skip, err := run.alreadyStored(job); skip || err != nil {
			job.release()
			if err != nil {
				return err
			}
			continue
		}
		if err := hand(ctx, jobs, job); err != nil {
			return err
		}
	}
	var probe [1]byte
	if n, _ := io.ReadFull(r, probe[:]); n > 0 {
		return &SourceSizeError{Size: run.size, Read: run.size + int64(n)}
	}
	return nil
}

// shortRead is a source that ended after got bytes of a part.
type shortRead struct{ got int64 }

func (e *shortRead) Error() string {
	return fmt.Sprintf("source ended after %d bytes of the part", e.got)
}

// readHashing fills part from r block by block, writing each block to the
// whole-file hash and to the part's right after it is read.
func readHashing(r io.Reader, part []byte, whole, partHash hash.Hash) error {
	for pos := 0; pos < len(part); {
		end := min(pos+hashBlock, len(part))
		got, err := io.ReadFull(r, part[pos:end])
		whole.Write(part[pos : pos+got])
		partHash.Write(part[pos : pos+got])
		pos += got
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return &shortRead{got: int64(pos)}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// alreadyStored reports whether the service has this part (Resume); a
// stored part whose hash differs means the source changed.
func (run *uploadRun) alreadyStored(job partJob) (bool, error) {
	p, ok := run.have[job.offset]
	if !ok {
		return false, nil
	}
	if p.Size != job.size || (p.SHA1 != "" && p.SHA1 != hex.EncodeToString(job.sum)) {
		return false, fmt.Errorf("%w: offset %d (size %d/%d, sha1 %s/%x)", errSourceChanged, job.offset, p.Size, job.size, p.SHA1, job.sum)
	}
	run.record(p)
	return true, nil
}
