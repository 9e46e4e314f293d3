package state

import (
	"time"
)

// Machinery shared by the governance resources (retention.go,
// retention_assignments.go, legalholds.go, legalhold_assignments.go; their
// transactions in internal/governance).

// defaultLegalHoldDelay is how long a legal hold policy stays "applying"
// after it is created, and "releasing" after its release is asked for (and a
// deleted assignment stays listed), when Options.LegalHoldReleaseDelay is 0.
const defaultLegalHoldDelay = 2 * time.Second

// filesUnder lists the files of it: it itself when it is a file, every file
// below it when it is a folder.
func (s *Tx) filesUnder(it *Item) []*Item {
	if it.Typ == "file" {
		return []*Item{it}
	}
	var out []*Item
	for _, c := range s.subItems(it) {
		if c.Trashed() && c.TrashedWith() == "" {
			continue // in the trash on its own: not deleted with it (as removeTree)
		}
		out = append(out, s.filesUnder(c)...)
	}
	return out
}
