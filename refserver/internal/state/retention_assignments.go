package state

import (
	"time"
)

// RetentionAssignment puts a retention policy on the enterprise, a folder
// (and everything below it) or a metadata template (retention_metadata.go).
type RetentionAssignment struct {
	ID             string
	Policy         *RetentionPolicy
	ToType, ToID   string // ToID "" for the enterprise; a template's id
	FilterFields   []FilterField
	StartDateField string
	By             *User
	At             time.Time
}

// FilterField is one entry of filter_fields.
type FilterField struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// The assign_to types of a retention assignment, and the start date field
// that means the file's upload date.
const (
	AssignEnterprise       = "enterprise"
	AssignFolder           = "folder"
	AssignMetadataTemplate = "metadata_template"
	StartDateUploadDate    = "upload_date"
)

// RetentionCovers reports whether assignment a applies to file f: every
// file for the enterprise, the files below a folder, the files carrying a
// matching instance of a template (metadataCovers).
func (s *Tx) RetentionCovers(a *RetentionAssignment, f *Item) bool {
	switch a.ToType {
	case AssignEnterprise:
		return true
	case AssignFolder:
		return s.IsUnder(f, a.ToID)
	case AssignMetadataTemplate:
		return s.metadataCovers(a, f)
	}
	return false
}
