// Command review runs a review task with two assignees: an author uploads a
// design document, asks herself and a reviewer to review it, and both
// answer; the task completes when all of them have.
//
// It runs against a reference server started in this process (the managed
// user is the author, the enterprise admin the reviewer), unless CMS_TOKEN
// (the author) is set: then against the public service, or the one
// CMS_BASE_URL and CMS_UPLOAD_URL name (cms.NewClientFromEnv), with
// CMS_REVIEWER_TOKEN and CMS_REVIEWER_LOGIN for the reviewer.
//
//	go run ./examples/review
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

// team is who takes part: the author's and the reviewer's clients.
type team struct {
	author, reviewer *cms.Client
	reviewerLogin    string
	where            string
	cleanup          func()
}

func run(ctx context.Context, out io.Writer) error {
	tm, err := setup()
	if err != nil {
		return err
	}
	defer tm.cleanup()
	fmt.Fprintf(out, "Connected to %s\n", tm.where)
	author, reviewer := tm.author, tm.reviewer

	folder, _, err := author.Folders.Create(ctx, &cms.CreateFolderRequest{
		Name: fmt.Sprintf("review-%d", time.Now().UnixNano()), Parent: cms.FolderRef{ID: "0"},
	}, nil)
	if err != nil {
		return fmt.Errorf("creating folder: %w", err)
	}
	defer func() {
		// Delete goes to the trash; delete the folder from the trash too.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_, err := author.Folders.Delete(cctx, folder.ID, &cms.DeleteFolderOptions{Recursive: true})
		if err == nil {
			_, err = author.Trash.PurgeFolder(cctx, folder.ID)
		}
		if err != nil {
			fmt.Fprintf(out, "Could not delete folder %s: %v\n", folder.ID, err)
			return
		}
		fmt.Fprintf(out, "Deleted folder %s for good\n", folder.ID)
	}()

	doc := "# Design\n\nThe service stores files.\n"
	file, _, err := author.Files.Upload(ctx, folder.ID, "design.md", strings.NewReader(doc), int64(len(doc)), nil)
	if err != nil {
		return fmt.Errorf("uploading: %w", err)
	}
	fmt.Fprintf(out, "Uploaded %q (id %s)\n", file.Name, file.ID)

	// A review task: every assignee must approve or reject.
	task, _, err := author.Tasks.Create(ctx, &cms.CreateTaskRequest{
		File: cms.FileRef{ID: file.ID}, Action: cms.TaskActionReview, CompletionRule: cms.TaskCompletionRuleAllAssignees,
		Message: "Please review the design", DueAt: time.Now().Add(72 * time.Hour),
	})
	if err != nil {
		return fmt.Errorf("creating task: %w", err)
	}
	fmt.Fprintf(out, "Created %s task %s: %q\n", task.Action, task.ID, task.Message)

	// Two assignees: the author by user id, the reviewer by login.
	mine, _, err := author.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, User: &cms.UserRef{ID: task.CreatedBy.ID}})
	if err != nil {
		return fmt.Errorf("assigning the author: %w", err)
	}
	theirs, _, err := author.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, Login: tm.reviewerLogin})
	if err != nil {
		return fmt.Errorf("assigning the reviewer: %w", err)
	}
	fmt.Fprintf(out, "Assigned %s and %s\n", mine.AssignedTo.Login, theirs.AssignedTo.Login)

	// Resolve checks the state against the task's action before sending:
	// a review is approved or rejected, never "completed".
	_, _, err = author.TaskAssignments.Resolve(ctx, task, mine.ID, cms.ResolutionStateCompleted, "")
	var argErr *cms.ArgError
	fmt.Fprintf(out, "Completing a review refused before sending: %t\n", errors.As(err, &argErr))

	if _, _, err := author.TaskAssignments.Resolve(ctx, task, mine.ID, cms.ResolutionStateApproved, "Looks right to me"); err != nil {
		return fmt.Errorf("approving: %w", err)
	}
	if task, _, err = author.Tasks.Get(ctx, task.ID); err != nil {
		return err
	}
	fmt.Fprintf(out, "After the author's approval, completed: %t\n", task.IsCompleted)

	// Each assignee answers with their own client.
	if _, _, err := reviewer.TaskAssignments.Resolve(ctx, task, theirs.ID, cms.ResolutionStateRejected, "Needs a diagram"); err != nil {
		return fmt.Errorf("rejecting: %w", err)
	}
	if task, _, err = author.Tasks.Get(ctx, task.ID); err != nil {
		return err
	}
	fmt.Fprintf(out, "After the reviewer's answer, completed: %t\n", task.IsCompleted)

	list, _, err := author.TaskAssignments.ListByTask(ctx, task.ID)
	if err != nil {
		return err
	}
	for _, a := range list.Entries {
		fmt.Fprintf(out, "  %-20s %-9s %q\n", a.AssignedTo.Login, a.ResolutionState, a.Message)
	}

	// A completed task takes no new assignee.
	_, _, err = author.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, Login: tm.reviewerLogin})
	fmt.Fprintf(out, "New assignee on a completed task refused: %t\n", errors.Is(err, cms.ErrForbidden))

	if _, err := author.Tasks.Delete(ctx, task.ID); err != nil {
		return fmt.Errorf("deleting task: %w", err)
	}
	fmt.Fprintln(out, "Deleted the task")
	return nil
}

// setup returns the two clients: of the service the environment names
// (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN for the author,
// CMS_REVIEWER_TOKEN and CMS_REVIEWER_LOGIN for the reviewer), or of a
// reference server started here (its managed user writes, its admin
// reviews).
func setup() (*team, error) {
	const hint = "set CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN, CMS_REVIEWER_TOKEN and CMS_REVIEWER_LOGIN for a real service"
	author, srv, where, err := connect(refserver.RoleUser, refserver.Options{}, hint)
	if err != nil {
		return nil, err
	}
	rtoken, login := os.Getenv("CMS_REVIEWER_TOKEN"), os.Getenv("CMS_REVIEWER_LOGIN")
	if srv != nil {
		rtoken, login = srv.AdminToken(), "admin@cms.test"
	} else if rtoken == "" || login == "" {
		return nil, errors.New("set CMS_REVIEWER_TOKEN and CMS_REVIEWER_LOGIN for the second assignee")
	}
	// The same service with the reviewer's token.
	reviewer, err := author.Clone(cms.WithToken(rtoken))
	if err != nil {
		closeServer(srv)
		return nil, err
	}
	return &team{author: author, reviewer: reviewer, reviewerLogin: login, where: where, cleanup: func() { closeServer(srv) }}, nil
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
