package refserver

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/stretchr/testify/require"
)

// govSnapshot is snapshot plus the retention and legal hold state, to
// check that rejected requests change nothing.
func govSnapshot(s *Server) string {
	base := snapshot(s)
	tx, end := beginTx(s.st)
	defer end()
	var lines []string
	for _, rp := range tx.Retention.PolicyOrder {
		lines = append(lines, fmt.Sprintf("rp %s %q %q %s %d %s %s %s ext=%d %v %v %d %s", rp.ID, rp.Name, rp.Description, rp.PolicyType, rp.Days,
			rp.Disposition, rp.RetentionType, rp.Status, rp.MaxExtension, rp.CanOwnerExtend, rp.OwnersNotified, len(rp.Recipients), rp.ModifiedAt))
	}
	for _, a := range tx.Retention.AssignOrder {
		lines = append(lines, fmt.Sprintf("ra %s %s %s %s %v %q", a.ID, a.Policy.ID, a.ToType, a.ToID, a.FilterFields, a.StartDateField))
	}
	for _, f := range tx.Retention.FvrOrder {
		var src []string
		for a, at := range f.Sources {
			src = append(src, a.ID+"@"+at.String())
		}
		sort.Strings(src)
		lines = append(lines, fmt.Sprintf("fvr %s %s %s %v", f.ID, f.File.ID, f.Version.ID, src))
	}
	for _, hp := range tx.Holds.PolicyOrder {
		lines = append(lines, fmt.Sprintf("hp %s %q %q %q %v %s %s %s", hp.ID, hp.Name, hp.Description, hp.ReleaseNotes, hp.Ongoing, hp.FilterStart, hp.FilterEnd, hp.Released))
	}
	for _, a := range tx.Holds.AssignOrder {
		lines = append(lines, fmt.Sprintf("ha %s %s %s %s %s", a.ID, a.Policy.ID, a.ToType, a.ToID, a.Deleted))
	}
	for _, h := range tx.Holds.HoldOrder {
		var src []string
		for _, a := range h.Sources {
			src = append(src, a.ID)
		}
		lines = append(lines, fmt.Sprintf("fvlh %s %s %s %v", h.ID, h.File.ID, h.Version.ID, src))
	}
	return base + "\n" + strings.Join(lines, "\n")
}

// admin sends a JSON request as the enterprise admin.
func (e *env) admin(method, path string, body any) (*http.Response, map[string]any) {
	e.t.Helper()
	return e.doJSON(method, e.api(path), e.s.AdminToken(), body, nil)
}

// mustAdmin sends a request as the admin and requires the status.
func (e *env) mustAdmin(status int, method, path string, body any) map[string]any {
	e.t.Helper()
	resp, m := e.admin(method, path, body)
	require.Equal(e.t, status, resp.StatusCode, "%s %s: %v", method, path, m)
	return m
}

// collectMarker pages a marker list with a small limit and returns every
// entry's id, requiring more than one page when want says so.
func (e *env) collectMarker(path string, limit int, wantPages int) []string {
	e.t.Helper()
	var ids []string
	marker := ""
	pages := 0
	for {
		u := fmt.Sprintf("%s%slimit=%d", path, sep(path), limit)
		if marker != "" {
			u += "&marker=" + url.QueryEscape(marker)
		}
		m := e.mustAdmin(http.StatusOK, "GET", u, nil)
		pages++
		require.EqualValues(e.t, limit, m["limit"])
		for _, x := range m["entries"].([]any) {
			ids = append(ids, x.(map[string]any)["id"].(string))
		}
		next, _ := m["next_marker"].(string)
		if next == "" {
			break
		}
		marker = next
		require.Less(e.t, pages, 100)
	}
	if wantPages > 0 {
		require.Equal(e.t, wantPages, pages, "pages of %s", path)
	}
	return ids
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// ids returns the ids of a list answer's entries.
func ids(m map[string]any) []string {
	var out []string
	for _, x := range m["entries"].([]any) {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	return out
}

// str reads a nested string field: str(m, "a", "b") is m["a"]["b"].
func str(m map[string]any, keys ...string) string {
	var cur any = m
	for _, k := range keys {
		mm, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = mm[k]
	}
	s, _ := cur.(string)
	return s
}

// purge deletes an item for good the way a user does: DELETE moves it to the
// trash (an item already there answers 404), then DELETE .../trash purges
// it. Retention and legal holds let the first step through and refuse the
// second. path is the item's path, with an optional query.
func (e *env) purge(token, path string) (*http.Response, map[string]any) {
	e.t.Helper()
	resp, m := e.doJSON("DELETE", e.api(path), token, nil, nil)
	if resp.StatusCode != http.StatusNoContent && resp.StatusCode != http.StatusNotFound {
		return resp, m
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return e.doJSON("DELETE", e.api(path+"/trash"), token, nil, nil)
}

// trash moves the items at paths to the trash, each answering 204.
func (e *env) trash(token string, paths ...string) {
	e.t.Helper()
	for _, path := range paths {
		resp, _ := e.do("DELETE", e.api(path), token, nil, nil)
		require.Equal(e.t, http.StatusNoContent, resp.StatusCode, "DELETE %s", path)
	}
}
