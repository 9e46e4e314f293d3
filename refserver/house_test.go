package refserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver/internal/persist"
)

// TestHouseRules checks the layout docs/refserver.md describes, so that it
// stays true as resources are added: no handler (no non-test file of this
// package but the persistence's) takes the state's lock or marks a record
// itself; the state and the rooms on it (metadata, persist) import no
// net/http, not even through another package, and the state no bbolt; and
// the rooms import nothing of the server.
func TestHouseRules(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		// The persistence marks every record (markAll), and oauth.go wires
		// the oauth room's Mark hook, through which its own mutators mark.
		persistence := strings.HasPrefix(name, "persist") || name == "oauth.go"
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			inner, ok := sel.X.(*ast.SelectorExpr)
			if !ok || inner.Sel.Name != "st" {
				return true
			}
			switch sel.Sel.Name {
			case "Mu":
				t.Errorf("%s: takes the state's lock (st.Mu); run a state transaction through change, Update or View", fset.Position(sel.Pos()))
			case "Dirty":
				if !persistence {
					t.Errorf("%s: marks a record (st.Dirty); the state's mutators mark what they change", fset.Position(sel.Pos()))
				}
			}
			return true
		})
	}

	if testing.Short() {
		return
	}
	deps := func(pkg string) []string {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Skipf("go list: %v", err) // no go command: the rest needs it
		}
		return strings.Fields(string(out))
	}
	for _, room := range []string{"./internal/state", "./internal/metadata", "./internal/governance", "./internal/persist"} {
		if d := deps(room); slices.Contains(d, "net/http") {
			t.Errorf("%s depends on net/http", room)
		}
	}
	if d := deps("./internal/state"); slices.Contains(d, "go.etcd.io/bbolt") {
		t.Errorf("internal/state depends on bbolt: the database is internal/persist's")
	}
	entries, err := os.ReadDir("internal")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		for _, d := range deps("./internal/" + e.Name()) {
			if d == "github.com/contentapi/cms/refserver" || strings.HasPrefix(d, "github.com/contentapi/cms/") && !strings.HasPrefix(d, "github.com/contentapi/cms/refserver/internal/") {
				t.Errorf("internal/%s imports %s: the rooms import nothing of the server or the SDK", e.Name(), d)
			}
		}
	}
}

// TestStateFileName: the public name of the state database is the one
// internal/persist writes.
func TestStateFileName(t *testing.T) {
	t.Parallel()
	if StateFileName != persist.StateFileName {
		t.Errorf("StateFileName %q, internal/persist writes %q", StateFileName, persist.StateFileName)
	}
}
