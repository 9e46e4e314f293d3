package cms

// TemplateOpKind names a schema operation of MetadataTemplatesService.UpdateSchema.
type TemplateOpKind string

// The 13 schema operations.
const (
	TemplateOpKindEditTemplate              TemplateOpKind = "editTemplate"
	TemplateOpKindAddField                  TemplateOpKind = "addField"
	TemplateOpKindReorderFields             TemplateOpKind = "reorderFields"
	TemplateOpKindAddEnumOption             TemplateOpKind = "addEnumOption"
	TemplateOpKindReorderEnumOptions        TemplateOpKind = "reorderEnumOptions"
	TemplateOpKindReorderMultiSelectOptions TemplateOpKind = "reorderMultiSelectOptions"
	TemplateOpKindAddMultiSelectOption      TemplateOpKind = "addMultiSelectOption"
	TemplateOpKindEditField                 TemplateOpKind = "editField"
	TemplateOpKindRemoveField               TemplateOpKind = "removeField"
	TemplateOpKindEditEnumOption            TemplateOpKind = "editEnumOption"
	TemplateOpKindRemoveEnumOption          TemplateOpKind = "removeEnumOption"
	TemplateOpKindEditMultiSelectOption     TemplateOpKind = "editMultiSelectOption"
	TemplateOpKindRemoveMultiSelectOption   TemplateOpKind = "removeMultiSelectOption"
)

// TemplateOp is one schema operation. Build it with the constructor of its
// kind (EditTemplateOp, AddFieldOp, ...), which fills exactly the keys the
// operation needs; UpdateSchema checks them again before sending.
type TemplateOp struct {
	Op                    TemplateOpKind `json:"op"`
	Data                  any            `json:"data,omitzero"`
	FieldKey              string         `json:"fieldKey,omitzero"`
	FieldKeys             []string       `json:"fieldKeys,omitzero"`
	EnumOptionKey         string         `json:"enumOptionKey,omitzero"`
	EnumOptionKeys        []string       `json:"enumOptionKeys,omitzero"`
	MultiSelectOptionKey  string         `json:"multiSelectOptionKey,omitzero"`
	MultiSelectOptionKeys []string       `json:"multiSelectOptionKeys,omitzero"`
}

// TemplateChanges are the template properties an editTemplate operation
// changes; fields left zero (nil) are kept. Hidden and
// CopyInstanceOnItemCopy are pointers so that false can be sent (cms.Ptr).
// The service documents no way to change a template's key.
type TemplateChanges struct {
	DisplayName            string `json:"displayName,omitzero"`
	Hidden                 *bool  `json:"hidden,omitempty"`
	CopyInstanceOnItemCopy *bool  `json:"copyInstanceOnItemCopy,omitempty"`
}

// FieldChanges are the field properties an editField operation changes;
// fields left zero (nil) are kept. A new Key moves the existing values to
// it. Description set to a pointer to "" clears the description.
type FieldChanges struct {
	Key         string  `json:"key,omitzero"`
	DisplayName string  `json:"displayName,omitzero"`
	Description *string `json:"description,omitempty"`
	Hidden      *bool   `json:"hidden,omitempty"`
}

// optionData is the data of the option operations: the option key.
type optionData struct {
	Key string `json:"key"`
}

// EditTemplateOp changes the template's own properties (editTemplate).
func EditTemplateOp(c TemplateChanges) TemplateOp {
	return TemplateOp{Op: TemplateOpKindEditTemplate, Data: &c}
}

// AddFieldOp appends a field (addField).
func AddFieldOp(f MetadataField) TemplateOp {
	return TemplateOp{Op: TemplateOpKindAddField, Data: &f}
}

// ReorderFieldsOp puts the fields in this order; it must name every field
// once (reorderFields).
func ReorderFieldsOp(fieldKeys ...string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindReorderFields, FieldKeys: fieldKeys}
}

// EditFieldOp changes a field; a new key moves its values (editField).
func EditFieldOp(fieldKey string, c FieldChanges) TemplateOp {
	return TemplateOp{Op: TemplateOpKindEditField, FieldKey: fieldKey, Data: &c}
}

// RemoveFieldOp removes a field and its value from every instance (removeField).
func RemoveFieldOp(fieldKey string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindRemoveField, FieldKey: fieldKey}
}

// AddEnumOptionOp adds an option to an enum field (addEnumOption).
func AddEnumOptionOp(fieldKey, optionKey string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindAddEnumOption, FieldKey: fieldKey, Data: &optionData{optionKey}}
}

// ReorderEnumOptionsOp puts an enum field's options in this order; it
// cannot add options (reorderEnumOptions).
func ReorderEnumOptionsOp(fieldKey string, optionKeys ...string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindReorderEnumOptions, FieldKey: fieldKey, EnumOptionKeys: optionKeys}
}

// EditEnumOptionOp renames an enum option (editEnumOption).
func EditEnumOptionOp(fieldKey, optionKey, newKey string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindEditEnumOption, FieldKey: fieldKey, EnumOptionKey: optionKey, Data: &optionData{newKey}}
}

