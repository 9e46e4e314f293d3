package refserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// txEndpointRE is an endpoint named in the doc comment of a transaction:
// a method and a path (of the API, or of the upload host).
var txEndpointRE = regexp.MustCompile(`\b(GET|POST|PUT|DELETE|OPTIONS) (\{upload\})?/[a-z_{}]`)

// TestInternalDocComments parses the packages under internal/ (their
// non-test files): every exported top-level identifier — a function, a
// method of an exported type, a type, a constant, a variable — has a doc
// comment (for a constant or a variable, its group's is enough); the doc
// comment of a function, a method or a type starts with its name (after
// "A", "An" or "The"); and a transaction (a name ending in Tx) names the
// endpoint it serves (METHOD /path).
func TestInternalDocComments(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob(filepath.Join("internal", "*"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	files := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		names, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			files++
			for _, problem := range docProblems(fset, f) {
				t.Error(problem)
			}
		}
	}
	if files < 10 {
		t.Fatalf("parsed %d files under internal/: the walk found nothing to check", files)
	}
}

// docProblems lists what the doc comments of one file's exported
// top-level identifiers lack.
func docProblems(fset *token.FileSet, f *ast.File) []string {
	var out []string
	missing := func(pos token.Pos, name string) {
		out = append(out, fset.Position(pos).String()+": "+name+" has no doc comment")
	}
	startsWithName := func(pos token.Pos, name string, doc *ast.CommentGroup) {
		words := strings.Fields(doc.Text())
		if len(words) > 1 && (words[0] == "A" || words[0] == "An" || words[0] == "The") {
			words = words[1:]
		}
		if strings.TrimRight(words[0], ",.:;") != name {
			out = append(out, fset.Position(pos).String()+": the doc comment of "+name+" does not start with its name")
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil {
				recv := recvTypeName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue // a method of an unexported type
				}
				name = recv + "." + name
			}
			if !hasText(d.Doc) {
				missing(d.Pos(), name)
				continue
			}
			startsWithName(d.Pos(), d.Name.Name, d.Doc)
			if strings.HasSuffix(d.Name.Name, "Tx") && !txEndpointRE.MatchString(strings.Join(strings.Fields(d.Doc.Text()), " ")) {
				out = append(out, fset.Position(d.Pos()).String()+": "+name+" names no endpoint (METHOD /path)")
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					doc := s.Doc
					if !hasText(doc) && len(d.Specs) == 1 {
						doc = d.Doc
					}
					if !hasText(doc) {
						missing(s.Pos(), s.Name.Name)
						continue
					}
					startsWithName(s.Pos(), s.Name.Name, doc)
				case *ast.ValueSpec:
					for _, id := range s.Names {
						if id.IsExported() && !hasText(s.Doc) && !hasText(d.Doc) {
							missing(id.Pos(), id.Name)
						}
					}
				}
			}
		}
	}
	return out
}

// hasText reports whether a comment group says something.
func hasText(g *ast.CommentGroup) bool {
	return g != nil && strings.TrimSpace(g.Text()) != ""
}

// recvTypeName is the name of a method's receiver type: T of T, *T, T[P]
// or *T[P, Q].
func recvTypeName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
