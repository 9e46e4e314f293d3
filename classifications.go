package cms

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// ClassificationsService manages the enterprise's security classifications
// (/metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema)
// and the classification of files and folders
// (/files/{file_id}/metadata/enterprise/securityClassification-6VMVochwUWo,
// and the folder twin). A classification is a metadata instance of the
// enterprise's classification template: its labels are the options of the
// template's one enum field, and an item's classification is the instance's
// value of that field. Changing labels needs an admin.
type ClassificationsService service

// The keys of the classification template.
const (
	// ClassificationTemplateKey is the key of the enterprise's
	// classification template, the same in every enterprise.
	ClassificationTemplateKey = "securityClassification-6VMVochwUWo"
	// ClassificationFieldKey is the key of the template's enum field, whose
	// options are the labels.
	ClassificationFieldKey = "Box__Security__Classification__Key"
)

// ClassificationDetails describe a label (staticConfig.classification).
type ClassificationDetails struct {
	// Definition is the label's longer description
	// (classificationDefinition).
	Definition string `json:"classificationDefinition,omitzero"`
	// ColorID picks the label's colour: 0 yellow, 1 orange, 2 watermelon
	// red, 3 purple rain, 4 light blue, 5 dark blue, 6 light green, 7 gray
	// (the service may change the mapping). nil leaves it out.
	ColorID *int `json:"colorID,omitzero"`
}

// ClassificationStaticConfig is the static configuration of a label
// (staticConfig).
type ClassificationStaticConfig struct {
	Classification *ClassificationDetails `json:"classification,omitzero"`
}

// ClassificationOption is one label of the classification template (an
// option of its enum field).
type ClassificationOption struct {
	ID string `json:"id,omitzero"`
	// Key is the label, as shown to users.
	Key          string                      `json:"key"`
	StaticConfig *ClassificationStaticConfig `json:"staticConfig,omitzero"`
}

// ClassificationField is the classification template's one field, the enum
// of labels.
type ClassificationField struct {
	ID          string                  `json:"id,omitzero"`
	Type        string                  `json:"type,omitzero"`
	Key         string                  `json:"key,omitzero"`
	DisplayName string                  `json:"displayName,omitzero"`
	Hidden      bool                    `json:"hidden,omitzero"`
	Options     []*ClassificationOption `json:"options"`
}

// ClassificationTemplate is the enterprise's classification template
// (ClassificationTemplate).
type ClassificationTemplate struct {
	ID                     string                 `json:"id"`
	Type                   string                 `json:"type,omitzero"`
	Scope                  string                 `json:"scope,omitzero"`
	TemplateKey            string                 `json:"templateKey,omitzero"`
	DisplayName            string                 `json:"displayName,omitzero"`
	Hidden                 bool                   `json:"hidden,omitzero"`
	CopyInstanceOnItemCopy bool                   `json:"copyInstanceOnItemCopy,omitzero"`
	Fields                 []*ClassificationField `json:"fields"`
}

// Labels returns the labels of the template: the options of its
// classification field.
func (t *ClassificationTemplate) Labels() []*ClassificationOption {
	for _, f := range t.Fields {
		if f != nil && f.Key == ClassificationFieldKey {
			return f.Options
		}
	}
	return nil
}

// Label returns the label with key, or nil.
func (t *ClassificationTemplate) Label(key string) *ClassificationOption {
	for _, o := range t.Labels() {
		if o != nil && o.Key == key {
			return o
		}
	}
	return nil
}

// ClassificationLabel is a label to create or the new form of one: its key
// and, optionally, its description and colour.
type ClassificationLabel struct {
	// Key is the label as shown to users (required).
	Key string
	// Definition is its longer description; empty leaves it out.
	Definition string
	// ColorID is its colour (see ClassificationDetails.ColorID); nil
	// leaves it out.
	ColorID *int
}

// option is the label as the wire writes it (data, or an option of a new
// template).
func (l ClassificationLabel) option() *ClassificationOption {
	o := &ClassificationOption{Key: l.Key}
	if l.Definition != "" || l.ColorID != nil {
		o.StaticConfig = &ClassificationStaticConfig{Classification: &ClassificationDetails{Definition: l.Definition, ColorID: l.ColorID}}
	}
	return o
}

func (l ClassificationLabel) check(arg string) error {
	if strings.TrimSpace(l.Key) == "" {
		return invalidArg(arg+" key", "empty")
	}
	if l.ColorID != nil && (*l.ColorID < 0 || *l.ColorID > 7) {
		return invalidArg(arg+" color id", fmt.Sprintf("%d is not 0 to 7", *l.ColorID))
	}
	return nil
}

// classificationSchemaPath is the path of the template's schema.
var classificationSchemaPath = []string{"metadata_templates", "enterprise", ClassificationTemplateKey, "schema"}

