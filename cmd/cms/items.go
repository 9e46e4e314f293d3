package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/contentapi/cms"
)

// printJSON writes v as one JSON line.
func printJSON(w io.Writer, v any) {
	b, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", b)
}

// cmdMkdir makes a folder: cms mkdir PARENT_ID NAME.
func cmdMkdir(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs, common := newFlagSet("mkdir", "mkdir [--json] PARENT_ID NAME", stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageError{"mkdir takes PARENT_ID and NAME"}
	}
	c, err := newClient(getenv, common.appConfig)
	if err != nil {
		return err
	}
	f, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: pos[1], Parent: cms.FolderRef{ID: trimID(pos[0])}}, nil)
	if err != nil {
		return err
	}
	if common.json {
		printJSON(stdout, map[string]string{"type": "folder", "id": f.ID, "name": f.Name})
	} else {
		fmt.Fprintf(stdout, "folder %s %s\n", f.ID, f.Name)
	}
	return nil
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

// cmdRm moves a file or a folder (with what is in it) to the trash:
// cms rm ID.
func cmdRm(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs, common := newFlagSet("rm", "rm [--json] ID", stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"rm takes one ID"}
	}
	c, err := newClient(getenv, common.appConfig)
	if err != nil {
		return err
	}
	id := trimID(pos[0])
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
	if common.json {
		printJSON(stdout, map[string]string{"type": typ, "id": id, "trashed": "yes"})
	} else {
		fmt.Fprintf(stdout, "%s %s moved to the trash\n", typ, id)
	}
	return nil
}

// cmdInfo prints a file's or folder's record: cms info ID.
func cmdInfo(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs, common := newFlagSet("info", "info ID", stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"info takes one ID"}
	}
	c, err := newClient(getenv, common.appConfig)
	if err != nil {
		return err
	}
	folder, file, err := itemKind(ctx, c, trimID(pos[0]))
	if err != nil {
		return err
	}
	if folder != nil {
		printJSON(stdout, folder)
	} else {
		printJSON(stdout, file)
	}
	return nil
}

// cmdShare sets a shared link on a file or folder and prints its URL:
// cms share [--access open|company|collaborators] [--password P] ID.
func cmdShare(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs, common := newFlagSet("share", "share [--access open|company|collaborators] [--password P] [--remove] ID", stderr)
	access := fs.String("access", "open", "who the link lets in: open, company or collaborators")
	password := fs.String("password", "", "a password the link asks for (never printed)")
	remove := fs.Bool("remove", false, "remove the item's shared link instead")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"share takes one ID"}
	}
	c, err := newClient(getenv, common.appConfig)
	if err != nil {
		return err
	}
	id := trimID(pos[0])
	folder, _, err := itemKind(ctx, c, id)
	if err != nil {
		return err
	}
	if *remove {
		if folder != nil {
			_, err = c.Folders.RemoveSharedLink(ctx, id)
		} else {
			_, err = c.Files.RemoveSharedLink(ctx, id)
		}
		if err == nil && !common.json {
			fmt.Fprintf(stdout, "removed the shared link of %s\n", id)
		} else if err == nil {
			printJSON(stdout, map[string]any{"id": id, "shared_link": nil})
		}
		return err
	}
	req := &cms.SharedLinkRequest{Access: cms.SharedLinkAccess(*access)}
	if *password != "" {
		req.Password = cms.Set(*password)
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
	if common.json {
		printJSON(stdout, map[string]any{"id": id, "url": link.URL, "access": link.Access, "is_password_enabled": link.IsPasswordEnabled})
	} else {
		fmt.Fprintln(stdout, link.URL)
	}
	return nil
}
