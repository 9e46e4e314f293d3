package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/contentapi/cms"
)

// Item kinds of a reference.
const (
	kindFile   = "file"
	kindFolder = "folder"
)

// ref is an item as the command line names it: file:ID, folder:ID, a path
// from the root (/Reports/2024), or a bare ID (kind "").
type ref struct {
	kind string // kindFile, kindFolder, or "" (a bare id, or a path)
	id   string
	path string // a path from the root, when the item was named by one
	raw  string
}

// refForms is the help text of the explicit forms.
const refForms = "file:ID, folder:ID or a /path from the root"

// parseRef reads one item argument.
func parseRef(s string) (ref, error) {
	s = strings.TrimSpace(s)
	r := ref{raw: s}
	switch {
	case s == "":
		return r, usagef("an empty item: give %s", refForms)
	case strings.HasPrefix(s, "/"):
		r.path = s
		return r, nil
	case strings.HasPrefix(s, kindFile+":"):
		r.kind, r.id = kindFile, s[len(kindFile)+1:]
	case strings.HasPrefix(s, kindFolder+":"):
		r.kind, r.id = kindFolder, s[len(kindFolder)+1:]
	default:
		r.id = s
	}
	if !validID(r.id) {
		return r, usagef("%q is not an item: give %s", s, refForms)
	}
	return r, nil
}

