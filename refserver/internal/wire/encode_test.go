package wire

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"
)

// randomValue builds a record-like value of the kinds Marshal writes
// itself and a few it hands to encoding/json.
func randomValue(r *rand.Rand, depth int) any {
	strs := []string{"", "a", "file", "<b>&</b>", "ü\u2028x", "\x00\t\"\\", "\xff\xfe", "2025-01-01T00:00:00-08:00", "日本"}
	k := r.IntN(14)
	if depth > 3 && k >= 8 {
		k = r.IntN(8)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return strs[r.IntN(len(strs))]
	case 2:
		return r.IntN(2) == 0
	case 3:
		return r.Int64() - r.Int64()
	case 4:
		return int(r.Int32())
	case 5:
		return r.Float64() * 1e22 // handed to encoding/json
	case 6:
		return time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC) // a Marshaler
	case 7:
		raws := []string{`{"type":"user","id":"3"}`, `{ "a" : [1, 2] }`, `{"n":"<b>"}`, "{\"n\":\"a\u2028b\"}", `"x\" y"`, `[]`}
		return json.RawMessage(raws[r.IntN(len(raws))])
	case 8:
		m := map[string]any{}
		for range r.IntN(6) {
			m[strs[r.IntN(len(strs))]+string(rune('a'+r.IntN(26)))] = randomValue(r, depth+1)
		}
		return m
	case 9:
		var s []any
		if r.IntN(4) > 0 {
			s = []any{}
		}
		for range r.IntN(4) {
			s = append(s, randomValue(r, depth+1))
		}
		return s
	case 10:
		var s []string
		if r.IntN(4) > 0 {
			s = []string{}
		}
		for range r.IntN(4) {
			s = append(s, strs[r.IntN(len(strs))])
		}
		return s
	case 11:
		m := map[string]string{}
		for range r.IntN(4) {
			m[strs[r.IntN(len(strs))]] = strs[r.IntN(len(strs))]
		}
		return m
	case 12:
		s := []map[string]any{}
		for range r.IntN(3) {
			s = append(s, map[string]any{"id": r.IntN(100), "v": randomValue(r, depth+1)})
		}
		return s
	default:
		return struct {
			A string `json:"a"`
			B *int   `json:"b"`
		}{A: "<x>"}
	}
}

func TestMarshalMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		v := randomValue(r, 0)
		want, werr := json.Marshal(v)
		got, gerr := Marshal(v)
		if (werr != nil) != (gerr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("case %d: Marshal(%#v) = %s, %v; encoding/json: %s, %v", i, v, got, gerr, want, werr)
		}
	}
}

func TestAppendPageMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 2000 {
		entries := []any{json.RawMessage(`{"type":"file","id":"1","name":"a b"}`), map[string]any{"type": "folder", "id": "2"}}
		page := map[string]any{"entries": entries[:r.IntN(3)], "total_count": r.IntN(9), "limit": 100, "next_marker": randomValue(r, 2), "an_early_key": "x"}
		if r.IntN(4) == 0 {
			delete(page, "an_early_key")
		}
		switch r.IntN(4) { // the whole array as one raw message (a page of mini records)
		case 0:
			page["entries"] = json.RawMessage(`[{"type":"file","id":"1","name":"a b"},{"id":"2","type":"folder"}]`)
		case 1:
			page["entries"] = json.RawMessage(`[]`)
		}
		want, _ := json.Marshal(page)
		got, err := AppendPage(nil, page)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("case %d: AppendPage = %s, %v; encoding/json: %s", i, got, err, want)
		}
	}
}

func TestMarshalNilsAndErrors(t *testing.T) {
	for _, v := range []any{map[string]any(nil), []any(nil), []string(nil), map[string]string(nil), []map[string]any(nil), json.RawMessage(nil)} {
		got, err := Marshal(v)
		if err != nil || string(got) != "null" {
			t.Errorf("Marshal(%#v) = %s, %v; want null", v, got, err)
		}
	}
	if _, err := Marshal(map[string]any{"c": make(chan int)}); err == nil {
		t.Error("a channel encoded without error")
	}
}

// FuzzMarshalStrings checks strings and keys of any bytes against
// encoding/json.
func FuzzMarshalStrings(f *testing.F) {
	f.Add("name", "<script>&\u2028")
	f.Add("\xff", "a\x00b")
	f.Add("raw", `{ "a" : ["<b>", 1e3] }`)
	f.Fuzz(func(t *testing.T, k, v string) {
		val := map[string]any{k: v, "list": []any{v, []string{k}}, "m": map[string]string{v: k}}
		if json.Valid([]byte(v)) {
			val["raw"] = json.RawMessage(v)
		}
		want, _ := json.Marshal(val)
		got, err := Marshal(val)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Marshal = %s, %v; encoding/json: %s", got, err, want)
		}
	})
}

func BenchmarkMarshalRecord(b *testing.B) {
	user := map[string]any{"type": "user", "id": "3", "name": "Ada Lovelace", "login": "ada@example.com"}
	folder := map[string]any{"type": "folder", "id": "12", "sequence_id": "0", "etag": "0", "name": "Reports"}
	rec := map[string]any{"type": "file", "id": "1234", "etag": "3", "sequence_id": "3", "name": "report <final>.pdf",
		"sha1": "da39a3ee5e6b4b0d3255bfef95601890afd80709", "file_version": map[string]any{"type": "file_version", "id": "77", "sha1": "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
		"description": "", "size": int64(123456), "path_collection": map[string]any{"total_count": 1, "entries": []any{folder}},
		"created_at": "2025-01-01T00:00:00-08:00", "modified_at": "2025-01-01T00:00:00-08:00", "trashed_at": nil, "purged_at": nil,
		"content_created_at": "2025-01-01T00:00:00-08:00", "content_modified_at": "2025-01-01T00:00:00-08:00",
		"created_by": user, "modified_by": user, "owned_by": user, "shared_link": nil, "parent": folder, "item_status": "active"}
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := json.Marshal(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wire", func(b *testing.B) {
		for b.Loop() {
			if _, err := Marshal(rec); err != nil {
				b.Fatal(err)
			}
		}
	})
}
