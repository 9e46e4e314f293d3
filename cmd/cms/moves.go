package main

import (
	"fmt"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
)

// moved is the --json line of mv, rename and cp.
type moved struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	Name   string `json:"name"`
	Parent string `json:"parent,omitempty"`
	DryRun bool   `json:"dry_run,omitzero"`
}

func (a *app) mvCmd() *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:   "mv ITEM FOLDER",
		Short: "Move a file or folder into another folder",
		Long: `Move a file or folder into FOLDER (a folder id, folder:ID or a /path), with
--name to rename it on the way. ITEM is file:ID, folder:ID or a /path: a bare id
is refused. --dry-run says what would move.`,
		Args: nArgs(2, 2, "ITEM and FOLDER"),
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
			dest, err := folderID(ctx, c, args[1])
			if err != nil {
				return err
			}
			newName := it.name()
			if name != "" {
				newName = name
			}
			if !a.g.dryRun {
				ref := &cms.FolderRef{ID: dest}
				if it.folder != nil {
					_, _, err = c.Folders.Update(ctx, it.id(), &cms.UpdateFolderRequest{Parent: ref, Name: name}, nil)
				} else {
					_, _, err = c.Files.Update(ctx, it.id(), &cms.UpdateFileRequest{Parent: ref, Name: name}, nil)
				}
				if err != nil {
					return err
				}
			}
			a.said(moved{Type: it.kind(), ID: it.id(), Name: newName, Parent: dest, DryRun: a.g.dryRun},
				"%smoved %s (%s) to folder:%s as %s", a.wouldPrefix(), it, it.name(), dest, newName)
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the item's new name in FOLDER")
	return cmd
}

func (a *app) renameCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rename ITEM NAME",
		Short: "Rename a file or folder",
		Long: `Rename a file or folder. ITEM is file:ID, folder:ID or a /path: a bare id is
refused. --dry-run says what would change.`,
		Args: nArgs(2, 2, "ITEM and NAME"),
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
			if !a.g.dryRun {
				if it.folder != nil {
					_, _, err = c.Folders.Update(ctx, it.id(), &cms.UpdateFolderRequest{Name: args[1]}, nil)
				} else {
					_, _, err = c.Files.Update(ctx, it.id(), &cms.UpdateFileRequest{Name: args[1]}, nil)
				}
				if err != nil {
					return err
				}
			}
			a.said(moved{Type: it.kind(), ID: it.id(), Name: args[1], DryRun: a.g.dryRun},
				"%srenamed %s (%s) to %s", a.wouldPrefix(), it, it.name(), args[1])
			return nil
		},
	}
}

func (a *app) cpCmd() *cobra.Command {
	var name string
	cmd := &cobra.Command{
		Use:   "cp ITEM FOLDER",
		Short: "Copy a file or folder (with its content) into a folder",
		Long: `Copy a file or folder (with its content) into FOLDER (a folder id, folder:ID or
a /path), with --name for the copy's name. ITEM is file:ID, folder:ID or a /path;
a bare id is taken when only one of a file and a folder has it. --dry-run says
what would be copied.`,
		Args: nArgs(2, 2, "ITEM and FOLDER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolveArg(ctx, c, args[0], unambiguous)
			if err != nil {
				return err
			}
			dest, err := folderID(ctx, c, args[1])
			if err != nil {
				return err
			}
			out := moved{Type: it.kind(), Name: it.name(), Parent: dest, DryRun: a.g.dryRun}
			if name != "" {
				out.Name = name
			}
			if !a.g.dryRun {
				if it.folder != nil {
					f, _, err := c.Folders.Copy(ctx, it.id(), &cms.CopyFolderRequest{Parent: cms.FolderRef{ID: dest}, Name: name}, nil)
					if err != nil {
						return err
					}
					out.ID, out.Name = f.ID, f.Name
				} else {
					f, _, err := c.Files.Copy(ctx, it.id(), &cms.CopyFileRequest{Parent: cms.FolderRef{ID: dest}, Name: name}, nil)
					if err != nil {
						return err
					}
					out.ID, out.Name = f.ID, f.Name
				}
			}
			copyID := out.ID
			if copyID == "" {
				copyID = "(none)"
			}
			a.said(out, "%scopied %s (%s) to folder:%s as %s:%s %s", a.wouldPrefix(), it, it.name(), dest, it.kind(), copyID, out.Name)
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "the copy's name")
	return cmd
}

// noDryRun refuses --dry-run for a command that changes things and cannot
// say beforehand what it would do.
func (a *app) noDryRun(cmd *cobra.Command) error {
	if a.g.dryRun {
		return usagef("--dry-run is not supported by %s", cmd.CommandPath())
	}
	return nil
}

// groupCmd is a command made of subcommands: it runs none itself.
func groupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	g := &cobra.Command{
		Use:   use,
		Short: short,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown subcommand %q", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			names := ""
			for _, s := range cmd.Commands() {
				if s.IsAvailableCommand() {
					names += " " + s.Name()
				}
			}
			return usageError{fmt.Sprintf("a subcommand is needed:%s", names)}
		},
	}
	g.AddCommand(subs...)
	return g
}
