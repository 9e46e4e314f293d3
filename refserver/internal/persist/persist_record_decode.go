package persist

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// Item and version records are most of what a restart reads (issue 35:
// a million files). They decode themselves (recordDecoder) without the
// reflection of encoding/json: a record in the shape appendRecord and
// encoding/json write (members by their exact names, each once, values of
// their types) is read here into what encoding/json would give; anything
// else (a member of another case, a duplicate, a null, a number with a
// fraction, a string encoding/json would repair) makes decodeRecord report
// false, and the record is read by encoding/json, whose strictness decides
// (KindOf). The rare parts (a shared link, a lock, tags, folder settings)
// go through encoding/json here too.

// recordDecoder is a record type that decodes itself, as encoding/json
// would with DisallowUnknownFields, when the record is in the shape it
// knows; false: read it with encoding/json instead (from a zero record).
type recordDecoder interface{ decodeRecord([]byte) bool }

// fastDecoder is the decoding of R's records without encoding/json
// (recordDecoder; false: read it with encoding/json instead, from a zero
// record), nil for a type that has none. It decodes into *r, which must
// be zero: a batch of the load decodes into its own array, so that no
// record goes to the heap on its own (issue 35: at a million files those
// were 430 MB of the load's garbage).
//
// The scanner s reads b; one scanner can read a batch of records, one
// after the other, and then shares what they repeat (scanner.reset).
func fastDecoder[R any]() func(s *scanner, b []byte, r *R) bool {
	var f any
	switch any(*new(R)).(type) {
	case RecItem:
		f = func(s *scanner, b []byte, r *RecItem) bool { return r.decodeIn(s.reset(b)) }
	case recVersion:
		f = func(s *scanner, b []byte, r *recVersion) bool { return r.decodeIn(s.reset(b)) }
	case recEvent:
		f = func(s *scanner, b []byte, r *recEvent) bool { return r.decodeIn(s.reset(b)) }
	case recInstance:
		f = func(s *scanner, b []byte, r *recInstance) bool { return r.decodeIn(s.reset(b)) }
	}
	dec, _ := f.(func(*scanner, []byte, *R) bool)
	return dec
}

// scanner reads one JSON document, or one after the other (reset). What
// it read last of a few kinds of values is kept, so that a repeat (within
// a record or in the next one) is neither parsed nor allocated again: a
// record's times are mostly one instant (created, modified, content
// created and modified), one user made it, and records read in key order
// are mostly of one folder, made at about the same time.
type scanner struct {
	b []byte
	i int
	// lastTime is the last time read; timeRaw[:timeLen] the bytes it was
	// read from (timeLen 0: none).
	lastTime time.Time
	timeRaw  [40]byte
	timeLen  int
	// user, parent and template are the last user id, parent id and
	// metadata template id read.
	user, parent, template string
}

// reset makes s read b, from its start, keeping what it read last.
func (s *scanner) reset(b []byte) *scanner {
	s.b, s.i = b, 0
	return s
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next skips white space and consumes c if it comes next.
func (s *scanner) next(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// rawString consumes a string and returns what is between its quotes;
// plain is false when it holds an escape or a byte that is not ASCII (its
// value is then not those bytes as they are, or may not be). The closing
// quote is found with bytes.IndexByte; only a string with an escape
// before it is read byte by byte.
func (s *scanner) rawString() (raw []byte, plain, ok bool) {
	if !s.next('"') {
		return nil, false, false
	}
	start := s.i
	if n := bytes.IndexByte(s.b[start:], '"'); n >= 0 {
		raw = s.b[start : start+n]
		plain = true
		for _, c := range raw {
			if c < 0x20 || c >= utf8.RuneSelf || c == '\\' {
				plain = false
				break
			}
		}
		if plain {
			s.i = start + n + 1
			return raw, true, true
		}
	}
	plain = true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			raw = s.b[start:s.i]
			s.i++
			return raw, plain, true
		case c == '\\':
			plain = false
			s.i += 2
			continue
		case c < 0x20:
			return nil, false, false
		case c >= utf8.RuneSelf:
			plain = false
		}
		s.i++
	}
	return nil, false, false
}

// str consumes a string and returns its value.
func (s *scanner) str() (string, bool) {
	start := s.i
	raw, plain, ok := s.rawString()
	return s.strOf(start, raw, plain, ok)
}

// strBytes consumes a string and returns its value's bytes: the record's
// own when it has no escape (valid while the record is).
func (s *scanner) strBytes() ([]byte, bool) {
	start := s.i
	raw, plain, ok := s.rawString()
	if ok && plain {
		return raw, true
	}
	v, ok := s.strOf(start, raw, plain, ok)
	return []byte(v), ok
}

