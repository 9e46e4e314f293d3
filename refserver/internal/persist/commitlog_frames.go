package persist

// The commit log's files: the frame format (commitlog.go tells it), reading
// and writing frames, the names of the logs.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"slices"
	"strconv"
	"strings"
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// logOp is one change a commit logs: the record (or small blob) key of
// bucket, put with val, or deleted (val nil; an empty value is not nil).
type logOp struct {
	bucket, key string
	val         []byte
}

// appendFrame appends the frame of ops to dst, and to valAt where each
// op's value begins in dst (an index of dst; a delete's is that of the
// next field).
func appendFrame(dst []byte, ops []logOp, valAt []int) ([]byte, []int) {
	start := len(dst)
	dst = append(dst, make([]byte, frameHeader)...)
	for _, op := range ops {
		code := opPut
		if op.val == nil {
			code = opDelete
		}
		dst = append(dst, code)
		dst = binary.AppendUvarint(dst, uint64(len(op.bucket)))
		dst = append(dst, op.bucket...)
		dst = binary.AppendUvarint(dst, uint64(len(op.key)))
		dst = append(dst, op.key...)
		if code == opPut {
			dst = binary.AppendUvarint(dst, uint64(len(op.val)))
		}
		valAt = append(valAt, len(dst))
		dst = append(dst, op.val...)
	}
	payload := dst[start+frameHeader:]
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(dst[start+4:], crc32.Checksum(payload, crcTable))
	return dst, valAt
}

// errTorn is a frame that ends early or whose checksum does not match.
var errTorn = errors.New("torn frame")

// decodeOps parses a frame's payload; the ops' values alias payload, and
// valAt tells where each begins in it.
func decodeOps(payload []byte) (ops []logOp, valAt []int, err error) {
	total := len(payload)
	field := func() ([]byte, bool) {
		n, w := binary.Uvarint(payload)
		if w <= 0 || n > uint64(len(payload)-w) {
			return nil, false
		}
		v := payload[w : w+int(n) : w+int(n)]
		payload = payload[w+int(n):]
		return v, true
	}
	for len(payload) > 0 {
		code := payload[0]
		payload = payload[1:]
		if code != opPut && code != opDelete {
			return nil, nil, fmt.Errorf("unknown op %d", code)
		}
		bucket, ok1 := field()
		key, ok2 := field()
		if !ok1 || !ok2 {
			return nil, nil, errors.New("op ends early")
		}
		op := logOp{bucket: string(bucket), key: string(key)}
		if code == opPut {
			val, ok := field()
			if !ok {
				return nil, nil, errors.New("op ends early")
			}
			op.val = val
			if op.val == nil {
				op.val = []byte{}
			}
		}
		ops = append(ops, op)
		valAt = append(valAt, total-len(payload)-len(op.val))
	}
	return ops, valAt, nil
}

// walkLog calls fn with the ops of each frame of data, a log's bytes, in
// order, with where the frame's payload begins in data (the ops' values
// are at payload+valAt[i]; they alias data), up to the end of data or a
// zero length (the log's unused zeros). A torn frame ends the log:
// walkLog returns errTorn, after the frames before it; a frame that is
// whole but not a list of ops is an error.
func walkLog(data []byte, fn func(ops []logOp, payload int64, valAt []int) error) error {
	if len(data) < len(logMagic) {
		return errTorn // created, not yet written: no frame
	}
	if string(data[:len(logMagic)]) != logMagic {
		return errors.New("not a commit log")
	}
	pos := len(logMagic)
	for pos < len(data) {
		if len(data)-pos < frameHeader {
			return errTorn
		}
		head := data[pos : pos+frameHeader]
		n := binary.LittleEndian.Uint32(head[:4])
		if n == 0 {
			return nil // the zeros past the last frame
		}
		start := pos + frameHeader
		if n > maxFrame || uint64(n) > uint64(len(data)-start) {
			return errTorn
		}
		payload := data[start : start+int(n)]
		if crc32.Checksum(payload, crcTable) != binary.LittleEndian.Uint32(head[4:]) {
			return errTorn
		}
		ops, valAt, err := decodeOps(payload)
		if err != nil {
			return err
		}
		if err := fn(ops, int64(start), valAt); err != nil {
			return err
		}
		pos = start + int(n)
	}
	return nil
}

// logName is the name of log n.
func logName(n uint64) string { return fmt.Sprintf("%s%08d%s", logPrefix, n, logSuffix) }

// logsOf lists the numbers of the logs of dir, in order.
func logsOf(dir string) ([]uint64, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ns []uint64
	for _, e := range entries {
		num, ok := strings.CutPrefix(e.Name(), logPrefix)
		if num, ok2 := strings.CutSuffix(num, logSuffix); ok && ok2 && !e.IsDir() {
			if n, err := strconv.ParseUint(num, 10, 64); err == nil {
				ns = append(ns, n)
			}
		}
	}
	slices.Sort(ns)
	return ns, nil
}
