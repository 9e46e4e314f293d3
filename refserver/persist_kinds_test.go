package refserver

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryKindSurvivesARestart: the cases come from the record kinds
// (recordKinds), not from a list kept by hand, so a new kind is covered as
// soon as it is registered. The scenario makes, changes and deletes records
// of every kind through the handlers, whose transactions write them
// through the model's tables (which mark them); then, for every kind, the
// records a restarted server loads are the live ones, and the database
// holds them too. A kind the scenario makes no record of fails.
func TestEveryKindSurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	opts := Options{DataDir: dir, LegalHoldReleaseDelay: -1, ExternalUsers: []string{"guest@partner.test"}}
	e := newEnv(t, opts)
	(&scenario{t: t, e: e}).run()
	kinds := e.s.recordKinds()
	live := lockedDump(e.s)
	stored := storedDump(t, e.s)
	require.NoError(t, e.s.Close())
	e2 := newEnv(t, opts)
	require.True(t, e2.s.Restored())
	restored := lockedDump(e2.s)

	for _, k := range kinds {
		t.Run(k.Bucket, func(t *testing.T) {
			require.NotEmpty(t, live[k.Bucket], "the scenario makes no %s record: add one", k.Bucket)
			assert.Equal(t, live[k.Bucket], stored[k.Bucket], "the database holds every live %s record as it is", k.Bucket)
			assert.Equal(t, live[k.Bucket], restored[k.Bucket], "a restart gives back every %s record as it was", k.Bucket)
		})
	}
	// Fields a record kind gained later (a collaboration's grant position,
	// a superseded version's name, the folders above an event's item) are
	// covered only if the scenario sets them.
	for bucket, field := range map[string]string{"collaborations": `"GrantedSeq":`, "file_versions": `"Name":`, "events": `"Under":[`} {
		set := false
		for _, rec := range live[bucket] {
			set = set || strings.Contains(rec, field)
		}
		assert.True(t, set, "the scenario sets no %s of a %s record", field, bucket)
	}
	for bucket := range restored {
		found := false
		for _, k := range kinds {
			found = found || k.Bucket == bucket
		}
		assert.True(t, found, "the restored state has records of %s, which is no kind", bucket)
	}
}
