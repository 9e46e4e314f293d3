package cms_test

// Integration tests of MetadataTemplatesService and MetadataService against
// the reference server (refserver through cmstest).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/cmstest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contract is a caller's own struct for the test template's values.
type contract struct {
	Amount   float64   `json:"amount"`
	Customer string    `json:"customer,omitempty"`
	Expires  time.Time `json:"expires,omitzero"`
	Status   string    `json:"status,omitempty"`
	Regions  []string  `json:"regions,omitempty"`
}

// contractTemplate is the test template: one field of each creatable type.
func contractTemplate(key string) *cms.CreateMetadataTemplateRequest {
	return &cms.CreateMetadataTemplateRequest{
		TemplateKey: key,
		DisplayName: "Contract " + key,
		Fields: []*cms.MetadataField{
			{Type: cms.MetadataFieldTypeFloat, Key: "amount", DisplayName: "Amount"},
			{Type: cms.MetadataFieldTypeString, Key: "customer", DisplayName: "Customer"},
			{Type: cms.MetadataFieldTypeDate, Key: "expires", DisplayName: "Expires"},
			{Type: cms.MetadataFieldTypeEnum, Key: "status", DisplayName: "Status", Options: []*cms.MetadataOption{{Key: "draft"}, {Key: "signed"}}},
			{Type: cms.MetadataFieldTypeMultiSelect, Key: "regions", DisplayName: "Regions", Options: []*cms.MetadataOption{{Key: "emea"}, {Key: "apac"}, {Key: "amer"}}},
		},
	}
}

type metadataEnv struct {
	srv          *cmstest.Server
	user, admin  *cms.Client
	scope        cms.MetadataScope
	ctx          context.Context
	templateKey  string
	templateResp *cms.MetadataTemplate
}

func newMetadataEnv(t *testing.T) *metadataEnv {
	t.Helper()
	srv, user := refServer(t, cmstest.Options{})
	e := &metadataEnv{srv: srv, user: user, admin: srv.AdminClient(t, cms.WithRetryPolicy(fastRetries)),
		scope: cms.EnterpriseScope(srv.EnterpriseID()), ctx: context.Background(), templateKey: "contract"}
	tpl, _, err := e.admin.MetadataTemplates.Create(e.ctx, contractTemplate(e.templateKey))
	require.NoError(t, err)
	e.templateResp = tpl
	return e
}

func (e *metadataEnv) file(t *testing.T, folderID, name string) *cms.File {
	t.Helper()
	f, _, err := e.user.Files.Upload(e.ctx, folderID, name, strings.NewReader(name), int64(len(name)), nil)
	require.NoError(t, err)
	return f
}

