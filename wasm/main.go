//go:build wasip1

// Command wasm is the pi-memory core compiled to one WebAssembly module. Each
// export reads a JSON input through Extism and writes a JSON envelope of
// effects (docs/decisions/001-core-host-contract.md). This file only
// forwards: every rule lives in the packages it calls.
package main

import (
	"github.com/extism/go-pdk"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
)

var engine = lifecycle.New(&hostio.Imports{})

func call(name string) int32 {
	out := engine.Handle(name, pdk.Input())
	pdk.Output(out)
	yield()
	return 0
}

//go:wasmexport session_start
func sessionStart() int32 { return call("session_start") }

//go:wasmexport before_agent_start
func beforeAgentStart() int32 { return call("before_agent_start") }

//go:wasmexport agent_end
func agentEnd() int32 { return call("agent_end") }

//go:wasmexport session_shutdown
func sessionShutdown() int32 { return call("session_shutdown") }

//go:wasmexport context
func contextExport() int32 { return call("context") }

//go:wasmexport agent_settled
func agentSettled() int32 { return call("agent_settled") }

//go:wasmexport session_before_compact
func sessionBeforeCompact() int32 { return call("session_before_compact") }

//go:wasmexport session_before_tree
func sessionBeforeTree() int32 { return call("session_before_tree") }

//go:wasmexport command
func command() int32 { return call("command") }

//go:wasmexport tool
func tool() int32 { return call("tool") }

//go:wasmexport resume
func resume() int32 { return call("resume") }

//go:wasmexport registry
func registryExport() int32 { return call("registry") }

//go:wasmexport merge
func merge() int32 { return call("merge") }

//go:wasmexport debug
func debug() int32 { return call("debug") }

func main() {}
