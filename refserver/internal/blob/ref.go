package blob

import "encoding/hex"

// Ref is an Info held without strings, for what keeps a million of them
// (a file version each): an id the stores make — 32 lower-case hex digits
// (NewID), or the same after one letter (a persisted server's small
// blobs) — as its 16 bytes, and a lower-case hex SHA1 as its 20. The two
// strings were 80–96 bytes of heap and two objects beside the Info.
// An Info whose id or SHA1 is of another form (an empty one is of these
// forms) is kept as it is, behind odd. The zero Ref is the zero Info's.
type Ref struct {
	odd  *Info // an Info of another form; nil when the fields below hold it
	Size int64 // bytes
	id   [16]byte
	sha  [20]byte
	pre  byte // the letter before the id's hex digits (0: none)
	has  byte // hasID | hasSHA1
}

const (
	hasID = 1 << iota
	hasSHA1
)

// RefOf is i held as a Ref.
func RefOf(i Info) Ref {
	r, ok := parseRef(i.ID, i.SHA1, i.Size)
	if !ok {
		c := i
		return Ref{odd: &c, Size: i.Size}
	}
	return r
}

// ParseRef is RefOf(Info{ID: string(id), Size: size, SHA1: string(sha1)})
// without the strings when it is of the forms a Ref holds.
func ParseRef(id, sha1 []byte, size int64) Ref {
	if r, ok := parseRef(id, sha1, size); ok {
		return r
	}
	return RefOf(Info{ID: string(id), Size: size, SHA1: string(sha1)})
}

// parseRef is the Ref of an Info of the forms a Ref holds, false for
// another.
func parseRef[S string | []byte](id, sha1 S, size int64) (Ref, bool) {
	r := Ref{Size: size}
	switch len(id) {
	case 0:
	case 2*len(r.id) + 1:
		if id[0] == 0 {
			return Ref{}, false
		}
		r.pre = id[0]
		id = id[1:]
		fallthrough
	case 2 * len(r.id):
		if !decodeHex(r.id[:], id) {
			return Ref{}, false
		}
		r.has |= hasID
	default:
		return Ref{}, false
	}
	switch len(sha1) {
	case 0:
	case 2 * len(r.sha):
		if !decodeHex(r.sha[:], sha1) {
			return Ref{}, false
		}
		r.has |= hasSHA1
	default:
		return Ref{}, false
	}
	return r, true
}

// isHexDigit reports whether c is a lower-case hex digit.
func isHexDigit(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' }

// decodeHex decodes s, lower-case hex digits only, into dst (len(s) is
// 2*len(dst)); false for anything else (hex.Decode takes upper case too,
// which would not round-trip).
func decodeHex[S string | []byte](dst []byte, s S) bool {
	for i := range dst {
		hi, lo := s[2*i], s[2*i+1]
		if !isHexDigit(hi) || !isHexDigit(lo) {
			return false
		}
		dst[i] = unhex(hi)<<4 | unhex(lo)
	}
	return true
}

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'a' + 10
}

// Info is the Info r holds.
func (r Ref) Info() Info { return Info{ID: r.ID(), Size: r.Size, SHA1: r.SHA1()} }

// ID is the blob's id ("" for none).
func (r Ref) ID() string {
	if r.odd != nil {
		return r.odd.ID
	}
	return string(r.appendID(nil))
}

// HasID reports whether r names a blob (ID() != "").
func (r Ref) HasID() bool {
	if r.odd != nil {
		return r.odd.ID != ""
	}
	return r.has&hasID != 0
}

// SameID reports whether r and o name the same blob (r.ID() == o.ID()).
func (r Ref) SameID(o Ref) bool {
	if r.odd != nil || o.odd != nil {
		return r.ID() == o.ID()
	}
	return r.has&hasID == o.has&hasID && r.pre == o.pre && r.id == o.id
}

func (r Ref) appendID(b []byte) []byte {
	if r.has&hasID == 0 {
		return b
	}
	if r.pre != 0 {
		b = append(b, r.pre)
	}
	return hex.AppendEncode(b, r.id[:])
}

// SHA1 is the lower-case hex SHA1 of the blob's bytes.
func (r Ref) SHA1() string {
	if r.odd != nil {
		return r.odd.SHA1
	}
	return string(r.AppendSHA1(nil))
}

// Packed reports whether r holds its id and SHA1 as bytes: both are of
// the forms a Ref holds (lower-case hex digits, an id's letter before
// them), or empty.
func (r Ref) Packed() bool { return r.odd == nil }

// AppendSHA1 appends SHA1() to b.
func (r Ref) AppendSHA1(b []byte) []byte {
	if r.odd != nil {
		return append(b, r.odd.SHA1...)
	}
	if r.has&hasSHA1 == 0 {
		return b
	}
	return hex.AppendEncode(b, r.sha[:])
}
