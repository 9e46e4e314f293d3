package refserver

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/contentapi/cms/refserver/internal/persist"
)

// mappedRSS is how much of the file at path is mapped into this process's
// resident memory (the Rss of its mappings in /proc/self/smaps), in bytes.
func mappedRSS(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	require.NoError(t, err)
	defer f.Close()
	var total int64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if !strings.HasSuffix(fields[0], ":") { // a mapping's header line
			in = fields[len(fields)-1] == path
			continue
		}
		if in && fields[0] == "Rss:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			require.NoError(t, err)
			total += kb << 10
		}
	}
	require.NoError(t, sc.Err())
	return total
}

// TestReadPagesLeaveTheResidentSet: the pages of state.db that reads of
// small blobs map in (downloads here, the search indexer's reading after
// a restart) leave the process's resident memory every ReadsPerPageDrop
// reads, instead of staying there for good; the content reads back the
// same after a drop.
func TestReadPagesLeaveTheResidentSet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	e := newEnv(t, Options{DataDir: dir})
	U := e.s.UserToken()
	const files = 400
	ids := make([]string, files)
	for i := range ids {
		data := bytes.Repeat([]byte{byte('a' + i%26)}, persist.SmallBlobMax)
		ids[i] = e.uploadFile(U, "0", fmt.Sprintf("f%03d.bin", i), data)["id"].(string)
	}
	require.NoError(t, e.s.Close()) // a clean close: the blobs are in state.db

	e2 := newEnv(t, Options{DataDir: dir})
	const every = 32
	e2.s.db.ReadsPerPageDrop = every
	for i, id := range ids {
		got := e2.download(U, "/files/"+id+"/content")
		require.Equal(t, persist.SmallBlobMax, len(got))
		require.Equal(t, byte('a'+i%26), got[0], "file %d reads back after the drops", i)
	}
	rss := mappedRSS(t, filepath.Join(dir, persist.StateFileName))
	read := int64(files * persist.SmallBlobMax)
	t.Logf("%d KiB of small blobs read; %d KiB of state.db resident", read>>10, rss>>10)
	// Between two drops, `every` reads map in two pages each at most, and
	// the tree's branch pages and the meta pages stay hot: well under a
	// quarter of what was read.
	assert.Less(t, rss, read/4, "the pages read are mapped in for good")
}
