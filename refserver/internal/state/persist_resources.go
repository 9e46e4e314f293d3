package state

// MetadataKey is the key of the one KMetadata record (the metadata
// counters and the template order). It lives here, not with the codec in
// internal/persist, because the state marks the record by it.
const MetadataKey = "state"
