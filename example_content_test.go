package cms_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// The examples of the everyday content calls (docs/content.md) run against
// the reference server, which implements each of them.

func ExampleFilesService_Update() {
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
	f, _, err := client.Files.Upload(ctx, "0", "report.pdf", strings.NewReader("%PDF"), 4, nil)
	if err != nil {
		log.Fatal(err)
	}
	archive, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Archive", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}

	// Rename and move in one call, only if nobody changed the file since
	// it was read (its etag).
	moved, _, err := client.Files.Update(ctx, f.ID, &cms.UpdateFileRequest{
		Name:        "report-final.pdf",
		Parent:      &cms.FolderRef{ID: archive.ID},
		Description: cms.Ptr(""), // clears the description
	}, &cms.UpdateItemOptions{IfMatch: f.ETag})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("moved:", moved.Name, "into", moved.Parent.Name)

	// The etag read before the move is stale now: nothing changes.
	_, _, err = client.Files.Update(ctx, f.ID, &cms.UpdateFileRequest{Name: "x.pdf"}, &cms.UpdateItemOptions{IfMatch: f.ETag})
	fmt.Println("stale etag:", errors.Is(err, cms.ErrPreconditionFailed))
	// Output:
	// moved: report-final.pdf into Archive
	// stale etag: true
}

func ExampleFilesService_Lock() {
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
	f, _, err := client.Files.Upload(ctx, "0", "report.pdf", strings.NewReader("%PDF"), 4, nil)
	if err != nil {
		log.Fatal(err)
	}

	f, _, err = client.Files.Lock(ctx, f.ID, &cms.LockRequest{
		ExpiresAt:           time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
		IsDownloadPrevented: true,
	}, &cms.UpdateItemOptions{Fields: []string{"lock"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("locked until", f.Lock.ExpiredAt.Format(time.DateOnly), "downloads prevented:", f.Lock.IsDownloadPrevented)

	f, _, err = client.Files.Unlock(ctx, f.ID, &cms.UpdateItemOptions{Fields: []string{"lock"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("locked:", f.Lock != nil)
	// Output:
	// locked until 2030-01-01 downloads prevented: true
	// locked: false
}

func ExampleCollaborationsService() {
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
	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Plans", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}

	// Share the folder with a colleague by e-mail address, as an editor:
	// a user of the enterprise is a collaborator at once.
	c, _, err := client.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{
		Item:  cms.ItemRef{Type: cms.ItemTypeFolder, ID: folder.ID},
		Login: "admin@cms.test",
		Role:  cms.CollaborationRoleEditor,
	}, &cms.CreateCollaborationOptions{Notify: cms.Ptr(true)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("invited:", c.AccessibleBy.Login, c.Role, c.Status)

	for c, err := range client.Collaborations.ListByFolderIter(ctx, folder.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("collaborator:", c.AccessibleBy.Login, c.Role)
	}
	// Output:
	// invited: admin@cms.test editor accepted
	// collaborator: admin@cms.test editor
}

func ExampleFileVersionsService() {
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
	f, _, err := client.Files.Upload(ctx, "0", "plan.txt", strings.NewReader("v1"), 2, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, text := range []string{"v2", "v3"} {
		if _, _, err := client.Files.UploadVersion(ctx, f.ID, strings.NewReader(text), 2, nil); err != nil {
			log.Fatal(err)
		}
	}

	// The earlier versions, newest first (the current one is the file).
	var oldest *cms.FileVersion
	for v, err := range client.FileVersions.ListByFileIter(ctx, f.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("version of", v.Size, "bytes by", v.ModifiedBy.Name)
		oldest = v
	}
	// Make the oldest content current again: a new version on top.
	if _, _, err := client.FileVersions.Promote(ctx, f.ID, oldest.ID, nil); err != nil {
		log.Fatal(err)
	}
	var text strings.Builder
	if _, _, err := client.Files.DownloadTo(ctx, f.ID, &text, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println("current content:", text.String())
	// Output:
	// version of 2 bytes by Uma User
	// version of 2 bytes by Uma User
	// current content: v1
}

func ExampleCommentsService() {
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
	f, _, err := client.Files.Upload(ctx, "0", "plan.txt", strings.NewReader("v1"), 2, nil)
	if err != nil {
		log.Fatal(err)
	}

	c, _, err := client.Comments.Create(ctx, &cms.CreateCommentRequest{
		Item:          cms.ItemRef{Type: cms.ItemTypeFile, ID: f.ID},
		TaggedMessage: cms.Mentions(cms.Mention{UserID: "2000001", Name: "Ada Admin"}, " thanks, reviewed"),
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Message)
	fmt.Println("mentions:", cms.ParseMentions(c.TaggedMessage))
	// Output:
	// @Ada Admin thanks, reviewed
	// mentions: [@[2000001:Ada Admin]]
}

func ExampleSharedItemsService() {
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
	f, _, err := client.Files.Upload(ctx, "0", "report.pdf", strings.NewReader("%PDF"), 4, nil)
	if err != nil {
		log.Fatal(err)
	}

	link, _, err := client.Files.SetSharedLink(ctx, f.ID, &cms.SharedLinkRequest{
		Access:      cms.SharedLinkAccessOpen,
		Password:    cms.Set("Review-2030"),
		Permissions: &cms.SharedLinkPermissionsRequest{CanDownload: cms.Ptr(true)},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("link:", link.Access, "password:", link.IsPasswordEnabled)

	// Whoever has the link (and its password) finds the file.
	it, _, err := client.SharedItems.Get(ctx, link.URL, &cms.GetSharedItemOptions{Password: "Review-2030"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("found:", it.Type, it.File.Name)

	_, _, err = client.SharedItems.Get(ctx, link.URL, &cms.GetSharedItemOptions{Password: "Wrong-2030"})
	fmt.Println("wrong password:", errors.Is(err, cms.ErrIncorrectSharedItemPassword))
	// Output:
	// link: open password: true
	// found: file report.pdf
	// wrong password: true
}