func TestRefserverMetadataTemplates(t *testing.T) {
	t.Parallel()
	e := newMetadataEnv(t)
	ctx, tpls := e.ctx, e.admin.MetadataTemplates

	tpl := e.templateResp
	assert.Equal(t, e.scope, tpl.Scope, "the service answers with the full scope")
	assert.Equal(t, "contract", tpl.TemplateKey)
	require.Len(t, tpl.Fields, 5)
	assert.Equal(t, cms.MetadataFieldTypeMultiSelect, tpl.Field("regions").Type)

	got, _, err := tpls.Get(ctx, cms.MetadataScopeEnterprise, "contract")
	require.NoError(t, err)
	assert.Equal(t, tpl.ID, got.ID)
	got, _, err = tpls.Get(ctx, e.scope, "contract")
	require.NoError(t, err, "enterprise_<id> is accepted too")
	assert.Equal(t, tpl.ID, got.ID)
	got, _, err = tpls.GetByID(ctx, tpl.ID)
	require.NoError(t, err)
	assert.Equal(t, "contract", got.TemplateKey)

	// The key is derived from the display name when absent.
	derived, _, err := tpls.Create(ctx, &cms.CreateMetadataTemplateRequest{DisplayName: "Purchase Order"})
	require.NoError(t, err)
	assert.NotEmpty(t, derived.TemplateKey)

	_, _, err = tpls.Create(ctx, contractTemplate("contract"))
	assert.ErrorIs(t, err, cms.ErrConflict, "a taken key")
	_, _, err = e.user.MetadataTemplates.Create(ctx, contractTemplate("mine"))
	assert.ErrorIs(t, err, cms.ErrForbidden, "only admins create templates")
	_, _, err = tpls.Get(ctx, cms.MetadataScopeEnterprise, "nope")
	assert.ErrorIs(t, err, cms.ErrNotFound)

	// Marker pages of the enterprise templates, over more than one page.
	for i := range 3 {
		_, _, err := tpls.Create(ctx, contractTemplate(fmt.Sprintf("extra%d", i)))
		require.NoError(t, err)
	}
	opts := &cms.ListMetadataTemplatesOptions{Limit: 2}
	page, resp, err := tpls.ListEnterprise(ctx, opts)
	require.NoError(t, err)
	assert.Len(t, page.Entries, 2)
	assert.NotEmpty(t, resp.NextMarker)
	var keys []string
	for tpl, err := range tpls.ListEnterpriseIter(ctx, opts) {
		require.NoError(t, err)
		keys = append(keys, tpl.TemplateKey)
	}
	assert.Len(t, keys, 5)
	assert.Subset(t, keys, []string{"contract", "extra0", "extra1", "extra2", derived.TemplateKey})
	assert.Equal(t, 2, opts.Limit, "the iterator leaves opts alone")
	pager := tpls.NewListEnterprisePaginator(opts)
	var sizes []int
	for pager.HasMorePages() {
		page, _, err := pager.NextPage(ctx)
		require.NoError(t, err)
		sizes = append(sizes, len(page.Entries))
	}
	assert.Equal(t, []int{2, 2, 1}, sizes)
	gpager := tpls.NewListGlobalPaginator(nil)
	gp, _, err := gpager.NextPage(ctx)
	require.NoError(t, err)
	assert.NotEmpty(t, gp.Entries)
	assert.False(t, gpager.HasMorePages())
	assert.Empty(t, opts.Marker)

	var global []string
	for tpl, err := range e.user.MetadataTemplates.ListGlobalIter(ctx, nil) {
		require.NoError(t, err)
		global = append(global, tpl.TemplateKey)
	}
	assert.Contains(t, global, "properties")
	gpage, _, err := e.user.MetadataTemplates.ListGlobal(ctx, &cms.ListMetadataTemplatesOptions{Limit: 1})
	require.NoError(t, err)
	assert.Len(t, gpage.Entries, 1)

	_, err = tpls.Delete(ctx, cms.MetadataScopeEnterprise, "extra2")
	require.NoError(t, err)
	_, _, err = tpls.Get(ctx, cms.MetadataScopeEnterprise, "extra2")
	assert.ErrorIs(t, err, cms.ErrNotFound)
}

