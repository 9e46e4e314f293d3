package main

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"
)

// versionLine is one version of versions --json.
type versionLine struct {
	ID        string    `json:"id"`
	SHA1      string    `json:"sha1,omitempty"`
	Size      int64     `json:"size"`
	CreatedAt time.Time `json:"created_at,omitzero"`
	Current   bool      `json:"current,omitzero"`
}

func (a *app) versionsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "versions FILE",
		Short: "List a file's versions (the current one first); promote one",
		Long: `List a file's versions, the current one first, then the older ones as the
service lists them. FILE is a file id, file:ID or a /path.
"cms versions promote FILE VERSION_ID" makes an older version the current one (as
a new version: nothing is lost).`,
		Args: nArgs(1, 1, "one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolveArg(ctx, c, args[0], fileOnly)
			if err != nil {
				return err
			}
			f := it.file
			out := []versionLine{{SHA1: f.SHA1, Size: f.Size, CreatedAt: f.ModifiedAt, Current: true}}
			if f.FileVersion != nil {
				out[0].ID = f.FileVersion.ID
			}
			for v, err := range c.FileVersions.ListByFileIter(ctx, f.ID, nil) {
				if err != nil {
					return err
				}
				out = append(out, versionLine{ID: v.ID, SHA1: v.SHA1, Size: v.Size, CreatedAt: v.CreatedAt})
			}
			if a.g.json {
				printJSON(a.stdout, out)
				return nil
			}
			for _, v := range out {
				mark := " "
				if v.Current {
					mark = "*"
				}
				fmt.Fprintf(a.stdout, "%s %14s %12d  %s  %s\n", mark, v.ID, v.Size, v.SHA1, v.CreatedAt.Format(time.RFC3339))
			}
			return nil
		},
	}
	promote := &cobra.Command{
		Use:   "promote FILE VERSION_ID",
		Short: "Make an older version of a file its current one",
		Args:  nArgs(2, 2, "FILE and VERSION_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := a.noDryRun(cmd); err != nil {
				return err
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolveArg(ctx, c, args[0], fileOnly)
			if err != nil {
				return err
			}
			if !validID(args[1]) {
				return usagef("%q is not a version id", args[1])
			}
			v, _, err := c.FileVersions.Promote(ctx, it.id(), args[1], nil)
			if err != nil {
				return err
			}
			a.said(versionLine{ID: v.ID, SHA1: v.SHA1, Size: v.Size, CreatedAt: v.CreatedAt, Current: true},
				"promoted: file:%s is now version %s (%s)", it.id(), v.ID, v.SHA1)
			return nil
		},
	}
	cmd.AddCommand(promote)
	return cmd
}
