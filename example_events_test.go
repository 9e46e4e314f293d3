package cms_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleEventsService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	connect := func(token string) *cms.Client {
		c, err := cms.NewClient(cms.WithToken(token), cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()))
		if err != nil {
			log.Fatal(err)
		}
		return c
	}
	user, admin := connect(srv.UserToken()), connect(srv.AdminToken())
	ctx := context.Background()

	// Where the stream is now; a program keeps Position to resume later.
	start, _, err := user.Events.Get(ctx, &cms.EventsOptions{StreamPosition: "now"})
	if err != nil {
		log.Fatal(err)
	}
	if _, _, err := user.Files.Upload(ctx, "0", "notes.txt", strings.NewReader("hello"), 5, nil); err != nil {
		log.Fatal(err)
	}
	// Stream yields what happened since, then long-polls for more: break
	// (or the end of ctx) stops it.
	for e, err := range user.Events.Stream(ctx, &cms.EventStreamOptions{StreamPosition: start.NextStreamPosition}) {
		if err != nil {
			log.Fatal(err)
		}
		it, _ := e.Item()
		fmt.Println("user stream:", e.EventType, it.Name)
		break
	}

	// The enterprise history (admins): to the first empty page.
	for e, err := range admin.Events.EnterpriseStream(ctx, &cms.EnterpriseEventsOptions{EventTypes: []cms.EventType{cms.EventTypeUpload}}) {
		if err != nil {
			log.Fatal(err)
		}
		src, _ := e.EnterpriseSource()
		fmt.Println("enterprise:", e.EventType, src.ItemName)
	}
	for _, err := range user.Events.EnterpriseStream(ctx, nil) {
		fmt.Println("not an admin:", errors.Is(err, cms.ErrAccessDeniedInsufficientPermissions))
	}
	// Output:
	// user stream: ITEM_UPLOAD notes.txt
	// enterprise: UPLOAD notes.txt
	// not an admin: true
}

func ExampleWebhooksService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := cms.NewClient(cms.WithToken(srv.UserToken()), cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	dir, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Inbox", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	hook, _, err := c.Webhooks.Create(ctx, &cms.CreateWebhookRequest{
		Target:   cms.ItemRef{ID: dir.ID, Type: cms.ItemTypeFolder},
		Address:  "https://example.com/hooks/inbox",
		Triggers: []cms.WebhookTrigger{cms.WebhookTriggerFileUploaded},
	})
	if err != nil {
		log.Fatal(err)
	}
	// The SDK refuses what the service would: here a folder-only trigger on
	// a file, before sending.
	_, _, err = c.Webhooks.Create(ctx, &cms.CreateWebhookRequest{
		Target:   cms.ItemRef{ID: "123", Type: cms.ItemTypeFile},
		Address:  "https://example.com/hooks/file",
		Triggers: []cms.WebhookTrigger{cms.WebhookTriggerFolderCreated},
	})
	var argErr *cms.ArgError
	fmt.Println("refused before sending:", errors.As(err, &argErr))

	hook, _, err = c.Webhooks.Update(ctx, hook.ID, &cms.UpdateWebhookRequest{
		Triggers: []cms.WebhookTrigger{cms.WebhookTriggerFileUploaded, cms.WebhookTriggerFolderCreated},
	})
	if err != nil {
		log.Fatal(err)
	}
	for h, err := range c.Webhooks.ListIter(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(h.Target.Type, h.Address, h.Triggers)
	}
	if _, err := c.Webhooks.Delete(ctx, hook.ID); err != nil {
		log.Fatal(err)
	}
	_, _, err = c.Webhooks.Get(ctx, hook.ID)
	fmt.Println("deleted:", errors.Is(err, cms.ErrNotFound))
	// Output:
	// refused before sending: true
	// folder https://example.com/hooks/inbox [FILE.UPLOADED FOLDER.CREATED]
	// deleted: true
}