func TestRefserverMetadataSchemaUpdate(t *testing.T) {
	t.Parallel()
	e := newMetadataEnv(t)
	ctx, tpls := e.ctx, e.admin.MetadataTemplates
	f := e.file(t, "0", "deal.pdf")
	_, _, err := e.user.Metadata.Create(ctx, cms.OnFile(f.ID), cms.MetadataScopeEnterprise, "contract",
		contract{Amount: 5, Customer: "Acme", Status: "draft", Regions: []string{"emea", "apac"}})
	require.NoError(t, err)

	tpl, _, err := tpls.UpdateSchema(ctx, cms.MetadataScopeEnterprise, "contract",
		cms.EditTemplateOp(cms.TemplateChanges{DisplayName: "Deal", Hidden: cms.Ptr(true), CopyInstanceOnItemCopy: cms.Ptr(true)}),
		cms.AddFieldOp(cms.MetadataField{Type: cms.MetadataFieldTypeString, Key: "owner", DisplayName: "Owner"}),
		cms.ReorderFieldsOp("owner", "amount", "customer", "expires", "status", "regions"),
		cms.AddEnumOptionOp("status", "void"),
		cms.ReorderEnumOptionsOp("status", "void", "signed", "draft"),
		cms.AddMultiSelectOptionOp("regions", "latam"),
		cms.ReorderMultiSelectOptionsOp("regions", "latam", "amer", "apac", "emea"),
		cms.EditFieldOp("customer", cms.FieldChanges{Key: "client", DisplayName: "Client"}),
		cms.EditEnumOptionOp("status", "signed", "executed"),
		cms.EditMultiSelectOptionOp("regions", "amer", "americas"),
		cms.RemoveEnumOptionOp("status", "draft"),
		cms.RemoveMultiSelectOptionOp("regions", "apac"),
		cms.RemoveFieldOp("expires"),
	)
	require.NoError(t, err)
	assert.Equal(t, "Deal", tpl.DisplayName)
	assert.True(t, tpl.Hidden)
	assert.True(t, tpl.CopyInstanceOnItemCopy)
	var fieldKeys []string
	for _, fl := range tpl.Fields {
		fieldKeys = append(fieldKeys, fl.Key)
	}
	assert.Equal(t, []string{"owner", "amount", "client", "status", "regions"}, fieldKeys)
	optionKeys := func(fl *cms.MetadataField) (out []string) {
		for _, o := range fl.Options {
			out = append(out, o.Key)
		}
		return out
	}
	assert.Equal(t, []string{"void", "executed"}, optionKeys(tpl.Field("status")))
	assert.Equal(t, []string{"latam", "americas", "emea"}, optionKeys(tpl.Field("regions")))

	// The side effects reach the instance: renamed key, null enum, pruned list.
	inst, _, err := e.user.Metadata.Get(ctx, cms.OnFile(f.ID), cms.MetadataScopeEnterprise, "contract")
	require.NoError(t, err)
	client, err := inst.String("client")
	require.NoError(t, err)
	assert.Equal(t, "Acme", client)
	_, err = inst.String("status")
	assert.ErrorIs(t, err, cms.ErrMetadataValueNotSet)
	regions, err := inst.Strings("regions")
	require.NoError(t, err)
	assert.Equal(t, []string{"emea"}, regions)

	// An invalid operation changes nothing (all or none).
	_, _, err = tpls.UpdateSchema(ctx, cms.MetadataScopeEnterprise, "contract",
		cms.EditTemplateOp(cms.TemplateChanges{DisplayName: "Changed"}),
		cms.RemoveFieldOp("nosuchfield"))
	assert.ErrorIs(t, err, cms.ErrBadRequest)
	again, _, err := tpls.Get(ctx, cms.MetadataScopeEnterprise, "contract")
	require.NoError(t, err)
	assert.Equal(t, "Deal", again.DisplayName)
	_, _, err = e.user.MetadataTemplates.UpdateSchema(ctx, cms.MetadataScopeEnterprise, "contract", cms.RemoveFieldOp("owner"))
	assert.ErrorIs(t, err, cms.ErrForbidden)
	_, _, err = tpls.UpdateSchema(ctx, cms.MetadataScopeEnterprise, "nope", cms.RemoveFieldOp("owner"))
	assert.ErrorIs(t, err, cms.ErrNotFound)

	// Deleting the template deletes its instances.
	_, err = tpls.Delete(ctx, cms.MetadataScopeEnterprise, "contract")
	require.NoError(t, err)
	list, _, err := e.user.Metadata.ListByItem(ctx, cms.OnFile(f.ID))
	require.NoError(t, err)
	assert.Empty(t, list.Entries)
}

