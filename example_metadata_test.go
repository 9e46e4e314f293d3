package cms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/refserver"
)

func ExampleMetadataTemplatesService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()

	tpl, _, err := admin.MetadataTemplates.Create(ctx, &cms.CreateMetadataTemplateRequest{
		TemplateKey: "contract",
		DisplayName: "Contract",
		Fields: []*cms.MetadataField{
			{Type: cms.MetadataFieldTypeFloat, Key: "amount", DisplayName: "Amount"},
			{Type: cms.MetadataFieldTypeEnum, Key: "status", DisplayName: "Status", Options: []*cms.MetadataOption{{Key: "draft"}, {Key: "signed"}}},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created", tpl.TemplateKey, "with", len(tpl.Fields), "fields")

	// One constructor per schema operation; all apply or none.
	tpl, _, err = admin.MetadataTemplates.UpdateSchema(ctx, cms.MetadataScopeEnterprise, "contract",
		cms.AddFieldOp(cms.MetadataField{Type: cms.MetadataFieldTypeDate, Key: "expires", DisplayName: "Expires"}),
		cms.AddEnumOptionOp("status", "void"),
		cms.EditFieldOp("amount", cms.FieldChanges{DisplayName: "Value"}),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("fields:", tpl.Field("amount").DisplayName, tpl.Field("expires").Type, len(tpl.Field("status").Options), "options")

	// A missing key is refused before anything is sent.
	_, _, err = admin.MetadataTemplates.UpdateSchema(ctx, cms.MetadataScopeEnterprise, "contract", cms.RemoveFieldOp(""))
	fmt.Println("refused:", errors.Is(err, cms.ErrInvalidArgument))

	for t, err := range admin.MetadataTemplates.ListEnterpriseIter(ctx, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("enterprise template:", t.TemplateKey)
	}
	// Output:
	// created contract with 2 fields
	// fields: Value date 3 options
	// refused: true
	// enterprise template: contract
}

func ExampleMetadataService() {
	srv, err := refserver.Start(refserver.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	admin, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.AdminToken()))
	if err != nil {
		log.Fatal(err)
	}
	user, err := cms.NewClient(cms.WithURLs(srv.BaseURL(), srv.UploadURL()), cms.WithToken(srv.UserToken()))
	if err != nil {
		log.Fatal(err)
	}
	scope := cms.EnterpriseScope(srv.EnterpriseID())
	ctx := context.Background()
	if _, _, err := admin.MetadataTemplates.Create(ctx, &cms.CreateMetadataTemplateRequest{
		TemplateKey: "contract", DisplayName: "Contract",
		Fields: []*cms.MetadataField{
			{Type: cms.MetadataFieldTypeFloat, Key: "amount", DisplayName: "Amount"},
			{Type: cms.MetadataFieldTypeString, Key: "customer", DisplayName: "Customer"},
			{Type: cms.MetadataFieldTypeDate, Key: "expires", DisplayName: "Expires"},
		},
	}); err != nil {
		log.Fatal(err)
	}
	f, _, err := user.Files.Upload(ctx, "0", "deal.pdf", strings.NewReader("%PDF"), 4, nil)
	if err != nil {
		log.Fatal(err)
	}

	// The caller's own struct, in and out.
	type Contract struct {
		Amount   float64   `json:"amount"`
		Customer string    `json:"customer"`
		Expires  time.Time `json:"expires"`
	}
	item := cms.OnFile(f.ID)
	in := Contract{Amount: 1250.5, Customer: "Acme", Expires: time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC)}
	inst, _, err := user.Metadata.Create(ctx, item, cms.MetadataScopeEnterprise, "contract", in)
	if err != nil {
		log.Fatal(err)
	}
	var out Contract
	if err := inst.Decode(&out); err != nil {
		log.Fatal(err)
	}
	fmt.Println(inst.Scope == scope, out.Customer, out.Amount, out.Expires.Format(time.DateOnly))

	// An optimistic update: replace only if nobody changed the value.
	inst, _, err = user.Metadata.Update(ctx, item, cms.MetadataScopeEnterprise, "contract",
		cms.NewMetadataPatch().TestAndReplace("customer", "Acme", "Acme Corp"))
	if err != nil {
		log.Fatal(err)
	}
	customer, _ := inst.String("customer")
	fmt.Println("updated:", customer, "version", inst.Version)
	_, _, err = user.Metadata.Update(ctx, item, cms.MetadataScopeEnterprise, "contract",
		cms.NewMetadataPatch().TestAndReplace("customer", "Acme", "Someone else"))
	fmt.Println("stale update refused:", errors.Is(err, cms.ErrFailedJSONPatch))

	// Create or update in one call.
	_, _, err = user.Metadata.Create(ctx, item, cms.MetadataScopeEnterprise, "contract", in)
	fmt.Println("exists:", errors.Is(err, cms.ErrTupleAlreadyExists))
	inst, _, err = user.Metadata.Upsert(ctx, item, cms.MetadataScopeEnterprise, "contract", map[string]any{"amount": 99.95})
	if err != nil {
		log.Fatal(err)
	}
	amount, _ := inst.Float64("amount")
	fmt.Println("upserted amount:", amount)

	// Query: values travel as typed :placeholders; pages come as needed.
	q := cms.NewMetadataQuery(scope, "contract", "0").
		Where(cms.QueryField("amount").Lt(100)).
		OrderBy(cms.SortDirectionAscending, "amount").
		WithMetadata("customer")
	for entry, err := range user.Metadata.QueryIter(ctx, q) {
		if err != nil {
			log.Fatal(err)
		}
		md, err := entry.Metadata(cms.MetadataScopeEnterprise, "contract")
		if err != nil {
			log.Fatal(err)
		}
		c, _ := md.String("customer")
		fmt.Println("found", entry.Type, entry.ID == f.ID, c)
	}
	// Output:
	// true Acme 1250.5 2027-06-30
	// updated: Acme Corp version 1
	// stale update refused: true
	// exists: true
	// upserted amount: 99.95
	// found file true Acme Corp
}

func ExampleDiffMetadata() {
	type Contract struct {
		Amount  float64  `json:"amount"`
		Owner   string   `json:"owner,omitempty"`
		Regions []string `json:"regions"`
	}
	old := Contract{Amount: 10, Owner: "ana", Regions: []string{"emea"}}
	new := Contract{Amount: 12, Regions: []string{"emea"}}
	patch, err := cms.DiffMetadataTested(old, new)
	if err != nil {
		log.Fatal(err)
	}
	b, _ := json.Marshal(patch)
	fmt.Println(string(b))
	// Output:
	// [{"op":"test","path":"/amount","value":10},{"op":"replace","path":"/amount","value":12},{"op":"test","path":"/owner","value":"ana"},{"op":"remove","path":"/owner"}]
}

func ExampleMetadataPatch() {
	patch := cms.NewMetadataPatch().
		Add("rate/hour", 95.5). // keys are escaped as JSON Pointers
		TestAndReplace("status", "draft", "signed").
		Add("due", time.Date(2027, 1, 31, 0, 0, 0, 0, time.UTC)).
		Remove("notes")
	b, _ := json.Marshal(patch)
	fmt.Println(string(b))
	// Output:
	// [{"op":"add","path":"/rate~1hour","value":95.5},{"op":"test","path":"/status","value":"draft"},{"op":"replace","path":"/status","value":"signed"},{"op":"add","path":"/due","value":"2027-01-31T00:00:00.000Z"},{"op":"remove","path":"/notes"}]
}

func ExampleMetadataQuery() {
	q := cms.NewMetadataQuery(cms.EnterpriseScope("27335"), "contract", "0").
		Where(cms.QueryField("amount").Ge(1000)).
		Where(cms.QueryOr(cms.QueryField("status").Eq("signed"), cms.QueryField("customer").ILike("acme%"))).
		OrderBy(cms.SortDirectionDescending, "amount").
		Limit(50)
	body, err := q.Request()
	if err != nil {
		log.Fatal(err)
	}
	b, _ := json.MarshalIndent(body, "", "  ")
	fmt.Println(string(b))

	_, err = cms.NewMetadataQuery(cms.MetadataScopeEnterprise, "contract", "0").Request()
	fmt.Println(err)
	// Output:
	// {
	//   "from": "enterprise_27335.contract",
	//   "ancestor_folder_id": "0",
	//   "query": "amount \u003e= :p1 AND (status = :p2 OR customer ILIKE :p3)",
	//   "query_params": {
	//     "p1": 1000,
	//     "p2": "signed",
	//     "p3": "acme%"
	//   },
	//   "order_by": [
	//     {
	//       "field_key": "amount",
	//       "direction": "DESC"
	//     }
	//   ],
	//   "limit": 50,
	//   "fields": [
	//     "name"
	//   ]
	// }
	// cms: invalid argument: scope: a query needs the full enterprise_<id> scope, not "enterprise" (see MetadataService.ResolveScope)
}
