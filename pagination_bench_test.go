package cms

import (
	"fmt"
	"strings"
	"testing"
)

// itemsPage is a marker page of n file minis as the reference server sends
// them for GET /folders/{id}/items?usemarker=true.
func itemsPage(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"entries":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		sha := fmt.Sprintf("%040x", i*7919)
		fmt.Fprintf(&b, `{"etag":"0","file_version":{"id":"%d","sha1":"%s","type":"file_version"},"id":"%d","name":"file-%06d.txt","sequence_id":"0","sha1":"%s","type":"file"}`,
			100000000000+2*i+1, sha, 100000000000+2*i, i, sha)
	}
	b.WriteString(`],"limit":1000,"next_marker":"MTAwMA","order":[{"by":"type","direction":"ASC"},{"by":"name","direction":"ASC"}],"prev_marker":null}`)
	return []byte(b.String())
}

// BenchmarkDecodeItemsPage decodes a page of 1000 folder entries, the
// client-side cost of listing a large folder.
func BenchmarkDecodeItemsPage(b *testing.B) {
	page := itemsPage(1000)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		var p MarkerPage[*Item]
		if err := decodeJSON(page, &p); err != nil || len(p.Entries) != 1000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeItemsPageParallel decodes pages of 100 entries from
// several goroutines at once.
func BenchmarkDecodeItemsPageParallel(b *testing.B) {
	page := itemsPage(100)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			var p MarkerPage[*Item]
			if err := decodeJSON(page, &p); err != nil || len(p.Entries) != 100 {
				b.Fatal(err)
			}
		}
	})
}
