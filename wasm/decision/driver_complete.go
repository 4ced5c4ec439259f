package decision

import "github.com/pi-memory/pi-memory/wasm/store"

// Complete offers decision ids for an argument whose synopsis names one
// (<id>, <oldId>, <id1>…): the live decisions whose id begins or ends with
// what was typed, active ones first, each newest first.
func (d *driver) Complete(_, placeholder, prefix string, n int) []store.Completion {
	if !namesID(placeholder) || d.st == nil {
		return nil
	}
	return d.st.completeIDs(prefix, n)
}
