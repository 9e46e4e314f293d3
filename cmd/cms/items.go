package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
)

func (a *app) mkdirCmd() *cobra.Command {
	var parents bool
	cmd := &cobra.Command{
		Use:   "mkdir [PARENT] NAME | mkdir /PATH",
		Short: "Make a folder (an existing one is fine, as mkdir -p)",
		Long: `Make a folder NAME in PARENT (a folder id, folder:ID or a /path), or the
folder /PATH. A folder of that name already there is fine (its id is printed, as
mkdir -p would); a file of that name is a conflict (exit status 4). With -p, NAME
(or PATH) may be a path, and every missing folder on it is made.`,
		Args: nArgs(1, 2, "PARENT and NAME, or one /PATH"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			parentArg, name := "", ""
			if len(args) == 2 {
				parentArg, name = args[0], args[1]
			} else {
				if !strings.HasPrefix(args[0], "/") {
					return usagef("takes PARENT and NAME, or one /PATH")
				}
				dir, base := path.Split(strings.TrimRight(args[0], "/"))
				parentArg, name = dir, base
				if parentArg == "" || parentArg == "/" {
					parentArg = "0"
				}
			}
			names := splitPath(name)
			if len(names) == 0 {
				return usagef("no folder name")
			}
			if len(names) > 1 && !parents {
				return usagef("%q is a path: give -p to make every folder on it", name)
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			var id string
			if parents && len(args) == 1 {
				// Only the root is sure to exist: make the parents too.
				names = splitPath(args[0])
				id = "0"
			} else if id, err = folderID(ctx, c, parentArg); err != nil {
				return err
			}
			var made bool
			for _, n := range names {
				if id, made, err = a.ensureFolder(ctx, c, id, n); err != nil {
					return err
				}
			}
			state := "exists"
			switch {
			case made && a.g.dryRun:
				state = "would be made"
			case made:
				state = "made"
			}
			a.said(map[string]string{"type": kindFolder, "id": id, "name": names[len(names)-1], "state": state},
				"%sfolder %s %s (%s)", a.wouldPrefix(), id, names[len(names)-1], state)
			return nil
		},
	}
	cmd.Flags().BoolVarP(&parents, "parents", "p", false, "make every missing folder on the path")
	return cmd
}

// ensureFolder makes the folder name in parentID, or finds the one there;
// a file of that name is a conflict. With --dry-run nothing is made (and
// a folder that would be made has no id).
func (a *app) ensureFolder(ctx context.Context, c *cms.Client, parentID, name string) (string, bool, error) {
	if a.g.dryRun {
		if parentID == "" {
			return "", true, nil
		}
		it, err := child(ctx, c, parentID, name)
		switch {
		case err != nil:
			return "", false, err
		case it == nil:
			return "", true, nil
		case it.Type != kindFolder:
			return "", false, fmt.Errorf("%q is a %s, not a folder: %w", name, it.Type, errConflict)
		}
		return it.ID, false, nil
	}
	f, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: parentID}}, nil)
	if err == nil {
		return f.ID, true, nil
	}
	var apiErr *cms.APIError
	if !errors.As(err, &apiErr) || !errors.Is(err, cms.ErrConflict) {
		return "", false, err
	}
	for _, it := range apiErr.Conflicts() {
		if it.Type == kindFolder {
			return it.ID, false, nil
		}
	}
	// The conflict named no folder: look (case-insensitively, as the
	// service compares).
	it, lerr := child(ctx, c, parentID, name)
	if lerr == nil && it != nil && it.Type == kindFolder {
		return it.ID, false, nil
	}
	if lerr == nil && it != nil {
		return "", false, fmt.Errorf("%q is a %s %s, not a folder: %w", name, it.Type, it.ID, err)
	}
	return "", false, err
}

func (a *app) rmCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rm ITEM",
		Short: "Move a file or a folder (with its content) to the trash",
		Long: `Move a file or a folder (with its content) to the trash.
ITEM is file:ID, folder:ID or a /path: a bare id is refused, since a file and a
folder may have the same id. With --dry-run, say what would go and change nothing.`,
		Args: nArgs(1, 1, "one ITEM ("+refForms+")"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			r, err := parseRefExplicit(args[0])
			if err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolve(ctx, c, r, explicitOnly)
			if err != nil {
				return err
			}
			if it.folder != nil && it.folder.ID == "0" {
				return usagef("the root folder cannot be trashed")
			}
			if !a.g.dryRun {
				if it.folder != nil {
					_, err = c.Folders.Delete(ctx, it.id(), &cms.DeleteFolderOptions{Recursive: true})
				} else {
					_, err = c.Files.Delete(ctx, it.id(), nil)
				}
				if err != nil {
					return err
				}
			}
			trashed := "yes"
			if a.g.dryRun {
				trashed = "dry-run"
			}
			a.said(map[string]string{"type": it.kind(), "id": it.id(), "name": it.name(), "trashed": trashed},
				"%s%s %s (%s) moved to the trash", a.wouldPrefix(), it.kind(), it.id(), it.name())
			return nil
		},
	}
}

