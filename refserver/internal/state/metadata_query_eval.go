package state

import (
	"strings"
)

// CmpVals orders two non-null values of one field: numbers and dates by
// value, strings (and enum keys) byte-wise, i.e. case-sensitively.
func CmpVals(a, b MDVal) int {
	if a.Kind == ValNumber || a.Kind == ValDate {
		switch {
		case a.F < b.F:
			return -1
		case a.F > b.F:
			return 1
		}
		return 0
	}
	return strings.Compare(a.S, b.S)
}
