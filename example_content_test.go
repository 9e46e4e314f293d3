package cms_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/contentapi/cms"
)

// The examples of the everyday content calls run against a small canned
// fake of the service (example_content_fake_test.go) until the reference
// server implements these endpoints; docs/content.md says what it will do.

func ExampleFilesService_Update() {
	client, done := contentFakeClient()
	defer done()
	ctx := context.Background()

	// Rename and move in one call, only if nobody changed the file since
	// etag "1" was read.
	f, _, err := client.Files.Update(ctx, "5", &cms.UpdateFileRequest{
		Name:        "report-final.pdf",
		Parent:      &cms.FolderRef{ID: "7"},
		Description: cms.Ptr(""), // clears the description
	}, &cms.UpdateItemOptions{IfMatch: "1"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("moved:", f.Name, "into folder", f.Parent.ID)

	// A stale etag changes nothing.
	_, _, err = client.Files.Update(ctx, "5", &cms.UpdateFileRequest{Name: "x.pdf"}, &cms.UpdateItemOptions{IfMatch: "0"})
	fmt.Println("stale etag:", errors.Is(err, cms.ErrPreconditionFailed))
	// Output:
	// moved: report-final.pdf into folder 7
	// stale etag: true
}

func ExampleFilesService_Lock() {
	client, done := contentFakeClient()
	defer done()
	ctx := context.Background()

	f, _, err := client.Files.Lock(ctx, "5", &cms.LockRequest{
		ExpiresAt:           time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
		IsDownloadPrevented: true,
	}, &cms.UpdateItemOptions{Fields: []string{"lock"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("locked until", f.Lock.ExpiredAt.Format(time.DateOnly), "downloads prevented:", f.Lock.IsDownloadPrevented)

	f, _, err = client.Files.Unlock(ctx, "5", &cms.UpdateItemOptions{Fields: []string{"lock"}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("locked:", f.Lock != nil)
	// Output:
	// locked until 2030-01-01 downloads prevented: true
	// locked: false
}

func ExampleCollaborationsService() {
	client, done := contentFakeClient()
	defer done()
	ctx := context.Background()

	// Share a folder with a colleague by e-mail address, as an editor.
	c, _, err := client.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{
		Item:  cms.ItemRef{Type: cms.ItemTypeFolder, ID: "7"},
		Login: "colleague@example.com",
		Role:  cms.CollaborationRoleEditor,
	}, &cms.CreateCollaborationOptions{Notify: cms.Ptr(true)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("invited:", c.AccessibleBy.Login, c.Role, c.Status)

	for c, err := range client.Collaborations.ListByFolderIter(ctx, "7", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("collaborator:", c.AccessibleBy.Login, c.Role)
	}
	// Output:
	// invited: colleague@example.com editor pending
	// collaborator: colleague@example.com editor
}

func ExampleFileVersionsService() {
	client, done := contentFakeClient()
	defer done()
	ctx := context.Background()

	var oldest *cms.FileVersion
	for v, err := range client.FileVersions.ListByFileIter(ctx, "5", nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("version", v.VersionNumber, "by", v.ModifiedBy.Name)
		oldest = v
	}
	// Make the oldest content current again: a new version on top.
	v, _, err := client.FileVersions.Promote(ctx, "5", oldest.ID, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("promoted: now version", v.VersionNumber)
	// Output:
	// version 2 by Colleague
	// version 1 by Ann
	// promoted: now version 4
}

func ExampleCommentsService() {
	client, done := contentFakeClient()
	defer done()
	ctx := context.Background()

	c, _, err := client.Comments.Create(ctx, &cms.CreateCommentRequest{
		Item:          cms.ItemRef{Type: cms.ItemTypeFile, ID: "5"},
		TaggedMessage: cms.Mentions(cms.Mention{UserID: "12", Name: "Colleague"}, " thanks, reviewed"),
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Message)
	fmt.Println("mentions:", cms.ParseMentions(c.TaggedMessage))
	// Output:
	// @Colleague thanks, reviewed
	// mentions: [@[12:Colleague]]
}

func ExampleSharedItemsService() {
	client, done := contentFakeClient()
	defer done()
	ctx := context.Background()

	link, _, err := client.Files.SetSharedLink(ctx, "5", &cms.SharedLinkRequest{
		Access:      cms.SharedLinkAccessOpen,
		Password:    cms.Set("Review-2030"),
		Permissions: &cms.SharedLinkPermissionsRequest{CanDownload: cms.Ptr(true)},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("link:", link.URL, "password:", link.IsPasswordEnabled)

	// Whoever has the link (and its password) finds the file.
	it, _, err := client.SharedItems.Get(ctx, link.URL, &cms.GetSharedItemOptions{Password: "Review-2030"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("found:", it.Type, it.File.Name)

	_, _, err = client.SharedItems.Get(ctx, link.URL, &cms.GetSharedItemOptions{Password: "Wrong-2030"})
	fmt.Println("wrong password:", errors.Is(err, cms.ErrIncorrectSharedItemPassword))
	// Output:
	// link: https://cms.example/s/f5 password: true
	// found: file report.pdf
	// wrong password: true
}
