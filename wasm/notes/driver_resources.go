package notes

import (
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// Resources are the MEMORY.md of each scope this session reads (global,
// and the project's and local when the project is trusted) that is there,
// as every exit sees it: redacted, line for line. One that is there but
// cannot be read (a symbolic link, a FIFO, a folder, UTF-16) is listed
// too: its read says why.
func (n *driver) Resources() []store.Resource {
	if !n.cfg.Enabled {
		return nil
	}
	var rs []store.Resource
	for _, sc := range n.scopes {
		if _, err := n.h.Stat(sc.file); hostio.IsNotFound(err) {
			continue
		}
		file, scope := sc.file, sc.name
		rs = append(rs, store.Resource{
			URI: "pimem://notes/" + sc.name + "/" + notesIndex, Name: "Notes (" + sc.name + ")", MIMEType: "text/markdown",
			Description: "Markdown memory, " + sc.name + " scope: " + sc.display + ".",
			Read: func() (string, error) {
				data, err := readNote(n.h, file, nil)
				if err != nil {
					return "", err
				}
				view, _ := readView(scope, data, nil)
				return string(view), nil
			},
			Unread: func() error {
				_, err := readNote(n.h, file, nil)
				return err
			},
		})
	}
	return rs
}
