package cms_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// A filter leaves out a build folder and temporary files: they are never
// read, sent or, with Mirror, deleted, and the result does not list them.
func ExampleTreeOptions() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.UserToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	src, err := os.MkdirTemp("", "cms-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(src)
	for _, name := range []string{"main.go", "notes.tmp", "build/app.bin", "docs/guide.md"} {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "App", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}

	keep := func(p string, isDir bool) bool { // false leaves it out (a folder with all it holds)
		name := path.Base(p)
		return !(isDir && name == "build") && !strings.HasSuffix(name, ".tmp")
	}
	res, err := client.Transfers.UploadDir(ctx, src, folder.ID, &cms.TreeOptions{Filter: keep, Mirror: true})
	if err != nil {
		log.Fatal(err)
	}
	for p, e := range res.All() {
		fmt.Println(e.Outcome, e.Type, p)
	}
	// Output:
	// created folder docs
	// created file docs/guide.md
	// created file main.go
}
