package state

import (
	"fmt"
	"strings"
)

// Metadata constants: the global scope, the limits the service documents
// (instances per item, template key, field key and display name lengths),
// the global properties template's key, and the content type of a JSON
// Patch body (PUT of an instance, a template's schema).
const (
	ScopeGlobal          = "global"
	MaxInstancesPerItem  = 100
	MaxTemplateKeyLen    = 64
	MaxFieldKeyLen       = 256
	MaxDisplayNameLen    = 4096
	GlobalPropertiesKey  = "properties"
	ContentTypeJSONPatch = "application/json-patch+json"
)

// MetadataState is the server's state for metadata templates, instances
// and queries, reached only through a transaction.
type MetadataState struct {
	Templates map[string]*MDTemplate   // by scope + "." + templateKey
	ByID      Table[*MDTemplate]       // by template id
	Order     []*MDTemplate            // every template, oldest first (listings)
	ByItem    map[string][]*MDInstance // instances of an item (file or folder id), oldest first
	ByInstID  Table[*MDInstance]       // by $id
	Seq       int64                    // creation counter of templates and instances
}

// EmptyMetadata empties the templates and instances (before a restore).
func (s *Tx) EmptyMetadata() {
	s.Metadata = MetadataState{
		Templates: make(map[string]*MDTemplate),
		ByID:      newTable[*MDTemplate](s.Env, KTemplates),
		ByItem:    make(map[string][]*MDInstance),
		ByInstID:  newTable[*MDInstance](s.Env, KInstances),
	}
}

func (s *Tx) initMetadata() {
	s.EmptyMetadata()
	s.AddTemplate(&MDTemplate{Scope: ScopeGlobal, Key: GlobalPropertiesKey, DisplayName: "Properties"})
}

// metadataItemPurged drops the metadata instances of an item deleted for
// good.
func (s *Tx) metadataItemPurged(it *Item) {
	for _, in := range append([]*MDInstance(nil), s.Metadata.ByItem[s.Items.Ref(it)]...) {
		s.RemoveInstance(in)
	}
}

// EnterpriseScope is the full scope of this server's enterprise templates.
func (s *Env) EnterpriseScope() string { return "enterprise_" + s.EnterpriseID }

// ScopeKind classifies a scope of a path: "global", the full enterprise
// scope for "enterprise" and "enterprise_<this id>", "other" for another
// enterprise's scope (whose templates this server does not hold), or ""
// for something that is no scope at all.
func (s *Env) ScopeKind(scope string) string {
	switch {
	case scope == ScopeGlobal:
		return ScopeGlobal
	case scope == "enterprise" || scope == s.EnterpriseScope():
		return s.EnterpriseScope()
	case strings.HasPrefix(scope, "enterprise_") && ValidID(strings.TrimPrefix(scope, "enterprise_")):
		return "other"
	}
	return ""
}

// Template returns the template of a canonical scope and key, or nil.
func (s *ReadTx) Template(scope, key string) *MDTemplate {
	return s.Metadata.Templates[scope+"."+key]
}

// NewUUID returns a random (version 4) UUID.
func NewUUID() string {
	b := RandomBytes(16)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
