package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
)

func (a *app) mkdirCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mkdir PARENT NAME",
		Short: "Make a folder",
		Args:  nArgs(2, 2, "PARENT and NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			f, _, err := c.Folders.Create(cmd.Context(), &cms.CreateFolderRequest{Name: args[1], Parent: cms.FolderRef{ID: trimID(args[0])}}, nil)
			if err != nil {
				return err
			}
			if a.g.json {
				printJSON(a.stdout, map[string]string{"type": "folder", "id": f.ID, "name": f.Name})
			} else {
				fmt.Fprintf(a.stdout, "folder %s %s\n", f.ID, f.Name)
			}
			return nil
		},
	}
}

// itemKind finds whether id is a folder or a file for the caller.
func itemKind(ctx context.Context, c *cms.Client, id string) (*cms.Folder, *cms.File, error) {
	folder, _, err := c.Folders.Get(ctx, id, nil)
	if err == nil {
		return folder, nil, nil
	}
	if !errors.Is(err, cms.ErrNotFound) {
		return nil, nil, err
	}
	file, _, err := c.Files.Get(ctx, id, nil)
	if err != nil {
		return nil, nil, err
	}
	return nil, file, nil
}

func (a *app) rmCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rm ID",
		Short: "Move a file or a folder (with its content) to the trash",
		Args:  nArgs(1, 1, "one ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.client()
			if err != nil {
				return err
			}
			id := trimID(args[0])
			folder, file, err := itemKind(ctx, c, id)
			if err != nil {
				return err
			}
			typ := "file"
			if folder != nil {
				typ = "folder"
				_, err = c.Folders.Delete(ctx, id, &cms.DeleteFolderOptions{Recursive: true})
			} else {
				_, err = c.Files.Delete(ctx, file.ID, nil)
			}
			if err != nil {
				return err
			}
			if a.g.json {
				printJSON(a.stdout, map[string]string{"type": typ, "id": id, "trashed": "yes"})
			} else {
				fmt.Fprintf(a.stdout, "%s %s moved to the trash\n", typ, id)
			}
			return nil
		},
	}
}

func (a *app) infoCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "info ID",
		Short: "Print a file's or folder's record as JSON",
		Args:  nArgs(1, 1, "one ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			folder, file, err := itemKind(cmd.Context(), c, trimID(args[0]))
			if err != nil {
				return err
			}
			if folder != nil {
				printJSON(a.stdout, folder)
			} else {
				printJSON(a.stdout, file)
			}
			return nil
		},
	}
}

func (a *app) shareCmd() *cobra.Command {
	var access, password string
	var remove bool
	cmd := &cobra.Command{
		Use:   "share ID",
		Short: "Set a shared link on a file or folder and print its URL (--remove removes it)",
		Args:  nArgs(1, 1, "one ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.client()
			if err != nil {
				return err
			}
			id := trimID(args[0])
			folder, _, err := itemKind(ctx, c, id)
			if err != nil {
				return err
			}
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
	cmd.Flags().StringVar(&password, "password", "", "a password the link asks for (never printed)")
	cmd.Flags().BoolVar(&remove, "remove", false, "remove the item's shared link instead")
	return cmd
}

// trimID keeps an id as typed ("folder 123" is no id).
func trimID(s string) string { return strings.TrimSpace(s) }
