// Command watch follows what happens in a folder two ways: it prints the
// user's event stream as changes come (long polling), and it receives the
// folder's webhook deliveries on a local address, verifying each
// signature before trusting it.
//
// It runs against a reference server started in this process, which
// signs deliveries with keys it makes up and delivers to the loopback
// address this program listens on. Against a real service, set CMS_TOKEN
// (and CMS_BASE_URL with CMS_UPLOAD_URL, unless it is the public service),
// CMS_WEBHOOK_ADDRESS (the public https address that reaches
// this program's listener, CMS_WEBHOOK_LISTEN) and CMS_WEBHOOK_PRIMARY_KEY /
// CMS_WEBHOOK_SECONDARY_KEY (the application's signature keys).
//
//	go run ./examples/watch
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
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

// printer writes lines from the stream and the webhook receiver, one at a
// time.
type printer struct {
	mu  sync.Mutex
	out io.Writer
}

func (p *printer) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, format, args...)
}

func run(ctx context.Context, out io.Writer) error {
	pr := &printer{out: out}
	const hint = "set CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN, CMS_WEBHOOK_ADDRESS, CMS_WEBHOOK_LISTEN and the CMS_WEBHOOK_*_KEY variables for a real service"
	c, srv, where, err := connect(refserver.RoleUser, refserver.Options{}, hint)
	if err != nil {
		return err
	}
	defer closeServer(srv)
	pr.printf("Connected to %s\n", where)

	keys := cms.WebhookKeys{Primary: os.Getenv("CMS_WEBHOOK_PRIMARY_KEY"), Secondary: os.Getenv("CMS_WEBHOOK_SECONDARY_KEY")}
	listen, address := os.Getenv("CMS_WEBHOOK_LISTEN"), os.Getenv("CMS_WEBHOOK_ADDRESS")
	if srv != nil {
		keys.Primary, keys.Secondary = srv.WebhookKeys()
		listen = "127.0.0.1:0"
	} else if listen == "" || address == "" || keys.Primary == "" && keys.Secondary == "" {
		return errors.New("set CMS_WEBHOOK_LISTEN, CMS_WEBHOOK_ADDRESS and a CMS_WEBHOOK_*_KEY to receive deliveries")
	}

	// The receiver: deliveries that do not verify never reach the callback.
	deliveries := make(chan *cms.WebhookPayload, 16)
	h, err := cms.NewWebhookHandler(keys, nil, func(_ context.Context, p *cms.WebhookPayload) error {
		deliveries <- p
		return nil
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	if srv != nil {
		address = "http://" + ln.Addr().String() + "/hook"
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()

	folder, _, err := c.Folders.Create(ctx, &cms.CreateFolderRequest{Name: fmt.Sprintf("watched-%d", time.Now().UnixNano()), Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		return fmt.Errorf("creating the folder: %w", err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, err := c.Folders.Delete(cctx, folder.ID, &cms.DeleteFolderOptions{Recursive: true}); err == nil {
			_, _ = c.Trash.PurgeFolder(cctx, folder.ID)
		}
	}()
	hook, _, err := c.Webhooks.Create(ctx, &cms.CreateWebhookRequest{Target: cms.ItemRef{ID: folder.ID, Type: cms.ItemTypeFolder},
		Address: address, Triggers: []cms.WebhookTrigger{cms.WebhookTriggerFileUploaded, cms.WebhookTriggerFileRenamed}})
	if err != nil {
		return fmt.Errorf("creating the webhook: %w", err)
	}
	defer c.Webhooks.Delete(context.WithoutCancel(ctx), hook.ID)
	pr.printf("Watching %q: webhook %s delivers to %s\n", folder.Name, hook.ID, address)

	start, _, err := c.Events.Get(ctx, &cms.EventsOptions{StreamPosition: "now"})
	if err != nil {
		return err
	}

	// Someone works in the folder (here: this program, a moment later).
	go func() {
		f, _, err := c.Files.Upload(ctx, folder.ID, "notes.txt", strings.NewReader("first notes"), 11, nil)
		if err == nil {
			_, _, err = c.Files.Update(ctx, f.ID, &cms.UpdateFileRequest{Name: "minutes.txt"}, nil)
		}
		if err != nil {
			pr.printf("working in the folder: %v\n", err)
		}
	}()

	// The event stream: upload and rename, as they come.
	sctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	seen := 0
	for e, err := range c.Events.Stream(sctx, &cms.EventStreamOptions{StreamPosition: start.NextStreamPosition}) {
		if err != nil {
			return fmt.Errorf("event stream: %w", err)
		}
		it, ok := e.Item()
		if !ok || it.Type != string(cms.ItemTypeFile) {
			continue
		}
		pr.printf("event: %s %s\n", e.EventType, it.Name)
		if seen++; seen == 2 {
			break
		}
	}

	// The webhook: the same two changes, pushed and signed.
	for range 2 {
		select {
		case p := <-deliveries:
			pr.printf("webhook: %s %s (verified)\n", p.Trigger, p.Source.Name)
		case <-time.After(30 * time.Second):
			return errors.New("no webhook delivery within 30 s")
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
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