// strRepeat consumes a string and returns its value: *last when it is the
// same (no allocation), else the value, which becomes *last.
func (s *scanner) strRepeat(last *string) (string, bool) {
	start := s.i
	raw, plain, ok := s.rawString()
	if ok && plain && string(raw) == *last {
		return *last, true
	}
	v, ok := s.strOf(start, raw, plain, ok)
	if ok {
		*last = v
	}
	return v, ok
}

// strOf is the value of the string that rawString read from start.
func (s *scanner) strOf(start int, raw []byte, plain, ok bool) (string, bool) {
	if !ok {
		return "", false
	}
	if plain || !bytes.ContainsRune(raw, '\\') && utf8.Valid(raw) {
		return string(raw), true
	}
	var v string // escapes: encoding/json's rules (rare in records)
	if err := json.Unmarshal(s.b[start:s.i], &v); err != nil {
		return "", false
	}
	return v, true
}

// kind consumes a string that is one of the few values a field takes and
// returns it without allocating, or its value.
func (s *scanner) kind(known ...string) (string, bool) {
	start := s.i
	raw, plain, ok := s.rawString()
	if !ok {
		return "", false
	}
	if plain {
		for _, k := range known {
			if string(raw) == k {
				return k, true
			}
		}
	}
	s.i = start
	return s.str()
}

// time consumes a time as encoding/json reads a time.Time.
// The zero time (a file never trashed) and a repeat of the last time read
// are not parsed again.
func (s *scanner) time() (time.Time, bool) {
	raw, plain, ok := s.rawString()
	if !ok || !plain {
		return time.Time{}, false
	}
	if string(raw) == zeroTimeText {
		return time.Time{}, true
	}
	if s.timeLen > 0 && string(raw) == string(s.timeRaw[:s.timeLen]) {
		return s.lastTime, true
	}
	var t time.Time
	if t.UnmarshalText(raw) != nil {
		return time.Time{}, false
	}
	if len(raw) <= len(s.timeRaw) {
		s.lastTime, s.timeLen = t, copy(s.timeRaw[:], raw)
	}
	return t, true
}

// zeroTimeText is the zero time.Time as encoding/json writes it.
const zeroTimeText = "0001-01-01T00:00:00Z"

// int consumes an integer (no fraction, no exponent).
func (s *scanner) int() (int64, bool) {
	s.ws()
	start := s.i
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
	}
	n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
	if err != nil || s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	if len(s.b[start:s.i]) > 1 && s.b[start] == '0' || len(s.b[start:s.i]) > 2 && s.b[start] == '-' && s.b[start+1] == '0' {
		return 0, false // a leading zero: not JSON
	}
	return n, true
}

// intNative consumes an integer that fits an int (a record's int field:
// encoding/json refuses a larger one).
func (s *scanner) intNative() (int, bool) {
	n, ok := s.int()
	return int(n), ok && int64(int(n)) == n
}

// bool consumes true or false.
func (s *scanner) bool() (bool, bool) {
	s.ws()
	switch {
	case bytes.HasPrefix(s.b[s.i:], []byte("true")):
		s.i += 4
		return true, true
	case bytes.HasPrefix(s.b[s.i:], []byte("false")):
		s.i += 5
		return false, true
	}
	return false, false
}

// value consumes any value and returns its bytes (strings, objects and
// arrays matched, not checked: encoding/json reads them after).
func (s *scanner) value() ([]byte, bool) {
	s.ws()
	start, depth := s.i, 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			if _, _, ok := s.rawString(); !ok {
				return nil, false
			}
			if depth == 0 {
				return s.b[start:s.i], true
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 { // the end of a literal
				return s.b[start:s.i], s.i > start
			}
			if depth--; depth == 0 {
				s.i++
				return s.b[start:s.i], true
			}
		case ',', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return s.b[start:s.i], s.i > start
			}
		}
		s.i++
	}
	return s.b[start:s.i], depth == 0 && s.i > start
}

// strict consumes a value and decodes it into v as a record's member is
// (unknown members are errors); null is refused (the caller's fallback
// reads it).
func (s *scanner) strict(v any) bool {
	raw, ok := s.value()
	if !ok || string(raw) == "null" {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v) == nil && !dec.More()
}