// wouldPrefix starts the line of a change --dry-run did not make.
func (a *app) wouldPrefix() string {
	if a.g.dryRun {
		return "dry run: "
	}
	return ""
}

// said prints a command's result: v as JSON with --json, the line
// otherwise.
func (a *app) said(v any, format string, args ...any) {
	if a.g.json {
		printJSON(a.stdout, v)
		return
	}
	fmt.Fprintf(a.stdout, format+"\n", args...)
}

func (a *app) infoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "info ITEM",
		Short: "Print a file's or folder's record as JSON",
		Long: `Print a file's or folder's record as JSON. ITEM is file:ID, folder:ID or a
/path; a bare id is taken when only one of a file and a folder has it.`,
		Args: nArgs(1, 1, "one ITEM ("+refForms+")"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolveArg(cmd.Context(), c, args[0], unambiguous)
			if err != nil {
				return err
			}
			if it.folder != nil {
				printJSON(a.stdout, it.folder)
			} else {
				printJSON(a.stdout, it.file)
			}
			return nil
		},
	}
}

func (a *app) shareCmd() *cobra.Command {
	var access, password string
	var remove, passwordStdin bool
	cmd := &cobra.Command{
		Use:   "share ITEM",
		Short: "Set a shared link on a file or folder and print its URL (--remove removes it)",
		Long: `Set a shared link on a file or folder and print its URL (--remove removes it).
ITEM is file:ID, folder:ID or a /path (a bare id is refused). A password for the
link is best given on standard input (--password-stdin) or in CMS_SHARE_PASSWORD:
--password is visible to every user of the machine (ps).`,
		Args: nArgs(1, 1, "one ITEM ("+refForms+")"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := a.noDryRun(cmd); err != nil {
				return err
			}
			if _, err := parseRefExplicit(args[0]); err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolveArg(ctx, c, args[0], explicitOnly)
			if err != nil {
				return err
			}
			id, folder := it.id(), it.folder
			if remove {
				if folder != nil {
					_, err = c.Folders.RemoveSharedLink(ctx, id)
				} else {
					_, err = c.Files.RemoveSharedLink(ctx, id)
				}
				if err == nil && !a.g.json {
					fmt.Fprintf(a.stdout, "removed the shared link of %s\n", id)
				} else if err == nil {
					printJSON(a.stdout, map[string]any{"id": id, "shared_link": nil})
				}
				return err
			}
			req := &cms.SharedLinkRequest{Access: cms.SharedLinkAccess(access)}
			password, err := a.sharePassword(password, passwordStdin)
			if err != nil {
				return err
			}
			if password != "" {
				a.secrets = append(a.secrets, password)
				req.Password = cms.Set(password)
			}
			var link *cms.SharedLink
			if folder != nil {
				link, _, err = c.Folders.SetSharedLink(ctx, id, req)
			} else {
				link, _, err = c.Files.SetSharedLink(ctx, id, req)
			}
			if err != nil {
				return err
			}
			if a.g.json {
				printJSON(a.stdout, map[string]any{"id": id, "url": link.URL, "access": link.Access, "is_password_enabled": link.IsPasswordEnabled})
			} else {
				fmt.Fprintln(a.stdout, link.URL)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&access, "access", "open", "who the link lets in: open, company or collaborators")
	cmd.Flags().StringVar(&password, "password", "", "a password the link asks for (never printed; visible to other users in ps: prefer --password-stdin or CMS_SHARE_PASSWORD)")
	cmd.Flags().BoolVar(&passwordStdin, "password-stdin", false, "read the link's password from the first line of standard input")
	cmd.Flags().BoolVar(&remove, "remove", false, "remove the item's shared link instead")
	return cmd
}

// parseRefExplicit parses an item argument of a command that never
// guesses, refusing a bare id before any call.
func parseRefExplicit(arg string) (ref, error) {
	r, err := parseRef(arg)
	if err == nil && r.path == "" && r.kind == "" {
		_, err = resolve(context.Background(), nil, r, explicitOnly)
	}
	return r, err
}

// sharePassword is the link's password: --password-stdin reads the first
// line of standard input, else --password, else CMS_SHARE_PASSWORD.
func (a *app) sharePassword(flagValue string, fromStdin bool) (string, error) {
	switch {
	case fromStdin && flagValue != "":
		return "", usagef("give --password or --password-stdin, not both")
	case fromStdin:
		line, err := bufio.NewReader(io.LimitReader(a.stdin, 4096)).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("reading the password from standard input: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			return "", usagef("--password-stdin: standard input has no password")
		}
		return line, nil
	case flagValue != "":
		return flagValue, nil
	}
	return a.getenv("CMS_SHARE_PASSWORD"), nil
}
