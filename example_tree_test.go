package cms_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleTransfersService() {
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

	// A local tree: two files, one in a subdirectory.
	src, err := os.MkdirTemp("", "cms-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(src)
	if err := os.MkdirAll(filepath.Join(src, "2026"), 0o755); err != nil {
		log.Fatal(err)
	}
	for name, text := range map[string]string{"readme.txt": "hello", "2026/q1.csv": "a,b\n1,2\n"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Reports", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}

	// Upload the tree; a second run sends nothing, the files being the same.
	res, err := client.Transfers.UploadDir(ctx, src, folder.ID, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("uploaded:", res.Created, "files,", res.Folders, "folder,", res.Bytes, "bytes")
	res, err = client.Transfers.UploadDir(ctx, src, folder.ID, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("again:", res.Created, "created,", res.Skipped, "skipped")

	// And down into another directory.
	dst, err := os.MkdirTemp("", "cms-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dst)
	res, err = client.Transfers.DownloadDir(ctx, folder.ID, dst, nil)
	if err != nil {
		log.Fatal(err)
	}
	csv, err := os.ReadFile(filepath.Join(dst, "2026", "q1.csv"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("downloaded:", res.Created, "files; q1.csv has", strings.Count(string(csv), "\n"), "lines")
	// Output:
	// uploaded: 2 files, 1 folder, 13 bytes
	// again: 0 created, 2 skipped
	// downloaded: 2 files; q1.csv has 2 lines
}

func ExampleFoldersService_Walk() {
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
	sub, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "2026", Parent: cms.FolderRef{ID: docs.ID}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	for folderID, name := range map[string]string{docs.ID: "plan.txt", sub.ID: "q1.txt"} {
		if _, _, err := client.Files.Upload(ctx, folderID, name, strings.NewReader(name), int64(len(name)), nil); err != nil {
			log.Fatal(err)
		}
	}

	// Every item below Docs; folders are listed concurrently, so the order
	// of the walk is not fixed: sort for a stable listing.
	var paths []string
	for e, err := range client.Folders.Walk(ctx, docs.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		paths = append(paths, fmt.Sprintf("%d %-6s %s", e.Depth, e.Item.Type, e.Path))
	}
	slices.Sort(paths)
	for _, p := range paths {
		fmt.Println(p)
	}
	// Output:
	// 1 file   plan.txt
	// 1 folder 2026
	// 2 file   2026/q1.txt
}

func ExampleSearchService() {
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
	for _, name := range []string{"budget-2026.xlsx", "budget-notes.txt", "holiday.jpg"} {
		if _, _, err := client.Files.Upload(ctx, "0", name, strings.NewReader(name), int64(len(name)), nil); err != nil {
			log.Fatal(err)
		}
	}

	// Files whose name matches, spreadsheets only, fetched page by page.
	for it, err := range client.Search.QueryIter(ctx, &cms.SearchOptions{
		Query:          "budget",
		Type:           cms.ItemTypeFile,
		FileExtensions: []string{"xlsx"},
		Fields:         []string{"name", "size"},
	}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("found:", it.Name)
	}
	// Output:
	// found: budget-2026.xlsx
}

func ExampleNewWebhookHandler() {
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

	// The receiver verifies each delivery's signature with the app's two
	// keys before the callback sees it; an unsigned or forged one is
	// answered 4xx and dropped.
	var keys cms.WebhookKeys
	keys.Primary, keys.Secondary = srv.WebhookKeys()
	got := make(chan *cms.WebhookPayload, 1)
	h, err := cms.NewWebhookHandler(keys, nil, func(_ context.Context, p *cms.WebhookPayload) error {
		got <- p
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	receiver := httptest.NewServer(h)
	defer receiver.Close()

	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Inbox", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	_, _, err = client.Webhooks.Create(ctx, &cms.CreateWebhookRequest{
		Target:   cms.ItemRef{ID: folder.ID, Type: cms.ItemTypeFolder},
		Address:  receiver.URL,
		Triggers: []cms.WebhookTrigger{cms.WebhookTriggerFileUploaded},
	})
	if err != nil {
		log.Fatal(err)
	}
	if _, _, err := client.Files.Upload(ctx, folder.ID, "scan.pdf", strings.NewReader("%PDF"), 4, nil); err != nil {
		log.Fatal(err)
	}
	select {
	case p := <-got:
		fmt.Println("verified:", p.Trigger, p.Source.Name)
	case <-time.After(10 * time.Second):
		fmt.Println("no delivery")
	}
	// Output:
	// verified: FILE.UPLOADED scan.pdf
}

func ExampleVerifyWebhook() {
	// A receiver checks a delivery before trusting it: the body's exact
	// bytes, its headers, the app's two keys (either may sign, so keys
	// can be rotated).
	keys := cms.WebhookKeys{Primary: "primary-key-1", Secondary: "secondary-key-1"}
	body := []byte(`{"type":"webhook_event","id":"1","trigger":"FILE.UPLOADED","source":{"type":"file","id":"5","name":"scan.pdf"}}`)

	// Signed as the service signs (SignWebhook, for a receiver's tests).
	signed := cms.SignWebhook(body, time.Now(), keys)
	fmt.Println("signed delivery:", cms.VerifyWebhook(body, signed, keys, nil))

	// The same headers on a changed body do not verify.
	tampered := []byte(strings.Replace(string(body), "scan.pdf", "evil.exe", 1))
	err := cms.VerifyWebhook(tampered, signed, keys, nil)
	fmt.Println("tampered body refused:", errors.Is(err, cms.ErrWebhookSignature))

	// Nor does an old delivery replayed later.
	old := cms.SignWebhook(body, time.Now().Add(-time.Hour), keys)
	fmt.Println("replay refused:", cms.VerifyWebhook(body, old, keys, nil) != nil)
	// Output:
	// signed delivery: <nil>
	// tampered body refused: true
	// replay refused: true
}
