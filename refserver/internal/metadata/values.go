package metadata

import "github.com/contentapi/cms/refserver/internal/state"

// TemplateValues checks a whole set of custom values against a template:
// every key must be a field of the template (global.properties takes any
// key that does not start with "$", with string values only). A failure
// is 400 schema_validation_failed.
func TemplateValues(t *state.MDTemplate, raw map[string]any) (map[string]state.MDVal, *MDError) {
	out := make(map[string]state.MDVal, len(raw))
	for k, v := range raw {
		if v == nil {
			continue // null: no value
		}
		if t.FreeForm() {
			s, ok := v.(string)
			if k == "" || k[0] == '$' || !ok {
				return nil, MDErrf(400, CodeSchemaValidationFailed, "global.properties takes string values under keys not starting with $ (key %q)", k)
			}
			out[k] = state.MDVal{Kind: state.ValString, S: s}
			continue
		}
		_, f := t.Field(k)
		if f == nil {
			return nil, MDErrf(400, CodeSchemaValidationFailed, "%q is not a field of template %s", k, t.Key)
		}
		val, err := state.FieldValue(f, v)
		if err != nil {
			return nil, MDErrf(400, CodeSchemaValidationFailed, "%s", err.Error())
		}
		out[k] = val
	}
	return out, nil
}
