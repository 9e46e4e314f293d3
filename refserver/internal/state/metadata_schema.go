package state

// SchemaEffect is what a schema operation does to the values of the
// template's instances, applied only once every operation succeeded.
type SchemaEffect struct {
	Kind     string // renameField, removeField, renameOption, removeOption
	Field    string // field key (after any rename earlier in the patch)
	From, To string
	Multi    bool // the field is a multiSelect
}
