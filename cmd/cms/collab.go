package main

import (
	"fmt"
	"strings"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
)

// collabLine is one collaboration of collab --json.
type collabLine struct {
	ID     string `json:"id"`
	Role   string `json:"role"`
	Status string `json:"status,omitempty"`
	Who    string `json:"who"` // login, or name, or id
	WhoID  string `json:"who_id,omitempty"`
	Type   string `json:"who_type,omitempty"`
}

func collabOf(c *cms.Collaboration) collabLine {
	l := collabLine{ID: c.ID, Role: string(c.Role), Status: string(c.Status), Who: c.InviteEmail}
	if b := c.AccessibleBy; b != nil {
		l.WhoID, l.Type = b.ID, string(b.Type)
		switch {
		case b.Login != "":
			l.Who = b.Login
		case b.Name != "":
			l.Who = b.Name
		default:
			l.Who = b.ID
		}
	}
	return l
}

func (a *app) collabCmd() *cobra.Command {
	ls := &cobra.Command{
		Use:   "ls ITEM",
		Short: "List who collaborates on a file or folder",
		Args:  nArgs(1, 1, "one ITEM ("+refForms+")"),
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
			out := []collabLine{}
			seq := c.Collaborations.ListByFileIter
			if it.folder != nil {
				seq = c.Collaborations.ListByFolderIter
			}
			for co, err := range seq(ctx, it.id(), nil) {
				if err != nil {
					return err
				}
				out = append(out, collabOf(co))
			}
			if a.g.json {
				printJSON(a.stdout, out)
				return nil
			}
			for _, l := range out {
				fmt.Fprintf(a.stdout, "%14s  %-18s %-9s %s\n", l.ID, l.Role, l.Status, l.Who)
			}
			return nil
		},
	}
	var role string
	add := &cobra.Command{
		Use:   "add ITEM WHO",
		Short: "Invite a user (by login, or user:ID) or a group (group:ID) to a file or folder",
		Long: `Invite a user (a login, i.e. an email address, or user:ID) or a group
(group:ID) to a file or folder with --role (default editor). ITEM is file:ID,
folder:ID or a /path: a bare id is refused.`,
		Args: nArgs(2, 2, "ITEM and WHO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if err := a.noDryRun(cmd); err != nil {
				return err
			}
			r, err := parseRefExplicit(args[0])
			if err != nil {
				return err
			}
			req := &cms.CreateCollaborationRequest{Role: cms.CollaborationRole(role)}
			switch who := args[1]; {
			case strings.HasPrefix(who, "user:") && validID(who[5:]):
				req.User = &cms.UserRef{ID: who[5:]}
			case strings.HasPrefix(who, "group:") && validID(who[6:]):
				req.Group = &cms.GroupRef{ID: who[6:]}
			case strings.Contains(who, "@"):
				req.Login = who
			default:
				return usagef("WHO is a login (an email address), user:ID or group:ID, not %q", who)
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolve(ctx, c, r, explicitOnly)
			if err != nil {
				return err
			}
			req.Item = cms.ItemRef{Type: cms.ItemType(it.kind()), ID: it.id()}
			co, _, err := c.Collaborations.Create(ctx, req, nil)
			if err != nil {
				return err
			}
			l := collabOf(co)
			a.said(l, "collaboration %s: %s is %s of %s", l.ID, l.Who, l.Role, it)
			return nil
		},
	}
	add.Flags().StringVar(&role, "role", string(cms.CollaborationRoleEditor),
		"editor, viewer, previewer, uploader, previewer uploader, viewer uploader or co-owner")
	rm := &cobra.Command{
		Use:   "rm COLLABORATION_ID",
		Short: "Remove a collaboration (its id, as collab ls prints it)",
		Args:  nArgs(1, 1, "one COLLABORATION_ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := a.noDryRun(cmd); err != nil {
				return err
			}
			if !validID(args[0]) {
				return usagef("%q is not a collaboration id", args[0])
			}
			c, err := a.client()
			if err != nil {
				return err
			}
			if _, err := c.Collaborations.Delete(cmd.Context(), args[0]); err != nil {
				return err
			}
			a.said(map[string]string{"id": args[0], "removed": "yes"}, "removed collaboration %s", args[0])
			return nil
		},
	}
	return groupCmd("collab", "List, add and remove the collaborators of a file or folder", ls, add, rm)
}

func (a *app) whoamiCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "whoami",
		Short: "Print the user the token (and --as-user) acts as",
		Args:  nArgs(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := a.client()
			if err != nil {
				return err
			}
			u, _, err := c.Users.GetMe(cmd.Context(), nil)
			if err != nil {
				return err
			}
			a.said(map[string]string{"id": u.ID, "name": u.Name, "login": u.Login}, "%s %s <%s>", u.ID, u.Name, u.Login)
			return nil
		},
	}
}
