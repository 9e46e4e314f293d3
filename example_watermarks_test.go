package cms_test

import (
	"context"
	"fmt"
	"log"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleWatermarksService() {
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

	dir, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Board", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for range 2 {
		wm, _, err := client.Watermarks.ApplyFolder(ctx, dir.ID)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("applied, created:", wm.Created)
	}
	if _, err := client.Watermarks.RemoveFolder(ctx, dir.ID); err != nil {
		log.Fatal(err)
	}
	_, _, err = client.Watermarks.GetFolder(ctx, dir.ID)
	fmt.Println("after remove:", err != nil)
	// Output:
	// applied, created: true
	// applied, created: false
	// after remove: true
}
