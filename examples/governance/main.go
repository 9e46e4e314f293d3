// Command governance shows retention and legal holds: it puts a retention
// policy on a folder, uploads a contract there and shows that it is
// retained (its delete is refused), then places a legal hold on the file and
// releases it, waiting for the asynchronous release to finish. At the end it
// removes what it made (a modifiable policy can be deleted).
//
// It runs against a reference server started in this process, unless
// CMS_TOKEN is set: then against the public service, or the one
// CMS_BASE_URL and CMS_UPLOAD_URL name (cms.NewClientFromEnv); governance
// needs an enterprise admin's token there.
//
//	go run ./examples/governance
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, out io.Writer) error {
	client, where, cleanup, err := setup()
	if err != nil {
		return err
	}
	defer cleanup()
	fmt.Fprintf(out, "Connected to %s\n", where)
	stamp := time.Now().Format("20060102-150405.000")

	// 1. A folder whose content must be kept for 30 days.
	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "contracts-" + stamp, Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		return fmt.Errorf("creating folder: %w", err)
	}
	policy, _, err := client.RetentionPolicies.Create(ctx, &cms.CreateRetentionPolicyRequest{
		PolicyName:        "Contracts " + stamp,
		PolicyType:        cms.RetentionPolicyTypeFinite,
		RetentionLength:   cms.RetentionDays(30),
		DispositionAction: cms.DispositionActionRemoveRetention,
		Description:       "Keep signed contracts for 30 days",
	})
	if err != nil {
		return fmt.Errorf("creating retention policy: %w", err)
	}
	fmt.Fprintf(out, "Retention policy %q: %s days, then %s\n", policy.PolicyName, policy.RetentionLength, policy.DispositionAction)
	assignment, _, err := client.RetentionPolicyAssignments.Create(ctx, &cms.CreateRetentionPolicyAssignmentRequest{
		PolicyID: policy.ID,
		AssignTo: cms.RetentionAssignTo{Type: cms.RetentionAssignmentTypeFolder, ID: folder.ID},
	})
	if err != nil {
		return fmt.Errorf("assigning retention policy: %w", err)
	}
	fmt.Fprintf(out, "Assigned to folder %q\n", folder.Name)

	// 2. A file uploaded there is retained from the moment it arrives.
	text := "This contract is signed.\n"
	file, _, err := client.Files.Upload(ctx, folder.ID, "contract.txt", strings.NewReader(text), int64(len(text)), nil)
	if err != nil {
		return fmt.Errorf("uploading: %w", err)
	}
	for r, err := range client.FileVersionRetentions.ListIter(ctx, &cms.ListFileVersionRetentionsOptions{FileID: file.ID}) {
		if err != nil {
			return fmt.Errorf("listing file version retentions: %w", err)
		}
		fmt.Fprintf(out, "Version %s of %q retained by %q until %s\n", r.FileVersion.ID, r.File.Name,
			r.WinningRetentionPolicy.PolicyName, r.DispositionAt.Format(time.DateOnly))
	}
	// Deleting moves the file to the trash; deleting it for good is refused
	// while a version is retained. Restore it for what follows.
	if _, err := client.Files.Delete(ctx, file.ID, nil); err != nil {
		return fmt.Errorf("trashing: %w", err)
	}
	_, err = client.Trash.PurgeFile(ctx, file.ID)
	fmt.Fprintf(out, "Permanent delete refused while retained: %t\n", errors.Is(err, cms.ErrForbidden))
	if _, _, err := client.Trash.RestoreFile(ctx, file.ID, nil, nil); err != nil {
		return fmt.Errorf("restoring: %w", err)
	}

	// 3. A legal hold on the file, then its release (asynchronous).
	hold, _, err := client.LegalHoldPolicies.Create(ctx, &cms.CreateLegalHoldPolicyRequest{
		PolicyName: "Case " + stamp, Description: "Litigation hold", IsOngoing: true,
	})
	if err != nil {
		return fmt.Errorf("creating legal hold policy: %w", err)
	}
	poll := &cms.PollOptions{Interval: 100 * time.Millisecond}
	if hold, _, err = client.LegalHoldPolicies.WaitForStatus(ctx, hold.ID, cms.LegalHoldPolicyStatusActive, poll); err != nil {
		return fmt.Errorf("waiting for the hold to apply: %w", err)
	}
	fmt.Fprintf(out, "Legal hold %q is %s\n", hold.PolicyName, hold.Status)
	if _, _, err := client.LegalHoldPolicyAssignments.Create(ctx, &cms.CreateLegalHoldPolicyAssignmentRequest{
		PolicyID: hold.ID, AssignTo: cms.LegalHoldAssignTo{Type: cms.LegalHoldAssignmentTypeFile, ID: file.ID},
	}); err != nil {
		return fmt.Errorf("assigning legal hold: %w", err)
	}
	for h, err := range client.FileVersionLegalHolds.ListByPolicyIter(ctx, hold.ID, nil) {
		if err != nil {
			return fmt.Errorf("listing file version legal holds: %w", err)
		}
		fmt.Fprintf(out, "Version %s of %q is on hold\n", h.FileVersion.ID, h.File.Name)
	}
	release, _, err := client.LegalHoldPolicies.Delete(ctx, hold.ID)
	if err != nil {
		return fmt.Errorf("releasing legal hold: %w", err)
	}
	fmt.Fprintf(out, "Release accepted: %t; waiting for it\n", release.Accepted)
	if hold, _, err = client.LegalHoldPolicies.WaitForStatus(ctx, hold.ID, cms.LegalHoldPolicyStatusReleased, poll); err != nil {
		return fmt.Errorf("waiting for the release: %w", err)
	}
	fmt.Fprintf(out, "Legal hold %q is %s\n", hold.PolicyName, hold.Status)

	// 4. Clean up: a modifiable policy and its assignment can be deleted,
	// which lifts the retention, and then the folder can go.
	if _, err := client.RetentionPolicyAssignments.Delete(ctx, assignment.ID); err != nil {
		return fmt.Errorf("deleting retention assignment: %w", err)
	}
	if _, err := client.RetentionPolicies.Delete(ctx, policy.ID); err != nil {
		return fmt.Errorf("deleting retention policy: %w", err)
	}
	if _, err := client.Folders.Delete(ctx, folder.ID, &cms.DeleteFolderOptions{Recursive: true}); err != nil {
		return fmt.Errorf("deleting folder: %w", err)
	}
	fmt.Fprintln(out, "Retention lifted, folder deleted")
	return nil
}

