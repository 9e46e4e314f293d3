package refserver

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// patchOp is one operation of an instance update (RFC 6902).
type patchOp struct {
	Op    *string         `json:"op"`
	Path  *string         `json:"path"`
	Value json.RawMessage `json:"value"`
	From  *string         `json:"from"`
}

// decodeInstancePatch checks the body of an instance update and decodes
// it for the patch library: a JSON array of operation objects with no
// other members; op one of add, replace, remove, test, move, copy; path
// (and from for move and copy) a JSON Pointer below the root that does not
// name a $-system key; value (add, replace, test) a string, a number or an
// array of strings (spec MetadataInstanceValue). Anything else is 400
// bad_request, as the spec says for "not an array of valid JSON Patch
// objects". It is the parser of untrusted input fuzzed by
// FuzzMetadataPatchDecode.
func decodeInstancePatch(b []byte) (jsonpatch.Patch, *wire.Error) {
	var ops []patchOp
	if aerr := wire.DecodeJSON(bytes.NewReader(b), &ops); aerr != nil {
		return nil, aerr
	}
	if ops == nil {
		return nil, wire.BadRequest("The body must be an array of JSON Patch operations")
	}
	for i, op := range ops {
		if aerr := checkPatchOp(op); aerr != nil {
			aerr.Message = "Operation " + strconv.Itoa(i) + ": " + aerr.Message
			return nil, aerr
		}
	}
	patch, err := jsonpatch.DecodePatch(b)
	if err != nil {
		return nil, wire.BadRequest("The body must be an array of JSON Patch operations")
	}
	return patch, nil
}

func checkPatchOp(op patchOp) *wire.Error {
	if op.Op == nil || op.Path == nil {
		return wire.BadRequest("op and path are required")
	}
	if aerr := checkPointer(*op.Path, "path"); aerr != nil {
		return aerr
	}
	needValue, needFrom := false, false
	switch *op.Op {
	case "add", "replace", "test":
		needValue = true
	case "move", "copy":
		needFrom = true
	case "remove":
	default:
		return wire.BadRequest("Invalid op %q", *op.Op)
	}
	if needValue != (op.Value != nil) {
		if needValue {
			return wire.BadRequest("op %s needs a value", *op.Op)
		}
		return wire.BadRequest("op %s takes no value", *op.Op)
	}
	if needValue && !validInstanceValue(op.Value) {
		return wire.BadRequest("value must be a string, a number or an array of strings")
	}
	if needFrom != (op.From != nil) {
		if needFrom {
			return wire.BadRequest("op %s needs from", *op.Op)
		}
		return wire.BadRequest("op %s takes no from", *op.Op)
	}
	if needFrom {
		return checkPointer(*op.From, "from")
	}
	return nil
}

// checkPointer accepts a JSON Pointer (RFC 6901) below the root whose
// first token is not a $-system key; "~" must be followed by 0 or 1.
func checkPointer(p, what string) *wire.Error {
	if !strings.HasPrefix(p, "/") || len(p) < 2 {
		return wire.BadRequest("%s must be a JSON Pointer to a key, like /amount", what)
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 == len(p) || p[i+1] != '0' && p[i+1] != '1') {
			return wire.BadRequest("%s has an invalid ~ escape", what)
		}
	}
	if p[1] == '$' {
		return wire.BadRequest("%s names a system key; only custom values can be changed", what)
	}
	return nil
}

// validInstanceValue reports whether raw is a string, a number or an array
// of strings.
func validInstanceValue(raw json.RawMessage) bool {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return false
	}
	switch x := v.(type) {
	case string, json.Number:
		return true
	case []any:
		_, ok := state.StringList(x)
		return ok
	}
	return false
}
