package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hostio"
)

func TestCoreAnswersPingWithPong(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{})
		call(t, i, "session_start", sessionInput)
		env := call(t, i, "debug", `{"op":"ping"}`)
		require.Equal(t, 0, env.Exit)
		require.Equal(t, 1, len(env.Effects))
		require.Equal(t, "output", env.Effects[0].T)
		require.Equal(t, "pong", env.Effects[0].Text)
	})
}

// Inputs and envelopes over 4 KiB travel through pm_input and pm_output,
// smaller ones through Extism; both arrive whole.
func TestLargeInputsAndEnvelopesArriveWhole(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{})
		call(t, i, "session_start", sessionInput)
		for _, pad := range []int{0, 4 << 10, 700 << 10} {
			env := call(t, i, "debug", `{"op":"ping","pad":"`+strings.Repeat("x", pad)+`"}`)
			require.Equal(t, "pong", env.Effects[0].Text)
		}
		env := call(t, i, "registry", `{}`)
		require.True(t, len(env.Effects[0].Text) > 4<<10, "the registry is a large envelope")
		require.Contains(t, env.Effects[0].Text, `"name":"om"`)
		require.Equal(t, "pong", call(t, i, "debug", `{"op":"ping"}`).Effects[0].Text, "and a small one after it")
	})
}

func TestTrapLosesTheInstanceUntilRecreateReplaysTheSession(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		mem := fsys.NewMem(nil)
		require.NoError(t, mem.Mkdir("/home/ada/app/src"))
		rec := &recordingFS{FS: mem}
		i := newInstance(t, rt, Config{FS: rec})
		call(t, i, "session_start", sessionInput)
		statsBefore := len(rec.statted())

		_, err := i.Call("debug", []byte(`{"op":"panic"}`))
		require.ErrorIs(t, err, ErrTrap)
		var trap *TrapError
		require.True(t, errors.As(err, &trap))
		require.Equal(t, "debug", trap.Export)
		require.Contains(t, trap.Summary(), "panic")
		t.Logf("reported as: %v", err)

		_, err = i.Call("debug", []byte(`{"op":"ping"}`))
		require.ErrorIs(t, err, ErrLost)

		env, err := i.Recreate()
		require.NoError(t, err)
		require.Equal(t, 0, env.Exit)
		require.True(t, len(rec.statted()) > statsBefore, "Recreate must replay session_start, which looks for the git root again")

		env = call(t, i, "debug", `{"op":"ping"}`)
		require.Equal(t, "pong", env.Effects[0].Text)
	})
}

func TestRecreateReplaysTheLastSessionStartWithTheCallThatTrapped(t *testing.T) {
	i := newInstance(t, probeRuntime(t), Config{})
	call(t, i, "session_start", `{"cwd":"/first"}`)
	last := `{"cwd":"/second","flags":{"no-memory":true}}`
	call(t, i, "session_start", last)
	_, err := i.Call("command", []byte(`{"argv":["panic"]}`))
	require.ErrorIs(t, err, ErrTrap)
	require.Contains(t, err.Error(), "probe: panic requested")

	_, err = i.Recreate()
	require.NoError(t, err)
	env := call(t, i, "command", `{"argv":["session"]}`)
	require.Equal(t, `{"cwd":"/second","flags":{"no-memory":true},"restore":{"interrupted":{"argv":["panic"],"export":"command"}}}`, env.Effects[0].Text)

	// Told once: a second restart with nothing trapped in between replays the session alone.
	_, err = i.Recreate()
	require.NoError(t, err)
	require.Equal(t, last, call(t, i, "command", `{"argv":["session"]}`).Effects[0].Text)
}

// What the person set survives a trap (decision 001, "restore"): the
// instance keeps the core's newest state and hands it back.
func TestRecreateKeepsWhatThePersonSet(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		mem := fsys.NewMem(nil)
		require.NoError(t, mem.Mkdir("/home/ada/app/.git"))
		i := newInstance(t, rt, Config{FS: mem})
		call(t, i, "session_start", `{"cwd":"/home/ada/app","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":true,"mode":"rpc","reason":"startup","flags":{}}`)
		call(t, i, "command", `{"name":"memory","args":"off"}`)
		_, err := i.Call("debug", []byte(`{"op":"panic"}`))
		require.ErrorIs(t, err, ErrTrap)

		env, err := i.Recreate()
		require.NoError(t, err)
		footer := ""
		for _, e := range env.Effects {
			if e.T == "status" {
				footer = e.Text
			}
		}
		require.Equal(t, "memory off (/memory off)", footer)
		env = call(t, i, "command", `{"name":"decision","args":"add Use black for Python formatting"}`)
		require.Equal(t, 1, env.Exit, "off stays off: %+v", env)
		_, err = mem.Stat("/home/ada/app/.pi")
		require.ErrorIs(t, err, hostio.ErrNotFound, "nothing written")
	})
}