// setup returns an admin client of the service the environment names
// (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN), or of a reference server
// started here.
func setup() (client *cms.Client, where string, cleanup func(), err error) {
	client, srv, where, err := connect(refserver.RoleAdmin, refserver.Options{LegalHoldReleaseDelay: 300 * time.Millisecond}, "")
	if err != nil {
		return nil, "", nil, err
	}
	return client, where, func() { closeServer(srv) }, nil
}

// connect returns a client of the service the environment names
// (cms.NewClientFromEnv: CMS_TOKEN, and CMS_BASE_URL with CMS_UPLOAD_URL
// unless it is the public service) and says where it is, or, when CMS_TOKEN
// is unset, starts a reference server in this process with opts and
// returns a client of it as role, with the server (nil for a real
// service). hint tells which variables point the program at a real service.
func connect(role refserver.Role, opts refserver.Options, hint string) (client *cms.Client, srv *refserver.Server, where string, err error) {
	if os.Getenv(cms.EnvToken) != "" {
		client, err = cms.NewClientFromEnv()
		if err != nil {
			return nil, nil, "", err
		}
		return client, nil, client.BaseURL(), nil
	}
	if srv, err = refserver.Start(opts); err != nil {
		return nil, nil, "", err
	}
	ep, err := srv.Endpoint(role)
	if err == nil {
		client, err = cms.NewClient(cms.WithURLs(ep.BaseURL, ep.UploadURL), cms.WithToken(ep.Token))
	}
	if err != nil {
		srv.Close()
		return nil, nil, "", err
	}
	if hint == "" {
		hint = "set CMS_BASE_URL, CMS_UPLOAD_URL and CMS_TOKEN for a real service"
	}
	return client, srv, "a reference server at " + srv.BaseURL() + " (" + hint + ")", nil
}

// closeServer stops srv, when connect started one.
func closeServer(srv *refserver.Server) {
	if srv != nil {
		srv.Close()
	}
}
