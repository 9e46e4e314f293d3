package cms_test

import (
	"context"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleLegalHoldPoliciesService() {
	srv, err := refserver.Start(refserver.Options{LegalHoldReleaseDelay: 50 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	hold, _, err := admin.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{PolicyName: "Case 42", IsOngoing: true})
	if err != nil {
		log.Fatal(err)
	}
	f, _, err := admin.Files.Upload(ctx, "0", "mail.eml", strings.NewReader("evidence"), 8, nil)
	if err != nil {
		log.Fatal(err)
	}
	_, _, err = admin.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{
		PolicyID: hold.ID, AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFile, ID: f.ID},
	})
	if err != nil {
		log.Fatal(err)
	}

	fmt.Println(hold.PolicyName, hold.Status)
	release, _, err := admin.LegalHoldPolicies.Delete(ctx, hold.ID) // 202: the release goes on in the background
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("release accepted:", release.Accepted)
	hold, _, err = admin.LegalHoldPolicies.WaitForStatus(ctx, hold.ID, cms.LegalHoldPolicyStatusReleased, &cms.PollOptions{Interval: 10 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(hold.PolicyName, hold.Status)
	// Output:
	// Case 42 applying
	// release accepted: true
	// Case 42 released
}

func ExampleLegalHoldPolicyAssignmentsService() {
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
	hold, _, err := admin.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{PolicyName: "Case 42", IsOngoing: true})
	if err != nil {
		log.Fatal(err)
	}
	f, _, err := admin.Files.Upload(ctx, "0", "mail.eml", strings.NewReader("evidence"), 8, nil)
	if err != nil {
		log.Fatal(err)
	}
	a, _, err := admin.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{
		PolicyID: hold.ID, AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFile, ID: f.ID},
	})
	if err != nil {
		log.Fatal(err)
	}

	for x, err := range admin.LegalHoldPolicyAssignments.ListByPolicyIter(ctx, hold.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("assigned to a", x.AssignedTo.Type)
	}
	for f, err := range admin.LegalHoldPolicyAssignments.ListFilesOnHoldIter(ctx, a.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("on hold:", f.Name)
	}
	// Output:
	// assigned to a file
	// on hold: mail.eml
}

func ExampleFileVersionLegalHoldsService() {
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
	hold, _, err := admin.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{PolicyName: "Case 42", IsOngoing: true})
	if err != nil {
		log.Fatal(err)
	}
	f, _, err := admin.Files.Upload(ctx, "0", "mail.eml", strings.NewReader("evidence"), 8, nil)
	if err != nil {
		log.Fatal(err)
	}
	_, _, err = admin.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{
		PolicyID: hold.ID, AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFile, ID: f.ID},
	})
	if err != nil {
		log.Fatal(err)
	}

	for h, err := range admin.FileVersionLegalHolds.ListByPolicyIter(ctx, hold.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(h.Type, h.File.Name, len(h.LegalHoldPolicyAssignments))
	}
	// Output:
	// file_version_legal_hold mail.eml 1
}