// validID: ids are numbers (the root folder is 0).
func validID(id string) bool {
	if id == "" {
		return false
	}
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// item is a resolved reference: exactly one of folder and file is set.
type item struct {
	folder *cms.Folder
	file   *cms.File
}

func (it item) kind() string {
	if it.folder != nil {
		return kindFolder
	}
	return kindFile
}

func (it item) id() string {
	if it.folder != nil {
		return it.folder.ID
	}
	return it.file.ID
}

func (it item) name() string {
	if it.folder != nil {
		return it.folder.Name
	}
	return it.file.Name
}

// String is the item in the explicit form (folder:ID).
func (it item) String() string { return it.kind() + ":" + it.id() }

// guess says what a bare id may mean for a command.
type guess int

const (
	// explicitOnly refuses a bare id: the command changes or exposes the
	// item (rm, mv, rename, share, collab), so it never guesses.
	explicitOnly guess = iota
	// folderOnly takes a bare id as a folder's (ls, upload's destination,
	// mkdir's parent).
	folderOnly
	// fileOnly takes a bare id as a file's (cat, versions).
	fileOnly
	// unambiguous takes a bare id when exactly one of a file and a folder
	// has it (info, download); both is a usage error.
	unambiguous
)

// resolve finds the item r names.
func resolve(ctx context.Context, c *cms.Client, r ref, g guess) (item, error) {
	if r.path != "" {
		it, err := resolvePath(ctx, c, r.path)
		if err != nil {
			return item{}, err
		}
		return it, checkKind(it, g, r)
	}
	kind := r.kind
	if kind == "" {
		switch g {
		case explicitOnly:
			return item{}, usagef("%q could be a file's or a folder's id (they are separate): give file:%s or folder:%s, or a /path", r.raw, r.id, r.id)
		case folderOnly:
			kind = kindFolder
		case fileOnly:
			kind = kindFile
		case unambiguous:
			return resolveEither(ctx, c, r)
		}
	}
	// The kind is known: refuse the wrong one before any request.
	if err := wrongKind(kind == kindFolder, g, r); err != nil {
		return item{}, err
	}
	if kind == kindFolder {
		f, _, err := c.Folders.Get(ctx, r.id, nil)
		return item{folder: f}, err
	}
	f, _, err := c.Files.Get(ctx, r.id, nil)
	return item{file: f}, err
}

// checkKind refuses an item of the wrong kind for the command.
func checkKind(it item, g guess, r ref) error { return wrongKind(it.folder != nil, g, r) }

// wrongKind is the usage error for a folder (isFolder) or a file where
// the command needs the other kind, or nil when the kind fits.
func wrongKind(isFolder bool, g guess, r ref) error {
	switch {
	case g == folderOnly && !isFolder:
		return usagef("%s is a file; a folder is needed here", r.raw)
	case g == fileOnly && isFolder:
		return usagef("%s is a folder; a file is needed here", r.raw)
	}
	return nil
}

// resolveEither finds a bare id as a file's and as a folder's, and takes it
// only when exactly one exists.
func resolveEither(ctx context.Context, c *cms.Client, r ref) (item, error) {
	folder, _, ferr := c.Folders.Get(ctx, r.id, nil)
	if ferr != nil && !errors.Is(ferr, cms.ErrNotFound) {
		return item{}, ferr
	}
	file, _, err := c.Files.Get(ctx, r.id, nil)
	if err != nil && !errors.Is(err, cms.ErrNotFound) {
		return item{}, err
	}
	switch {
	case ferr == nil && err == nil:
		return item{}, usagef("both a file and a folder have id %s: give file:%s or folder:%s", r.id, r.id, r.id)
	case ferr == nil:
		return item{folder: folder}, nil
	case err == nil:
		return item{file: file}, nil
	}
	return item{}, fmt.Errorf("no file or folder has id %s: %w", r.id, err)
}

// resolvePath walks a path from the root folder, one name at a time,
// matching names case-insensitively as the service does (an exact match
// wins when two names differ only by case).
func resolvePath(ctx context.Context, c *cms.Client, p string) (item, error) {
	folder := &cms.Folder{ID: "0"}
	parts := splitPath(p)
	if len(parts) == 0 {
		f, _, err := c.Folders.Get(ctx, "0", nil)
		return item{folder: f}, err
	}
	for i, name := range parts {
		found, err := child(ctx, c, folder.ID, name)
		if err != nil {
			return item{}, err
		}
		if found == nil {
			return item{}, fmt.Errorf("%s: no such file or folder: %w", "/"+strings.Join(parts[:i+1], "/"), errNotFound)
		}
		last := i == len(parts)-1
		switch found.Type {
		case kindFolder:
			if last {
				f, _, err := c.Folders.Get(ctx, found.ID, nil)
				return item{folder: f}, err
			}
			folder = &cms.Folder{ID: found.ID}
		case kindFile:
			if !last {
				return item{}, fmt.Errorf("%s is a file, not a folder: %w", "/"+strings.Join(parts[:i+1], "/"), errNotFound)
			}
			f, _, err := c.Files.Get(ctx, found.ID, nil)
			return item{file: f}, err
		default:
			return item{}, fmt.Errorf("%s is a %s: %w", "/"+strings.Join(parts[:i+1], "/"), found.Type, errNotFound)
		}
	}
	panic("unreachable")
}

// splitPath is p's names ("/a//b/" is a, b).
func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// child finds the item called name in a folder (case-insensitively; an
// exact match first), or nil.
func child(ctx context.Context, c *cms.Client, folderID, name string) (*cms.Item, error) {
	var folded *cms.Item
	for it, err := range c.Folders.ListItemsByMarkerIter(ctx, folderID, &cms.ListItemsByMarkerOptions{Fields: []string{"name"}}) {
		if err != nil {
			return nil, err
		}
		if it.Name == name {
			return it, nil
		}
		if folded == nil && strings.EqualFold(it.Name, name) {
			folded = it
		}
	}
	return folded, nil
}

// folderID resolves a folder-only argument (a bare id, folder:ID or a
// path) to its id; a bare id or folder:ID is taken as is, without a call.
func folderID(ctx context.Context, c *cms.Client, arg string) (string, error) {
	r, err := parseRef(arg)
	if err != nil {
		return "", err
	}
	if r.path == "" {
		if err := wrongKind(r.kind != kindFile, folderOnly, r); err != nil {
			return "", err
		}
		return r.id, nil
	}
	it, err := resolve(ctx, c, r, folderOnly)
	if err != nil {
		return "", err
	}
	return it.id(), nil
}

// resolveArg parses and resolves one item argument.
func resolveArg(ctx context.Context, c *cms.Client, arg string, g guess) (item, error) {
	r, err := parseRef(arg)
	if err != nil {
		return item{}, err
	}
	return resolve(ctx, c, r, g)
}
