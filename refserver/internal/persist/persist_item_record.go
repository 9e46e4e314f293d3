package persist

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// appendRecord appends r as encoding/json writes it (TestItemRecordEncoding),
// without its reflection: after events, items are the records a commit
// writes most. The rare parts (a shared link, a lock, tags, folder
// settings) go through encoding/json.
func (r RecItem) appendRecord(b []byte) []byte {
	// About 600 bytes of item and 180 a version (kept copies only): one
	// allocation.
	b = slices.Grow(b, 640+192*len(r.Versions))
	b = append(b, `{"Type":`...)
	b = wire.AppendString(b, r.Type)
	b = appendStringField(b, "Name", r.Name)
	b = appendStringField(b, "ParentID", r.ParentID)
	b = appendStringField(b, "Owner", r.Owner)
	b = appendStringField(b, "CreatedBy", r.CreatedBy)
	b = appendStringField(b, "ModifiedBy", r.ModifiedBy)
	b = appendStringField(b, "Description", r.Description)
	b = appendTimeField(b, "CreatedAt", r.CreatedAt)
	b = appendTimeField(b, "ModifiedAt", r.ModifiedAt)
	b = appendTimeField(b, "ContentCreatedAt", r.ContentCreatedAt)
	b = appendTimeField(b, "ContentModifiedAt", r.ContentModifiedAt)
	b = append(b, `,"Seq":`...)
	b = strconv.AppendInt(b, int64(r.Seq), 10)
	b = appendStringField(b, "SyncState", r.SyncState)
	b = appendStringField(b, "UploadEmail", r.UploadEmail)
	b = append(b, `,"Hidden":`...)
	b = strconv.AppendBool(b, r.Hidden)
	if len(r.Versions) > 0 {
		b = append(b, `,"Versions":[`...)
		for i, v := range r.Versions {
			if i > 0 {
				b = append(b, ',')
			}
			b = v.appendRecord(b)
		}
		b = append(b, ']')
	}
	b = appendTimeField(b, "ReadyAt", r.ReadyAt)
	b = appendStringField(b, "URL", r.URL)
	b = appendJSONField(b, "Link", r.Link)
	b = appendTimeField(b, "TrashedAt", r.TrashedAt)
	b = appendStringField(b, "TrashedWith", r.TrashedWith)
	if r.ID != "" {
		b = appendStringField(b, "ID", r.ID)
	}
	if len(r.Tags) > 0 {
		b = appendJSONField(b, "Tags", r.Tags)
	}
	if r.Lock != nil {
		b = appendJSONField(b, "Lock", r.Lock)
	}
	if r.DownloadAccess != "" {
		b = appendStringField(b, "DownloadAccess", r.DownloadAccess)
	}
	if r.FolderSettings != nil {
		b = appendJSONField(b, "FolderSettings", r.FolderSettings)
	}
	return append(b, '}')
}

// appendRecord appends v as encoding/json writes it, for RecItem's.
func (v recVersion) appendRecord(b []byte) []byte {
	if len(b) == 0 { // a version's own record (about 180 bytes; RecItem's sized its kept copies): one allocation
		b = slices.Grow(b, 224+len(v.Name))
	}
	b = append(b, `{"ID":`...)
	b = wire.AppendString(b, v.ID)
	b = append(b, `,"Blob":{"ID":`...)
	b = wire.AppendString(b, v.Blob.ID())
	b = append(b, `,"Size":`...)
	b = strconv.AppendInt(b, v.Blob.Size, 10)
	b = appendStringField(b, "SHA1", v.Blob.SHA1())
	b = append(b, '}')
	b = appendTimeField(b, "CreatedAt", v.CreatedAt)
	b = appendStringField(b, "By", v.By)
	if v.Name != "" {
		b = appendStringField(b, "Name", v.Name)
	}
	if !v.TrashedAt.IsZero() {
		b = appendTimeField(b, "TrashedAt", v.TrashedAt)
	}
	if !v.RestoredAt.IsZero() {
		b = appendTimeField(b, "RestoredAt", v.RestoredAt)
	}
	if v.TrashedBy != "" {
		b = appendStringField(b, "TrashedBy", v.TrashedBy)
	}
	if v.RestoredBy != "" {
		b = appendStringField(b, "RestoredBy", v.RestoredBy)
	}
	return append(b, '}')
}

// appendStringField appends `,"name":` and s as a JSON string.
func appendStringField(b []byte, name, s string) []byte {
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return wire.AppendString(b, s)
}

// appendTimeField appends `,"name":` and t as encoding/json writes a
// time.Time (RFC 3339 with the nanoseconds it has).
func appendTimeField(b []byte, name string, t time.Time) []byte {
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":"`...)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// appendJSONField appends `,"name":` and v through encoding/json.
func appendJSONField(b []byte, name string, v any) []byte {
	j, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("refserver: encoding %s: %v", name, err)) // plain data
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	b = append(b, `":`...)
	return append(b, j...)
}
