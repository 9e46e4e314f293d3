package cms_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// Executed examples of zip downloads, folder locks, favorites, recent
// items and the owned-folder transfer, each against a fresh reference
// server.

// runExampleServer starts a reference server and returns it with a client
// of token (the server's user token when it is empty).
func runExampleServer(token func(*refserver.Server) string) (*refserver.Server, *cms.Client) {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	tok := srv.UserToken()
	if token != nil {
		tok = token(srv)
	}
	client, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(tok))
	if err != nil {
		log.Fatal(err)
	}
	return srv, client
}

// exampleUpload uploads text as name into folder.
func exampleUpload(client *cms.Client, folder, name, text string) *cms.File {
	f, _, err := client.Files.Upload(context.Background(), folder, name, strings.NewReader(text), int64(len(text)), nil)
	if err != nil {
		log.Fatal(err)
	}
	return f
}

func ExampleZipDownloadsService_DownloadToFile() {
	srv, client := runExampleServer(nil)
	defer srv.Close()
	ctx := context.Background()
	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Quarter close", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	exampleUpload(client, folder.ID, "ledger.csv", "a,b\n")
	summary := exampleUpload(client, "0", "summary.txt", "all good\n")

	dir, err := os.MkdirTemp("", "zip-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var read int64
	res, _, err := client.ZipDownloads.DownloadToFile(ctx, &cms.CreateZipDownloadRequest{
		Items:            []cms.ZipItem{cms.ZipFolder(folder.ID), cms.ZipFile(summary.ID)},
		DownloadFileName: "quarter-close",
	}, filepath.Join(dir, "quarter-close.zip"), &cms.ZipDownloadOptions{
		Progress: func(p cms.Progress) { read = p.Bytes },
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, conflict := range res.ZipDownload.NameConflicts {
		for _, item := range conflict {
			fmt.Printf("%s %s saved as %s\n", item.Type, item.OriginalName, item.DownloadName)
		}
	}
	fmt.Printf("%d of %d files, %s, all bytes reported: %t\n", res.Status.DownloadedFileCount, res.Status.TotalFileCount,
		res.Status.State, read == res.Bytes)
	// Output:
	// 2 of 2 files, succeeded, all bytes reported: true
}

func ExampleFolderLocksService() {
	srv, client := runExampleServer(nil)
	defer srv.Close()
	ctx := context.Background()
	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Audit 2026", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	lock, _, err := client.FolderLocks.Create(ctx, folder.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("locked:", lock.LockType, lock.LockedOperations.Move, lock.LockedOperations.Delete)
	// Moving or deleting the folder now fails, for its owner too.
	_, err = client.Folders.Delete(ctx, folder.ID, nil)
	var apiErr *cms.APIError
	if errors.As(err, &apiErr) {
		fmt.Println("delete refused:", apiErr.StatusCode, apiErr.Code)
	}
	if _, err := client.FolderLocks.Delete(ctx, lock.ID); err != nil {
		log.Fatal(err)
	}
	if _, err := client.Folders.Delete(ctx, folder.ID, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println("unlocked and deleted")
	// Output:
	// locked: freeze true true
	// delete refused: 403 access_denied_insufficient_permissions
	// unlocked and deleted
}

func ExampleCollectionsService_AddItem() {
	srv, client := runExampleServer(nil)
	defer srv.Close()
	ctx := context.Background()
	f := exampleUpload(client, "0", "plan.txt", "the plan\n")
	fav, _, err := client.Collections.Favorites(ctx)
	if err != nil {
		log.Fatal(err)
	}
	if _, _, err := client.Collections.AddItem(ctx, fav.ID, cms.ItemRef{Type: cms.ItemTypeFile, ID: f.ID}); err != nil {
		log.Fatal(err)
	}
	for it, err := range client.Collections.ListItemsIter(ctx, fav.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(fav.Name+":", it.Type, it.Name)
	}
	// Output:
	// Favorites: file plan.txt
}

func ExampleRecentItemsService_ListIter() {
	srv, client := runExampleServer(nil)
	defer srv.Close()
	ctx := context.Background()
	exampleUpload(client, "0", "draft.txt", "draft\n")
	report := exampleUpload(client, "0", "report.txt", "report\n")
	var buf bytes.Buffer
	if _, _, err := client.Files.DownloadTo(ctx, report.ID, &buf, nil); err != nil {
		log.Fatal(err)
	}
	for ri, err := range client.RecentItems.ListIter(ctx, &cms.ListRecentItemsOptions{Limit: 100}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ri.InteractionType, ri.Item.Name)
	}
	// Output:
	// item_open report.txt
	// item_upload draft.txt
}

func ExampleUsersService_TransferOwnedFolder() {
	srv, admin := runExampleServer((*refserver.Server).AdminToken)
	defer srv.Close()
	ctx := context.Background()
	leaver, _, err := admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Sam Leaver", Login: "sam@example.com"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	asLeaver := asUserClient(srv, leaver.ID)
	if _, _, err := asLeaver.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Projects", Parent: cms.FolderRef{ID: "0"}}, nil); err != nil {
		log.Fatal(err)
	}

	f, _, err := admin.Users.TransferOwnedFolder(ctx, leaver.ID, &cms.TransferOwnedFolderRequest{OwnedBy: cms.UserRef{ID: srv.AdminUserID()}},
		&cms.TransferOwnedFolderOptions{Notify: cms.Ptr(false)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("moved into", f.Name)
	for it, err := range admin.Folders.ListItemsIter(ctx, f.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(" ", it.Type, it.Name)
	}
	if _, err := admin.Users.Delete(ctx, leaver.ID, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println("user deleted")
	// Output:
	// moved into Sam Leaver's Files and Folders
	//   folder Projects
	// user deleted
}

// asUserClient is a client of srv's admin acting as user.
func asUserClient(srv *refserver.Server, user string) *cms.Client {
	client, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()), cms.WithAsUser(user))
	if err != nil {
		log.Fatal(err)
	}
	return client
}