// members reads an object, calling member for each member with its
// name's index in names (each at most once; a name not there, or twice,
// fails), which consumes the value.
func (s *scanner) members(names []string, member func(i int) bool) bool {
	if !s.next('{') {
		return false
	}
	if s.next('}') {
		return true
	}
	var seen uint64
	i := -1
	for {
		raw, plain, ok := s.rawString()
		if !ok || !plain {
			return false
		}
		// Records are written in names' order: the name after the last
		// one is tried first.
		if i++; i >= len(names) || names[i] != string(raw) {
			i = 0
			for i < len(names) && names[i] != string(raw) {
				i++
			}
		}
		if i == len(names) || seen&(1<<i) != 0 || !s.next(':') || !member(i) {
			return false
		}
		seen |= 1 << i
		if s.next('}') {
			return true
		}
		if !s.next(',') {
			return false
		}
	}
}

// itemFields are RecItem's members, in the order of the cases of
// decodeRecord.
var itemFields = []string{"Type", "Name", "ParentID", "Owner", "CreatedBy", "ModifiedBy", "Description",
	"CreatedAt", "ModifiedAt", "ContentCreatedAt", "ContentModifiedAt", "Seq", "SyncState", "UploadEmail", "Hidden",
	"Versions", "ReadyAt", "URL", "Link", "TrashedAt", "TrashedWith", "ID", "Tags", "Lock", "DownloadAccess", "FolderSettings"}

func (r *RecItem) decodeRecord(b []byte) bool { return r.decodeIn(new(scanner).reset(b)) }

// decodeIn reads the record s is reset to (decodeRecord).
func (r *RecItem) decodeIn(s *scanner) bool {
	ok := s.members(itemFields, func(i int) (ok bool) {
		switch i {
		case 0:
			r.Type, ok = s.kind("file", "folder", "web_link")
		case 1:
			r.Name, ok = s.str()
		case 2:
			r.ParentID, ok = s.strRepeat(&s.parent)
		case 3:
			r.Owner, ok = s.strRepeat(&s.user)
		case 4:
			r.CreatedBy, ok = s.strRepeat(&s.user)
		case 5:
			r.ModifiedBy, ok = s.strRepeat(&s.user)
		case 6:
			r.Description, ok = s.str()
		case 7:
			r.CreatedAt, ok = s.time()
		case 8:
			r.ModifiedAt, ok = s.time()
		case 9:
			r.ContentCreatedAt, ok = s.time()
		case 10:
			r.ContentModifiedAt, ok = s.time()
		case 11:
			r.Seq, ok = s.intNative()
		case 12:
			r.SyncState, ok = s.kind("", "synced", "not_synced", "partially_synced")
		case 13:
			r.UploadEmail, ok = s.str()
		case 14:
			r.Hidden, ok = s.bool()
		case 15:
			r.Versions, ok = s.versions()
		case 16:
			r.ReadyAt, ok = s.time()
		case 17:
			r.URL, ok = s.str()
		case 18:
			if s.next('n') { // null, as encoding/json writes no link
				ok = s.literal("ull")
			} else {
				ok = s.strict(&r.Link)
			}
		case 19:
			r.TrashedAt, ok = s.time()
		case 20:
			r.TrashedWith, ok = s.str()
		case 21:
			r.ID, ok = s.str()
		case 22:
			ok = s.strict(&r.Tags)
		case 23:
			ok = s.strict(&r.Lock)
		case 24:
			r.DownloadAccess, ok = s.kind("company", "open")
		case 25:
			ok = s.strict(&r.FolderSettings)
		}
		return ok
	})
	return ok && s.end()
}

// literal consumes the rest of a literal.
func (s *scanner) literal(rest string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(rest)) {
		return false
	}
	s.i += len(rest)
	return true
}

// versions consumes an array of version records.
func (s *scanner) versions() ([]recVersion, bool) {
	if !s.next('[') {
		return nil, false
	}
	vs := []recVersion{}
	if s.next(']') {
		return vs, true
	}
	for {
		var v recVersion
		if !v.decode(s) {
			return nil, false
		}
		vs = append(vs, v)
		if s.next(']') {
			return vs, true
		}
		if !s.next(',') {
			return nil, false
		}
	}
}

// versionFields are recVersion's members, in the order of the cases of
// decode.
var versionFields = []string{"ID", "Blob", "CreatedAt", "By", "Name", "TrashedAt", "RestoredAt", "TrashedBy", "RestoredBy"}

// blobFields are blob.Info's members.
var blobFields = []string{"ID", "Size", "SHA1"}

func (v *recVersion) decodeRecord(b []byte) bool { return v.decodeIn(new(scanner).reset(b)) }

// decodeIn reads the record s is reset to (decodeRecord).
func (v *recVersion) decodeIn(s *scanner) bool { return v.decode(s) && s.end() }

