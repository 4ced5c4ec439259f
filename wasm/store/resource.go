package store

// Resourcer is a store whose memory a client of `pimem mcp` may attach
// whole (MCP resources): the orchestrator's resources export lists every
// Resourcer's resources, in store order, and reads one by its URI.
type Resourcer interface {
	Resources() []Resource
}

// Resource is one readable whole: its URI (pimem://<store>/…), a name and a
// line saying what it is, and Read, which gives its text as a client may
// see it (redacted).
type Resource struct {
	URI, Name, Description string
	// MIMEType is the text's type: text/markdown or text/plain.
	MIMEType string
	Read     func() (string, error)
	// Unread, when set, says why a resource that is there cannot be read
	// (nil when it can), without rendering it as Read does: memory_status
	// asks it.
	Unread func() error
}