func TestRefserverMetadataInstances(t *testing.T) {
	t.Parallel()
	e := newMetadataEnv(t)
	ctx, md := e.ctx, e.user.Metadata
	folder, _, err := e.user.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "deals", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	f := e.file(t, folder.ID, "deal.pdf")
	expires := time.Date(2027, 3, 31, 0, 0, 0, 0, time.UTC)
	want := contract{Amount: 12345.678901, Customer: "Acme / Sons ~ Co", Expires: expires, Status: "draft", Regions: []string{"emea", "apac"}}

	for _, item := range []cms.MetadataItem{cms.OnFile(f.ID), cms.OnFolder(folder.ID)} {
		t.Run(item.String(), func(t *testing.T) {
			inst, _, err := md.Create(ctx, item, cms.MetadataScopeEnterprise, "contract", want)
			require.NoError(t, err)
			assert.Equal(t, e.scope, inst.Scope)
			assert.Equal(t, "contract", inst.Template)
			assert.NotEmpty(t, inst.ID)
			assert.True(t, inst.CanEdit)

			// The typed struct round trip.
			inst, _, err = md.Get(ctx, item, cms.MetadataScopeEnterprise, "contract")
			require.NoError(t, err)
			var got contract
			require.NoError(t, inst.Decode(&got))
			assert.Equal(t, want.Amount, got.Amount)
			assert.Equal(t, want.Customer, got.Customer)
			assert.True(t, got.Expires.Equal(expires), got.Expires)
			assert.Equal(t, want.Regions, got.Regions)
			amount, err := inst.Float64("amount")
			require.NoError(t, err)
			assert.Equal(t, 12345.678901, amount)

			_, _, err = md.Create(ctx, item, cms.MetadataScopeEnterprise, "contract", want)
			assert.ErrorIs(t, err, cms.ErrTupleAlreadyExists)
			assert.ErrorIs(t, err, cms.ErrConflict)

			// An optimistic update: applies once, then the stale test fails.
			v0 := inst.Version
			inst, _, err = md.Update(ctx, item, cms.MetadataScopeEnterprise, "contract",
				cms.NewMetadataPatch().TestAndReplace("status", "draft", "signed"))
			require.NoError(t, err)
			assert.Greater(t, inst.Version, v0)
			_, _, err = md.Update(ctx, item, cms.MetadataScopeEnterprise, "contract",
				cms.NewMetadataPatch().TestAndReplace("status", "draft", "signed").Replace("amount", 1))
			assert.ErrorIs(t, err, cms.ErrFailedJSONPatch)
			after, _, err := md.Get(ctx, item, cms.MetadataScopeEnterprise, "contract")
			require.NoError(t, err)
			assert.Equal(t, inst.Version, after.Version, "a failed patch changes nothing")
			amount, _ = after.Float64("amount")
			assert.Equal(t, 12345.678901, amount)

			// A diff of two structs, guarded by tests of the old values.
			var cur contract
			require.NoError(t, after.Decode(&cur))
			next := cur
			next.Customer = ""
			next.Regions = []string{"amer"}
			patch, err := cms.DiffMetadataTested(after, next)
			require.NoError(t, err)
			inst, _, err = md.Update(ctx, item, cms.MetadataScopeEnterprise, "contract", patch)
			require.NoError(t, err)
			_, err = inst.String("customer")
			assert.ErrorIs(t, err, cms.ErrMetadataValueNotSet)
			regions, _ := inst.Strings("regions")
			assert.Equal(t, []string{"amer"}, regions)

			_, _, err = md.Update(ctx, item, cms.MetadataScopeEnterprise, "contract", cms.NewMetadataPatch().Replace("status", "bogus"))
			assert.ErrorIs(t, err, cms.ErrSchemaValidationFailed)

			// Move and copy between keys, on the free-form global template.
			_, _, err = md.Create(ctx, item, cms.MetadataScopeGlobal, "properties", map[string]string{"a/b": "1", "c~d": "2"})
			require.NoError(t, err)
			props, _, err := md.Update(ctx, item, cms.MetadataScopeGlobal, "properties",
				cms.NewMetadataPatch().Move("a/b", "moved").Copy("c~d", "copied").Test("c~d", "2"))
			require.NoError(t, err)
			assert.Equal(t, []string{"copied", "c~d", "moved"}, slices.Sorted(maps.Keys(props.Values)))

			list, _, err := md.ListByItem(ctx, item)
			require.NoError(t, err)
			assert.Equal(t, 2, list.TotalCount)

			// The template of an instance, by its $id.
			byInst, _, err := e.user.MetadataTemplates.ListByInstance(ctx, inst.ID, nil)
			require.NoError(t, err)
			require.Len(t, byInst.Entries, 1)
			assert.Equal(t, "contract", byInst.Entries[0].TemplateKey)
			var n int
			for tpl, err := range e.user.MetadataTemplates.ListByInstanceIter(ctx, inst.ID, nil) {
				require.NoError(t, err)
				assert.Equal(t, "contract", tpl.TemplateKey)
				n++
			}
			assert.Equal(t, 1, n)

			_, err = md.Delete(ctx, item, cms.MetadataScopeEnterprise, "contract")
			require.NoError(t, err)
			_, _, err = md.Get(ctx, item, cms.MetadataScopeEnterprise, "contract")
			assert.ErrorIs(t, err, cms.ErrInstanceNotFound)
			_, err = md.Delete(ctx, item, cms.MetadataScopeEnterprise, "contract")
			assert.ErrorIs(t, err, cms.ErrNotFound)
			_, _, err = md.Update(ctx, item, cms.MetadataScopeEnterprise, "contract", cms.NewMetadataPatch().Add("amount", 1))
			assert.ErrorIs(t, err, cms.ErrNotFound)
		})
	}

	_, _, err = md.Create(ctx, cms.OnFile(f.ID), cms.MetadataScopeEnterprise, "nosuch", nil)
	assert.ErrorIs(t, err, cms.ErrNotFound)
	_, _, err = md.Create(ctx, cms.OnFile(f.ID), cms.MetadataScopeEnterprise, "contract", map[string]any{"amount": "12"})
	assert.ErrorIs(t, err, cms.ErrSchemaValidationFailed, "a string is not a float")
	_, _, err = md.Create(ctx, cms.OnFile(f.ID), cms.MetadataScopeEnterprise, "contract", map[string]any{"unknown": "x"})
	assert.ErrorIs(t, err, cms.ErrSchemaValidationFailed, "an unknown key")
	_, _, err = e.srv.AppClient(t).Metadata.ListByItem(ctx, cms.OnFile(f.ID))
	assert.ErrorIs(t, err, cms.ErrForbidden, "the app token may not")
}

