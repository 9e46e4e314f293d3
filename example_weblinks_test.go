package cms_test

import (
	"context"
	"fmt"
	"log"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleWebLinksService() {
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

	link, _, err := client.WebLinks.Create(ctx, &cms.CreateWebLinkRequest{
		URL: "https://example.com/specs", Parent: cms.FolderRef{ID: "0"},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created:", link.Name)

	link, _, err = client.WebLinks.Update(ctx, link.ID, &cms.UpdateWebLinkRequest{
		Name:       "Specs",
		SharedLink: cms.Set(cms.SharedLinkRequest{Access: cms.SharedLinkAccessCompany}),
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("renamed:", link.Name, "shared with", link.SharedLink.Access)

	// Delete moves it to the trash; Restore brings it back.
	if _, err := client.WebLinks.Delete(ctx, link.ID); err != nil {
		log.Fatal(err)
	}
	link, _, err = client.WebLinks.Restore(ctx, link.ID, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("restored:", link.Name, link.ItemStatus)
	// Output:
	// created: https://example.com/specs
	// renamed: Specs shared with company
	// restored: Specs active
}