// GetTemplate fetches the enterprise's classification template with its
// labels (GET /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema).
// An enterprise that has never had classifications gets an *APIError
// matching ErrNotFound: create the template with CreateTemplate.
func (s *ClassificationsService) GetTemplate(ctx context.Context) (*ClassificationTemplate, *Response, error) {
	return getAPI[ClassificationTemplate](ctx, s.client, nil, classificationSchemaPath...)
}

// CreateClassificationTemplateRequest is the body of
// ClassificationsService.CreateTemplate.
type CreateClassificationTemplateRequest struct {
	// Labels are the first labels; none makes a template without labels
	// yet (add them with AddLabels).
	Labels []ClassificationLabel
	// Hidden hides the template in the web and mobile apps.
	Hidden bool
	// CopyInstanceOnItemCopy copies an item's classification to its
	// copies.
	CopyInstanceOnItemCopy bool
}

// createClassificationTemplateBody is the wire form of POST
// /metadata_templates/schema#classifications.
type createClassificationTemplateBody struct {
	Scope                  string                 `json:"scope"`
	TemplateKey            string                 `json:"templateKey"`
	DisplayName            string                 `json:"displayName"`
	Hidden                 bool                   `json:"hidden"`
	CopyInstanceOnItemCopy bool                   `json:"copyInstanceOnItemCopy"`
	Fields                 []*ClassificationField `json:"fields"`
}

// CreateTemplate creates the enterprise's classification template with its
// first labels (POST /metadata_templates/schema, the classification
// form), when the enterprise has none yet; once it exists, add labels with
// AddLabels. A POST is not retried blindly.
func (s *ClassificationsService) CreateTemplate(ctx context.Context, body *CreateClassificationTemplateRequest) (*ClassificationTemplate, *Response, error) {
	if body == nil {
		return nil, nil, invalidArg("request", "nil")
	}
	field := &ClassificationField{Type: "enum", Key: ClassificationFieldKey, DisplayName: "Classification", Options: make([]*ClassificationOption, 0, len(body.Labels))}
	for i, l := range body.Labels {
		if err := l.check(fmt.Sprintf("labels[%d]", i)); err != nil {
			return nil, nil, err
		}
		field.Options = append(field.Options, l.option())
	}
	wire := &createClassificationTemplateBody{Scope: string(MetadataScopeEnterprise), TemplateKey: ClassificationTemplateKey, DisplayName: "Classification",
		Hidden: body.Hidden, CopyInstanceOnItemCopy: body.CopyInstanceOnItemCopy, Fields: []*ClassificationField{field}}
	return callAPI[ClassificationTemplate](ctx, s.client, http.MethodPost, wire, nil, "metadata_templates", "schema")
}

// classificationOp is one operation on the template's labels.
type classificationOp struct {
	Op            string                `json:"op"`
	FieldKey      string                `json:"fieldKey"`
	EnumOptionKey string                `json:"enumOptionKey,omitzero"`
	Data          *ClassificationOption `json:"data,omitzero"`
}

// AddLabels adds labels to the enterprise's classifications
// (PUT /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema
// with addEnumOption operations, all or none).
func (s *ClassificationsService) AddLabels(ctx context.Context, labels ...ClassificationLabel) (*ClassificationTemplate, *Response, error) {
	if len(labels) == 0 {
		return nil, nil, invalidArg("labels", "empty")
	}
	ops := make([]classificationOp, 0, len(labels))
	for i, l := range labels {
		if err := l.check(fmt.Sprintf("labels[%d]", i)); err != nil {
			return nil, nil, err
		}
		ops = append(ops, classificationOp{Op: "addEnumOption", FieldKey: ClassificationFieldKey, Data: l.option()})
	}
	return callAPI[ClassificationTemplate](ctx, s.client, http.MethodPut, ops, nil, classificationSchemaPath...)
}

// ClassificationLabelChange renames or redescribes one label.
type ClassificationLabelChange struct {
	// Key is the label's current key (enumOptionKey).
	Key string
	// Label is the label's new form; its Key is required (the same key to
	// keep the name).
	Label ClassificationLabel
}

// UpdateLabels changes labels: their names, descriptions or colours
// (PUT /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema
// with editEnumOption operations, sent as application/json-patch+json, all
// or none). Items classified with a renamed label carry the new name.
func (s *ClassificationsService) UpdateLabels(ctx context.Context, changes ...ClassificationLabelChange) (*ClassificationTemplate, *Response, error) {
	if len(changes) == 0 {
		return nil, nil, invalidArg("changes", "empty")
	}
	ops := make([]classificationOp, 0, len(changes))
	for i, c := range changes {
		arg := fmt.Sprintf("changes[%d]", i)
		if strings.TrimSpace(c.Key) == "" {
			return nil, nil, invalidArg(arg+" key", "empty")
		}
		if err := c.Label.check(arg + " label"); err != nil {
			return nil, nil, err
		}
		ops = append(ops, classificationOp{Op: "editEnumOption", FieldKey: ClassificationFieldKey, EnumOptionKey: c.Key, Data: c.Label.option()})
	}
	return callAPI[ClassificationTemplate](ctx, s.client, http.MethodPut, jsonPatch{ops}, nil, classificationSchemaPath...)
}

