package cms

import "errors"

// The typed views of Event.Source (spec EventSourceResource: a user, an
// item, the enterprise stream's item summary, an app item or a generic
// record; the user streams also send comments, collaborations and task
// assignments). Source stays the raw record: these decode it on demand.

// SourceType is the "type" member of Source: "file", "folder", "web_link",
// "comment", "collaboration", "task_assignment", "user", "app_item", …; ""
// for the enterprise stream's item summary (EnterpriseSource), a generic
// source, or none.
func (e *Event) SourceType() string {
	t, _ := topLevelString(e.Source, "type")
	return t
}

// EnterpriseEventSource is the source of an enterprise stream event on a
// file or folder (spec EventSource).
type EnterpriseEventSource struct {
	ItemType ItemType `json:"item_type"`
	ItemID   string   `json:"item_id"`
	ItemName string   `json:"item_name"`
	// Classification is the item's classification, when it has one.
	Classification *EventClassification `json:"classification,omitzero"`
	Parent         *FolderMini          `json:"parent,omitzero"`
	OwnedBy        *UserMini            `json:"owned_by,omitzero"`
}

// EventClassification is the classification of an enterprise event's
// item (EventSource.classification).
type EventClassification struct {
	Name string `json:"name"`
}

// EnterpriseSource decodes Source when it is the enterprise stream's item
// summary (item_type, item_id, item_name); ok is false otherwise.
func (e *Event) EnterpriseSource() (src *EnterpriseEventSource, ok bool) {
	if _, has := topLevelString(e.Source, "item_id"); !has {
		return nil, false
	}
	src = new(EnterpriseEventSource)
	if decodeJSON(e.Source, src) != nil || src.ItemID == "" {
		return nil, false
	}
	return src, true
}

// Comment decodes Source when it is a comment (COMMENT_CREATE, …).
func (e *Event) Comment() (*Comment, bool) { return sourceAs[Comment](e, "comment") }

// Collaboration decodes Source when it is a collaboration
// (COLLAB_ADD_COLLABORATOR, …).
func (e *Event) Collaboration() (*Collaboration, bool) {
	return sourceAs[Collaboration](e, "collaboration")
}

// TaskAssignment decodes Source when it is a task assignment
// (TASK_ASSIGNMENT_CREATE, …).
func (e *Event) TaskAssignment() (*TaskAssignment, bool) {
	return sourceAs[TaskAssignment](e, "task_assignment")
}

// User decodes Source when it is a user (enterprise events on users).
func (e *Event) User() (*User, bool) { return sourceAs[User](e, "user") }

// DecodeSource decodes Source into v, for the sources without a typed view
// (app items, generic sources such as Box Shield's); an event without a
// source is an error.
func (e *Event) DecodeSource(v any) error {
	if len(e.Source) == 0 || string(e.Source) == "null" {
		return errors.New("cms: the event has no source")
	}
	return decodeJSON(e.Source, v)
}

// sourceAs decodes Source as a T when its type is typ.
func sourceAs[T any](e *Event, typ string) (*T, bool) {
	if e.SourceType() != typ {
		return nil, false
	}
	v := new(T)
	if decodeJSON(e.Source, v) != nil {
		return nil, false
	}
	return v, true
}
