package cms_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"log"
	"strings"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// familyServer starts a reference server with opts and returns it with a
// connect function for its tokens.
func familyServer(opts refserver.Options) (*refserver.Server, func(token string) *cms.Client) {
	srv, err := refserver.Start(opts)
	if err != nil {
		log.Fatal(err)
	}
	return srv, func(token string) *cms.Client {
		c, err := cms.NewClient(cms.WithToken(token), cms.WithBaseURL(srv.BaseURL()), cms.WithUploadURL(srv.UploadURL()))
		if err != nil {
			log.Fatal(err)
		}
		return c
	}
}

func ExampleClassificationsService() {
	srv, connect := familyServer(refserver.Options{})
	defer srv.Close()
	admin, user := connect(srv.AdminToken()), connect(srv.UserToken())
	ctx := context.Background()

	// The enterprise's template, made on first use.
	tpl, _, err := admin.Classifications.GetTemplate(ctx)
	if errors.Is(err, cms.ErrNotFound) {
		tpl, _, err = admin.Classifications.CreateTemplate(ctx, &cms.CreateClassificationTemplateRequest{
			Labels: []cms.ClassificationLabel{{Key: "Public"}, {Key: "Confidential", Definition: "Staff only", ColorID: cms.Ptr(2)}},
		})
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("labels:", len(tpl.Labels()), tpl.Label("Confidential").StaticConfig.Classification.Definition)

	f, _, err := user.Files.Upload(ctx, "0", "plan.txt", strings.NewReader("plan"), 4, nil)
	if err != nil {
		log.Fatal(err)
	}
	if _, _, err := user.Classifications.Add(ctx, cms.OnFile(f.ID), "Public"); err != nil {
		log.Fatal(err)
	}
	_, _, err = user.Classifications.Add(ctx, cms.OnFile(f.ID), "Confidential")
	fmt.Println("classified twice:", errors.Is(err, cms.ErrTupleAlreadyExists))
	cl, _, err := user.Classifications.Update(ctx, cms.OnFile(f.ID), "Confidential")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("classification:", cl.Key)
	// Output:
	// labels: 2 Staff only
	// classified twice: true
	// classification: Confidential
}

func ExampleMetadataCascadePoliciesService_Apply() {
	srv, connect := familyServer(refserver.Options{})
	defer srv.Close()
	admin, client := connect(srv.AdminToken()), connect(srv.UserToken())
	ctx := context.Background()
	if _, _, err := admin.MetadataTemplates.Create(ctx, &cms.CreateMetadataTemplateRequest{TemplateKey: "contract", DisplayName: "Contract",
		Fields: []*cms.MetadataField{{Type: cms.MetadataFieldTypeString, Key: "status", DisplayName: "Status"}}}); err != nil {
		log.Fatal(err)
	}
	deals, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Deals", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	old, _, err := client.Files.Upload(ctx, deals.ID, "old.pdf", strings.NewReader("old"), 3, nil)
	if err != nil {
		log.Fatal(err)
	}

	// The folder holds an instance of the template first.
	if _, _, err := client.Metadata.Upsert(ctx, cms.OnFolder(deals.ID), cms.MetadataScopeEnterprise, "contract", map[string]any{"status": "draft"}); err != nil {
		log.Fatal(err)
	}
	p, _, err := client.MetadataCascadePolicies.Create(ctx, &cms.CreateMetadataCascadePolicyRequest{
		FolderID: deals.ID, Scope: cms.MetadataScopeEnterprise, TemplateKey: "contract",
	})
	if err != nil {
		log.Fatal(err)
	}
	// Copy it to the items already in the folder, replacing their values.
	if _, err := client.MetadataCascadePolicies.Apply(ctx, p.ID, cms.ConflictResolutionOverwrite); err != nil {
		log.Fatal(err)
	}
	// Items added later get it too.
	later, _, err := client.Files.Upload(ctx, deals.ID, "new.pdf", strings.NewReader("new"), 3, nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range []*cms.File{old, later} {
		in, _, err := client.Metadata.Get(ctx, cms.OnFile(f.ID), cms.MetadataScopeEnterprise, "contract")
		if err != nil {
			log.Fatal(err)
		}
		status, _ := in.String("status")
		fmt.Println(f.Name, status)
	}
	// Output:
	// old.pdf draft
	// new.pdf draft
}

func ExampleFileRequestsService_Copy() {
	// File requests are made in the web app; the server seeds one.
	srv, connect := familyServer(refserver.Options{FileRequests: 1})
	defer srv.Close()
	client := connect(srv.UserToken())
	ctx := context.Background()
	next, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Receipts 2027", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fr, _, err := client.FileRequests.Copy(ctx, srv.FileRequestIDs()[0], &cms.CopyFileRequestRequest{
		Folder:                   cms.FolderRef{ID: next.ID},
		UpdateFileRequestRequest: cms.UpdateFileRequestRequest{Title: "Receipts 2027", IsEmailRequired: cms.Ptr(true)},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fr.Title, fr.Status, fr.IsEmailRequired, fr.Folder.Name)
	// Output:
	// Receipts 2027 active true Receipts 2027
}

func ExampleAvatarsService_Upload() {
	srv, connect := familyServer(refserver.Options{})
	defer srv.Close()
	client := connect(srv.UserToken())
	ctx := context.Background()
	var pic bytes.Buffer // an image file, streamed from any io.Reader
	if err := png.Encode(&pic, image.NewGray(image.Rect(0, 0, 128, 128))); err != nil {
		log.Fatal(err)
	}
	size := int64(pic.Len())
	av, resp, err := client.Avatars.Upload(ctx, srv.UserID(), cms.AvatarImageTypePNG, &pic, size)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.StatusCode, av.PicURLs.Large != "")
	img, _, err := client.Avatars.Get(ctx, srv.UserID())
	if err != nil {
		log.Fatal(err)
	}
	defer img.Close()
	n, _ := io.Copy(io.Discard, img)
	fmt.Println(n == size)
	// Output:
	// 201 true
	// true
}

func ExampleEmailAliasesService_Create() {
	srv, connect := familyServer(refserver.Options{EnterpriseDomains: []string{"example.com"}})
	defer srv.Close()
	client := connect(srv.AdminToken())
	ctx := context.Background()
	if _, _, err := client.EmailAliases.Create(ctx, srv.UserID(), &cms.CreateEmailAliasRequest{Email: "ann.lee@example.com"}); err != nil {
		log.Fatal(err)
	}
	aliases, _, err := client.EmailAliases.List(ctx, srv.UserID())
	if err != nil {
		log.Fatal(err)
	}
	for _, a := range aliases.Entries {
		fmt.Println(a.Email, a.IsConfirmed)
	}
	// Output:
	// ann.lee@example.com true
}

func ExampleInvitesService_Create() {
	// The invited user has a Box account outside the enterprise.
	srv, connect := familyServer(refserver.Options{ExternalUsers: []string{"joe@example.com"}})
	defer srv.Close()
	admin := connect(srv.AdminToken())
	inv, _, err := admin.Invites.Create(context.Background(), &cms.CreateInviteRequest{
		Enterprise:   cms.EnterpriseRef{ID: srv.EnterpriseID()},
		ActionableBy: cms.InviteeRef{Login: "joe@example.com"},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(inv.Status, inv.ActionableBy.Login)
	// Output:
	// pending joe@example.com
}
