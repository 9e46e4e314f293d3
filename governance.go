package cms

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Machinery shared by the governance services (retention and legal holds).

// GovernancePageOptions page the marker-paged governance lists that have
// no filter (files and versions under retention or on hold, file version
// legal holds).
type GovernancePageOptions struct {
	// Marker is where to start: a NextMarker of an earlier page (query
	// marker); empty for the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
}

// decodeDays reads a number of days sent as a JSON number or a string of
// digits, or the one word a field allows instead ("indefinite", "none").
// null and "" read as zero.
func decodeDays(b []byte, word string) (days int, isWord bool, err error) {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		return 0, false, nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return 0, false, err
		}
		if s == word {
			return 0, true, nil
		}
		if s == "" {
			return 0, false, nil
		}
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < 0 {
		return 0, false, fmt.Errorf("cms: %q is not a number of days or %q", truncate(s, 32), word)
	}
	return int(n), false, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
