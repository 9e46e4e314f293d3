package state

const MetadataKey = "state"
