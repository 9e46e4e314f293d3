package cms

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// endpointRE is an endpoint named in a doc comment: a method and a path.
var endpointRE = regexp.MustCompile(`\b(GET|POST|PUT|DELETE|HEAD|OPTIONS) (\{upload_url\})?/[a-z_{}]`)

// TestDocCommentsNameTheEndpoint parses the package: every exported
// identifier has a doc comment, every exported method of a service names
// the endpoint it calls (METHOD /path), and every service type its paths.
func TestDocCommentsNameTheEndpoint(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	text := func(g *ast.CommentGroup) string {
		if g == nil {
			return ""
		}
		return strings.Join(strings.Fields(g.Text()), " ")
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				recv := ""
				if d.Recv != nil {
					recv = receiverName(d.Recv.List[0].Type)
					if !ast.IsExported(recv) {
						continue // a method of an unexported type
					}
				}
				doc := text(d.Doc)
				where := fset.Position(d.Pos()).String() + " " + recv + "." + d.Name.Name
				if !assert.NotEmpty(t, doc, "%s has no doc comment", where) {
					continue
				}
				if strings.HasSuffix(recv, "Service") {
					assert.Regexp(t, endpointRE, doc, "%s.%s names no endpoint", recv, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					var idents []*ast.Ident
					var doc *ast.CommentGroup
					switch s := s.(type) {
					case *ast.TypeSpec:
						idents, doc = []*ast.Ident{s.Name}, s.Doc
						if strings.HasSuffix(s.Name.Name, "Service") && s.Name.IsExported() {
							d := text(d.Doc) + text(s.Doc)
							assert.Regexp(t, `(^|[ (])/[a-z_]`, d, "%s names no path", s.Name.Name)
						}
					case *ast.ValueSpec:
						idents, doc = s.Names, s.Doc
					}
					for _, id := range idents {
						if id.IsExported() {
							assert.True(t, text(doc) != "" || text(d.Doc) != "", "%s %s has no doc comment", fset.Position(id.Pos()), id.Name)
						}
					}
				}
			}
		}
	}
}

// receiverName is the type name of a method receiver (T, *T, T[P], *T[P]).
func receiverName(e ast.Expr) string {
	if star, ok := e.(*ast.StarExpr); ok {
		e = star.X
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		e = x.X
	case *ast.IndexListExpr:
		e = x.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
