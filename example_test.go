package cms_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleFilesService() {
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

	text := "hello, world\n"
	f, _, err := client.Files.UploadInOneRequest(ctx, "0", "hello.txt", strings.NewReader(text), int64(len(text)), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("uploaded", f.Name, f.Size, "bytes")

	// A second upload with the same name is a conflict naming the existing file.
	_, _, err = client.Files.UploadInOneRequest(ctx, "0", "hello.txt", strings.NewReader(text), int64(len(text)), nil)
	var apiErr *cms.APIError
	if errors.As(err, &apiErr) && errors.Is(err, cms.ErrConflict) {
		fmt.Println("conflict:", apiErr.Code, apiErr.Conflicts()[0].ID == f.ID)
	}

	var buf bytes.Buffer
	if _, _, err := client.Files.DownloadTo(ctx, f.ID, &buf, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Print("downloaded: ", buf.String())
	// Output:
	// uploaded hello.txt 13 bytes
	// conflict: item_name_in_use true
	// downloaded: hello, world
}

func ExampleFoldersService() {
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

	docs, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Docs", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, name := range []string{"b.txt", "a.txt"} {
		if _, _, err := client.Files.UploadInOneRequest(ctx, docs.ID, name, strings.NewReader(name), int64(len(name)), nil); err != nil {
			log.Fatal(err)
		}
	}
	if _, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Archive", Parent: cms.FolderRef{ID: docs.ID}}, nil); err != nil {
		log.Fatal(err)
	}
	// Pages of one entry each, fetched lazily as the loop goes on.
	for item, err := range client.Folders.ListItemsIter(ctx, docs.ID, &cms.ListItemsOptions{Limit: 1}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(item.Type, item.Name)
	}
	// Output:
	// folder Archive
	// file a.txt
	// file b.txt
}

func ExampleUploadsService_UploadChunked() {
	// Small parts so the example is quick; the service uses 8 MiB and more.
	srv, err := refserver.Start(refserver.Options{PartSize: 1 << 10, ChunkedMinSize: 1})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.UserToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	content := bytes.Repeat([]byte("0123456789abcdef"), 500) // 8000 bytes: 8 parts
	f, _, err := client.Uploads.UploadChunked(ctx, "0", "data.bin", bytes.NewReader(content), int64(len(content)), &cms.ChunkedUploadOptions{
		Concurrency: 2,
		Progress: func(p cms.Progress) {
			if p.PartsDone == p.TotalParts {
				fmt.Printf("all %d parts stored\n", p.TotalParts)
			}
		},
	})
	if err != nil {
		var ue *cms.UploadError
		if errors.As(err, &ue) {
			log.Fatalf("upload session %s failed: %v", ue.SessionID, ue.Err)
		}
		log.Fatal(err)
	}
	fmt.Println("committed", f.Name, f.Size, "bytes")
	// Output:
	// all 8 parts stored
	// committed data.bin 8000 bytes
}