func TestRefserverMetadataUpsert(t *testing.T) {
	t.Parallel()
	e := newMetadataEnv(t)
	ctx, md := e.ctx, e.user.Metadata
	f := cms.OnFile(e.file(t, "0", "po.pdf").ID)

	inst, _, err := md.Upsert(ctx, f, cms.MetadataScopeEnterprise, "contract", contract{Amount: 1, Customer: "Acme"})
	require.NoError(t, err, "creates")
	assert.Equal(t, int64(0), inst.Version)

	inst, _, err = md.Upsert(ctx, f, cms.MetadataScopeEnterprise, "contract", map[string]any{"amount": 2, "status": "signed"})
	require.NoError(t, err, "patches the existing instance")
	amount, _ := inst.Float64("amount")
	status, _ := inst.String("status")
	customer, _ := inst.String("customer")
	assert.Equal(t, 2.0, amount)
	assert.Equal(t, "signed", status)
	assert.Equal(t, "Acme", customer, "other keys are kept")

	// A bad value is reported, on either path, and nothing changes.
	_, _, err = md.Upsert(ctx, f, cms.MetadataScopeEnterprise, "contract", map[string]any{"expires": "1/1/2020"})
	assert.ErrorIs(t, err, cms.ErrSchemaValidationFailed)
	g := cms.OnFile(e.file(t, "0", "other.pdf").ID)
	_, _, err = md.Upsert(ctx, g, cms.MetadataScopeEnterprise, "contract", map[string]any{"status": "bogus"})
	assert.ErrorIs(t, err, cms.ErrSchemaValidationFailed)
	_, _, err = md.Get(ctx, g, cms.MetadataScopeEnterprise, "contract")
	assert.ErrorIs(t, err, cms.ErrInstanceNotFound)
	_, _, err = md.Upsert(ctx, f, cms.MetadataScopeEnterprise, "nosuch", map[string]any{"a": "b"})
	assert.ErrorIs(t, err, cms.ErrNotFound)
	var ae *cms.APIError
	require.True(t, errors.As(err, &ae))
	assert.NotEmpty(t, ae.Code)
}

