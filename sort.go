package cms

// SortDirection is the direction of a sorted list or query (query
// direction of folder items, the trash and device pins; order_by of a
// metadata query, where one direction applies to every key).
type SortDirection string

// The sort directions.
const (
	SortDirectionAscending  SortDirection = "ASC"
	SortDirectionDescending SortDirection = "DESC"
)