func TestRecreateBeforeAnySessionGivesAFreshInstance(t *testing.T) {
	i := newInstance(t, probeRuntime(t), Config{})
	env, err := i.Recreate()
	require.NoError(t, err)
	require.Equal(t, 0, len(env.Effects))
	require.Equal(t, "", call(t, i, "command", `{"argv":["session"]}`).Effects[0].Text)
}

func TestUnknownExportLeavesTheInstanceUsable(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{})
		_, err := i.Call("no_such_export", []byte(`{}`))
		require.ErrorIs(t, err, ErrUnknownExport)
		call(t, i, "session_start", sessionInput)
	})
}

func TestCallsOnAClosedInstanceFail(t *testing.T) {
	i := newInstance(t, probeRuntime(t), Config{})
	require.NoError(t, i.Close())
	_, err := i.Call("session_start", []byte(`{}`))
	require.ErrorIs(t, err, ErrClosed)
}

func TestInstancesOfOneRuntimeKeepTheirOwnState(t *testing.T) {
	rt := probeRuntime(t)
	a, b := newInstance(t, rt, Config{}), newInstance(t, rt, Config{})
	call(t, a, "session_start", `{"cwd":"/a"}`)
	call(t, b, "session_start", `{"cwd":"/b"}`)
	require.Equal(t, `{"cwd":"/a"}`, call(t, a, "command", `{"argv":["session"]}`).Effects[0].Text)
	require.Equal(t, `{"cwd":"/b"}`, call(t, b, "command", `{"argv":["session"]}`).Effects[0].Text)
}

func TestCompilationCacheDirIsFilledAndReused(t *testing.T) {
	path := testmod.Cores[0].Path(t)
	dir := t.TempDir()
	for round := 0; round < 2; round++ {
		rt, err := NewRuntimeFromFile(context.Background(), path, Options{CacheDir: dir})
		require.NoError(t, err, "round %d", round)
		i := newInstance(t, rt, Config{})
		require.Equal(t, "pong", call(t, i, "debug", `{"op":"ping"}`).Effects[0].Text)
		i.Close()
		require.NoError(t, rt.Close(context.Background()))
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.True(t, len(entries) > 0, "the cache folder is empty after compiling")
	}
}

func TestMissingModuleFileSaysWhichFile(t *testing.T) {
	_, err := NewRuntimeFromFile(context.Background(), "/nowhere/core.wasm", Options{})
	require.Contains(t, err.Error(), "/nowhere/core.wasm")
}

func TestModuleImportingWhatTheHostLacksFailsToInstantiate(t *testing.T) {
	rt, err := NewRuntime(context.Background(), buildImportModule("extism:host/user", "pm_teleport"), Options{})
	require.NoError(t, err)
	defer rt.Close(context.Background())
	_, err = rt.NewInstance(context.Background(), Config{FS: fsys.NewMem(nil)})
	require.True(t, err != nil, "a module importing pm_teleport must not run on this host")
	require.Contains(t, err.Error(), "pm_teleport")
}

// buildImportModule is a module whose only content is one function import
// of type () -> ().
func buildImportModule(module, name string) []byte {
	imp := []byte{1, byte(len(module))}
	imp = append(imp, module...)
	imp = append(imp, byte(len(name)))
	imp = append(imp, name...)
	imp = append(imp, 0x00, 0x00) // function import of type 0
	out := []byte{0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x02, byte(len(imp))}
	return append(out, imp...)
}

// Text full of "<pi-memory-" that opens no block (a prompt, a fact, a past
// session) once ran the module's stack out, one recursion per start.
func TestMarkerLikeTextDoesNotTrapTheModule(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{FS: fsys.NewMem(nil)})
		call(t, i, "session_start", sessionInput)
		for _, n := range []int{500, 200_000} {
			prompt, _ := json.Marshal(strings.Repeat("<pi-memory-", n))
			env := call(t, i, "before_agent_start", `{"prompt":`+string(prompt)+`,"messageType":"user"}`)
			require.Equal(t, 0, env.Exit)
		}
	})
}

