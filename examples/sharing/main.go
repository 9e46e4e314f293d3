// Command sharing shares a folder with a colleague, who uploads into it;
// the owner then reviews the file's versions, locks the file, promotes an
// earlier version, comments, and hands out a password-protected link.
//
// It runs against a reference server started in this process (the managed
// user owns the folder, a new user of its enterprise is the colleague),
// unless CMS_TOKEN (the owner) is set: then against the public service, or
// the one CMS_BASE_URL and CMS_UPLOAD_URL name (cms.NewClientFromEnv), with
// CMS_COLLEAGUE_TOKEN and CMS_COLLEAGUE_LOGIN for the colleague.
//
//	go run ./examples/sharing
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

// pair is who takes part: the owner's and the colleague's clients.
type pair struct {
	owner, colleague *cms.Client
	colleagueLogin   string
	where            string
	cleanup          func()
}

func run(ctx context.Context, out io.Writer) error {
	pr, err := setup(ctx)
	if err != nil {
		return err
	}
	defer pr.cleanup()
	fmt.Fprintf(out, "Connected to %s\n", pr.where)
	owner, colleague := pr.owner, pr.colleague

	folder, _, err := owner.Folders.Create(ctx, &cms.CreateFolderRequest{
		Name: fmt.Sprintf("shared-%d", time.Now().UnixNano()), Parent: cms.FolderRef{ID: "0"},
	}, nil)
	if err != nil {
		return fmt.Errorf("creating folder: %w", err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_, err := owner.Folders.Delete(cctx, folder.ID, &cms.DeleteFolderOptions{Recursive: true})
		if err == nil {
			_, err = owner.Trash.PurgeFolder(cctx, folder.ID)
		}
		if err != nil {
			fmt.Fprintf(out, "Could not delete folder %s: %v\n", folder.ID, err)
			return
		}
		fmt.Fprintf(out, "Deleted folder %s for good\n", folder.ID)
	}()

	// Share the folder with the colleague, by login, as an editor.
	collab, _, err := owner.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{
		Item: cms.ItemRef{Type: cms.ItemTypeFolder, ID: folder.ID}, Login: pr.colleagueLogin, Role: cms.CollaborationRoleEditor,
	}, nil)
	if err != nil {
		return fmt.Errorf("sharing the folder: %w", err)
	}
	fmt.Fprintf(out, "Shared %q with %s as %s (%s)\n", folder.Name, pr.colleagueLogin, collab.Role, collab.Status)

	// The colleague uploads a draft, then two revisions of it.
	f, _, err := colleague.Files.Upload(ctx, folder.ID, "proposal.md", strings.NewReader("draft 1\n"), 8, nil)
	if err != nil {
		return fmt.Errorf("the colleague's upload: %w", err)
	}
	for _, text := range []string{"draft 2\n", "draft 3, with typos\n"} {
		if _, _, err := colleague.Files.UploadVersion(ctx, f.ID, strings.NewReader(text), int64(len(text)), nil); err != nil {
			return fmt.Errorf("the colleague's new version: %w", err)
		}
	}
	fmt.Fprintf(out, "The colleague uploaded %q and two new versions\n", f.Name)

	// The owner reviews the earlier versions, newest first.
	var versions []*cms.FileVersion
	for v, err := range owner.FileVersions.ListByFileIter(ctx, f.ID, nil) {
		if err != nil {
			return fmt.Errorf("listing versions: %w", err)
		}
		versions = append(versions, v)
		fmt.Fprintf(out, "  version %s: %d bytes by %s\n", v.VersionNumber, v.Size, v.ModifiedBy.Login)
	}

	// Lock the file while deciding: the colleague cannot rename it now.
	if _, _, err := owner.Files.Lock(ctx, f.ID, &cms.LockRequest{}, nil); err != nil {
		return fmt.Errorf("locking: %w", err)
	}
	_, _, err = colleague.Files.Update(ctx, f.ID, &cms.UpdateFileRequest{Name: "final.md"}, nil)
	fmt.Fprintf(out, "The colleague's rename while locked refused: %t\n", errors.Is(err, cms.ErrAccessDeniedItemLocked))

	// Draft 2 was better: promote it, unlock, and say so.
	promoted, _, err := owner.FileVersions.Promote(ctx, f.ID, versions[0].ID, nil)
	if err != nil {
		return fmt.Errorf("promoting: %w", err)
	}
	fmt.Fprintf(out, "Promoted version %s: the file is now version %s\n", versions[0].VersionNumber, promoted.VersionNumber)
	if _, _, err := owner.Files.Unlock(ctx, f.ID, nil); err != nil {
		return fmt.Errorf("unlocking: %w", err)
	}
	c, _, err := owner.Comments.Create(ctx, &cms.CreateCommentRequest{Item: cms.ItemRef{Type: cms.ItemTypeFile, ID: f.ID},
		Message: "Went back to draft 2; the third had typos."}, nil)
	if err != nil {
		return fmt.Errorf("commenting: %w", err)
	}
	fmt.Fprintf(out, "Commented: %q\n", c.Message)

	// A link for people outside the folder, with a password.
	link, _, err := owner.Files.SetSharedLink(ctx, f.ID, &cms.SharedLinkRequest{Access: cms.SharedLinkAccessOpen, Password: cms.Set("Draft-2-ok!")})
	if err != nil {
		return fmt.Errorf("the shared link: %w", err)
	}
	fmt.Fprintf(out, "Shared link with a password: %t\n", link.IsPasswordEnabled)
	item, _, err := colleague.SharedItems.Get(ctx, link.URL, &cms.GetSharedItemOptions{Password: "Draft-2-ok!"})
	if err != nil {
		return fmt.Errorf("reading through the link: %w", err)
	}
	fmt.Fprintf(out, "Read through the link: %s\n", item.Name)

	// Done: the colleague's access ends with the collaboration.
	if _, err := owner.Collaborations.Delete(ctx, collab.ID); err != nil {
		return fmt.Errorf("ending the collaboration: %w", err)
	}
	_, _, err = colleague.Files.Get(ctx, f.ID, nil)
	fmt.Fprintf(out, "After the collaboration ends, the colleague finds the file: %t\n", err == nil)
	return nil
}

