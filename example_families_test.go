package cms_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/contentapi/cms"
)

// The examples of this file compile but do not run (they have no Output
// comment): the reference server does not implement their endpoints yet.
// Each becomes an executed example, against refserver, once it does.

// familiesClient returns a client with the token of the environment.
func familiesClient() *cms.Client {
	c, err := cms.NewClient(cms.WithToken(os.Getenv("CMS_TOKEN")))
	if err != nil {
		log.Fatal(err)
	}
	return c
}

func ExampleZipDownloadsService_DownloadToFile() {
	client := familiesClient()
	res, _, err := client.ZipDownloads.DownloadToFile(context.Background(), &cms.CreateZipDownloadRequest{
		Items:            []cms.ZipItem{cms.ZipFolder("12345"), cms.ZipFile("67890")},
		DownloadFileName: "quarter-close",
	}, "quarter-close.zip", &cms.ZipDownloadOptions{
		Progress: func(p cms.Progress) { fmt.Fprintf(os.Stderr, "\r%d bytes", p.Bytes) },
func ExampleClassificationsService() {
	client := familiesClient()
	ctx := context.Background()
	tpl, _, err := client.Classifications.GetTemplate(ctx)
	if errors.Is(err, cms.ErrNotFound) {
		tpl, _, err = client.Classifications.CreateTemplate(ctx, &cms.CreateClassificationTemplateRequest{
			Labels: []cms.ClassificationLabel{{Key: "Public"}, {Key: "Confidential", Definition: "Staff only", ColorID: cms.Ptr(2)}},
		})
	}
	if err != nil {
		log.Fatal(err)
	}
	if tpl.Label("Confidential") == nil {
		if _, _, err := client.Classifications.AddLabels(ctx, cms.ClassificationLabel{Key: "Confidential"}); err != nil {
			log.Fatal(err)
		}
	}
	if _, _, err := client.Classifications.Add(ctx, cms.OnFile("67890"), "Confidential"); errors.Is(err, cms.ErrTupleAlreadyExists) {
		_, _, err = client.Classifications.Update(ctx, cms.OnFile("67890"), "Confidential")
		if err != nil {
			log.Fatal(err)
		}
	} else if err != nil {
		log.Fatal(err)
	}
}

func ExampleMetadataCascadePoliciesService_Apply() {
	client := familiesClient()
	ctx := context.Background()
	// The folder holds an instance of the template first.
	if _, _, err := client.Metadata.Upsert(ctx, cms.OnFolder("12345"), cms.MetadataScopeEnterprise, "contract", map[string]any{"status": "draft"}); err != nil {
		log.Fatal(err)
	}
	p, _, err := client.MetadataCascadePolicies.Create(ctx, &cms.CreateMetadataCascadePolicyRequest{
		FolderID: "12345", Scope: cms.MetadataScopeEnterprise, TemplateKey: "contract",
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, conflict := range res.ZipDownload.NameConflicts {
		for _, item := range conflict {
			fmt.Printf("%s %s saved as %s\n", item.Type, item.OriginalName, item.DownloadName)
		}
	}
	fmt.Printf("%d of %d files, %d bytes\n", res.Status.DownloadedFileCount, res.Status.TotalFileCount, res.Bytes)
}

func ExampleFolderLocksService() {
	client := familiesClient()
	ctx := context.Background()
	lock, _, err := client.FolderLocks.Create(ctx, "12345")
	if err != nil {
		log.Fatal(err)
	}
	// Moving or deleting the folder now fails, for its owner too.
	_, err = client.Folders.Delete(ctx, "12345", nil)
	fmt.Println("delete refused:", err != nil)
	if _, err := client.FolderLocks.Delete(ctx, lock.ID); err != nil {
		log.Fatal(err)
	}
}

func ExampleCollectionsService_AddItem() {
	client := familiesClient()
	ctx := context.Background()
	fav, _, err := client.Collections.Favorites(ctx)
	if err != nil {
		log.Fatal(err)
	}
	if _, _, err := client.Collections.AddItem(ctx, fav.ID, cms.ItemRef{Type: cms.ItemTypeFile, ID: "67890"}); err != nil {
		log.Fatal(err)
	}
	for it, err := range client.Collections.ListItemsIter(ctx, fav.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(it.Type, it.Name)
	}
}

func ExampleRecentItemsService_ListIter() {
	client := familiesClient()
	for ri, err := range client.RecentItems.ListIter(context.Background(), &cms.ListRecentItemsOptions{Limit: 100}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ri.InteractedAt.Format("2006-01-02"), ri.InteractionType, ri.Item.Name)
	}
}

func ExampleUsersService_TransferOwnedFolder() {
	admin := familiesClient()
	ctx := context.Background()
	const leaver, manager = "1111", "2222"
	f, _, err := admin.Users.TransferOwnedFolder(ctx, leaver, &cms.TransferOwnedFolderRequest{OwnedBy: cms.UserRef{ID: manager}},
		&cms.TransferOwnedFolderOptions{Notify: cms.Ptr(false)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("moved into", f.Name)
	if _, err := admin.Users.Delete(ctx, leaver, nil); err != nil {
		log.Fatal(err)
	}
	// Copy it to the items already in the folder, replacing their values.
	if _, err := client.MetadataCascadePolicies.Apply(ctx, p.ID, cms.ConflictResolutionOverwrite); err != nil {
		log.Fatal(err)
	}
}

func ExampleFileRequestsService_Copy() {
	client := familiesClient()
	ctx := context.Background()
	fr, _, err := client.FileRequests.Copy(ctx, "42", &cms.CopyFileRequestRequest{
		Folder:                   cms.FolderRef{ID: "12345"},
		UpdateFileRequestRequest: cms.UpdateFileRequestRequest{Title: "Receipts 2027", IsEmailRequired: cms.Ptr(true)},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("share", fr.URL)
}

func ExampleAvatarsService_Upload() {
	client := familiesClient()
	f, err := os.Open("me.png")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	av, _, err := client.Avatars.Upload(context.Background(), "1111", cms.AvatarImageTypePNG, f, -1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(av.PicURLs.Large)
}

func ExampleEmailAliasesService_Create() {
	client := familiesClient()
	ctx := context.Background()
	if _, _, err := client.EmailAliases.Create(ctx, "1111", &cms.CreateEmailAliasRequest{Email: "ann.lee@example.com"}); err != nil {
		log.Fatal(err)
	}
	aliases, _, err := client.EmailAliases.List(ctx, "1111")
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range aliases.Entries {
		fmt.Println(a.Email, a.IsConfirmed)
	}
}

func ExampleInvitesService_Create() {
	admin := familiesClient()
	inv, _, err := admin.Invites.Create(context.Background(), &cms.CreateInviteRequest{
		Enterprise:   cms.EnterpriseRef{ID: "42"},
		ActionableBy: cms.InviteeRef{Login: "joe@example.com"},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(inv.Status)
}
