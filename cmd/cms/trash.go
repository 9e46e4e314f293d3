package main

import (
	"fmt"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
)

func (a *app) trashCmd() *cobra.Command {
	ls := &cobra.Command{
		Use:   "ls",
		Short: "List the items in the trash",
		Args:  nArgs(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			var out []found
			for it, err := range c.Trash.ListItemsByMarkerIter(cmd.Context(), &cms.ListTrashByMarkerOptions{Fields: []string{"name"}}) {
				if err != nil {
					return err
				}
				out = append(out, found{Type: it.Type, ID: it.ID, Name: it.Name})
			}
			if a.g.json {
				if out == nil {
					out = []found{}
				}
				printJSON(a.stdout, out)
				return nil
			}
			for _, f := range out {
				fmt.Fprintf(a.stdout, "%-8s %14s  %s\n", f.Type, f.ID, f.Name)
			}
			return nil
		},
	}
	var name, to string
	restore := &cobra.Command{
		Use:   "restore ITEM",
		Short: "Restore a trashed file or folder",
		Long: `Restore a trashed file or folder (file:ID or folder:ID, as trash ls prints
them) to where it was, or --to another folder, with --name another name.`,
		Args: nArgs(1, 1, "one ITEM (file:ID or folder:ID)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := a.noDryRun(cmd); err != nil {
				return err
			}
			r, err := parseRefExplicit(args[0])
			if err != nil {
				return err
			}
			if r.path != "" {
				return usagef("a trashed item has no path: give file:ID or folder:ID")
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			body := &cms.RestoreRequest{Name: name}
			if to != "" {
				id, err := folderID(ctx, c, to)
				if err != nil {
					return err
				}
				body.Parent = &cms.FolderRef{ID: id}
			}
			var out found
			if r.kind == kindFolder {
				f, _, err := c.Trash.RestoreFolder(ctx, r.id, body, nil)
				if err != nil {
					return err
				}
				out = found{Type: kindFolder, ID: f.ID, Name: f.Name}
			} else {
				f, _, err := c.Trash.RestoreFile(ctx, r.id, body, nil)
				if err != nil {
					return err
				}
				out = found{Type: kindFile, ID: f.ID, Name: f.Name}
			}
			a.said(out, "restored %s:%s %s", out.Type, out.ID, out.Name)
			return nil
		},
	}
	restore.Flags().StringVar(&name, "name", "", "restore under this name")
	restore.Flags().StringVar(&to, "to", "", "restore into this folder (an id, folder:ID or a /path)")
	return groupCmd("trash", "List and restore trashed items", ls, restore)
}