// Many small recalled blocks in one message (pasted back again and again)
// once made every strip of it quadratic: 900 KB held a turn for 13.7 s, as
// the prompt's decision candidates, each model request's observations query
// and a past session's entries are all stripped of our blocks first.
func TestAMessageOfManySmallBlocksIsStrippedInOnePass(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{FS: fsys.NewMem(nil)})
		call(t, i, "session_start", `{"cwd":"/home/ada/app","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":false,"mode":"print","reason":"startup","flags":{},"branch":[],"window":200000}`)
		text := "Decision: use tabs.\n" + strings.Repeat("<pi-memory-recall>\n- a recalled fact\n</pi-memory-recall>\n", 20_000)
		prompt, _ := json.Marshal(text)
		env := call(t, i, "before_agent_start", `{"prompt":`+string(prompt)+`,"messageType":"user"}`)
		require.Equal(t, 0, env.Exit)
		env = call(t, i, "context", `{"messages":[{"role":"user","content":`+string(prompt)+`,"timestamp":1}]}`)
		require.Equal(t, 0, env.Exit)
	})
}

// A 48 MB earlier session was read whole into the module, its entries
// copied out of it: six sessions of 60 MB trapped at 2.2 GB. It is read a
// piece at a time and gives the index its first megabyte of messages, so
// the module's memory does not follow the session's size, on both builds.
func TestALargeSessionIsSearchedWithoutHoldingIt(t *testing.T) {
	mem := fsys.NewMem(nil)
	require.NoError(t, mem.Mkdir("/home/ada/app/.git"))
	dir := "/home/ada/.pi/agent/sessions/--home-ada-app--"
	require.NoError(t, mem.Mkdir(dir))
	var b strings.Builder
	b.WriteString(`{"type":"session","version":3,"id":"big","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/home/ada/app"}` + "\n")
	para := strings.Repeat("the nightly invoice export walks every customer ledger ", 180)
	for k := 0; b.Len() < 48<<20; k++ {
		b.WriteString(`{"type":"message","id":"m` + strconv.Itoa(k) + `","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"` + strconv.Itoa(k) + ` ` + para + `"}}` + "\n")
	}
	size := b.Len()
	require.NoError(t, mem.WriteAtomic(dir+"/2026-11-20T09-00-00-000Z_big.jsonl", []byte(b.String())))
	b.Reset()
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{FS: mem})
		call(t, i, "session_start", `{"cwd":"/home/ada/app","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":false,"mode":"cli","reason":"startup","flags":{}}`)
		env := call(t, i, "command", `{"name":"memory","argv":["search","invoice","ledger"]}`)
		require.Equal(t, 0, env.Exit, "%+v", env)
		require.Contains(t, env.Effects[0].Text, "nightly invoice export")
		require.Contains(t, env.Effects[0].Text, "past its first megabyte")
		linear := int64(i.mem.Size())
		require.True(t, linear < int64(size)/2, "linear memory after searching a %d MiB session is %d MiB", size>>20, linear>>20)
	})
}

// A past session's line nested thousands of levels deep (a recorded tool
// call's arguments) once ran the module's stack out in gjson's validator,
// and every later search of that project failed.
func TestADeeplyNestedSessionLineDoesNotTrapSearch(t *testing.T) {
	eachCore(t, func(t *testing.T, rt *Runtime) {
		mem := fsys.NewMem(nil)
		require.NoError(t, mem.Mkdir("/home/ada/app/.git"))
		dir := "/home/ada/.pi/agent/sessions/--home-ada-app--"
		require.NoError(t, mem.Mkdir(dir))
		deep := strings.Repeat(`{"a":[`, 20_000) + `1` + strings.Repeat(`]}`, 20_000)
		session := `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/home/ada/app"}` + "\n" +
			`{"type":"message","id":"a","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","name":"x","arguments":` + deep + `}]}}` + "\n" +
			`{"type":"message","id":"b","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"user","content":"we deploy with kubectl on fridays"}}` + "\n"
		require.NoError(t, mem.WriteAtomic(dir+"/2026-11-20T09-00-00-000Z_0193.jsonl", []byte(session)))
		i := newInstance(t, rt, Config{FS: mem})
		call(t, i, "session_start", `{"cwd":"/home/ada/app","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":false,"mode":"cli","reason":"startup","flags":{}}`)
		for range 2 {
			env := call(t, i, "command", `{"name":"memory","argv":["search","kubectl"]}`)
			require.Equal(t, 0, env.Exit, "%+v", env)
			require.Contains(t, env.Effects[0].Text, "kubectl on fridays")
		}
	})
}

