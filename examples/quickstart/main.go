// Command quickstart tours the SDK: it creates a folder, uploads a file and
// a new version, downloads it with a SHA1 check, renames it, shares it with
// a link, invites a collaborator to the folder, finds the file by search,
// uploads 64 MiB in parallel parts with a progress line, lists the folder,
// and reads what happened from the event stream.
//
// It runs against a reference server started in this process, unless
// CMS_TOKEN is set: then against the service CMS_BASE_URL and
// CMS_UPLOAD_URL name (both, or neither for the public service), with
// CMS_COLLABORATOR_LOGIN the colleague to invite (the step is skipped
// without it).
//
//	go run ./examples/quickstart
package main

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"slices"
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

func run(ctx context.Context, out io.Writer) error {
	client, where, collaborator, cleanup, err := setup()
	if err != nil {
		return err
	}
	defer cleanup()
	fmt.Fprintf(out, "Connected to %s\n", where)

	// Where the event stream stands now, to read what this tour did at the end.
	since, _, err := client.Events.Get(ctx, &cms.EventsOptions{StreamPosition: "now"})
	if err != nil {
		return fmt.Errorf("reading the event stream's position: %w", err)
	}

	// 1. A folder to work in.
	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{
		Name:   fmt.Sprintf("quickstart-%d", time.Now().UnixNano()),
		Parent: cms.FolderRef{ID: "0"},
	}, nil)
	if err != nil {
		return fmt.Errorf("creating folder: %w", err)
	}
	fmt.Fprintf(out, "Created folder %q (id %s)\n", folder.Name, folder.ID)
	defer func() {
		// Clean up even when the context was cancelled.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, err := client.Folders.Delete(cctx, folder.ID, &cms.DeleteFolderOptions{Recursive: true}); err != nil {
			fmt.Fprintf(out, "Could not delete folder %s: %v\n", folder.ID, err)
			return
		}
		fmt.Fprintf(out, "Deleted folder %s and everything in it\n", folder.ID)
	}()

	// 2. A small file in one request; the SDK sends its SHA1 so the service
	// can reject a corrupted upload.
	v1 := "Hello from the Go SDK.\n"
	file, _, err := client.Files.UploadInOneRequest(ctx, folder.ID, "hello.txt", strings.NewReader(v1), int64(len(v1)), nil)
	if err != nil {
		return fmt.Errorf("uploading: %w", err)
	}
	fmt.Fprintf(out, "Uploaded %q (id %s, %d bytes, sha1 %s)\n", file.Name, file.ID, file.Size, file.SHA1)

	// 3. A new version, only if nobody changed the file meanwhile (if-match).
	v2 := v1 + "Second version, with one more line.\n"
	file, _, err = client.Files.UploadVersionInOneRequest(ctx, file.ID, strings.NewReader(v2), int64(len(v2)), &cms.OneRequestVersionOptions{IfMatch: file.ETag})
	if err != nil {
		return fmt.Errorf("uploading new version: %w", err)
	}
	fmt.Fprintf(out, "Uploaded version %s of %q (sha1 %s)\n", file.FileVersion.ID, file.Name, file.SHA1)

	// A stale etag is refused with 412.
	_, _, err = client.Files.UploadVersionInOneRequest(ctx, file.ID, strings.NewReader("x"), 1, &cms.OneRequestVersionOptions{IfMatch: "stale"})
	fmt.Fprintf(out, "Upload with a stale etag refused: %v\n", errors.Is(err, cms.ErrPreconditionFailed))

	// 4. Download: the service redirects to its content host, which the SDK
	// fetches without the access token; DownloadTo checks the SHA1.
	var buf bytes.Buffer
	n, _, err := client.Files.DownloadTo(ctx, file.ID, &buf, nil)
	if err != nil {
		return fmt.Errorf("downloading: %w", err)
	}
	fmt.Fprintf(out, "Downloaded %d bytes, SHA1 verified, content matches: %v\n", n, buf.String() == v2)

	// 5. Rename it, again only if it is still the version just read.
	file, _, err = client.Files.Update(ctx, file.ID, &cms.UpdateFileRequest{Name: "greeting.txt"}, &cms.UpdateItemOptions{IfMatch: file.ETag})
	if err != nil {
		return fmt.Errorf("renaming: %w", err)
	}
	fmt.Fprintf(out, "Renamed it to %q\n", file.Name)

	// 6. Share it: a link anyone with it can open, downloads allowed.
	link, _, err := client.Files.SetSharedLink(ctx, file.ID, &cms.SharedLinkRequest{
		Access:      cms.SharedLinkAccessOpen,
		Permissions: &cms.SharedLinkPermissionsRequest{CanDownload: cms.Ptr(true)},
	})
	if err != nil {
		return fmt.Errorf("sharing: %w", err)
	}
	fmt.Fprintf(out, "Shared link (%s access): %s\n", link.Access, link.URL)

	// 7. Invite a colleague to the folder as an editor.
	if collaborator != "" {
		collab, _, err := client.Collaborations.Create(ctx, &cms.CreateCollaborationRequest{
			Item:  cms.ItemRef{Type: cms.ItemTypeFolder, ID: folder.ID},
			Login: collaborator,
			Role:  cms.CollaborationRoleEditor,
		}, nil)
		if err != nil {
			return fmt.Errorf("inviting a collaborator: %w", err)
		}
		fmt.Fprintf(out, "Invited %s as %s (%s)\n", collaborator, collab.Role, collab.Status)
	}

	// 8. Find it by name, within the folder.
	for it, err := range client.Search.QueryIter(ctx, &cms.SearchOptions{Query: "greeting", AncestorFolderIDs: []string{folder.ID}, Limit: 10}) {
		if err != nil {
			return fmt.Errorf("searching: %w", err)
		}
		fmt.Fprintf(out, "Search found %s %q\n", it.Type, it.Name)
	}

	// 9. A 64 MiB file in parallel parts. The source is generated on the fly:
	// the SDK holds at most (Concurrency+1) parts in memory.
	const bigSize = 64 << 20
	src := newPatternReader(bigSize)
	start := time.Now()
	big, _, err := client.Uploads.UploadChunked(ctx, folder.ID, "big.bin", src, bigSize, &cms.ChunkedUploadOptions{
		Concurrency: 4,
		Progress: func(p cms.Progress) {
			fmt.Fprintf(out, "\rChunked upload: part %d/%d, %3d%%", p.PartsDone, p.TotalParts, p.Bytes*100/p.TotalBytes)
		},
	})
	fmt.Fprintln(out)
	if err != nil {
		return fmt.Errorf("chunked upload: %w", err)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(out, "Uploaded %q: %d MiB in %s, sha1 %s (matches source: %v)\n",
		big.Name, big.Size>>20, elapsed.Round(time.Millisecond), big.SHA1, big.SHA1 == src.sum())

	// 10. Everything in the folder, fetched page by page as the loop asks;
	// listings return short records unless fields names more.
	fmt.Fprintln(out, "Folder contents:")
	for item, err := range client.Folders.ListItemsIter(ctx, folder.ID, &cms.ListItemsOptions{Limit: 100, Fields: []string{"name", "size"}}) {
		if err != nil {
			return fmt.Errorf("listing: %w", err)
		}
		size := int64(0)
		if item.File != nil {
			size = item.File.Size
		}
		fmt.Fprintf(out, "  %-6s %-10s %10d  %s\n", item.Type, item.ID, size, item.Name)
	}

	// 11. What happened, from the event stream (Events.Stream follows it
	// live, long-polling).
	page, _, err := client.Events.Get(ctx, &cms.EventsOptions{StreamPosition: since.NextStreamPosition, Limit: 100})
	if err != nil {
		return fmt.Errorf("reading events: %w", err)
	}
	var kinds []string
	for _, e := range page.Entries {
		if k := string(e.EventType); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	fmt.Fprintf(out, "Events since the start: %s\n", strings.Join(kinds, ", "))
	return nil
}

// setup returns a client of the service the environment names
// (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN), or of a reference server
// started here with its content on disk, and the login of a colleague to
// invite ("" for none).
func setup() (client *cms.Client, where, collaborator string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "cms-quickstart-")
	if err != nil {
		return nil, "", "", nil, err
	}
	store, err := refserver.NewDirStore(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, "", "", nil, err
	}
	client, srv, where, err := connect(refserver.RoleUser, refserver.Options{Store: store}, "")
	if err != nil {
		os.RemoveAll(dir)
		return nil, "", "", nil, err
	}
	collaborator = os.Getenv("CMS_COLLABORATOR_LOGIN")
	if srv != nil {
		collaborator = "admin@cms.test" // the reference server's admin, a user of the enterprise
	}
	return client, where, collaborator, func() { closeServer(srv); os.RemoveAll(dir) }, nil
}

// patternReader yields size bytes of a repeating pattern, hashing them as
// they go, without holding them.
type patternReader struct {
	left int64
	pos  int64
	h    interface {
		io.Writer
		Sum([]byte) []byte
	}
}

func newPatternReader(size int64) *patternReader { return &patternReader{left: size, h: sha1.New()} }

func (p *patternReader) Read(b []byte) (int, error) {
	if p.left == 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(b)), p.left))
	for i := range b[:n] {
		b[i] = byte((p.pos + int64(i)) * 31 >> 3)
	}
	p.h.Write(b[:n])
	p.pos += int64(n)
	p.left -= int64(n)
	return n, nil
}

// sum is the hex SHA1 of what was read.
func (p *patternReader) sum() string { return hex.EncodeToString(p.h.Sum(nil)) }

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