func TestRefserverMetadataQuery(t *testing.T) {
	t.Parallel()
	e := newMetadataEnv(t)
	ctx, md := e.ctx, e.user.Metadata
	folder, _, err := e.user.Folders.Create(ctx, &cms.CreateFolderRequest{Name: "q", Parent: cms.FolderRef{ID: "0"}}, nil)
	require.NoError(t, err)
	for i := range 25 {
		f := e.file(t, folder.ID, fmt.Sprintf("f%02d.pdf", i))
		status := "draft"
		if i%2 == 0 {
			status = "signed"
		}
		_, _, err := md.Create(ctx, cms.OnFile(f.ID), cms.MetadataScopeEnterprise, "contract",
			contract{Amount: float64(i) * 10, Status: status, Regions: []string{"emea"}, Customer: fmt.Sprintf("Cust_%d%%", i),
				Expires: time.Date(2027, 1, i+1, 0, 0, 0, 0, time.UTC)})
		require.NoError(t, err)
	}
	outside := e.file(t, "0", "outside.pdf")
	_, _, err = md.Create(ctx, cms.OnFile(outside.ID), cms.MetadataScopeEnterprise, "contract", contract{Amount: 1000, Status: "signed"})
	require.NoError(t, err)

	q := cms.NewMetadataQuery(e.scope, "contract", folder.ID).
		Where(cms.QueryField("status").Eq("signed")).
		Where(cms.QueryField("amount").Ge(20)).
		OrderBy(cms.SortDirectionDescending, "amount").
		Limit(4).
		Fields("name").
		WithMetadata("amount", "status")
	var amounts []float64
	for entry, err := range md.QueryIter(ctx, q) {
		require.NoError(t, err)
		require.NotNil(t, entry.File)
		inst, err := entry.Metadata(cms.MetadataScopeEnterprise, "contract")
		require.NoError(t, err)
		a, err := inst.Float64("amount")
		require.NoError(t, err)
		amounts = append(amounts, a)
		assert.True(t, strings.HasSuffix(entry.Name, ".pdf"))
	}
	assert.Equal(t, []float64{240, 220, 200, 180, 160, 140, 120, 100, 80, 60, 40, 20}, amounts, "12 results over 3 pages, in order, none outside the folder")

	page, resp, err := md.Query(ctx, q)
	require.NoError(t, err)
	assert.Len(t, page.Entries, 4)
	require.NotEmpty(t, resp.NextMarker)
	// Following the marker with any other change is refused.
	changed := cms.NewMetadataQuery(e.scope, "contract", folder.ID).Where(cms.QueryField("status").Eq("draft")).Limit(4).Marker(resp.NextMarker)
	_, _, err = md.Query(ctx, changed)
	assert.ErrorIs(t, err, cms.ErrBadRequest)

	// Pattern matching with escapes, and HASANY.
	n := 0
	like := cms.NewMetadataQuery(e.scope, "contract", "0").
		Where(cms.QueryField("customer").Like("Cust\\_1" + cms.LikeEscape("%"))).
		Where(cms.QueryField("regions").HasAny("emea", "apac"))
	for _, err := range md.QueryIter(ctx, like) {
		require.NoError(t, err)
		n++
	}
	assert.Equal(t, 1, n, "only Cust_1%% matches")

	// Each kind of condition the builder makes, as the server reads it.
	count := func(c cms.QueryCond) int {
		n := 0
		for _, err := range md.QueryIter(ctx, cms.NewMetadataQuery(e.scope, "contract", folder.ID).Where(c).Limit(7)) {
			require.NoError(t, err)
			n++
		}
		return n
	}
	for name, c := range map[string]struct {
		cond cms.QueryCond
		want int
	}{
		"date before":        {cms.QueryField("expires").Lt(time.Date(2027, 1, 6, 0, 0, 0, 0, time.UTC)), 5},
		"date on or after":   {cms.QueryField("expires").Ge(time.Date(2027, 1, 20, 0, 0, 0, 0, time.UTC)), 6},
		"in and not":         {cms.QueryAnd(cms.QueryField("status").In("signed"), cms.QueryNot(cms.QueryField("amount").Lt(100))), 8},
		"not in":             {cms.QueryField("status").NotIn("signed", "void"), 12},
		"ne":                 {cms.QueryField("status").Ne("signed"), 12},
		"le and gt":          {cms.QueryAnd(cms.QueryField("amount").Gt(50), cms.QueryField("amount").Le(100)), 5},
		"is null":            {cms.QueryField("customer").IsNull(), 0},
		"is not null":        {cms.QueryField("customer").IsNotNull(), 25},
		"or":                 {cms.QueryOr(cms.QueryField("amount").Eq(0), cms.QueryField("amount").Eq(240)), 2},
		"not like":           {cms.QueryField("customer").NotLike("Cust\\_1%"), 14},
		"ilike item name":    {cms.QueryField("item.name").ILike("F0%"), 10},
		"not ilike":          {cms.QueryField("customer").NotILike("cust%"), 0},
		"has all":            {cms.QueryField("regions").HasAll("emea", "apac"), 0},
		"has any one":        {cms.QueryField("regions").HasAny("emea"), 25},
		"exact float number": {cms.QueryField("amount").Eq(json.Number("120.0")), 1},
	} {
		assert.Equal(t, c.want, count(c.cond), name)
	}

	// The service's own errors.
	_, _, err = md.Query(ctx, cms.NewMetadataQuery(e.scope, "contract", "0").WhereRaw("amount >>> :a", map[string]any{"a": 1}))
	assert.ErrorIs(t, err, cms.ErrInvalidQuery)
	_, _, err = md.Query(ctx, cms.NewMetadataQuery(e.scope, "contract", "0").Where(cms.QueryField("amount").Eq("ten")))
	assert.ErrorIs(t, err, cms.ErrUnexpectedJSONType, "a string for a float field")
	_, _, err = md.Query(ctx, cms.NewMetadataQuery(e.scope, "nosuch", "0"))
	assert.ErrorIs(t, err, cms.ErrInstanceNotFound)
}

