package state

// MetadataKey is the key of the one KMetadata record (the metadata
// counters and the template order).
const MetadataKey = "state"
