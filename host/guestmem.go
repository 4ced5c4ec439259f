package host

import (
	"errors"
	"unsafe"

	extism "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero/api"
)

// guestModule is the layout of extism.Module in go-sdk v1.7.1: one field, the
// wazero module of the plugin's main (guest) module. go-sdk exposes only
// Extism's kernel memory (Plugin.Memory); the contract's imports read and
// write the guest's own linear memory, which this field reaches.
// guestmem_test.go fails if go-sdk changes the layout.
type guestModule struct {
	inner api.Module
}

// guestMemory returns the linear memory of p's main module.
func guestMemory(p *extism.Plugin) (api.Memory, error) {
	m := (*guestModule)(unsafe.Pointer(p.Module())).inner
	if m == nil {
		return nil, errors.New("host: go-sdk returned no main module")
	}
	mem := m.Memory()
	if mem == nil {
		return nil, errors.New("host: the core module exports no memory")
	}
	return mem, nil
}
