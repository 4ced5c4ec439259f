package decision

import (
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// ResourceURI is the active decisions as one resource.
const ResourceURI = "pimem://decisions/active"

// Resources is the project's active decisions, as /decision list shows
// them (every one, conflicts marked), for a client to attach.
func (d *driver) Resources() []store.Resource {
	return []store.Resource{{
		URI: ResourceURI, Name: "Active decisions", MIMEType: "text/plain",
		Description: "The project's active decisions (" + d.log + "), newest first, each with its id; conflicts marked.",
		Read: func() (string, error) {
			if err := d.usable(); err != nil {
				return "", err
			}
			text, _ := redact.String(listText(d.st.WithStatus(Active), "active decisions", 0))
			return text, nil
		},
	}}
}
