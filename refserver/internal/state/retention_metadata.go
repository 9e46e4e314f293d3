package state

import (
	"slices"
	"time"
)

// FieldByID finds a field of t by its id, or nil.
func FieldByID(t *MDTemplate, id string) *MDField {
	for _, f := range t.Fields {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// OptionByID finds an option of f by its id, or nil.
func OptionByID(f *MDField, id string) *MDOption {
	for _, o := range f.Options {
		if o.ID == id {
			return o
		}
	}
	return nil
}

// metadataCovers reports whether the metadata_template assignment a covers
// file f: f carries an instance of the template that matches the filter.
// A template, field or option that is gone matches nothing.
func (s *Tx) metadataCovers(a *RetentionAssignment, f *Item) bool {
	t := s.Metadata.ByID.At(a.ToID)
	if t == nil || f.Typ != "file" {
		return false
	}
	in := t.Instances[s.Items.Ref(f)]
	if in == nil {
		return false
	}
	for _, ff := range a.FilterFields {
		field := FieldByID(t, ff.Field)
		if field == nil {
			return false
		}
		o := OptionByID(field, ff.Value)
		if o == nil {
			return false
		}
		v, ok := in.Values.Get(field.Key)
		switch {
		case !ok:
			return false
		case v.Kind == ValList:
			if !slices.Contains(v.List, o.Key) {
				return false
			}
		case v.S != o.Key:
			return false
		}
	}
	return true
}

// RetentionStart is when assignment a starts retaining version v of file f:
// for the enterprise or a folder, now (when the version comes under it);
// for a metadata template, the date in the start date field of f's
// instance, else the version's upload.
func (s *Tx) RetentionStart(a *RetentionAssignment, f *Item, v *Version) time.Time {
	if a.ToType != AssignMetadataTemplate {
		return s.NowSec()
	}
	if t := s.Metadata.ByID.At(a.ToID); t != nil && a.StartDateField != "" && a.StartDateField != StartDateUploadDate {
		if field, in := FieldByID(t, a.StartDateField), t.Instances[s.Items.Ref(f)]; field != nil && in != nil {
			if d, ok := in.Values.Get(field.Key); ok && d.Kind == ValDate {
				return time.UnixMilli(int64(d.F)).UTC()
			}
		}
	}
	return v.CreatedAt()
}

// retentionMetadataChanged re-evaluates the metadata template assignments
// of active policies for the item of an instance that was created or whose
// values changed: a file that now matches has every version retained, and
// a later start date extends the retention of the versions already
// retained (an earlier one does not shorten it).
func (s *Tx) retentionMetadataChanged(in *MDInstance) {
	f := in.Item
	if f.Typ != "file" {
		return
	}
	for _, a := range s.Retention.AssignOrder {
		if a.ToType != AssignMetadataTemplate || a.ToID != in.Tmpl.ID || a.Policy.Status != RetentionStatusActive || !s.metadataCovers(a, f) {
			continue
		}
		for _, v := range f.Versions {
			s.RetainVersionFrom(f, v, a, s.RetentionStart(a, f, v))
		}
	}
}
