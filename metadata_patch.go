package cms

import (
	"bytes"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// PatchOpKind is the op of a JSON-Patch operation (RFC 6902).
type PatchOpKind string

// The JSON-Patch operations.
const (
	PatchOpKindAdd     PatchOpKind = "add"
	PatchOpKindReplace PatchOpKind = "replace"
	PatchOpKindRemove  PatchOpKind = "remove"
	PatchOpKindTest    PatchOpKind = "test"
	PatchOpKindMove    PatchOpKind = "move"
	PatchOpKindCopy    PatchOpKind = "copy"
)

// PatchOperation is one JSON-Patch operation as sent. Path and From are
// JSON Pointers (RFC 6901); MetadataPatch builds them from keys.
type PatchOperation struct {
	Op    PatchOpKind     `json:"op"`
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value,omitzero"`
	From  string          `json:"from,omitzero"`
}

// MetadataPatch builds the JSON-Patch of MetadataService.Update. Its
// methods take template field keys and escape them as JSON Pointers ("~"
// and "/" become "~0" and "~1"); values are encoded by MetadataValue
// (time.Time becomes the service's date form). The first bad argument is
// kept and returned by Update, so calls chain:
//
//	p := cms.NewMetadataPatch().Replace("status", "signed").Remove("draft")
type MetadataPatch struct {
	ops []PatchOperation
	err error
}

// NewMetadataPatch returns an empty patch.
func NewMetadataPatch() *MetadataPatch { return &MetadataPatch{} }

// JSONPointer joins reference tokens into a JSON Pointer, escaping "~" and
// "/" in each (RFC 6901): JSONPointer("a/b") is "/a~1b".
func JSONPointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

// keyPath checks a key and returns its pointer.
func (p *MetadataPatch) keyPath(key string) (string, bool) {
	if p.err != nil {
		return "", false
	}
	if key == "" || strings.HasPrefix(key, "$") {
		p.err = invalidArg("patch key", quoteArg(key)+" is empty or a system key")
		return "", false
	}
	return JSONPointer(key), true
}

// withValue appends an operation on key with an encoded value.
func (p *MetadataPatch) withValue(op PatchOpKind, key string, value any) *MetadataPatch {
	path, ok := p.keyPath(key)
	if !ok {
		return p
	}
	raw, err := MetadataValue(value)
	if err != nil {
		p.err = err
		return p
	}
	p.ops = append(p.ops, PatchOperation{Op: op, Path: path, Value: raw})
	return p
}

// withFrom appends a move or copy from one key to another.
func (p *MetadataPatch) withFrom(op PatchOpKind, from, to string) *MetadataPatch {
	fromPath, ok := p.keyPath(from)
	if !ok {
		return p
	}
	if path, ok := p.keyPath(to); ok {
		p.ops = append(p.ops, PatchOperation{Op: op, Path: path, From: fromPath})
	}
	return p
}

// Add sets key to value, replacing any value it has.
func (p *MetadataPatch) Add(key string, value any) *MetadataPatch {
	return p.withValue(PatchOpKindAdd, key, value)
}

// Replace sets key to value; the key must have a value already.
func (p *MetadataPatch) Replace(key string, value any) *MetadataPatch {
	return p.withValue(PatchOpKindReplace, key, value)
}

// Remove deletes key.
func (p *MetadataPatch) Remove(key string) *MetadataPatch {
	path, ok := p.keyPath(key)
	if ok {
		p.ops = append(p.ops, PatchOperation{Op: PatchOpKindRemove, Path: path})
	}
	return p
}

// Test requires key to equal value, or the whole patch fails (409
// failed_json_patch_application) and nothing is applied.
func (p *MetadataPatch) Test(key string, value any) *MetadataPatch {
	return p.withValue(PatchOpKindTest, key, value)
}

// Move moves the value of from to to.
func (p *MetadataPatch) Move(from, to string) *MetadataPatch {
	return p.withFrom(PatchOpKindMove, from, to)
}

// Copy copies the value of from to to.
func (p *MetadataPatch) Copy(from, to string) *MetadataPatch {
	return p.withFrom(PatchOpKindCopy, from, to)
}

// TestAndReplace replaces key's value with newValue only if it still is
// oldValue: an optimistic update that fails with ErrFailedJSONPatch when
// someone changed the value meanwhile.
func (p *MetadataPatch) TestAndReplace(key string, oldValue, newValue any) *MetadataPatch {
	return p.Test(key, oldValue).Replace(key, newValue)
}

// Op appends an operation as it is, for paths MetadataPatch does not build
// (Path and From must be JSON Pointers already; see JSONPointer).
func (p *MetadataPatch) Op(op PatchOperation) *MetadataPatch {
	if p.err != nil {
		return p
	}
	switch {
	case !slices.Contains([]PatchOpKind{PatchOpKindAdd, PatchOpKindReplace, PatchOpKindRemove, PatchOpKindTest, PatchOpKindMove, PatchOpKindCopy}, op.Op):
		p.err = invalidArg("patch op", quoteArg(string(op.Op)))
	case !strings.HasPrefix(op.Path, "/"):
		p.err = invalidArg("patch path", quoteArg(op.Path)+" is not a JSON Pointer")
	case (op.Op == PatchOpKindMove || op.Op == PatchOpKindCopy) && !strings.HasPrefix(op.From, "/"):
		p.err = invalidArg("patch from", quoteArg(op.From)+" is not a JSON Pointer")
	case (op.Op == PatchOpKindAdd || op.Op == PatchOpKindReplace || op.Op == PatchOpKindTest) && !json.Valid(op.Value):
		p.err = invalidArg("patch value", "not valid JSON")
	default:
		p.ops = append(p.ops, op)
	}
	return p
}

// Operations returns a copy of the operations built so far.
func (p *MetadataPatch) Operations() []PatchOperation { return slices.Clone(p.ops) }

// Err returns the first bad argument given to the builder, if any.
func (p *MetadataPatch) Err() error { return p.err }

// MarshalJSON writes the operations as a JSON-Patch array, or fails with
// the builder's error.
func (p *MetadataPatch) MarshalJSON() ([]byte, error) {
	if p.err != nil {
		return nil, p.err
	}
	if p.ops == nil {
		return []byte("[]"), nil
	}
	return json.Marshal(p.ops)
}

// DiffMetadata returns the patch that turns the custom values of old into
// those of new: add for new keys, replace for changed ones, remove for keys
// new lacks. old and new are structs, maps or *MetadataInstance (see
// MetadataValues); "$" keys are ignored. Equal values give an empty patch.
func DiffMetadata(old, new any) (*MetadataPatch, error) { return diffMetadata(old, new, false) }

// DiffMetadataTested is DiffMetadata with a test of the old value before
// each replace and remove: the update applies only if nobody changed those
// values since old was read (optimistic concurrency).
func DiffMetadataTested(old, new any) (*MetadataPatch, error) { return diffMetadata(old, new, true) }

func diffMetadata(old, new any, tested bool) (*MetadataPatch, error) {
	a, err := MetadataValues(old)
	if err != nil {
		return nil, err
	}
	b, err := MetadataValues(new)
	if err != nil {
		return nil, err
	}
	p := NewMetadataPatch()
	keys := slices.Sorted(maps.Keys(a))
	for _, k := range slices.Sorted(maps.Keys(b)) {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		av, inOld := a[k]
		bv, inNew := b[k]
		switch {
		case !inOld:
			p.Add(k, bv)
		case !inNew:
			if tested {
				p.Test(k, av)
			}
			p.Remove(k)
		case !jsonEqual(av, bv):
			if tested {
				p.Test(k, av)
			}
			p.Replace(k, bv)
		}
	}
	return p, p.err
}

// jsonEqual compares two JSON values by meaning (key order, spacing and
// number spelling aside).
func jsonEqual(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
