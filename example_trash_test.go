package cms_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleTrashService() {
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

	f, _, err := client.Files.Upload(ctx, "0", "draft.txt", strings.NewReader("draft"), 5, nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Files.Delete(ctx, f.ID, nil); err != nil {
		log.Fatal(err)
	}
	for it, err := range client.Trash.ListItemsIter(ctx, &cms.ListTrashOptions{Fields: []string{"name", "item_status"}}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("in the trash:", it.Name, it.File.ItemStatus)
	}

	f, _, err = client.Trash.RestoreFile(ctx, f.ID, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("restored:", f.Name, f.ItemStatus)

	// Delete for good: first to the trash, then out of it.
	if _, err := client.Files.Delete(ctx, f.ID, nil); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Trash.PurgeFile(ctx, f.ID); err != nil {
		log.Fatal(err)
	}
	_, _, err = client.Trash.GetFile(ctx, f.ID, nil)
	fmt.Println("purged:", err != nil)
	// Output:
	// in the trash: draft.txt trashed
	// restored: draft.txt active
	// purged: true
}