// Runs the module's 64 KiB stack took a call per element of: 2,000 '"'
// after a secret's label (a file the model read, a note, a decision: every
// later start trapped), 300 "--" words in a command the model ran (its
// output is checked for a secret). Each is read in a loop now (h-v98 a1, a2).
func TestRunsOfQuotesAndWrappersDoNotTrapTheModule(t *testing.T) {
	quotes, _ := json.Marshal("fixture: password = " + strings.Repeat(`"`, 20_000) + "\nand export DB_PASSWORD=" + strings.Repeat(`"`, 20_000) +
		"\nthe password was changed " + strings.Repeat("to ", 2_000) + "X\nmy password changed from " + strings.Repeat("a to from ", 500) +
		"\n## Password " + strings.Repeat("list ", 20_000))
	command, _ := json.Marshal("printf '%s ' " + strings.Repeat("-- ", 5_000) + strings.Repeat("ssh h ", 2_000) + "; echo ok")
	branch := `[{"type":"message","id":"e1","parentId":null,"timestamp":"2026-02-11T09:00:00.000Z","message":{"role":"user","content":` + string(quotes) + `,"timestamp":1770800400000}},` +
		`{"type":"message","id":"e2","parentId":"e1","timestamp":"2026-02-11T09:01:00.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":` + string(command) + `}}],"stopReason":"stop","timestamp":1770800460000}},` +
		`{"type":"message","id":"e3","parentId":"e2","timestamp":"2026-02-11T09:02:00.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":1770800520000}}]`
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{FS: fsys.NewMem(nil)})
		env := call(t, i, "session_start", `{"cwd":"/home/ada/app","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":false,"mode":"cli","reason":"resume","flags":{},"branch":`+branch+`}`)
		require.Equal(t, 0, env.Exit, "%+v", env)
		env = call(t, i, "before_agent_start", `{"prompt":`+string(quotes)+`,"messageType":"user"}`)
		require.Equal(t, 0, env.Exit)
		env = call(t, i, "command", `{"name":"om","argv":["view","raw"]}`)
		require.Equal(t, 0, env.Exit, "%+v", env)
		env = call(t, i, "redact", string(command))
		require.Equal(t, 0, env.Exit)
		// h-v99 a2: the redact export's JSON check was recursive.
		env = call(t, i, "redact", strings.Repeat("[", 5_000)+strings.Repeat("]", 5_000))
		require.Equal(t, 0, env.Exit)
		// h-v99 a1: a flag whose value starts with "-" 8 KiB into a line.
		flag, _ := json.Marshal(strings.Repeat("y", 8300) + " --token -")
		env = call(t, i, "before_agent_start", `{"prompt":`+string(flag)+`,"messageType":"user"}`)
		require.Equal(t, 0, env.Exit)
		// h-v100 (fuzz): an nginx directive whose value is its ";".
		env = call(t, i, "redact", `"proxy_set_header ApiKeY ;"`)
		require.Equal(t, 0, env.Exit)
	})
}

// An escape of no character (a lone surrogate) before a "<" once sent the
// marker scan back before the text's start: a decision's tag in a committed
// log trapped every start of the repository, its doctor included, and a run
// of them let a marker through (h-v100 a1/a2).
func TestEscapesOfNoCharacterDoNotTrapTheModule(t *testing.T) {
	project := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".pi/decision-memory"), 0o755))
	line := `{"v":1,"t":"2026-12-03T19:48:53.920Z","p":"975745e7d0f908d4","e":"a","i":"D-2026-12-03-0001","d":{"tx":"Render emoji with the Emoji component","tg":["\\uD83D<Emoji>"],"s":"active","sp":null,"c":[]},"u":"user"}` + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(project, ".pi/decision-memory/decisions.jsonl"), []byte(line), 0o644))
	prompt, _ := json.Marshal("we deploy on fridays " + strings.Repeat(`\uD800`, 60) + " <b>bold</b> xxxxxx" + strings.Repeat(`\uD800`, 8) + " </pi-memory-recall>")
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{FS: fsys.NewOS()})
		env := call(t, i, "session_start", fmt.Sprintf(`{"cwd":%q,"agentDir":%q,"trusted":true,"hasUI":false,"mode":"cli"}`, project, t.TempDir()))
		require.Equal(t, 0, env.Exit, "%+v", env)
		env = call(t, i, "command", `{"name":"decision","argv":["list"]}`)
		require.Equal(t, 0, env.Exit, "%+v", env)
		require.Contains(t, string(envelopeJSON(env)), "Render emoji")
		env = call(t, i, "redact", string(prompt))
		require.Equal(t, 0, env.Exit, "%+v", env)
		require.NotContains(t, string(envelopeJSON(env)), "</pi-memory-recall>")
	})
}
