package governance

import (
	"slices"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// Retention assigned to a metadata template (assign_to.type
// metadata_template; OAS post_retention_policy_assignments, BREADTH §6.1):
//
//   - assign_to.id is the template's id (the UUID of its record). An
//     unknown id is 404 not_found (the spec documents 404 only for the
//     policy; a missing template is a missing target, like a folder). A
//     global template is 400 bad_request: retention is an enterprise's
//     governance and the global properties template holds free-form values.
//   - filter_fields holds at most one {field, value}: field is the id of
//     an enum or multiSelect field of the template (the spec: "the metadata
//     attribute key id"), value the id of one of its options ("for value,
//     only enum and multiselect types are supported"). Anything else is 400
//     bad_request.
//   - start_date_field is "upload_date" (the default) or the id of a date
//     field of the template; another template's field, a field of another
//     type or an unknown id is 400 bad_request (the spec's 400 list).
//
// The assignment covers the files carrying an instance of the template
// whose value matches the filter (an enum value equal to the option, a
// multiSelect holding it). Folders carrying an instance are not covered:
// retention applies to file versions. Every version of a covered file is
// retained when the assignment is made, when a matching instance is created
// or a value changes to match (metadataChanged), and when a covered file
// gets a new version.
//
// A version's retention starts at the date in the start date field of the
// file's instance, or at the version's upload when the field is
// upload_date or holds no date; disposition_at is that start plus the
// policy's length. A later date in the field extends the retention; an
// earlier one does not shorten it.
//
// The guides say nothing of an instance that stops matching (a value
// changed, the instance or the template deleted): the versions stay
// retained (retention never shortens, as the guides say of disposition
// dates, and deleting an instance must not be a way around a policy);
// only the versions that come later are not covered any more.

// MetadataTargetOf resolves the template of a metadata_template assignment
// and checks its filter_fields and start_date_field.
func MetadataTargetOf(s *state.Tx, a *state.RetentionAssignment) *wire.Error {
	t := s.Metadata.ByID.At(a.ToID)
	if t == nil {
		return wire.NotFound("metadata_template")
	}
	if t.Scope == state.ScopeGlobal {
		return wire.BadRequest("Retention can be assigned to enterprise metadata templates only")
	}
	for _, ff := range a.FilterFields {
		f := state.FieldByID(t, ff.Field)
		if f == nil || !f.HasOptions() {
			return wire.BadRequest("filter_fields.field must be the id of an enum or multiSelect field of the template")
		}
		if state.OptionByID(f, ff.Value) == nil {
			return wire.BadRequest("filter_fields.value must be the id of an option of field %q", f.Key)
		}
	}
	if a.StartDateField != "" && a.StartDateField != state.StartDateUploadDate {
		f := state.FieldByID(t, a.StartDateField)
		if f == nil || f.Typ != state.FieldDate {
			return wire.BadRequest("start_date_field must be upload_date or the id of a date field of the template")
		}
	}
	return nil
}

// sameRetentionTarget reports whether two assignments name the same
// target: type, id and, for a template, the same filter.
func sameRetentionTarget(a, b *state.RetentionAssignment) bool {
	return a.ToType == b.ToType && a.ToID == b.ToID && slices.Equal(a.FilterFields, b.FilterFields)
}

// errRetentionConflict is the spec's 409 for a target that already has a
// policy of equal or greater length.
func errRetentionConflict() *wire.Error {
	return wire.Errorf(wire.StatusConflict, wire.CodeConflict, "A retention policy of equal or greater length has already been assigned to this item")
}
