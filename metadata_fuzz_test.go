package cms

import (
	"encoding/json"
	"testing"
)

// FuzzMetadataInstance feeds arbitrary JSON to the instance decoder: it
// must never panic; a decoded instance marshals, decodes again to the same
// system fields and custom values, diffs to nothing against itself, and
// its getters fail cleanly on any value.
func FuzzMetadataInstance(f *testing.F) {
	f.Add([]byte(`{"$id":"u","$parent":"file_1","$scope":"enterprise_1","$template":"t","$version":3,"$canEdit":true,"a":1.5,"b":"x","c":["y"],"d":null}`))
	f.Add([]byte(`{"$version":"7","$typeVersion":null,"$x":{"y":[1]},"big":123456789012345678901234567890}`))
	f.Add([]byte(`{"a/b~c":"2026-01-01T00:00:00.000Z","$canEdit":"yes"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"entries":[{"type":"file","id":"1","metadata":{"global":{"properties":{"k":"v"}}}}],"next_marker":7}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var page MarkerPage[*MetadataQueryEntry]
		if json.Unmarshal(b, &page) == nil {
			for _, e := range page.Entries {
				if e != nil {
					_, _ = e.Metadata(MetadataScopeGlobal, "properties")
					_, _ = e.Metadata(MetadataScopeEnterprise, "t")
				}
			}
		}
		var m MetadataInstance
		if err := json.Unmarshal(b, &m); err != nil {
			return
		}
		for k := range m.Values {
			_, _ = m.String(k)
			_, _ = m.Float64(k)
			_, _ = m.Number(k)
			_, _ = m.Time(k)
			_, _ = m.Strings(k)
			_, _ = m.Int64(k)
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("marshal of a decoded instance: %v", err)
		}
		var again MetadataInstance
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("re-decode %s: %v", out, err)
		}
		if again.ID != m.ID || again.Parent != m.Parent || again.Scope != m.Scope || again.Template != m.Template ||
			again.Version != m.Version || again.TypeVersion != m.TypeVersion || again.CanEdit != m.CanEdit || again.Type != m.Type {
			t.Fatalf("system keys changed: %+v vs %+v", m, again)
		}
		if len(again.Values) != len(m.Values) {
			t.Fatalf("values %d vs %d", len(m.Values), len(again.Values))
		}
		for k, v := range m.Values {
			if !jsonEqual(v, again.Values[k]) {
				t.Fatalf("value %q: %s vs %s", k, v, again.Values[k])
			}
		}
		p, err := DiffMetadata(&m, &again)
		if err != nil || len(p.Operations()) != 0 {
			t.Fatalf("self diff: %v %v", p.Operations(), err)
		}
	})
}

// FuzzMetadataPatchKeys checks that any key becomes a JSON Pointer whose
// single token decodes back to the key (RFC 6901).
func FuzzMetadataPatchKeys(f *testing.F) {
	for _, s := range []string{"a", "a/b", "~0", "~1/~", "", "$x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		p := JSONPointer(key)
		if len(p) == 0 || p[0] != '/' {
			t.Fatalf("%q -> %q", key, p)
		}
		tok := p[1:]
		var dec []byte
		for i := 0; i < len(tok); i++ {
			switch {
			case tok[i] == '/':
				t.Fatalf("unescaped / in %q", p)
			case tok[i] == '~' && i+1 < len(tok) && tok[i+1] == '0':
				dec = append(dec, '~')
				i++
			case tok[i] == '~' && i+1 < len(tok) && tok[i+1] == '1':
				dec = append(dec, '/')
				i++
			case tok[i] == '~':
				t.Fatalf("bad escape in %q", p)
			default:
				dec = append(dec, tok[i])
			}
		}
		if string(dec) != key {
			t.Fatalf("%q -> %q -> %q", key, p, dec)
		}
	})
}
