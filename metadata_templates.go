package cms

import (
	"context"
	"iter"
	"net/http"
)

// MetadataFieldType is the type of a template field.
type MetadataFieldType string

// The field types. Integer and taxonomy fields are decoded; integer cannot
// be created any more, and taxonomy fields need the taxonomy API.
const (
	MetadataFieldTypeString      MetadataFieldType = "string"
	MetadataFieldTypeFloat       MetadataFieldType = "float"
	MetadataFieldTypeDate        MetadataFieldType = "date"
	MetadataFieldTypeEnum        MetadataFieldType = "enum"
	MetadataFieldTypeMultiSelect MetadataFieldType = "multiSelect"
	MetadataFieldTypeInteger     MetadataFieldType = "integer"
	MetadataFieldTypeTaxonomy    MetadataFieldType = "taxonomy"
)

// MetadataTemplate is a metadata template (MetadataTemplate).
type MetadataTemplate struct {
	ID   string `json:"id,omitzero"`
	Type string `json:"type,omitzero"` // "metadata_template"
	// Scope is global or enterprise_<id>.
	Scope       MetadataScope `json:"scope"`
	TemplateKey string        `json:"templateKey"`
	DisplayName string        `json:"displayName,omitzero"`
	// Hidden hides the template in the web app (API use only).
	Hidden bool             `json:"hidden,omitzero"`
	Fields []*MetadataField `json:"fields,omitzero"`
	// CopyInstanceOnItemCopy copies instances along with the items.
	CopyInstanceOnItemCopy bool `json:"copyInstanceOnItemCopy,omitzero"`
}

// Field returns the template's field with that key, or nil.
func (t *MetadataTemplate) Field(key string) *MetadataField {
	for _, f := range t.Fields {
		if f.Key == key {
			return f
		}
	}
	return nil
}

// MetadataField is a field of a template, read or written.
type MetadataField struct {
	ID   string            `json:"id,omitzero"`
	Type MetadataFieldType `json:"type"`
	// Key is unique in the template (at most 256 characters).
	Key         string `json:"key"`
	DisplayName string `json:"displayName"`
	Description string `json:"description,omitzero"`
	Hidden      bool   `json:"hidden,omitzero"`
	// Options are the choices of an enum or multiSelect field.
	Options []*MetadataOption `json:"options,omitzero"`
	// Taxonomy fields: the taxonomy and its rules, as the service sends them.
	TaxonomyKey  string                `json:"taxonomyKey,omitzero"`
	TaxonomyID   string                `json:"taxonomyId,omitzero"`
	Namespace    string                `json:"namespace,omitzero"`
	OptionsRules *MetadataOptionsRules `json:"optionsRules,omitzero"`
}

// MetadataOption is one choice of an enum or multiSelect field.
type MetadataOption struct {
	ID  string `json:"id,omitzero"`
	Key string `json:"key"`
}

// MetadataOptionsRules are the selection rules of a taxonomy field.
type MetadataOptionsRules struct {
	MultiSelect      bool  `json:"multiSelect,omitzero"`
	SelectableLevels []int `json:"selectableLevels,omitzero"`
}

// validate checks a field to be created: type, key, display name and
// option keys.
func (f *MetadataField) validate(arg string) error {
	if f == nil {
		return invalidArg(arg, "nil")
	}
	switch f.Type {
	case MetadataFieldTypeString, MetadataFieldTypeFloat, MetadataFieldTypeDate, MetadataFieldTypeTaxonomy:
	case MetadataFieldTypeEnum, MetadataFieldTypeMultiSelect:
		seen := map[string]bool{}
		for _, o := range f.Options {
			if o == nil || o.Key == "" {
				return invalidArg(arg+".options", "empty option key")
			}
			if seen[o.Key] {
				return invalidArg(arg+".options", "duplicate option key "+quoteArg(o.Key))
			}
			seen[o.Key] = true
		}
	case MetadataFieldTypeInteger:
		return invalidArg(arg+".type", "integer fields cannot be created (use float)")
	default:
		return invalidArg(arg+".type", "want string, float, date, enum, multiSelect or taxonomy, got "+quoteArg(string(f.Type)))
	}
	if f.Key == "" || len(f.Key) > 256 {
		return invalidArg(arg+".key", "empty or longer than 256")
	}
	if f.DisplayName == "" {
		return invalidArg(arg+".displayName", "empty")
	}
	return nil
}

// CreateMetadataTemplateRequest is the body of MetadataTemplatesService.Create.
type CreateMetadataTemplateRequest struct {
	// Scope is enterprise (the default) or the caller's enterprise_<id>;
	// global templates cannot be created.
	Scope MetadataScope `json:"scope"`
	// TemplateKey is derived from DisplayName by the service when empty.
	TemplateKey string `json:"templateKey,omitzero"`
	DisplayName string `json:"displayName"`
	Hidden      bool   `json:"hidden,omitzero"`
	// Fields in their display order; keys must be unique.
	Fields                 []*MetadataField `json:"fields,omitzero"`
	CopyInstanceOnItemCopy bool             `json:"copyInstanceOnItemCopy,omitzero"`
}

