//go:build wasip1

// Command probe is a test-only module for the Go host's tests (built by
// host/internal/testmod with the standard Go toolchain). It reaches every
// import through the core's own hostio package, so the signatures under test
// are the ones the core declares, plus raw calls for edge cases hostio never
// makes (small buffers, pointers outside memory). It also stands in for the
// core where a test needs behaviour the core does not have: chosen exit
// codes, dialogs and completions in a command, and an echo of what the host
// sent. It holds no policy.
package main

import (
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"unsafe"

	"github.com/extism/go-pdk"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/tidwall/gjson"
)

//go:wasmimport extism:host/user pm_fs_list
func rawList(pathPtr, pathLen, dstPtr, dstLen uint32) int64

//go:wasmimport extism:host/user pm_fs_read
func rawRead(pathPtr, pathLen uint32, offset uint64, dstPtr, dstLen uint32) int64

//go:wasmimport extism:host/user pm_fs_stat
func rawStat(pathPtr, pathLen, outPtr uint32) int32

//go:wasmimport extism:host/user pm_last_error
func rawLastError(dstPtr, dstLen uint32) int32

//go:wasmimport extism:host/user pm_lock
func rawLock(pathPtr, pathLen, waitMs, staleMs uint32) int32

var h hostio.Imports

type obj = map[string]any

// reply answers a probe op: its result as JSON in one output effect.
func reply(v any) int32 {
	b, _ := json.Marshal(v)
	return envelope(0, output(string(b)))
}

func write(v any) int32 {
	b, _ := json.Marshal(v)
	pdk.Output(b)
	return 0
}

func failed(err error) obj {
	return obj{"code": hostio.CodeForError(err), "err": err.Error()}
}

func ptr(b []byte) uint32 {
	if len(b) == 0 {
		return 0
	}
	return uint32(uintptr(unsafe.Pointer(&b[0])))
}

// probe runs one import: {"op": …, "path", "data", "off", "n", "wait", "stale"}.
//
//go:wasmexport probe
func probe() int32 {
	in := gjson.ParseBytes(pdk.Input())
	p := in.Get("path").String()
	data := []byte(in.Get("data").String())
	n := int(in.Get("n").Int())
	switch in.Get("op").String() {
	case "read":
		buf := make([]byte, n)
		k, err := h.ReadAt(p, in.Get("off").Int(), buf)
		if err != nil {
			return reply(failed(err))
		}
		return reply(obj{"n": k, "data": string(buf[:k])})
	case "stat", "lstat":
		stat := h.Stat
		if in.Get("op").String() == "lstat" {
			stat = h.Lstat
		}
		fi, err := stat(p)
		if err != nil {
			return reply(failed(err))
		}
		return reply(obj{"size": fi.Size, "mtime": fi.MtimeMs, "kind": fi.Kind, "dir": fi.Dir})
	case "append":
		return reply(result(h.Append(p, data)))
	case "write":
		return reply(result(h.WriteAtomic(p, data)))
	case "list":
		names, err := h.List(p)
		if err != nil {
			return reply(failed(err))
		}
		return reply(obj{"names": names})
	case "mkdir":
		return reply(result(h.Mkdir(p)))
	case "remove":
		return reply(result(h.Remove(p)))
	case "lock":
		return reply(result(h.Lock(p, int(in.Get("wait").Int()), int(in.Get("stale").Int()))))
	case "unlock":
		return reply(result(h.Unlock(p)))
	case "now":
		return reply(obj{"now": h.Now()})
	case "random":
		buf := make([]byte, n)
		h.Random(buf)
		return reply(obj{"hex": hex.EncodeToString(buf)})
	case "log":
		h.Log(hostio.Level(in.Get("level").Int()), in.Get("data").String())
		return reply(obj{})
	case "list_raw":
		// A buffer of n '#' bytes: the host must leave it untouched when the
		// list does not fit.
		buf := make([]byte, n+1)
		for i := range buf {
			buf[i] = '#'
		}
		pb := []byte(p)
		r := rawList(ptr(pb), uint32(len(pb)), ptr(buf), uint32(n))
		return reply(obj{"ret": r, "buf": string(buf[:n])})
	case "last_error_raw":
		buf := make([]byte, n+1)
		r := rawLastError(ptr(buf), uint32(n))
		return reply(obj{"ret": r, "buf": string(buf[:min(int(max(r, 0)), n)])})
	case "read_out_of_memory":
		pb := []byte(p)
		r := rawRead(ptr(pb), uint32(len(pb)), 0, 0xFFFFFFF0, 64)
		return reply(obj{"ret": r})
	case "path_out_of_memory":
		r := rawStat(0xFFFFFF00, 200, 0)
		return reply(obj{"ret": r})
	case "lock_negative_wait":
		pb := []byte(p)
		r := rawLock(ptr(pb), uint32(len(pb)), 0xFFFFFFFF, 0)
		return reply(obj{"ret": r})
	}
	return reply(obj{"err": "unknown op"})
}

