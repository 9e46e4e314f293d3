package cms_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleTasksService() {
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
	author, reviewer := connect(srv.UserToken()), connect(srv.AdminToken())
	ctx := context.Background()

	f, _, err := author.Files.Upload(ctx, "0", "design.md", strings.NewReader("# Design"), 8, nil)
	if err != nil {
		log.Fatal(err)
	}
	task, _, err := author.Tasks.Create(ctx, &cms.CreateTaskRequest{File: cms.FileRef{ID: f.ID}, Action: cms.TaskActionReview, Message: "Please review"})
	if err != nil {
		log.Fatal(err)
	}
	a, _, err := author.TaskAssignments.Create(ctx, &cms.CreateTaskAssignmentRequest{Task: cms.TaskRef{ID: task.ID}, Login: "admin@cms.test"})
	if err != nil {
		log.Fatal(err)
	}

	// Resolve checks the state against the task's action before sending.
	_, _, err = reviewer.TaskAssignments.Resolve(ctx, task, a.ID, cms.ResolutionStateCompleted, "")
	fmt.Println("completed on a review task:", err != nil)
	if _, _, err := reviewer.TaskAssignments.Resolve(ctx, task, a.ID, cms.ResolutionStateApproved, "LGTM"); err != nil {
		log.Fatal(err)
	}
	task, _, err = author.Tasks.Get(ctx, task.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("completed:", task.IsCompleted, task.TaskAssignmentCollection.Entries[0].ResolutionState)
	// Output:
	// completed on a review task: true
	// completed: true approved
}
