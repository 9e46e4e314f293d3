package cms_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExampleProgramsAreSelfContained: a user copies an example program
// into a module of their own, so its non-test files import only the SDK's
// public packages, never one of the module's internal ones.
func TestExampleProgramsAreSelfContained(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("examples/*/*.go")
	require.NoError(t, err)
	n := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || strings.Contains(path, "/internal/") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		require.NoError(t, err)
		n++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			assert.False(t, strings.Contains(p, "/internal/") || strings.HasSuffix(p, "/internal"), "%s imports %s", path, p)
		}
	}
	assert.Greater(t, n, 5)
}