func TestRefserverMetadataEnterpriseScope(t *testing.T) {
	t.Parallel()
	srv, user := refServer(t, cmstest.Options{})
	ctx := context.Background()
	scope, resp, err := user.Metadata.EnterpriseScope(ctx)
	if errors.Is(err, cms.ErrNotFound) && resp != nil && resp.Request.URL.Path == "/2.0/users/me" {
		t.Skip("GET /users/me is not served on this branch yet (the users issue adds it)")
	}
	require.NoError(t, err)
	assert.Equal(t, cms.EnterpriseScope(srv.EnterpriseID()), scope)
	resolved, _, err := user.Metadata.ResolveScope(ctx, cms.MetadataScopeEnterprise)
	require.NoError(t, err)
	assert.Equal(t, scope, resolved)

	// The resolved scope is what a query's from needs.
	admin := srv.AdminClient(t)
	_, _, err = admin.MetadataTemplates.Create(ctx, contractTemplate("contract"))
	require.NoError(t, err)
	_, _, err = user.Metadata.Query(ctx, cms.NewMetadataQuery(resolved, "contract", "0"))
	require.NoError(t, err)
}

func TestRefserverMetadataFailures(t *testing.T) {
	t.Parallel()
	e := newMetadataEnv(t)
	ctx := e.ctx
	app := e.srv.AppClient(t)
	f := cms.OnFile(e.file(t, "0", "x.pdf").ID)
	for name, c := range map[string]struct {
		call func() (*cms.Response, error)
		want error
	}{
		"user deletes a template": {func() (*cms.Response, error) {
			return e.user.MetadataTemplates.Delete(ctx, cms.MetadataScopeEnterprise, "contract")
		}, cms.ErrForbidden},
		"admin deletes a global template": {func() (*cms.Response, error) {
			return e.admin.MetadataTemplates.Delete(ctx, cms.MetadataScopeGlobal, "properties")
		}, cms.ErrForbidden},
		"unknown template id": {func() (*cms.Response, error) {
			_, resp, err := e.user.MetadataTemplates.GetByID(ctx, "00000000-0000-0000-0000-000000000000")
			return resp, err
		}, cms.ErrBadRequest},
		"bad template marker": {func() (*cms.Response, error) {
			_, resp, err := e.admin.MetadataTemplates.ListEnterprise(ctx, &cms.ListMetadataTemplatesOptions{Marker: "bogus"})
			return resp, err
		}, cms.ErrBadRequest},
		"instance id that is no UUID": {func() (*cms.Response, error) {
			_, resp, err := e.user.MetadataTemplates.ListByInstance(ctx, "123", nil)
			return resp, err
		}, cms.ErrBadRequest},
		"app lists templates": {func() (*cms.Response, error) {
			_, resp, err := app.MetadataTemplates.ListGlobal(ctx, nil)
			return resp, err
		}, cms.ErrForbidden},
		"app creates an instance": {func() (*cms.Response, error) {
			_, resp, err := app.Metadata.Create(ctx, f, cms.MetadataScopeEnterprise, "contract", nil)
			return resp, err
		}, cms.ErrForbidden},
		"unknown file": {func() (*cms.Response, error) {
			_, resp, err := e.user.Metadata.ListByItem(ctx, cms.OnFile("999999999"))
			return resp, err
		}, cms.ErrNotFound},
		"instance on an unknown folder": {func() (*cms.Response, error) {
			_, resp, err := e.user.Metadata.Get(ctx, cms.OnFolder("999999999"), cms.MetadataScopeEnterprise, "contract")
			return resp, err
		}, cms.ErrNotFound},
	} {
		resp, err := c.call()
		assert.ErrorIs(t, err, c.want, name)
		var ae *cms.APIError
		if assert.ErrorAs(t, err, &ae, name) {
			assert.NotNil(t, resp, name)
			assert.NotEmpty(t, ae.Code, name)
		}
	}
	// Nothing changed.
	_, _, err := e.user.MetadataTemplates.Get(ctx, cms.MetadataScopeEnterprise, "contract")
	require.NoError(t, err)
	_, _, err = e.user.MetadataTemplates.Get(ctx, cms.MetadataScopeGlobal, "properties")
	require.NoError(t, err)
	list, _, err := e.user.Metadata.ListByItem(ctx, f)
	require.NoError(t, err)
	assert.Empty(t, list.Entries)
}