func result(err error) obj {
	if err != nil {
		return failed(err)
	}
	return obj{"ok": true}
}

// The stand-in core: envelopes a test can predict.

var session string

type effect = obj

func envelope(exit int, effects ...effect) int32 {
	if effects == nil {
		effects = []effect{}
	}
	return write(obj{"v": 1, "effects": effects, "exit": exit})
}

func output(text string) effect { return effect{"t": "output", "text": text} }

//go:wasmexport session_start
func sessionStart() int32 {
	session = string(pdk.Input())
	return envelope(0, effect{"t": "status", "key": "probe", "text": "ready"})
}

// command acts on argv[0]: echo (output the whole input), session (output
// the last session_start input), exit N, notify, dialog, complete, loop,
// slices N (N asks of no request, as a search's slices, until one is
// answered with something), panic.
//
//go:wasmexport command
func command() int32 {
	input := pdk.Input()
	in := gjson.ParseBytes(input)
	argv := in.Get("argv").Array()
	word := func(i int) string {
		if i < len(argv) {
			return argv[i].String()
		}
		return ""
	}
	switch word(0) {
	case "echo":
		return envelope(0, output(string(input)))
	case "session":
		return envelope(0, output(session))
	case "exit":
		code, _ := strconv.Atoi(word(1))
		return envelope(code, effect{"t": "notify", "level": "error", "text": "exit " + word(1)})
	case "notify":
		return envelope(0,
			effect{"t": "notify", "level": "info", "text": "fyi"},
			effect{"t": "notify", "level": "warning", "text": "careful"},
			effect{"t": "notify", "level": "error", "text": "broken"},
			effect{"t": "status", "key": "k", "text": nil},
			output("done"))
	case "dialog":
		return envelope(0, output("asking"), effect{"t": "dialog", "id": "d1", "kind": "confirm", "title": "Sure?"})
	case "complete":
		return envelope(0, effect{"t": "complete", "id": "c1", "prompt": "classify", "maxTokens": 10})
	case "loop":
		return envelope(0, effect{"t": "dialog", "id": "again", "kind": "input", "title": "More?"})
	case "slices":
		return envelope(0, effect{"t": "http", "id": "slice-" + word(1), "requests": []any{}})
	case "panic":
		panic("probe: panic requested")
	}
	return envelope(2, effect{"t": "notify", "level": "error", "text": "probe: unknown command " + strconv.Quote(word(0))})
}

//go:wasmexport resume
func resume() int32 {
	in := gjson.ParseBytes(pdk.Input())
	id := in.Get("id").String()
	if id == "again" {
		return envelope(0, effect{"t": "dialog", "id": "again", "kind": "input", "title": "More?"})
	}
	if k, err := strconv.Atoi(strings.TrimPrefix(id, "slice-")); err == nil && k > 1 && len(in.Get("value").Array()) == 0 {
		return envelope(0, effect{"t": "http", "id": "slice-" + strconv.Itoa(k-1), "requests": []any{}})
	}
	exit := 0
	if id == "c1" {
		exit = 1
	}
	return envelope(exit, output("answered "+id+" with "+in.Get("value").Raw))
}

// before_agent_start returns the prompt in two system prompt pieces with
// spaces and newlines a careless host would trim, and a message.
//
//go:wasmexport before_agent_start
func beforeAgentStart() int32 {
	in := gjson.ParseBytes(pdk.Input())
	return envelope(0,
		effect{"t": "system_prompt_append", "text": "\n\n## Memory\n  prompt: " + in.Get("prompt").String() + "  \n"},
		effect{"t": "status", "key": "probe", "text": "injected"},
		effect{"t": "system_prompt_append", "text": "type=" + in.Get("messageType").String() + "\t"},
		effect{"t": "message", "customType": "probe-recall", "content": "recall for " + in.Get("prompt").String(), "display": false})
}

// registry stands in for the core's command registry: pimem routes only the
// commands a module publishes, and the probe publishes three so tests can
// pass any words through.
//
//go:wasmexport registry
func registryExport() int32 {
	return envelope(0, output(`{"v":1,"commands":[{"name":"decision","aliases":["decisions"],"description":"probe"},{"name":"memory","aliases":[],"description":"probe"},{"name":"om","aliases":[],"description":"probe"}],"flags":[],"global":[]}`))
}

func main() {}
