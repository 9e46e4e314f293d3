// Command metadata tours the SDK's metadata support: it creates a template,
// puts a typed Go struct on files and reads it back, makes an optimistic
// update that a stale writer cannot overwrite, upserts, and runs a metadata
// query whose results come page by page through an iterator.
//
// It runs against a reference server started in this process, unless
// CMS_TOKEN is set: then against the public service, or the one
// CMS_BASE_URL and CMS_UPLOAD_URL name (cms.NewClientFromEnv). The token
// must be an enterprise admin's (creating templates needs one).
//
//	go run ./examples/metadata
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

// Contract is the program's own type for the template's values.
type Contract struct {
	Customer string    `json:"customer"`
	Amount   float64   `json:"amount"`
	Expires  time.Time `json:"expires,omitzero"`
	Status   string    `json:"status,omitempty"`
	Regions  []string  `json:"regions,omitempty"`
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(ctx context.Context, out io.Writer) error {
	client, scope, where, cleanup, err := setup(ctx)
	if err != nil {
		return err
	}
	defer cleanup()
	fmt.Fprintf(out, "Connected to %s; enterprise scope %s\n", where, scope)
	md := client.Metadata

	// 1. A template with a field of each type.
	key := fmt.Sprintf("contractDemo%d", time.Now().UnixNano()%1_000_000)
	tpl, _, err := client.MetadataTemplates.Create(ctx, &cms.CreateMetadataTemplateRequest{
		Scope: scope, TemplateKey: key, DisplayName: "Contract demo " + key,
		Fields: []*cms.MetadataField{
			{Type: cms.MetadataFieldTypeString, Key: "customer", DisplayName: "Customer"},
			{Type: cms.MetadataFieldTypeFloat, Key: "amount", DisplayName: "Amount"},
			{Type: cms.MetadataFieldTypeDate, Key: "expires", DisplayName: "Expires"},
			{Type: cms.MetadataFieldTypeEnum, Key: "status", DisplayName: "Status", Options: []*cms.MetadataOption{{Key: "draft"}, {Key: "signed"}}},
			{Type: cms.MetadataFieldTypeMultiSelect, Key: "regions", DisplayName: "Regions", Options: []*cms.MetadataOption{{Key: "emea"}, {Key: "apac"}, {Key: "amer"}}},
		},
	})
	if err != nil {
		return fmt.Errorf("creating template: %w", err)
	}
	fmt.Fprintf(out, "Created template %s.%s with %d fields\n", tpl.Scope, tpl.TemplateKey, len(tpl.Fields))
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, err := client.MetadataTemplates.Delete(cctx, scope, key); err != nil {
			fmt.Fprintf(out, "Could not delete template: %v\n", err)
			return
		}
		fmt.Fprintf(out, "Deleted template %s and its instances\n", key)
	}()

	folder, _, err := client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "metadata-" + key, Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		return fmt.Errorf("creating folder: %w", err)
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		if _, err := client.Folders.Delete(cctx, folder.ID, &cms.DeleteFolderOptions{Recursive: true}); err != nil {
			fmt.Fprintf(out, "Could not delete folder: %v\n", err)
		}
	}()

	// 2. A typed struct round trip, on a dozen files.
	var first cms.MetadataItem
	for i := range 12 {
		name := fmt.Sprintf("contract-%02d.txt", i)
		f, _, err := client.Files.Upload(ctx, folder.ID, name, strings.NewReader(name), int64(len(name)), nil)
		if err != nil {
			return fmt.Errorf("uploading: %w", err)
		}
		in := Contract{Customer: fmt.Sprintf("Customer %02d", i), Amount: 1000.25 * float64(i+1),
			Expires: time.Date(2027, time.Month(i%12+1), 1, 0, 0, 0, 0, time.UTC), Status: "draft", Regions: []string{"emea"}}
		item := cms.OnFile(f.ID)
		inst, _, err := md.Create(ctx, item, scope, key, in)
		if err != nil {
			return fmt.Errorf("applying metadata: %w", err)
		}
		if i == 0 {
			first = item
			var back Contract
			if err := inst.Decode(&back); err != nil {
				return err
			}
			fmt.Fprintf(out, "Round trip of %s: %+v (equal: %t)\n", name, back, back.Customer == in.Customer &&
				back.Amount == in.Amount && back.Expires.Equal(in.Expires) && back.Status == in.Status)
		}
	}

	// 3. An optimistic update: read, change the struct, send the difference
	// guarded by tests of the old values.
	inst, _, err := md.Get(ctx, first, scope, key)
	if err != nil {
		return err
	}
	var c Contract
	if err := inst.Decode(&c); err != nil {
		return err
	}
	stale := c
	c.Status, c.Regions = "signed", []string{"emea", "apac"}
	patch, err := cms.DiffMetadataTested(stale, c)
	if err != nil {
		return err
	}
	inst, _, err = md.Update(ctx, first, scope, key, patch)
	if err != nil {
		return fmt.Errorf("updating: %w", err)
	}
	fmt.Fprintf(out, "Optimistic update applied: %d operations, version %d\n", len(patch.Operations()), inst.Version)
	late := stale
	late.Status = "signed"
	late.Amount = 1
	patch, _ = cms.DiffMetadataTested(stale, late)
	_, _, err = md.Update(ctx, first, scope, key, patch)
	fmt.Fprintf(out, "A writer with a stale copy is refused: %t\n", errors.Is(err, cms.ErrFailedJSONPatch))

	// 4. Upsert: the instance exists, so the values are patched in.
	inst, _, err = md.Upsert(ctx, first, scope, key, map[string]any{"amount": 999.99})
	if err != nil {
		return fmt.Errorf("upserting: %w", err)
	}
	amount, _ := inst.Float64("amount")
	status, _ := inst.String("status")
	fmt.Fprintf(out, "Upserted: amount %.2f, status kept %q\n", amount, status)

	// 5. A query, iterated across pages of 5.
	q := cms.NewMetadataQuery(scope, key, folder.ID).
		Where(cms.QueryField("amount").Ge(2000)).
		Where(cms.QueryField("regions").HasAny("emea")).
		OrderBy(cms.SortDirectionDescending, "amount").
		Limit(5).
		Fields("name").
		WithMetadata("customer", "amount")
	pages := md.NewQueryPaginator(q)
	n := 0
	for pages.HasMorePages() {
		page, _, err := pages.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("query: %w", err)
		}
		n++
		fmt.Fprintf(out, "Page %d: %d entries\n", n, len(page.Entries))
	}
	total := 0.0
	count := 0
	for entry, err := range md.QueryIter(ctx, q) {
		if err != nil {
			return fmt.Errorf("query: %w", err)
		}
		values, err := entry.Metadata(scope, key)
		if err != nil {
			return err
		}
		customer, _ := values.String("customer")
		amount, _ := values.Float64("amount")
		total += amount
		count++
		fmt.Fprintf(out, "  %-6s %s  %-12s %10.2f\n", entry.Type, entry.Name, customer, amount)
	}
	fmt.Fprintf(out, "Query matched %d items over %d pages, total %.2f\n", count, n, total)
	return nil
}

// setup returns an admin client of the service the environment names
// (CMS_BASE_URL, CMS_UPLOAD_URL, CMS_TOKEN), or of a reference server
// started here, with the enterprise's full metadata scope.
func setup(ctx context.Context) (client *cms.Client, scope cms.MetadataScope, where string, cleanup func(), err error) {
	client, srv, where, err := connect(refserver.RoleAdmin, refserver.Options{}, "")
	if err != nil {
		return nil, "", "", nil, err
	}
	scope, _, err = client.Metadata.EnterpriseScope(ctx) // GET /users/me
	if err != nil {
		closeServer(srv)
		return nil, "", "", nil, err
	}
	return client, scope, where, func() { closeServer(srv) }, nil
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
