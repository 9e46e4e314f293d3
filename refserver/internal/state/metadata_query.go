package state

import (
	"strings"
)

// MetadataFields answers the metadata.<scope>.<key>[.<field>] entries of a
// fields list for one item: {scope: {key: instance}}; nil when none is
// requested or applied. full (GET /files/{id}, GET /folders/{id}) gives
// each instance's full record; otherwise (query results) its base record
// plus the fields named. Unknown templates and fields are left out, as
// unknown fields are.
func (s *Tx) MetadataFields(it *Item, fields []string, full bool) map[string]any {
	var out map[string]any
	for _, f := range fields {
		rest, ok := strings.CutPrefix(f, "metadata.")
		if !ok {
			continue
		}
		parts := strings.SplitN(rest, ".", 3)
		if len(parts) < 2 {
			continue
		}
		scope := s.ScopeKind(parts[0])
		if scope == "" || scope == "other" {
			continue
		}
		t := s.Template(scope, parts[1])
		if t == nil {
			continue
		}
		in := t.Instances[s.Items.Ref(it)]
		if in == nil {
			continue
		}
		if out == nil {
			out = map[string]any{}
		}
		byKey, _ := out[scope].(map[string]any)
		if byKey == nil {
			byKey = map[string]any{}
			out[scope] = byKey
		}
		rec, _ := byKey[t.Key].(map[string]any)
		if rec == nil {
			if full {
				rec = in.Record()
			} else {
				rec = in.base()
			}
			byKey[t.Key] = rec
		}
		if len(parts) == 3 {
			if v, ok := in.Values.Get(parts[2]); ok {
				rec[parts[2]] = v.JSON()
			}
		}
	}
	return out
}