// RemoveEnumOptionOp removes an enum option; values that chose it become
// null (removeEnumOption).
func RemoveEnumOptionOp(fieldKey, optionKey string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindRemoveEnumOption, FieldKey: fieldKey, EnumOptionKey: optionKey}
}

// AddMultiSelectOptionOp adds an option to a multiSelect field
// (addMultiSelectOption).
func AddMultiSelectOptionOp(fieldKey, optionKey string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindAddMultiSelectOption, FieldKey: fieldKey, Data: &optionData{optionKey}}
}

// ReorderMultiSelectOptionsOp puts a multiSelect field's options in this
// order (reorderMultiSelectOptions).
func ReorderMultiSelectOptionsOp(fieldKey string, optionKeys ...string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindReorderMultiSelectOptions, FieldKey: fieldKey, MultiSelectOptionKeys: optionKeys}
}

// EditMultiSelectOptionOp renames a multiSelect option (editMultiSelectOption).
func EditMultiSelectOptionOp(fieldKey, optionKey, newKey string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindEditMultiSelectOption, FieldKey: fieldKey, MultiSelectOptionKey: optionKey, Data: &optionData{newKey}}
}

// RemoveMultiSelectOptionOp removes a multiSelect option; it is taken out
// of every value list (removeMultiSelectOption).
func RemoveMultiSelectOptionOp(fieldKey, optionKey string) TemplateOp {
	return TemplateOp{Op: TemplateOpKindRemoveMultiSelectOption, FieldKey: fieldKey, MultiSelectOptionKey: optionKey}
}

// validate checks the operation carries the keys its kind requires.
func (op *TemplateOp) validate() error {
	arg := "operation " + string(op.Op)
	need := func(name, v string) error {
		if v == "" {
			return invalidArg(arg, name+" empty")
		}
		return nil
	}
	keys := func(name string, vs []string) error {
		if len(vs) == 0 {
			return invalidArg(arg, name+" empty")
		}
		seen := make(map[string]bool, len(vs))
		for _, v := range vs {
			if v == "" || seen[v] {
				return invalidArg(arg, name+" has an empty or repeated key "+quoteArg(v))
			}
			seen[v] = true
		}
		return nil
	}
	// Data of the SDK's own types is checked; other data (a literal
	// TemplateOp) only has to be there.
	optionKey := func() error {
		if d, ok := op.Data.(*optionData); op.Data == nil || ok && (d == nil || d.Key == "") {
			return invalidArg(arg, "data.key empty")
		}
		return nil
	}
	switch op.Op {
	case TemplateOpKindEditTemplate:
		c, ok := op.Data.(*TemplateChanges)
		if op.Data == nil || ok && (c == nil || *c == (TemplateChanges{})) {
			return invalidArg(arg, "no change")
		}
		return nil
	case TemplateOpKindAddField:
		if f, ok := op.Data.(*MetadataField); ok || op.Data == nil {
			return f.validate(arg + " data")
		}
		return nil
	case TemplateOpKindReorderFields:
		return keys("fieldKeys", op.FieldKeys)
	case TemplateOpKindEditField:
		if c, ok := op.Data.(*FieldChanges); op.Data == nil || ok && (c == nil || *c == (FieldChanges{})) {
			return invalidArg(arg, "no change")
		}
		return need("fieldKey", op.FieldKey)
	case TemplateOpKindRemoveField:
		return need("fieldKey", op.FieldKey)
	case TemplateOpKindAddEnumOption, TemplateOpKindAddMultiSelectOption:
		if err := need("fieldKey", op.FieldKey); err != nil {
			return err
		}
		return optionKey()
	case TemplateOpKindReorderEnumOptions:
		if err := need("fieldKey", op.FieldKey); err != nil {
			return err
		}
		return keys("enumOptionKeys", op.EnumOptionKeys)
	case TemplateOpKindReorderMultiSelectOptions:
		if err := need("fieldKey", op.FieldKey); err != nil {
			return err
		}
		return keys("multiSelectOptionKeys", op.MultiSelectOptionKeys)
	case TemplateOpKindEditEnumOption, TemplateOpKindRemoveEnumOption:
		if err := need("fieldKey", op.FieldKey); err != nil {
			return err
		}
		if err := need("enumOptionKey", op.EnumOptionKey); err != nil {
			return err
		}
		if op.Op == TemplateOpKindEditEnumOption {
			return optionKey()
		}
		return nil
	case TemplateOpKindEditMultiSelectOption, TemplateOpKindRemoveMultiSelectOption:
		if err := need("fieldKey", op.FieldKey); err != nil {
			return err
		}
		if err := need("multiSelectOptionKey", op.MultiSelectOptionKey); err != nil {
			return err
		}
		if op.Op == TemplateOpKindEditMultiSelectOption {
			return optionKey()
		}
		return nil
	}
	return invalidArg("operation", "unknown op "+quoteArg(string(op.Op)))
}