// Create creates an enterprise template (POST /metadata_templates/schema).
// Only admins may; a taken key fails with an *APIError matching ErrConflict.
func (s *MetadataTemplatesService) Create(ctx context.Context, body *CreateMetadataTemplateRequest) (*MetadataTemplate, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	b := *body
	if b.Scope == "" {
		b.Scope = MetadataScopeEnterprise
	}
	if err := b.Scope.validate(); err != nil {
		return nil, nil, err
	}
	if b.Scope == MetadataScopeGlobal {
		return nil, nil, invalidArg("scope", "global templates cannot be created")
	}
	if b.TemplateKey != "" {
		if err := checkTemplateKey(b.TemplateKey); err != nil {
			return nil, nil, err
		}
	}
	if b.DisplayName == "" || len(b.DisplayName) > 4096 {
		return nil, nil, invalidArg("displayName", "empty or longer than 4096")
	}
	keys := map[string]bool{}
	for i, f := range b.Fields {
		if err := f.validate("fields[" + itoa(i) + "]"); err != nil {
			return nil, nil, err
		}
		if keys[f.Key] {
			return nil, nil, invalidArg("fields", "duplicate key "+quoteArg(f.Key))
		}
		keys[f.Key] = true
	}
	return callAPI[MetadataTemplate](ctx, s.client, http.MethodPost, &b, nil, "metadata_templates", "schema")
}

// Get fetches a template by scope and key
// (GET /metadata_templates/{scope}/{template_key}/schema).
func (s *MetadataTemplatesService) Get(ctx context.Context, scope MetadataScope, templateKey string) (*MetadataTemplate, *Response, error) {
	if err := checkScopeKey(scope, templateKey); err != nil {
		return nil, nil, err
	}
	return getAPI[MetadataTemplate](ctx, s.client, nil, "metadata_templates", string(scope), templateKey, "schema")
}

// GetByID fetches a template by its id (GET /metadata_templates/{template_id}).
func (s *MetadataTemplatesService) GetByID(ctx context.Context, templateID string) (*MetadataTemplate, *Response, error) {
	if err := checkID("template", templateID); err != nil {
		return nil, nil, err
	}
	return getAPI[MetadataTemplate](ctx, s.client, nil, "metadata_templates", templateID)
}

// Delete deletes a template and every instance of it, for good
// (DELETE /metadata_templates/{scope}/{template_key}/schema).
func (s *MetadataTemplatesService) Delete(ctx context.Context, scope MetadataScope, templateKey string) (*Response, error) {
	if err := checkScopeKey(scope, templateKey); err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, "metadata_templates", string(scope), templateKey, "schema")
}

// UpdateSchema applies schema operations to a template, all or none
// (PUT /metadata_templates/{scope}/{template_key}/schema, sent as
// application/json-patch+json). Build each operation with its constructor
// (EditTemplateOp, AddFieldOp, ...); every operation is checked for its
// required keys before anything is sent.
func (s *MetadataTemplatesService) UpdateSchema(ctx context.Context, scope MetadataScope, templateKey string, ops ...TemplateOp) (*MetadataTemplate, *Response, error) {
	if err := checkScopeKey(scope, templateKey); err != nil {
		return nil, nil, err
	}
	if len(ops) == 0 {
		return nil, nil, invalidArg("operations", "none")
	}
	for i := range ops {
		if err := ops[i].validate(); err != nil {
			return nil, nil, err
		}
	}
	return callAPI[MetadataTemplate](ctx, s.client, http.MethodPut, jsonPatch{ops}, nil, "metadata_templates", string(scope), templateKey, "schema")
}

// ListMetadataTemplatesOptions are the options of the marker-paged template
// lists.
type ListMetadataTemplatesOptions struct {
	// Marker is the NextMarker of an earlier page (query marker); empty for
	// the first page.
	Marker string `url:"marker,omitempty"`
	// Limit is the page size (query limit, at most 1000).
	Limit int `url:"limit,omitempty"`
}

// templatesQuery adds the instance filter of ListByInstance.
type templatesQuery struct {
	InstanceID string `url:"metadata_instance_id,omitempty"`
	*ListMetadataTemplatesOptions
}

// list fetches one page of templates at path with the query q.
func (s *MetadataTemplatesService) list(ctx context.Context, q templatesQuery, path ...string) (*MarkerPage[*MetadataTemplate], *Response, error) {
	if q.ListMetadataTemplatesOptions == nil {
		q.ListMetadataTemplatesOptions = &ListMetadataTemplatesOptions{}
	}
	return getMarkerPage[*MetadataTemplate](ctx, s.client, q.Limit, q, path...)
}

