package cms

// ItemType is the kind of item a request body points at (item.type): a
// file or folder for POST /collaborations, a file or a comment (a reply)
// for POST /comments.
type ItemType string

// Item types of request bodies.
const (
	ItemTypeFile    ItemType = "file"
	ItemTypeFolder  ItemType = "folder"
	ItemTypeWebLink ItemType = "web_link"
	ItemTypeComment ItemType = "comment"
)

// Request bodies name the records they point at with one form: a typed
// reference — FileRef, FolderRef, TaskRef, UserRef, GroupRef — where the
// kind is fixed, ItemRef where it varies, and a Login string beside a
// *UserRef where the service takes a user by e-mail address instead.
// (Wire fields that are flat ids, such as an upload session's folder_id or
// a policy_id, stay flat strings, as the service names them.)

// FileRef names a file in a request body: the item of a task (POST /tasks).
type FileRef struct {
	ID string `json:"id"`
}

// TaskRef names a task in a request body: the task of an assignment
// (POST /task_assignments).
type TaskRef struct {
	ID string `json:"id"`
}

// ItemRef names an item by kind and id in a request body where the kind
// varies ({"type": "folder", "id": "12"}): the item of a collaboration
// (POST /collaborations), of a comment (POST /comments) or the target of a
// webhook (POST /webhooks: a file or a folder). Where the kind
// is fixed the SDK takes FileRef, FolderRef, TaskRef, UserRef or GroupRef
// instead.
type ItemRef struct {
	Type ItemType `json:"type"`
	ID   string   `json:"id"`
}

// check rejects a missing id, or a kind that is not one of allowed.
func (r ItemRef) check(arg string, allowed ...ItemType) error {
	if r.Type == "" {
		return invalidArg(arg+" type", "empty")
	}
	if err := checkEnum(arg+" type", r.Type, allowed...); err != nil {
		return err
	}
	return checkID(arg, r.ID)
}
