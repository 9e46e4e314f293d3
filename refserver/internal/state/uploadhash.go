package state

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"hash"
	"io"

	"github.com/contentapi/cms/refserver/internal/blob"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// The whole-file SHA1 of an upload session is computed off the parts'
// requests: each session has at most one hash worker at a time, a
// goroutine that reads the landed parts back from the session's content in
// offset order and feeds them to Session.Whole, while the contiguous run
// from Session.Hashed goes on, and then ends. A part's request only checks
// its own digest: a client that sends one part at a time has its answer
// while the worker hashes, and sends the next part meanwhile.
//
// The transaction that lands the part continuing the run starts the worker
// (PartLanded sets Session.Hashing, State.run starts it with the lock
// held). The commit waits for it (WholeSHA1); a session that ends or
// expires stops it (dropSession), between two reads; StopHashing, from
// the server's Close, stops every worker and waits for them.

// errHashStopped is the end of a hash worker stopped in the middle of a
// part: the session ended, or the server is closing.
var errHashStopped = errors.New("refserver: whole-file hash stopped")

// startHashers starts the hash workers tx asked for (PartLanded), unless
// the state is closing. It runs at the end of the transaction, under the
// state's lock, so StopHashing sees every worker it must wait for.
func (s *State) startHashers(tx *Tx) {
	for _, ss := range tx.hash {
		if s.closing.Load() {
			close(ss.Hashing)
			ss.Hashing = nil
			continue
		}
		s.hashers.Add(1)
		go func() {
			defer s.hashers.Done()
			s.hashLanded(context.Background(), ss)
		}()
	}
	tx.hash = nil
}

// StopHashing stops the sessions' hash workers, between two reads, and
// waits for them; no worker starts afterwards. The server's Close calls it
// once no request runs, before the store and the database close. A
// session whose hash stopped short hashes its remaining parts at its
// commit (after a restart, all of them).
func (s *State) StopHashing() {
	s.mu.Lock()
	s.closing.Store(true)
	s.mu.Unlock()
	s.hashers.Wait()
}

// hashLanded feeds the parts that continue the hashed run of the file to
// the whole-file hash, in offset order, until the next part has not landed
// yet, the session ended or ctx is done. The caller set ss.Hashing;
// hashLanded closes it when it stops. Only one goroutine hashes a session
// at a time, and never in a transaction: it takes the state's lock in
// short turns, between parts.
func (s *State) hashLanded(ctx context.Context, ss *Session) {
	buf := blob.GetBuffer()
	defer blob.PutBuffer(buf)
	for {
		s.mu.Lock()
		pt, ok := ss.Parts[ss.Hashed]
		if !ok || ss.HashErr != nil || ss.Final != nil || ss.ended.Load() || s.closing.Load() {
			close(ss.Hashing)
			ss.Hashing = nil
			s.mu.Unlock()
			return
		}
		asm, whole := ss.Asm, ss.Whole
		s.mu.Unlock()
		err := s.hashPart(ctx, ss, whole, asm, pt, *buf)
		s.mu.Lock()
		if err != nil {
			ss.HashErr = err // Whole holds part of the part: a commit starts over
		} else {
			ss.Hashed += pt.Size
		}
		s.mu.Unlock()
	}
}

// hashPart reads the part pt back from asm into buf, block by block, and
// writes it to whole, checking between blocks that the session goes on.
func (s *State) hashPart(ctx context.Context, ss *Session, whole hash.Hash, asm blob.Assembly, pt *UploadPart, buf []byte) error {
	for pos, end := pt.Offset, pt.Offset+pt.Size; pos < end; {
		if ss.ended.Load() || s.closing.Load() {
			return errHashStopped
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		b := buf[:min(int64(len(buf)), end-pos)]
		n, err := asm.ReadAt(b, pos)
		whole.Write(b[:n])
		pos += int64(n)
		if n < len(b) {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
	return nil
}

// WholeSHA1 waits until no worker hashes the session, finishes the
// whole-file hash if parts are left (a part whose hashing failed or
// stopped, or a session loaded after a restart), and returns the file's
// hex SHA1. It runs under the session's commit lock (LockCommit), outside
// any transaction.
func (s *State) WholeSHA1(ctx context.Context, ss *Session) (string, error) {
	for {
		s.mu.Lock()
		busy := ss.Hashing
		if busy == nil {
			if ss.HashErr != nil {
				ss.Whole, ss.Hashed, ss.HashErr = sha1.New(), 0, nil // start over
			}
			if ss.Hashed == ss.FileSize {
				sum := hex.EncodeToString(ss.Whole.Sum(nil))
				s.mu.Unlock()
				return sum, nil
			}
			ss.Hashing = make(chan struct{})
		}
		s.mu.Unlock()
		if busy == nil {
			s.hashLanded(ctx, ss)
			s.mu.Lock()
			err, short := ss.HashErr, ss.Hashed != ss.FileSize
			s.mu.Unlock()
			if ss.ended.Load() {
				return "", wire.NotFound("upload session") // aborted meanwhile
			}
			if err != nil {
				return "", err
			}
			if short {
				return "", wire.Errorf(wire.StatusBadRequest, wire.CodePartsMismatch, "The parts do not cover the file")
			}
			continue
		}
		select {
		case <-busy:
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
}