// pages returns the start marker and a page function of the list at path,
// with a private copy of opts.
func (s *MetadataTemplatesService) pages(instanceID string, opts *ListMetadataTemplatesOptions, path ...string) (string, markerPageFunc[*MetadataTemplate]) {
	return pageFuncs(opts, func(o *ListMetadataTemplatesOptions) *string { return &o.Marker },
		func(ctx context.Context, o *ListMetadataTemplatesOptions) (*MarkerPage[*MetadataTemplate], *Response, error) {
			return s.list(ctx, templatesQuery{instanceID, o}, path...)
		})
}

// iter yields every template of the list at path from opts.Marker on.
func (s *MetadataTemplatesService) iter(ctx context.Context, instanceID string, opts *ListMetadataTemplatesOptions, path ...string) iter.Seq2[*MetadataTemplate, error] {
	marker, fetch := s.pages(instanceID, opts, path...)
	return markerSeq(ctx, marker, fetch)
}

// ListEnterprise returns one page of the caller's enterprise templates
// (GET /metadata_templates/enterprise).
func (s *MetadataTemplatesService) ListEnterprise(ctx context.Context, opts *ListMetadataTemplatesOptions) (*MarkerPage[*MetadataTemplate], *Response, error) {
	return s.list(ctx, templatesQuery{ListMetadataTemplatesOptions: opts}, "metadata_templates", "enterprise")
}

// ListEnterpriseIter yields every enterprise template, fetching marker pages
// (GET /metadata_templates/enterprise) as the loop advances.
func (s *MetadataTemplatesService) ListEnterpriseIter(ctx context.Context, opts *ListMetadataTemplatesOptions) iter.Seq2[*MetadataTemplate, error] {
	return s.iter(ctx, "", opts, "metadata_templates", "enterprise")
}

// NewListEnterprisePaginator walks the enterprise templates one marker page
// at a time (GET /metadata_templates/enterprise). It never changes opts.
func (s *MetadataTemplatesService) NewListEnterprisePaginator(opts *ListMetadataTemplatesOptions) *MarkerPaginator[*MetadataTemplate] {
	return newMarkerPaginator(s.pages("", opts, "metadata_templates", "enterprise"))
}

// ListGlobal returns one page of the global templates
// (GET /metadata_templates/global).
func (s *MetadataTemplatesService) ListGlobal(ctx context.Context, opts *ListMetadataTemplatesOptions) (*MarkerPage[*MetadataTemplate], *Response, error) {
	return s.list(ctx, templatesQuery{ListMetadataTemplatesOptions: opts}, "metadata_templates", "global")
}

// ListGlobalIter yields every global template, fetching marker pages
// (GET /metadata_templates/global) as the loop advances.
func (s *MetadataTemplatesService) ListGlobalIter(ctx context.Context, opts *ListMetadataTemplatesOptions) iter.Seq2[*MetadataTemplate, error] {
	return s.iter(ctx, "", opts, "metadata_templates", "global")
}

// NewListGlobalPaginator walks the global templates one marker page at a
// time (GET /metadata_templates/global). It never changes opts.
func (s *MetadataTemplatesService) NewListGlobalPaginator(opts *ListMetadataTemplatesOptions) *MarkerPaginator[*MetadataTemplate] {
	return newMarkerPaginator(s.pages("", opts, "metadata_templates", "global"))
}

// ListByInstance returns one page of the templates of a metadata instance,
// found by the instance's $id
// (GET /metadata_templates?metadata_instance_id={id}).
func (s *MetadataTemplatesService) ListByInstance(ctx context.Context, instanceID string, opts *ListMetadataTemplatesOptions) (*MarkerPage[*MetadataTemplate], *Response, error) {
	if err := checkID("metadata instance", instanceID); err != nil {
		return nil, nil, err
	}
	return s.list(ctx, templatesQuery{instanceID, opts}, "metadata_templates")
}

// ListByInstanceIter yields the templates of a metadata instance, fetching
// marker pages (GET /metadata_templates?metadata_instance_id={id}).
func (s *MetadataTemplatesService) ListByInstanceIter(ctx context.Context, instanceID string, opts *ListMetadataTemplatesOptions) iter.Seq2[*MetadataTemplate, error] {
	if err := checkID("metadata instance", instanceID); err != nil {
		return func(yield func(*MetadataTemplate, error) bool) { yield(nil, err) }
	}
	return s.iter(ctx, instanceID, opts, "metadata_templates")
}

// NewListByInstancePaginator walks the templates of a metadata instance one
// marker page at a time (GET /metadata_templates?metadata_instance_id=). It
// never changes opts; an invalid instance id is the first page's error.
func (s *MetadataTemplatesService) NewListByInstancePaginator(instanceID string, opts *ListMetadataTemplatesOptions) *MarkerPaginator[*MetadataTemplate] {
	if err := checkID("metadata instance", instanceID); err != nil {
		return newMarkerPaginator("", func(context.Context, string) (*MarkerPage[*MetadataTemplate], *Response, error) { return nil, nil, err })
	}
	return newMarkerPaginator(s.pages(instanceID, opts, "metadata_templates"))
}
