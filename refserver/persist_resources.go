package refserver

import "github.com/contentapi/cms/refserver/internal/state"

func metadataKeys(*Server) []string { return []string{state.MetadataKey} }