func (v *recVersion) decode(s *scanner) bool {
	return s.members(versionFields, func(i int) (ok bool) {
		switch i {
		case 0:
			v.ID, ok = s.str()
		case 1:
			// The id and SHA1 are read into the Ref as bytes: no strings.
			var id, sha1 []byte
			var size int64
			ok = s.members(blobFields, func(i int) (ok bool) {
				switch i {
				case 0:
					id, ok = s.strBytes()
				case 1:
					size, ok = s.int()
				case 2:
					sha1, ok = s.strBytes()
				}
				return ok
			})
			v.Blob = recBlob{blob.ParseRef(id, sha1, size)}
		case 2:
			v.CreatedAt, ok = s.time()
		case 3:
			v.By, ok = s.strRepeat(&s.user)
		case 4:
			v.Name, ok = s.str()
		case 5:
			v.TrashedAt, ok = s.time()
		case 6:
			v.RestoredAt, ok = s.time()
		case 7:
			v.TrashedBy, ok = s.strRepeat(&s.user)
		case 8:
			v.RestoredBy, ok = s.strRepeat(&s.user)
		}
		return ok
	})
}

// eventFields are recEvent's members, in the order of the cases of
// decodeRecord.
var eventFields = []string{"Seq", "ID", "Type", "Admin", "By", "At", "ItemID", "OwnerID", "Source", "AdminSource", "Under"}

func (r *recEvent) decodeRecord(b []byte) bool { return r.decodeIn(new(scanner).reset(b)) }

// decodeIn reads the record s is reset to (decodeRecord).
func (r *recEvent) decodeIn(s *scanner) bool {
	raw := func() (json.RawMessage, bool) { // as encoding/json copies it
		v, ok := s.value()
		if !ok || string(v) == "null" || !json.Valid(v) {
			return nil, false
		}
		return bytes.Clone(v), true
	}
	ok := s.members(eventFields, func(i int) (ok bool) {
		switch i {
		case 0:
			r.Seq, ok = s.int()
		case 1:
			r.ID, ok = s.str()
		case 2:
			r.Type, ok = s.str()
		case 3:
			r.Admin, ok = s.str()
		case 4:
			r.By, ok = s.str()
		case 5:
			r.At, ok = s.time()
		case 6:
			r.ItemID, ok = s.str()
		case 7:
			r.OwnerID, ok = s.str()
		case 8:
			r.Source, ok = raw()
		case 9:
			r.AdminSource, ok = raw()
		case 10:
			ok = s.strict(&r.Under)
		}
		return ok
	})
	return ok && s.end()
}

// instanceFields are recInstance's members, valFields recVal's, in the
// order of the cases of their decoding.
var (
	instanceFields = []string{"Template", "Item", "Seq", "Version", "Values"}
	valFields      = []string{"Kind", "S", "F", "List"}
)

func (r *recInstance) decodeRecord(b []byte) bool { return r.decodeIn(new(scanner).reset(b)) }

// decodeIn reads the record s is reset to (decodeRecord). A value with a
// float (F) is left to encoding/json, as is a key given twice.
func (r *recInstance) decodeIn(s *scanner) bool {
	ok := s.members(instanceFields, func(i int) (ok bool) {
		switch i {
		case 0:
			r.Template, ok = s.strRepeat(&s.template)
		case 1:
			r.Item, ok = s.str()
		case 2:
			r.Seq, ok = s.int()
		case 3:
			r.Version, ok = s.intNative()
		case 4:
			r.Values, ok = s.values()
		}
		return ok
	})
	return ok && s.end()
}

// values consumes an instance's values (an object, not null).
func (s *scanner) values() (map[string]recVal, bool) {
	if !s.next('{') {
		return nil, false
	}
	vals := map[string]recVal{}
	if s.next('}') {
		return vals, true
	}
	for {
		key, ok := s.str()
		if _, twice := vals[key]; !ok || twice || !s.next(':') {
			return nil, false
		}
		var v recVal
		ok = s.members(valFields, func(i int) (ok bool) {
			switch i {
			case 0:
				var n int64
				n, ok = s.int()
				v.Kind = byte(n)
				ok = ok && n >= 0 && n <= 255
			case 1:
				v.S, ok = s.str()
			case 3:
				ok = s.strict(&v.List)
			}
			return ok // F (case 2): encoding/json's float parsing
		})
		if !ok {
			return nil, false
		}
		vals[key] = v
		if s.next('}') {
			return vals, true
		}
		if !s.next(',') {
			return nil, false
		}
	}
}