// DeleteLabels deletes labels, key and then more
// (PUT /metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema
// with removeEnumOption operations, sent as application/json-patch+json,
// all or none). Items classified with a deleted label lose their
// classification.
func (s *ClassificationsService) DeleteLabels(ctx context.Context, key string, more ...string) (*ClassificationTemplate, *Response, error) {
	keys := append([]string{key}, more...)
	ops := make([]classificationOp, 0, len(keys))
	for i, k := range keys {
		if strings.TrimSpace(k) == "" {
			return nil, nil, invalidArg(fmt.Sprintf("keys[%d]", i), "empty")
		}
		ops = append(ops, classificationOp{Op: "removeEnumOption", FieldKey: ClassificationFieldKey, EnumOptionKey: k})
	}
	return callAPI[ClassificationTemplate](ctx, s.client, http.MethodPut, jsonPatch{ops}, nil, classificationSchemaPath...)
}

// Classification is the classification of a file or folder: the metadata
// instance of the classification template on it (Classification).
type Classification struct {
	// Key is the label the item is classified with.
	Key         string  `json:"Box__Security__Classification__Key,omitzero"`
	ID          string  `json:"$id,omitzero"`
	Parent      string  `json:"$parent,omitzero"`
	Template    string  `json:"$template,omitzero"`
	Scope       string  `json:"$scope,omitzero"`
	Version     int     `json:"$version,omitzero"`
	Type        string  `json:"$type,omitzero"`
	TypeVersion float64 `json:"$typeVersion,omitzero"`
	CanEdit     bool    `json:"$canEdit,omitzero"`
}

// classificationPath is the path of an item's classification instance.
func classificationPath(item MetadataItem) ([]string, error) {
	return item.path(string(MetadataScopeEnterprise), ClassificationTemplateKey)
}

// Get returns the classification of a file or folder
// (GET /files/{file_id}/metadata/enterprise/securityClassification-6VMVochwUWo,
// or the folder twin). An unclassified item gets an *APIError matching
// ErrInstanceNotFound.
func (s *ClassificationsService) Get(ctx context.Context, item MetadataItem) (*Classification, *Response, error) {
	path, err := classificationPath(item)
	if err != nil {
		return nil, nil, err
	}
	return getAPI[Classification](ctx, s.client, nil, path...)
}

// Add classifies an unclassified file or folder with a label
// (POST /files/{file_id}/metadata/enterprise/securityClassification-6VMVochwUWo,
// or the folder twin). An item already classified fails with an *APIError
// matching ErrTupleAlreadyExists: use Update.
func (s *ClassificationsService) Add(ctx context.Context, item MetadataItem, label string) (*Classification, *Response, error) {
	path, err := classificationPath(item)
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(label) == "" {
		return nil, nil, invalidArg("label", "empty")
	}
	body := map[string]string{ClassificationFieldKey: label}
	return callAPI[Classification](ctx, s.client, http.MethodPost, body, nil, path...)
}

// Update changes the label of a classified file or folder
// (PUT /files/{file_id}/metadata/enterprise/securityClassification-6VMVochwUWo,
// or the folder twin, with a replace operation sent as
// application/json-patch+json).
func (s *ClassificationsService) Update(ctx context.Context, item MetadataItem, label string) (*Classification, *Response, error) {
	path, err := classificationPath(item)
	if err != nil {
		return nil, nil, err
	}
	if strings.TrimSpace(label) == "" {
		return nil, nil, invalidArg("label", "empty")
	}
	value, err := json.Marshal(label)
	if err != nil {
		return nil, nil, err
	}
	ops := []PatchOperation{{Op: PatchOpKindReplace, Path: "/" + ClassificationFieldKey, Value: value}}
	return callAPI[Classification](ctx, s.client, http.MethodPut, jsonPatch{ops}, nil, path...)
}

// Remove declassifies a file or folder
// (DELETE /files/{file_id}/metadata/enterprise/securityClassification-6VMVochwUWo,
// or the folder twin).
func (s *ClassificationsService) Remove(ctx context.Context, item MetadataItem) (*Response, error) {
	path, err := classificationPath(item)
	if err != nil {
		return nil, err
	}
	return deleteAPI(ctx, s.client, nil, path...)
}