// setup returns the two clients: of the service the environment names
// (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN for the owner,
// CMS_COLLEAGUE_TOKEN and CMS_COLLEAGUE_LOGIN for the colleague), or of a
// reference server started here (its managed user owns; the colleague is a
// new user of its enterprise, reached through the admin's As-User).
func setup(ctx context.Context) (*pair, error) {
	const hint = "set CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN, CMS_COLLEAGUE_TOKEN and CMS_COLLEAGUE_LOGIN for a real service"
	owner, srv, where, err := connect(refserver.RoleUser, refserver.Options{}, hint)
	if err != nil {
		return nil, err
	}
	p := &pair{owner: owner, where: where, cleanup: func() { closeServer(srv) }}
	if srv != nil {
		admin, err := owner.Clone(cms.WithToken(srv.AdminToken()))
		if err == nil {
			var u *cms.User
			if u, _, err = admin.Users.Create(ctx, &cms.CreateUserRequest{Name: "Colleague", Login: "colleague@cms.test"}, nil); err == nil {
				p.colleagueLogin = u.Login
				p.colleague, err = admin.AsUser(u.ID)
			}
		}
		if err != nil {
			p.cleanup()
			return nil, fmt.Errorf("making the colleague: %w", err)
		}
		return p, nil
	}
	token, login := os.Getenv("CMS_COLLEAGUE_TOKEN"), os.Getenv("CMS_COLLEAGUE_LOGIN")
	if token == "" || login == "" {
		p.cleanup()
		return nil, errors.New("set CMS_COLLEAGUE_TOKEN and CMS_COLLEAGUE_LOGIN for the colleague")
	}
	if p.colleague, err = owner.Clone(cms.WithToken(token)); err != nil {
		p.cleanup()
		return nil, err
	}
	p.colleagueLogin = login
	return p, nil
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
