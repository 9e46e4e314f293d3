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

// ItemRef names an item by kind and id in a request body where the kind
// varies ({"type": "folder", "id": "12"}): the item of a collaboration
// (POST /collaborations) or of a comment (POST /comments). Where the kind
// is fixed the SDK takes FolderRef, UserRef or GroupRef instead.
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
