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

// bulk is the size above which an export's input and output bypass
// Extism's own copy, which costs one host call per 8 bytes: the small JSON
// of most events goes through Extism; pi's branch (hundreds of kilobytes)
// and a large observations block go through pm_input and pm_output, one
// host call each (docs/decisions/001-core-host-contract.md).
const bulk = 4 << 10

// bulkIn is the bound for the input, lower: most events (a turn's agent_end,
// a prompt, a short context) are a few kilobytes, which Extism's channel took
// ~400 host calls to bring in, ~0.1 ms of a call after idle (an export that
// does nothing with a 3 KB input, p50 0.32 → 0.19–0.24 ms; docs/benchmarks.md,
// notes "12–13"); pm_input takes two, its length and the copy.
const bulkIn = 256

// inbuf holds a bulk input; it is kept from one call to the next so that a
// large branch sent with every event does not allocate its size each time.
// Handle keeps nothing that points into it.
var inbuf []byte

// outbuf holds the envelope, kept from one call to the next for the same
// reason: the host copies it before the call returns.
var outbuf []byte

func call(name string) int32 {
	var in []byte
	if hostio.InputLength() <= bulkIn {
		in = pdk.Input()
	} else {
		inbuf = hostio.ReadInput(inbuf)
		in = inbuf
	}
	out := engine.HandleInto(outbuf, name, in)
	outbuf = out
	if len(out) <= bulk {
		pdk.Output(out)
	} else {
		hostio.WriteOutput(out)
	}
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

//go:wasmexport complete
func complete() int32 { return call("complete") }

//go:wasmexport tool
func tool() int32 { return call("tool") }

//go:wasmexport resources
func resources() int32 { return call("resources") }

//go:wasmexport resume
func resume() int32 { return call("resume") }

//go:wasmexport registry
func registryExport() int32 { return call("registry") }

//go:wasmexport merge
func merge() int32 { return call("merge") }

//go:wasmexport debug
func debug() int32 { return call("debug") }

//go:wasmexport redact
func redactExport() int32 { return call("redact") }

func main() {}
