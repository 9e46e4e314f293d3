package refserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/contentapi/cms/refserver/internal/persist"
)

// TestHouseRules checks the layout docs/refserver.md describes, so that it
// stays true as resources are added: no handler (no non-test file of this
// package but the persistence's) marks a record itself or begins a test
// transaction; no type under internal/ exports a lock (the model is
// reached only through a transaction, state.Tx or state.ReadTx, which
// only State.Update and View hand out, so a handler cannot take the
// state's lock, nor forget it); no comment asks a caller to hold a lock
// (the transaction's type says it); at most maxHandMarks functions under
// internal/ mark a record by hand, each saying why; the state and the rooms on it
// (metadata, persist) import no net/http, not even through another
// package, and the state no bbolt; the rooms import nothing of the
// server; and the record codecs live in internal/persist only
// (checkCodecsHome).
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
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		checkLockComments(t, fset, f)
		// The persistence marks every record (markAll), and oauth.go wires
		// the oauth room's Mark hook, through which its own mutators mark.
		persistence := strings.HasPrefix(name, "persist") || name == "oauth.go"
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "Dirty", "MarkOAuth":
				if !persistence {
					t.Errorf("%s: marks a record (%s); the transaction's mutators mark what they change", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
	handMarks := 0 // functions under internal/ that mark a record by hand
	err = filepath.WalkDir("internal", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		checkLockComments(t, fset, f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				checkReadOnly(t, fset, fd)
			}
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !marksByHand(fd) {
				continue
			}
			handMarks++
			if fd.Doc == nil || !strings.Contains(strings.ToLower(strings.Join(strings.Fields(fd.Doc.Text()), " ")), "hand mark") {
				t.Errorf("%s: %s marks a record by hand without saying why (a \"Hand mark:\" line in its doc comment); write the record through its table", fset.Position(fd.Pos()), fd.Name.Name)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			st, ok := n.(*ast.StructType)
			if !ok {
				return true
			}
			for _, field := range st.Fields.List {
				if !isLockType(field.Type) {
					continue
				}
				if len(field.Names) == 0 { // embedded: its methods and the field Mutex are exported
					t.Errorf("%s: embeds a lock; make it an unexported field", fset.Position(field.Pos()))
				}
				for _, id := range field.Names {
					if id.IsExported() {
						t.Errorf("%s: exported lock %s; unexport it and hand out a transaction (or a method) instead", fset.Position(id.Pos()), id.Name)
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Records mark themselves when written through their tables
	// (state.Table); a handful of special sites mark by hand.
	t.Logf("%d functions under internal/ mark records by hand (at most %d)", handMarks, maxHandMarks)
	if handMarks > maxHandMarks {
		t.Errorf("%d functions under internal/ mark records by hand, at most %d may: write records through their tables", handMarks, maxHandMarks)
	}

	checkCodecsHome(t, fset)

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

// maxHandMarks is how many functions under internal/ may mark a record by
// hand: setters of records that have no table (the server's and the
// metadata state's own records, the event log, versions, the oauth room's
// hook), sweeps (a purge, a fresh database) and restore.
const maxHandMarks = 10

// marksByHand reports whether fd calls a mark itself: Dirty (state.Tx's)
// or the persister's mark outside a Table, or is the oauth room's hook.
func marksByHand(fd *ast.FuncDecl) bool {
	if fd.Name.Name == "MarkOAuth" {
		return true
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Dirty" {
				found = true
			}
		}
		return !found
	})
	return found
}

// checkReadOnly fails when a function of a read transaction (a method of
// ReadTx, or a function that takes a *ReadTx and no *Tx) writes through a
// table reached from it: the type keeps the state's write methods from a
// ReadTx, this keeps the tables' own writes (Put, Delete, Update,
// DeleteWhere) from it too.
func checkReadOnly(t *testing.T, fset *token.FileSet, fd *ast.FuncDecl) {
	t.Helper()
	isType := func(e ast.Expr, name string) bool {
		star, ok := e.(*ast.StarExpr)
		if !ok {
			return false
		}
		switch x := star.X.(type) {
		case *ast.Ident:
			return x.Name == name
		case *ast.SelectorExpr:
			return x.Sel.Name == name
		}
		return false
	}
	readers := map[string]bool{}
	var fields []*ast.Field
	if fd.Recv != nil {
		fields = append(fields, fd.Recv.List...)
	}
	fields = append(fields, fd.Type.Params.List...)
	for _, f := range fields {
		if isType(f.Type, "Tx") {
			return // it may write
		}
		if isType(f.Type, "ReadTx") {
			for _, n := range f.Names {
				readers[n.Name] = true
			}
		}
	}
	if len(readers) == 0 {
		return
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		switch sel.Sel.Name {
		case "Put", "Delete", "Update", "DeleteWhere":
		default:
			return true
		}
		root := sel.X
		for {
			if inner, ok := root.(*ast.SelectorExpr); ok {
				root = inner.X
				continue
			}
			break
		}
		if id, ok := root.(*ast.Ident); ok && readers[id.Name] && sel.X != root {
			t.Errorf("%s: %s writes through a table (%s) in a read transaction", fset.Position(call.Pos()), fd.Name.Name, sel.Sel.Name)
		}
		return true
	})
}

// isLockType reports whether e is sync.Mutex or sync.RWMutex, or a
// pointer to one.
func isLockType(e ast.Expr) bool {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "sync" && (sel.Sel.Name == "Mutex" || sel.Sel.Name == "RWMutex")
}

// askHold matches a comment that asks its caller to hold a lock:
// "Callers hold Mu", "the caller holds the lock", "with Mu held", "under
// Mu".
var askHold = regexp.MustCompile(`(?i)\bcallers?\s+(must\s+)?holds?\b|\bcaller\s+holds\b|\bwith\s+\w*mu\s+held\b|\b(hold|under)\s+(the\s+state's\s+)?Mu\b`)

// checkLockComments fails on every comment of f that asks a caller to
// hold a lock: a function that needs the state's lock takes the
// transaction instead.
func checkLockComments(t *testing.T, fset *token.FileSet, f *ast.File) {
	t.Helper()
	for _, g := range f.Comments {
		text := strings.Join(strings.Fields(g.Text()), " ")
		if m := askHold.FindString(text); m != "" {
			t.Errorf("%s: a comment asks its caller to hold a lock (%q); take the transaction (state.Tx, state.ReadTx) instead", fset.Position(g.Pos()), m)
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

// codecName is the name of a record codec's function: a key listing
// (…Keys), an encoding (…Rec), a restore (Load…, load…) or a kind's final
// step (…Loaded).
var codecName = regexp.MustCompile(`^(Load|load)[A-Z]|(Keys|Rec|Loaded)$`)

// checkCodecsHome fails when a record codec lives outside internal/persist:
// a function named like a codec (codecName) that takes a transaction
// (state.Tx or state.ReadTx), in this package or under internal/; or a
// function value in the kinds table (recordKinds) that is not package
// persist's.
func checkCodecsHome(t *testing.T, fset *token.FileSet) {
	t.Helper()
	takesTx := func(fd *ast.FuncDecl) bool {
		var fields []*ast.Field
		if fd.Recv != nil {
			fields = append(fields, fd.Recv.List...)
		}
		fields = append(fields, fd.Type.Params.List...)
		for _, f := range fields {
			if star, ok := f.Type.(*ast.StarExpr); ok {
				var name string
				switch x := star.X.(type) {
				case *ast.Ident:
					name = x.Name
				case *ast.SelectorExpr:
					name = x.Sel.Name
				}
				if name == "Tx" || name == "ReadTx" {
					return true
				}
			}
		}
		return false
	}
	var paths []string
	top, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	paths = append(paths, top...)
	err = filepath.WalkDir("internal", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && filepath.Dir(path) != filepath.Join("internal", "persist") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if codecName.MatchString(fd.Name.Name) && takesTx(fd) {
				t.Errorf("%s: %s looks like a record codec; codecs live in internal/persist (the state gives plain views and restore operations)", fset.Position(fd.Pos()), fd.Name.Name)
			}
			if fd.Name.Name != "recordKinds" {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					t.Errorf("%s: a function literal in the kinds table; its codecs are package persist's", fset.Position(n.Pos()))
				case *ast.CallExpr:
					for _, arg := range n.Args {
						switch a := arg.(type) {
						case *ast.Ident:
							if a.Name != "nil" {
								t.Errorf("%s: the kinds table passes %s; its codecs are package persist's", fset.Position(a.Pos()), a.Name)
							}
						case *ast.SelectorExpr:
							if x, ok := a.X.(*ast.Ident); !ok || x.Name != "persist" {
								t.Errorf("%s: the kinds table passes %s; its codecs are package persist's", fset.Position(a.Pos()), a.Sel.Name)
							}
						}
					}
				}
				return true
			})
		}
	}
}
