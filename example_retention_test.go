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

func ExampleRetentionPoliciesService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	p, _, err := admin.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
		PolicyName:        "Invoices",
		PolicyType:        cms.RetentionPolicyTypeFinite,
		RetentionLength:   cms.RetentionDays(365),
		DispositionAction: cms.DispositionActionPermanentlyDelete,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.PolicyName, p.RetentionLength, p.Status)
	// Lengthen it and make it non-modifiable (one-way).
	p, _, err = admin.RetentionPolicies.Update(ctx, p.ID, &cms.UpdateRetentionPolicyRequest{
		RetentionLength: cms.RetentionDays(730),
		RetentionType:   cms.RetentionTypeNonModifiable,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.RetentionLength, p.RetentionType)
	_, err = admin.RetentionPolicies.Delete(ctx, p.ID)
	fmt.Println("delete refused:", err != nil)
	// Output:
	// Invoices 365 active
	// 730 non_modifiable
	// delete refused: true
}

func ExampleRetentionPolicyAssignmentsService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	policy, _, err := admin.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
		PolicyName: "Contracts", PolicyType: cms.RetentionPolicyTypeFinite,
		RetentionLength: cms.RetentionDays(30), DispositionAction: cms.DispositionActionRemoveRetention,
	})
	if err != nil {
		log.Fatal(err)
	}
	folder, _, err := admin.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Contracts", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	a, _, err := admin.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: policy.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeFolder, ID: folder.ID},
	})
	if err != nil {
		log.Fatal(err)
	}
	_, _, err = admin.Files.Upload(ctx, folder.ID, "nda.txt", strings.NewReader("signed"), 6, nil)
	if err != nil {
		log.Fatal(err)
	}

	fmt.Println(a.AssignedTo.Type, "assigned to policy", a.RetentionPolicy.PolicyName)
	for f, err := range admin.RetentionPolicyAssignments.ListFilesUnderRetentionIter(ctx, a.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("under retention:", f.Name)
	}
	n := 0
	for _, err := range admin.RetentionPolicyAssignments.ListByPolicyIter(ctx, policy.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		n++
	}
	fmt.Println("assignments:", n)
	// Output:
	// folder assigned to policy Contracts
	// under retention: nda.txt
	// assignments: 1
}

func ExampleFileVersionRetentionsService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	policy, _, err := admin.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
		PolicyName: "Contracts", PolicyType: cms.RetentionPolicyTypeFinite,
		RetentionLength: cms.RetentionDays(30), DispositionAction: cms.DispositionActionRemoveRetention,
	})
	if err != nil {
		log.Fatal(err)
	}
	folder, _, err := admin.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "Contracts", Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		log.Fatal(err)
	}
	_, _, err = admin.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: policy.ID, AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeFolder, ID: folder.ID},
	})
	if err != nil {
		log.Fatal(err)
	}
	f, _, err := admin.Files.Upload(ctx, folder.ID, "nda.txt", strings.NewReader("signed"), 6, nil)
	if err != nil {
		log.Fatal(err)
	}

	for r, err := range admin.FileVersionRetentions.ListIter(ctx, &cms.ListFileVersionRetentionsOptions{FileID: f.ID}) {
		if err != nil {
			log.Fatal(err)
		}
		days := r.DispositionAt.Sub(r.AppliedAt).Hours() / 24
		fmt.Println(r.File.Name, "retained by", r.WinningRetentionPolicy.PolicyName, "for", days, "days")
	}
	// A delete moves the file to the trash; a retained file stays there.
	if _, err := admin.Files.Delete(ctx, f.ID, nil); err != nil {
		log.Fatal(err)
	}
	_, err = admin.Trash.PurgeFile(ctx, f.ID)
	fmt.Println("permanent delete refused:", errors.Is(err, cms.ErrForbidden))
	// Output:
	// nda.txt retained by Contracts for 30 days
	// permanent delete refused: true
}
