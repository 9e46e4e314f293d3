package cms

import (
	"context"
	"net/http"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func init() {
	for _, b := range []any{
		&CreateClassificationTemplateRequest{Labels: []ClassificationLabel{{Key: "Public"}}},
		ClassificationLabel{Key: "Public"},
		ClassificationLabelChange{Key: "Public", Label: ClassificationLabel{Key: "Open"}},
	} {
		sweepBodies[reflect.TypeOf(b)] = b
	}
}

const cannedClassificationTemplate = `{"id":"t1","type":"metadata_template","scope":"enterprise_42","templateKey":"securityClassification-6VMVochwUWo",
"displayName":"Classification","hidden":false,"copyInstanceOnItemCopy":true,"fields":[{"id":"f1","type":"enum","key":"Box__Security__Classification__Key",
"displayName":"Classification","hidden":false,"options":[{"id":"o1","key":"Sensitive","staticConfig":{"classification":{"classificationDefinition":"Keep inside","colorID":0}}},
{"id":"o2","key":"Public"}]}]}`

const cannedClassification = `{"Box__Security__Classification__Key":"Sensitive","$id":"i1","$parent":"file_5","$template":"securityClassification-6VMVochwUWo",
"$scope":"enterprise_42","$version":1,"$type":"securityClassification-6VMVochwUWo-1b2c","$typeVersion":3,"$canEdit":true}`

func TestClassificationTemplateWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	const schema = "/metadata_templates/enterprise/securityClassification-6VMVochwUWo/schema"
	w.answer("GET "+schema, http.StatusOK, cannedClassificationTemplate)
	w.answer("PUT "+schema, http.StatusOK, cannedClassificationTemplate)
	w.answer("POST /metadata_templates/schema", http.StatusOK, cannedClassificationTemplate)
	ctx := context.Background()
	cs := w.e.client.Classifications

	tpl, _, err := cs.GetTemplate(ctx)
	require.NoError(t, err)
	assert.Equal(t, schema, w.last(t).Path)
	sensitive := &ClassificationOption{ID: "o1", Key: "Sensitive", StaticConfig: &ClassificationStaticConfig{Classification: &ClassificationDetails{Definition: "Keep inside", ColorID: Ptr(0)}}}
	assert.Equal(t, &ClassificationTemplate{ID: "t1", Type: "metadata_template", Scope: "enterprise_42", TemplateKey: ClassificationTemplateKey,
		DisplayName: "Classification", CopyInstanceOnItemCopy: true, Fields: []*ClassificationField{{ID: "f1", Type: "enum", Key: ClassificationFieldKey,
			DisplayName: "Classification", Options: []*ClassificationOption{sensitive, {ID: "o2", Key: "Public"}}}}}, tpl)
	assert.Equal(t, sensitive, tpl.Label("Sensitive"))
	assert.Nil(t, tpl.Label("Secret"))
	assert.Len(t, tpl.Labels(), 2)

	_, _, err = cs.CreateTemplate(ctx, &CreateClassificationTemplateRequest{CopyInstanceOnItemCopy: true,
		Labels: []ClassificationLabel{{Key: "Sensitive", Definition: "Keep inside", ColorID: Ptr(0)}, {Key: "Public"}}})
	require.NoError(t, err)
	c := w.last(t)
	assert.Equal(t, "POST /metadata_templates/schema", c.Method+" "+c.Path)
	assert.JSONEq(t, `{"scope":"enterprise","templateKey":"securityClassification-6VMVochwUWo","displayName":"Classification","hidden":false,
"copyInstanceOnItemCopy":true,"fields":[{"type":"enum","key":"Box__Security__Classification__Key","displayName":"Classification",
"options":[{"key":"Sensitive","staticConfig":{"classification":{"classificationDefinition":"Keep inside","colorID":0}}},{"key":"Public"}]}]}`, c.Body)

	_, _, err = cs.CreateTemplate(ctx, &CreateClassificationTemplateRequest{})
	require.NoError(t, err)
	assert.JSONEq(t, `{"scope":"enterprise","templateKey":"securityClassification-6VMVochwUWo","displayName":"Classification","hidden":false,
"copyInstanceOnItemCopy":false,"fields":[{"type":"enum","key":"Box__Security__Classification__Key","displayName":"Classification","options":[]}]}`, w.last(t).Body,
		"a template without labels yet, as the official SDKs create it")

	_, _, err = cs.AddLabels(ctx, ClassificationLabel{Key: "Secret", ColorID: Ptr(2)}, ClassificationLabel{Key: "Internal", Definition: "Staff only"})
	require.NoError(t, err)
	c = w.last(t)
	assert.Equal(t, "PUT "+schema, c.Method+" "+c.Path)
	assert.Equal(t, "application/json", c.Header.Get("Content-Type"))
	assert.JSONEq(t, `[{"op":"addEnumOption","fieldKey":"Box__Security__Classification__Key","data":{"key":"Secret","staticConfig":{"classification":{"colorID":2}}}},
{"op":"addEnumOption","fieldKey":"Box__Security__Classification__Key","data":{"key":"Internal","staticConfig":{"classification":{"classificationDefinition":"Staff only"}}}}]`, c.Body)

	_, _, err = cs.UpdateLabels(ctx, ClassificationLabelChange{Key: "Secret", Label: ClassificationLabel{Key: "Top Secret", Definition: "Board only", ColorID: Ptr(3)}})
	require.NoError(t, err)
	c = w.last(t)
	assert.Equal(t, "application/json-patch+json", c.Header.Get("Content-Type"))
	assert.JSONEq(t, `[{"op":"editEnumOption","fieldKey":"Box__Security__Classification__Key","enumOptionKey":"Secret",
"data":{"key":"Top Secret","staticConfig":{"classification":{"classificationDefinition":"Board only","colorID":3}}}}]`, c.Body)

	_, _, err = cs.DeleteLabels(ctx, "Top Secret", "Internal")
	require.NoError(t, err)
	c = w.last(t)
	assert.Equal(t, "application/json-patch+json", c.Header.Get("Content-Type"))
	assert.JSONEq(t, `[{"op":"removeEnumOption","fieldKey":"Box__Security__Classification__Key","enumOptionKey":"Top Secret"},
{"op":"removeEnumOption","fieldKey":"Box__Security__Classification__Key","enumOptionKey":"Internal"}]`, c.Body)

	n := w.count()
	_, _, err = cs.CreateTemplate(ctx, nil)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.CreateTemplate(ctx, &CreateClassificationTemplateRequest{Labels: []ClassificationLabel{{Key: ""}}})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.AddLabels(ctx)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.AddLabels(ctx, ClassificationLabel{Key: "ok"}, ClassificationLabel{Key: " "})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.AddLabels(ctx, ClassificationLabel{Key: "ok", ColorID: Ptr(8)})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.UpdateLabels(ctx)
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.UpdateLabels(ctx, ClassificationLabelChange{Label: ClassificationLabel{Key: "x"}})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.UpdateLabels(ctx, ClassificationLabelChange{Key: "x"})
	assert.ErrorIs(t, err, ErrInvalidArgument, "the new key is required")
	_, _, err = cs.DeleteLabels(ctx, "x", "")
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("GET "+schema, http.StatusNotFound, `{"type":"error","status":404,"code":"instance_not_found","message":"Template not found"}`)
	_, resp, err := w2.e.client.Classifications.GetTemplate(ctx)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestItemClassificationWire(t *testing.T) {
	t.Parallel()
	w := newWireLog(t)
	const inst = "/metadata/enterprise/securityClassification-6VMVochwUWo"
	w.answer("GET /files/{id}"+inst, http.StatusOK, cannedClassification)
	w.answer("POST /folders/{id}"+inst, http.StatusCreated, cannedClassification)
	w.answer("PUT /files/{id}"+inst, http.StatusOK, cannedClassification)
	w.answer("DELETE /folders/{id}"+inst, http.StatusNoContent, "")
	ctx := context.Background()
	cs := w.e.client.Classifications

	cl, _, err := cs.Get(ctx, OnFile("5"))
	require.NoError(t, err)
	assert.Equal(t, "/files/5"+inst, w.last(t).Path)
	assert.Equal(t, &Classification{Key: "Sensitive", ID: "i1", Parent: "file_5", Template: ClassificationTemplateKey, Scope: "enterprise_42",
		Version: 1, Type: "securityClassification-6VMVochwUWo-1b2c", TypeVersion: 3, CanEdit: true}, cl)

	_, resp, err := cs.Add(ctx, OnFolder("7"), "Sensitive")
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	c := w.last(t)
	assert.Equal(t, "POST /folders/7"+inst, c.Method+" "+c.Path)
	assert.JSONEq(t, `{"Box__Security__Classification__Key":"Sensitive"}`, c.Body)

	_, _, err = cs.Update(ctx, OnFile("5"), "Public")
	require.NoError(t, err)
	c = w.last(t)
	assert.Equal(t, "application/json-patch+json", c.Header.Get("Content-Type"))
	assert.JSONEq(t, `[{"op":"replace","path":"/Box__Security__Classification__Key","value":"Public"}]`, c.Body)

	_, err = cs.Remove(ctx, OnFolder("7"))
	require.NoError(t, err)
	assert.Equal(t, "DELETE /folders/7"+inst, w.last(t).Method+" "+w.last(t).Path)

	n := w.count()
	_, _, err = cs.Get(ctx, OnFile(""))
	assert.ErrorIs(t, err, ErrMissingID)
	_, _, err = cs.Add(ctx, OnFolder("0"), "Sensitive")
	assert.ErrorIs(t, err, ErrInvalidID, "the root folder holds no metadata")
	_, _, err = cs.Add(ctx, OnFile("5"), "")
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, _, err = cs.Update(ctx, OnFile("5"), " ")
	assert.ErrorIs(t, err, ErrInvalidArgument)
	_, err = cs.Remove(ctx, MetadataItem{})
	assert.ErrorIs(t, err, ErrInvalidArgument)
	assert.Equal(t, n, w.count(), "nothing was sent")

	w2 := newWireLog(t)
	w2.answer("POST /files/{id}"+inst, http.StatusConflict, `{"type":"error","status":409,"code":"tuple_already_exists","message":"Already classified"}`)
	w2.answer("GET /files/{id}"+inst, http.StatusNotFound, `{"type":"error","status":404,"code":"instance_not_found","message":"Not classified"}`)
	_, _, err = w2.e.client.Classifications.Add(ctx, OnFile("5"), "Sensitive")
	assert.ErrorIs(t, err, ErrTupleAlreadyExists)
	_, _, err = w2.e.client.Classifications.Get(ctx, OnFile("5"))
	assert.ErrorIs(t, err, ErrInstanceNotFound)
}
