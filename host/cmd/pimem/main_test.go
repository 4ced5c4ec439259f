package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/registry"
)

// These tests run the built pimem binary, as a person would.
var (
	pimemBin    string
	sharedCache string // shared, so each module is compiled once per test run
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "pimem-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pimemBin = filepath.Join(dir, "bin", "pimem")
	sharedCache = filepath.Join(dir, "cache")
	cmd := exec.Command(testmod.GoTool(), "build", "-o", pimemBin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building pimem: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	testmod.Cleanup()
	os.RemoveAll(dir)
	os.Exit(code)
}

type ran struct {
	exit           int
	stdout, stderr string
}

// runBin runs bin in dir with a clean environment: its own HOME, the shared
// cache, no PI_CODING_AGENT_DIR or PIMEM_WASM unless env sets them.
func runBin(t *testing.T, bin, dir string, env []string, args ...string) ran {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "XDG_CACHE_HOME=" + sharedCache}, env...)
	var out, errs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errs
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return ran{code, out.String(), errs.String()}
}

// project is a fresh git work tree.
func project(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	return dir
}

func TestUsageErrorsExitTwoBeforeLoadingTheCore(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"no command", nil, "no command given"},
		{"unknown flag", []string{"--verbose", "decision", "list"}, "flag provided but not defined: -verbose"},
		{"flag without value", []string{"--project"}, "flag needs an argument: -project"},
		{"project is not a folder", []string{"--project", "/no/such/folder", "decision", "list"}, "/no/such/folder is not a folder"},
		{"module flag names no file", []string{"--wasm", "/no/core.wasm", "decision", "list"}, "--wasm /no/core.wasm: no such file"},
		{"module flag names a device", []string{"--wasm", "/dev/zero", "decision", "list"}, "--wasm /dev/zero: not a regular file (a folder, a device or a FIFO)"},
		{"inject with a stray word", []string{"inject", "hello"}, "inject takes no arguments"},
		{"inject with an unknown flag", []string{"inject", "--promt", "x"}, "inject: flag provided but not defined: -promt"},
		{"version with a command", []string{"--version", "decision", "list"}, "--version takes no command"},
	}
	dir := project(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runBin(t, pimemBin, dir, nil, c.args...)
			require.Equal(t, 2, r.exit, "stderr: %s", r.stderr)
			require.Equal(t, "", r.stdout)
			require.Contains(t, r.stderr, c.stderr)
			require.Contains(t, r.stderr, "pimem --help")
		})
	}
}

// The commands pimem knows are the core's: an unknown one is a usage error
// that lists them, read from the real core's registry.
func TestUnknownCommandsAreUsageErrorsListingTheCoresCommands(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			r := runBin(t, pimemBin, project(t), nil, "--wasm", m.Path(t), "decisions-typo", "list")
			require.Equal(t, 2, r.exit, r.stderr)
			require.Contains(t, r.stderr, `unknown command "decisions-typo" (decision, memory, om, hindsight, inject, commands, git, merge-driver, mcp)`)
			// A subcommand typed without its command is named with it.
			r = runBin(t, pimemBin, project(t), nil, "--wasm", m.Path(t), "search", "postgres")
			require.Equal(t, 2, r.exit, r.stderr)
			require.Contains(t, r.stderr, `did you mean pimem decision search or pimem memory search?`)
			// A token or a paste given as the command is not said back.
			r = runBin(t, pimemBin, project(t), nil, "--wasm", m.Path(t), "ghp_u8jzPde0IgxLd6GncfBAepfJBd0123456789", "list")
			require.Equal(t, 2, r.exit, r.stderr)
			require.Contains(t, r.stderr, `unknown command of 40 characters (`)
			require.NotContains(t, r.stderr, "u8jzPde0")
			r = runBin(t, pimemBin, project(t), nil, "--wasm", m.Path(t), "decison", "list")
			require.Contains(t, r.stderr, `did you mean pimem decision?`)
			// A global switch before the subcommand is the subcommand's.
			r = runBin(t, pimemBin, project(t), nil, "--wasm", m.Path(t), "decision", "--json", "list")
			require.Equal(t, 0, r.exit, r.stderr)
			require.True(t, strings.HasPrefix(r.stdout, "["), r.stdout)
			r = runBin(t, pimemBin, project(t), nil, "--wasm", m.Path(t), "help")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "pimem <command> help")
		})
	}
}

// pimem --help lists exactly the real core's commands: what `pimem commands
// --json` prints is the core's registry export, byte for byte.
func TestHelpListsTheCoresRegistry(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			wasm := m.Path(t)
			reg := runBin(t, pimemBin, t.TempDir(), nil, "--wasm", wasm, "commands", "--json")
			require.Equal(t, 0, reg.exit, reg.stderr)
			var r struct {
				Commands []struct {
					Name        string   `json:"name"`
					Aliases     []string `json:"aliases"`
					Description string   `json:"description"`
				} `json:"commands"`
			}
			require.NoError(t, json.Unmarshal([]byte(reg.stdout), &r))
			require.True(t, len(r.Commands) >= 2, reg.stdout)
			help := runBin(t, pimemBin, t.TempDir(), nil, "--wasm", wasm, "--help")
			require.Equal(t, 0, help.exit, help.stderr)
			folded := strings.Join(strings.Fields(help.stdout), " ")
			for _, c := range r.Commands {
				require.Contains(t, folded, strings.Join(strings.Fields(registry.ForShell(c.Description)), " "))
				require.Contains(t, help.stdout, "  "+c.Name)
				for _, a := range c.Aliases {
					require.Contains(t, help.stdout, a)
				}
			}
		})
	}
}

func TestHelpGoesToStdoutAndExitsZero(t *testing.T) {
	r := runBin(t, pimemBin, t.TempDir(), nil, "--help")
	require.Equal(t, 0, r.exit)
	require.True(t, strings.HasPrefix(r.stdout, "usage: pimem"), "stdout: %q", r.stdout)
}

// At 80 columns pimem --help had 12 lines that wrapped in the middle of a
// word (one of 258 columns), and each command's help had more: every line
// of them fits, on both cores. Bare pimem named only pimem's own commands.
func TestHelpFitsEightyColumns(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			wasm := m.Path(t)
			dir := project(t)
			runs := [][]string{{"--help"}}
			for _, c := range []string{"decision", "memory", "om", "hindsight"} {
				runs = append(runs, []string{c, "help"}, []string{c, "--help"})
			}
			runs = append(runs, []string{"decision", "add", "--help"}, []string{"om", "auto-compact", "--help"})
			for _, args := range runs {
				r := runBin(t, pimemBin, dir, nil, append([]string{"--wasm", wasm}, args...)...)
				require.Equal(t, 0, r.exit, "%v: %s", args, r.stderr)
				require.True(t, strings.Count(r.stdout, "\n") > 3, "%v: %q", args, r.stdout)
				for _, l := range strings.Split(r.stdout, "\n") {
					require.True(t, utf8.RuneCountInString(l) <= 80, "pimem %v: a line of %d columns: %q", strings.Join(args, " "), utf8.RuneCountInString(l), l)
				}
				if args[0] != "--help" {
					require.False(t, strings.Contains(r.stdout, "/"+args[0]+" "), "pimem %v names the slash command:\n%s", args, r.stdout)
				}
			}
		})
	}
	r := runBin(t, pimemBin, project(t), nil)
	require.Equal(t, 2, r.exit, r.stderr)
	for _, c := range []string{"decision", "memory", "om", "hindsight", "inject", "mcp"} {
		require.Contains(t, r.stderr, c)
	}
	for _, l := range strings.Split(r.stderr, "\n") {
		require.True(t, utf8.RuneCountInString(l) <= 80, "a line of %d columns: %q", utf8.RuneCountInString(l), l)
	}
}

// In a shell, "pimem memory serch" was answered "Did you mean /memory
// search?": the advice names what to type where it was typed.
func TestAdviceNamesPimemCommandsInTheShell(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, _, run := onCore(t, wasm)
	r := run("memory", "serch", "postgres")
	require.Equal(t, 2, r.exit)
	require.Equal(t, "error: Unknown pimem memory command \"serch\". Did you mean pimem memory search? pimem memory help lists them.\n", r.stderr)
	r = run("decision", "resolve", "D-1")
	require.Equal(t, 2, r.exit)
	require.Contains(t, r.stderr, "Usage: pimem decision resolve <id> active|draft|rejected|superseded")
	r = run("memory", "status")
	require.Equal(t, 0, r.exit, r.stderr)
	require.Contains(t, r.stdout, "pimem memory remember")
	require.False(t, strings.Contains(r.stdout, "/memory "), r.stdout)
	r = run("memory", "status", "--json")
	require.Equal(t, 0, r.exit, r.stderr)
	require.True(t, json.Valid([]byte(r.stdout)), r.stdout)
	_ = dir
}

// onCore gives a fresh project and agent folder, and runs pimem there on
// the core at wasm.
func onCore(t *testing.T, wasm string) (dir, agent string, run func(args ...string) ran) {
	dir = project(t)
	agent = filepath.Join(t.TempDir(), "agent")
	run = func(args ...string) ran {
		return runBin(t, pimemBin, dir, []string{"PI_CODING_AGENT_DIR=" + agent}, append([]string{"--wasm", wasm}, args...)...)
	}
	return dir, agent, run
}

// The real core, both builds: decision commands end to end with their exit
// codes, --json, and inject showing what was decided.
func TestDecisionCommandsEndToEndOnBothCores(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			wasm := m.Path(t)
			dir, agent, run := onCore(t, wasm)
			steps := []struct {
				name string
				args []string
				exit int
			}{
				{"add", []string{"decision", "add", "Use PostgreSQL for storage", "--tag", "db"}, 0},
				{"list", []string{"decision", "list"}, 0},
				{"show an id that is not there", []string{"decision", "show", "D-2020-01-01-9999"}, 1},
				{"unknown subcommand", []string{"decision", "frobnicate"}, 2},
			}
			for _, s := range steps {
				r := run(s.args...)
				require.Equal(t, s.exit, r.exit, "%s: stdout %q stderr %q", s.name, r.stdout, r.stderr)
			}

			r := run("--json", "decision", "list")
			require.Equal(t, 0, r.exit, r.stderr)
			var listed []map[string]any
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &listed), "--json list printed %q", r.stdout)
			require.Equal(t, 1, len(listed))

			r = run("inject", "--prompt", "which database?")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "Use PostgreSQL for storage")
			require.Equal(t, injectedDirectly(t, wasm, dir, agent, "which database?"), r.stdout)
		})
	}
}

// pimem memory takes /memory's words: remember lands in the project's
// MEMORY.md at once, inject then carries it, recall finds
// it, and a user error exits 1.
func TestMemoryCommandsEndToEndOnBothCores(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			wasm := m.Path(t)
			dir, agent, run := onCore(t, wasm)
			r := run("memory")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, filepath.ToSlash(filepath.Join(dir, ".pi", "memory", "MEMORY.md")))
			_, err := os.Stat(filepath.Join(dir, ".pi"))
			require.True(t, os.IsNotExist(err), "looking wrote nothing")

			// remember writes at once and says where; the session end has
			// nothing left to flush.
			r = run("memory", "remember", "project", "Run make test before pushing", "--section", "Build")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, `Remembered in project memory: .pi/memory/MEMORY.md, line 3, section "Build".`)
			require.NotContains(t, r.stderr, "Session end flushed")
			r = run("memory", "flush")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "Nothing to flush")
			data, err := os.ReadFile(filepath.Join(dir, ".pi", "memory", "MEMORY.md"))
			require.NoError(t, err)
			require.Contains(t, string(data), "## Build")
			require.Contains(t, string(data), "- Run make test before pushing")

			// A MEMORY.md its owner made read-only is not replaced (a rename
			// would), and the refusal names it, not its staged copy.
			index := filepath.Join(dir, ".pi", "memory", "MEMORY.md")
			require.NoError(t, os.Chmod(index, 0o444))
			r = run("memory", "remember", "project", "Deploy on tuesdays only", "--section", "Build")
			require.Equal(t, 1, r.exit, "stdout %q", r.stdout)
			t.Logf("read-only: %s", r.stderr)
			require.Contains(t, r.stderr, "MEMORY.md")
			require.Contains(t, r.stderr, "is read-only")
			require.NotContains(t, r.stderr, ".tmp-")
			again, _ := os.ReadFile(index)
			require.Equal(t, string(data), string(again))
			require.NoError(t, os.Chmod(index, 0o644))

			r = run("inject", "--prompt", "how do I push?")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "- Run make test before pushing")
			require.Equal(t, injectedDirectly(t, wasm, dir, agent, "how do I push?"), r.stdout)

			r = run("memory", "recall", "make test")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "Run make test before pushing")

			r = run("memory", "trace", "T-nope")
			require.Equal(t, 1, r.exit, "stdout %q", r.stdout)
			require.Contains(t, r.stderr, "T-nope")
		})
	}
}

// pimem memory search reads the project's earlier sessions, with the
// answer beside its question, on both cores. TinyGo's int is 32 bits: the
// command's budget of work (four times a search's 512 MiB) overflowed, so
// every search counted as over its budget before it began and read no
// earlier session.
func TestMemorySearchReadsEarlierSessionsOnBothCores(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			dir, agent, run := onCore(t, m.Path(t))
			sessions := filepath.Join(agent, "sessions", "--"+strings.ReplaceAll(strings.Trim(filepath.ToSlash(dir), "/"), "/", "-")+"--")
			require.NoError(t, os.MkdirAll(sessions, 0o755))
			lines := []string{
				`{"type":"session","version":3,"id":"s1","timestamp":"2026-09-14T10:00:00.000Z","cwd":` + strconv.Quote(dir) + `}`,
				`{"type":"message","id":"a","timestamp":"2026-09-14T10:00:01.000Z","message":{"role":"user","content":"How do we deploy the pangolin frontend?"}}`,
				`{"type":"message","id":"b","timestamp":"2026-09-14T10:00:02.000Z","message":{"role":"assistant","content":"Run make ship from the repository root."}}`,
			}
			require.NoError(t, os.WriteFile(filepath.Join(sessions, "2026-09-14T10-00-00-000Z_s1.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
			r := run("memory", "search", "pangolin")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "User: How do we deploy the pangolin frontend?")
			require.Contains(t, r.stdout, "answered at line 3: Assistant: Run make ship")
			require.NotContains(t, r.stdout, "Not searched")
		})
	}
}

// What pimem memory search could not read is named, on one line, on both
// cores through the real host: a topic file whose name holds a newline
// (quoted: neither lost nor printed raw) and a decision log line past its
// bound (by its number, and read past, not held).
func TestMemorySearchNamesWhatItCouldNotReadOnBothCores(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			dir, _, run := onCore(t, m.Path(t))
			mem := filepath.Join(dir, ".pi", "memory")
			require.NoError(t, os.MkdirAll(mem, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte("# Memory\n\n- Deploys go through Helm charts\n"), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(mem, "a\nb.md"), []byte("- Deploys on Fridays\n"), 0o644))
			log := filepath.Join(dir, ".pi", "decision-memory", "decisions.jsonl")
			require.NoError(t, os.MkdirAll(filepath.Dir(log), 0o755))
			long := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"p1","e":"a","i":"D-2026-02-27-0002","d":{"tx":"` + strings.Repeat("deploys ", 1<<20+1) + `"},"u":"user"}`
			require.NoError(t, os.WriteFile(log, []byte(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"p1","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Deploys need a green build"},"u":"user"}`+"\n"+long), 0o644))
			r := run("memory", "search", "deploys")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "Deploys go through Helm charts")
			require.Contains(t, r.stdout, "Deploys need a green build")
			require.Contains(t, r.stdout, `Not searched: 2 memory files that could not be read (do not take what it holds for absent): .pi/decision-memory/decisions.jsonl line 2 (over 8 MiB), .pi/memory/"a\nb.md".`)
		})
	}
}

// injectedDirectly is what the core appends to the system prompt, asked
// through the host package rather than pimem.
func injectedDirectly(t *testing.T, wasm, dir, agent, prompt string) string {
	ctx := context.Background()
	rt, err := host.NewRuntimeFromFile(ctx, wasm, host.Options{CacheDir: sharedCache})
	require.NoError(t, err)
	defer rt.Close(ctx)
	inst, err := rt.NewInstance(ctx, host.Config{FS: fsys.NewOS()})
	require.NoError(t, err)
	defer inst.Close()
	d := &host.Driver{Inst: inst}
	session, _ := json.Marshal(map[string]any{"cwd": dir, "agentDir": agent, "trusted": true, "hasUI": false, "mode": "cli", "reason": "startup", "flags": map[string]bool{}})
	_, err = d.Run("session_start", session)
	require.NoError(t, err)
	in, _ := json.Marshal(map[string]string{"prompt": prompt, "messageType": "user"})
	res, err := d.Run("before_agent_start", in)
	require.NoError(t, err)
	return strings.Join(res.SystemPromptAppend, "")
}

// The probe module stands in for the core where a test must see exactly
// what pimem sent, or needs an exit code the core gives no way to reach.
// pimem ends its session as pi does, so a large log gets its snapshot and the
// next invocation starts from it.
func TestPimemEndsItsSessionSoLargeLogsGetSnapshots(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir := project(t)
	agent := filepath.Join(t.TempDir(), "agent")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".pi/decision-memory"), 0o755))
	var b strings.Builder
	for i := 1; b.Len() < 200<<10; i++ {
		fmt.Fprintf(&b, `{"v":1,"t":"2025-01-01T00:%02d:%02d.000Z","p":"x","e":"a","i":"D-2025-01-01-%04d","d":{"tx":"Rule %d with enough words to make the log grow"},"u":"user"}`+"\n", i/60%60, i%60, i, i)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".pi/decision-memory/decisions.jsonl"), []byte(b.String()), 0o644))
	run := func(args ...string) ran {
		return runBin(t, pimemBin, dir, []string{"PI_CODING_AGENT_DIR=" + agent}, append([]string{"--wasm", wasm}, args...)...)
	}
	require.Equal(t, 0, run("decision", "list", "--limit", "1").exit)
	r := run("decision", "status")
	require.Contains(t, r.stdout, "loaded at start", "second run: %s", r.stderr)
}

func TestArgvReachesTheCoreAsGiven(t *testing.T) {
	wasm := testmod.Probe(t)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"words stay split as the shell split them", []string{"decision", "echo", "a", "b c", "--tag", "x"},
			`{"name":"decision","argv":["echo","a","b c","--tag","x"],"hasUI":false}`},
		{"--json before the store becomes a word", []string{"--json", "decision", "echo", "x"},
			`{"name":"decision","argv":["echo","x","--json"],"hasUI":false}`},
		{"--json goes before a bare --", []string{"--json", "decision", "echo", "--", "--x"},
			`{"name":"decision","argv":["echo","--json","--","--x"],"hasUI":false}`},
		{"--json after the store is the command's own", []string{"decision", "echo", "--json"},
			`{"name":"decision","argv":["echo","--json"],"hasUI":false}`},
		{"memory store", []string{"memory", "echo"}, `{"name":"memory","argv":["echo"],"hasUI":false}`},
		{"om store", []string{"om", "echo"}, `{"name":"om","argv":["echo"],"hasUI":false}`},
	}
	dir := project(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runBin(t, pimemBin, dir, nil, append([]string{"--wasm", wasm}, c.args...)...)
			require.Equal(t, 0, r.exit, r.stderr)
			require.Equal(t, c.want+"\n", r.stdout)
		})
	}
}

func TestSessionStartDescribesTheProject(t *testing.T) {
	wasm := testmod.Probe(t)
	parent := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(parent, "app"), 0o755))
	home := t.TempDir()
	cases := []struct {
		name     string
		env      []string
		args     []string
		cwd      string
		agentDir string
		omEnv    map[string]string // session_start's env, nil when absent
	}{
		{"relative --project and --agent-dir become absolute", nil,
			[]string{"--project", "app", "--agent-dir", "agent"}, filepath.Join(parent, "app"), filepath.Join(parent, "agent"), nil},
		{"agent dir from PI_CODING_AGENT_DIR", []string{"PI_CODING_AGENT_DIR=/opt/pi"},
			nil, parent, "/opt/pi", nil},
		{"--agent-dir wins over the environment", []string{"PI_CODING_AGENT_DIR=/opt/pi"},
			[]string{"--agent-dir", "/srv/agent"}, parent, "/srv/agent", nil},
		{"agent dir defaults to ~/.pi/agent", []string{"HOME=" + home},
			nil, parent, filepath.Join(home, ".pi", "agent"), nil},
		{"observational memory's variables pass as env, only those set", []string{"PI_CODING_AGENT_DIR=/opt/pi", "PI_OM_SCOPE=resource", "PI_OM_SQLITE=", "OTHER=x"},
			nil, parent, "/opt/pi", map[string]string{"PI_OM_SCOPE": "resource", "PI_OM_SQLITE": ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"--wasm", wasm}, c.args...), "decision", "session")
			r := runBin(t, pimemBin, parent, c.env, args...)
			require.Equal(t, 0, r.exit, r.stderr)
			// runBin gives every run a fresh HOME unless the case sets one.
			var got map[string]any
			require.NoError(t, json.Unmarshal([]byte(r.stdout), &got))
			gotHome, _ := got["home"].(string)
			require.True(t, filepath.IsAbs(gotHome), "home %q", gotHome)
			if len(c.env) > 0 && strings.HasPrefix(c.env[0], "HOME=") {
				require.Equal(t, home, gotHome)
			}
			delete(got, "home")
			_, isNumber := got["zone"].(float64)
			require.True(t, isNumber, "zone (minutes east of UTC) %v", got["zone"])
			delete(got, "zone")
			gotJSON, _ := json.Marshal(got)
			wantMap := map[string]any{"cwd": c.cwd, "agentDir": c.agentDir, "trusted": true, "hasUI": false, "mode": "cli", "reason": "startup", "flags": map[string]bool{}, "moduleSha256": sha256Hex(t, wasm)}
			if c.omEnv != nil {
				wantMap["env"] = c.omEnv
			}
			want, _ := json.Marshal(wantMap)
			require.Equal(t, canonical(t, string(want)), canonical(t, string(gotJSON)))
		})
	}
}

// pimem --version and `pimem memory status` name the core with the same
// line, made by the core's rule from its release and the module file's hash:
// what the extension's /memory status shows in pi for the same module.
func TestVersionNamesTheCoreAsMemoryStatusDoes(t *testing.T) {
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			wasm := m.Path(t)
			want := "pi-memory " + registry.Release + " (core sha256:" + sha256Hex(t, wasm)[:12] + ")"
			_, _, run := onCore(t, wasm)
			r := run("--version")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Equal(t, want+"\nmodule: "+wasm+"\n", r.stdout)

			r = run("memory", "status")
			require.Equal(t, 0, r.exit, r.stderr)
			lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
			require.Equal(t, want, lines[len(lines)-1], "memory status:\n%s", r.stdout)
		})
	}
}

func sha256Hex(t *testing.T, file string) string {
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func canonical(t *testing.T, s string) string {
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v), "not JSON: %q", s)
	b, _ := json.Marshal(v)
	return string(b)
}

func TestExitCodesAndStreams(t *testing.T) {
	wasm := testmod.Probe(t)
	cases := []struct {
		name   string
		args   []string
		exit   int
		stdout string
		stderr string
	}{
		{"ok", []string{"decision", "echo"}, 0, `{"name":"decision","argv":["echo"],"hasUI":false}` + "\n", ""},
		{"user error from the core", []string{"decision", "exit", "1"}, 1, "", "error: exit 1\n"},
		{"usage error from the core", []string{"decision", "exit", "2"}, 2, "", "error: exit 2\n"},
		{"notifications on stderr, output alone on stdout", []string{"decision", "notify"}, 0, "done\n", "fyi\nwarning: careful\nerror: broken\n"},
		{"a dialog is dismissed", []string{"decision", "dialog"}, 0, "asking\nanswered d1 with null\n", ""},
		{"a completion has no model", []string{"decision", "complete"}, 1, `answered c1 with {"error":"no model available in pimem"}` + "\n", ""},
	}
	dir := project(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runBin(t, pimemBin, dir, nil, append([]string{"--wasm", wasm}, c.args...)...)
			require.Equal(t, c.exit, r.exit)
			require.Equal(t, c.stdout, r.stdout)
			require.Equal(t, c.stderr, r.stderr)
		})
	}
}

func TestACoreTrapExitsOneAndSaysWhatHappened(t *testing.T) {
	r := runBin(t, pimemBin, project(t), nil, "--wasm", testmod.Probe(t), "decision", "panic")
	require.Equal(t, 1, r.exit)
	require.Equal(t, "", r.stdout)
	require.Contains(t, r.stderr, "the core failed during command: panic: probe: panic requested")
}

func TestInjectPrintsTheSystemPromptTextByteForByte(t *testing.T) {
	wasm := testmod.Probe(t)
	dir := project(t)
	text := "\n\n## Memory\n  prompt: use sqlite?  \ntype=user\t"

	r := runBin(t, pimemBin, dir, nil, "--wasm", wasm, "inject", "--prompt", "use sqlite?")
	require.Equal(t, 0, r.exit, r.stderr)
	require.Equal(t, text, r.stdout)

	wantJSON := `{"systemPromptAppend":` + jsonString(text) + `,"messages":[{"content":"recall for use sqlite?","customType":"probe-recall","display":false}]}` + "\n"
	for _, args := range [][]string{
		{"--json", "inject", "--prompt", "use sqlite?"},
		{"inject", "--prompt", "use sqlite?", "--json"},
	} {
		r = runBin(t, pimemBin, dir, nil, append([]string{"--wasm", wasm}, args...)...)
		require.Equal(t, 0, r.exit, r.stderr)
		require.Equal(t, wantJSON, r.stdout, "args %q", args)
	}
}

func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func TestTheModuleIsFoundWhereTheContractSays(t *testing.T) {
	probe := testmod.Probe(t)
	probeBytes, err := os.ReadFile(probe)
	require.NoError(t, err)
	exe, err := os.ReadFile(pimemBin)
	require.NoError(t, err)
	install := func(t *testing.T, files map[string][]byte) string {
		root := t.TempDir()
		for rel, b := range files {
			p := filepath.Join(root, rel)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, b, 0o755))
		}
		return root
	}
	echo := []string{"decision", "echo"}
	cases := []struct {
		name  string
		files map[string][]byte
		bin   string
		env   []string
		args  []string
		exit  int
		errs  string
	}{
		{"--wasm wins over PIMEM_WASM", map[string][]byte{"pimem": exe}, "pimem",
			[]string{"PIMEM_WASM=/no/such.wasm"}, append([]string{"--wasm", probe}, echo...), 0, ""},
		{"PIMEM_WASM", map[string][]byte{"pimem": exe}, "pimem",
			[]string{"PIMEM_WASM=" + probe}, echo, 0, ""},
		{"PIMEM_WASM naming no file", map[string][]byte{"pimem": exe}, "pimem",
			[]string{"PIMEM_WASM=/no/such.wasm"}, echo, 1, "PIMEM_WASM=/no/such.wasm: no such file"},
		{"core.wasm beside the executable", map[string][]byte{"bin/pimem": exe, "bin/core.wasm": probeBytes}, "bin/pimem",
			nil, echo, 0, ""},
		{"ts/core.wasm in a folder above", map[string][]byte{"build/out/pimem": exe, "ts/core.wasm": probeBytes}, "build/out/pimem",
			nil, echo, 0, ""},
		{"nowhere", map[string][]byte{"bin/pimem": exe}, "bin/pimem",
			nil, echo, 1, "cannot find the core module"},
	}
	dir := project(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := install(t, c.files)
			r := runBin(t, filepath.Join(root, c.bin), dir, c.env, c.args...)
			require.Equal(t, c.exit, r.exit, "stderr: %s", r.stderr)
			require.Contains(t, r.stderr, c.errs)
			if c.exit == 0 {
				require.Contains(t, r.stdout, `"argv":["echo"]`)
			}
		})
	}
}

func TestCompiledCodeIsCachedUnderXDGCacheHome(t *testing.T) {
	cache := t.TempDir()
	r := runBin(t, pimemBin, project(t), []string{"XDG_CACHE_HOME=" + cache}, "--wasm", testmod.Probe(t), "decision", "echo")
	require.Equal(t, 0, r.exit, r.stderr)
	entries, err := os.ReadDir(filepath.Join(cache, "pi-memory", "wazero"))
	require.NoError(t, err)
	require.True(t, len(entries) > 0, "nothing cached")
}

// pimem reads a pi session file as its current branch (the path to its last
// entry), so the read-only /om commands work outside pi; writing ones say
// they need pi, and nothing is written.
func TestOmCommandsReadASessionFile(t *testing.T) {
	rec := `{"v":1,"op":"observe","t":1772179200000,"from":"u1","through":"a1","tokens":40,"obs":"Date: Feb 27, 2026\n* 🔴 (08:00) User wants trailing commas\n"}`
	session := strings.Join([]string{
		`{"type":"session","version":3,"id":"s1","timestamp":"2026-02-27T08:00:00.000Z","cwd":"/x"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-02-27T08:00:00.000Z","message":{"role":"user","content":"Fix the parser"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-02-27T08:01:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Done"}]}}`,
		`{"type":"custom","id":"x1","parentId":"u1","customType":"pi-memory-om","data":{"v":1,"op":"clear","t":1}}`,
		`{"type":"custom","id":"c1","parentId":"a1","customType":"pi-memory-om","data":` + rec + `}`,
	}, "\n") + "\n"
	for _, m := range testmod.Cores {
		t.Run(m.Name, func(t *testing.T) {
			dir := project(t)
			file := filepath.Join(t.TempDir(), "s.jsonl")
			require.NoError(t, os.WriteFile(file, []byte(session), 0o644))
			r := runBin(t, pimemBin, dir, nil, "--wasm", m.Path(t), "--session", file, "om", "view", "obs")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "* 🔴 (08:00) User wants trailing commas")
			r = runBin(t, pimemBin, dir, nil, "om", "view", "--session", file, "obs", "--wasm", m.Path(t))
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "* 🔴 (08:00) User wants trailing commas", "--session and --wasm anywhere on the line")
			r = runBin(t, pimemBin, dir, nil, "--wasm", m.Path(t), "om", "view", "--session="+file)
			require.Equal(t, 0, r.exit, r.stderr)
			r = runBin(t, pimemBin, dir, nil, "--wasm", m.Path(t), "--session", file, "om-status")
			require.Equal(t, 0, r.exit, r.stderr)
			require.Contains(t, r.stdout, "Scope: thread (this session's branch: 1 ledger entry")
			r = runBin(t, pimemBin, dir, nil, "--wasm", m.Path(t), "--session", file, "om", "dump")
			require.Equal(t, rec+"\n", r.stdout, "the sibling branch's clear is not on this branch")
			r = runBin(t, pimemBin, dir, nil, "--wasm", m.Path(t), "--session", file, "om", "clear")
			require.Equal(t, 1, r.exit)
			require.Contains(t, r.stderr, "run it in pi")
			after, _ := os.ReadFile(file)
			require.Equal(t, session, string(after))

			notSession := filepath.Join(t.TempDir(), "notes.txt")
			require.NoError(t, os.WriteFile(notSession, []byte("just some notes\n"), 0o644))
			r = runBin(t, pimemBin, dir, nil, "--wasm", m.Path(t), "--session", notSession, "om", "view")
			require.Equal(t, 1, r.exit, r.stderr)
			require.Contains(t, r.stderr, "is not a pi session file")
			r = runBin(t, pimemBin, dir, nil, "--wasm", m.Path(t), "--session", filepath.Join(dir, "missing.jsonl"), "om", "view")
			require.Equal(t, 1, r.exit, r.stderr)
			require.Contains(t, r.stderr, "could not read the session file")
		})
	}
}

func TestHoistTakesPimemsFlagsFromAnywhere(t *testing.T) {
	tests := []struct {
		command string
		argv    []string
		rest    []string
		session string
		project string
		err     string
	}{
		{"om", []string{"view", "--session", "s.jsonl", "raw"}, []string{"view", "raw"}, "s.jsonl", "", ""},
		{"om", []string{"view", "--session=s.jsonl"}, []string{"view"}, "s.jsonl", "", ""},
		{"om-status", []string{"--session", "s.jsonl"}, nil, "s.jsonl", "", ""},
		{"decision", []string{"add", "--", "--session", "x"}, []string{"add", "--", "--session", "x"}, "", "", ""},
		{"decision", []string{"add", "text", "--tag", "t"}, []string{"add", "text", "--tag", "t"}, "", "", ""},
		{"decision", []string{"list", "--project", "/p"}, []string{"list"}, "", "/p", ""},
		{"om", []string{"view", "--session"}, nil, "", "", "--session needs a value"},
		{"om", []string{"view", "--session", "a", "--session", "b"}, nil, "", "", "--session is given twice"},
		// A flag the subcommand takes itself is the subcommand's.
		{"decision", []string{"disable", "--project"}, []string{"disable", "--project"}, "", "", ""},
		{"decisions", []string{"enable", "--project", "--json"}, []string{"enable", "--project", "--json"}, "", "", ""},
		{"decision", []string{"disable", "--global"}, []string{"disable", "--global"}, "", "", ""},
		// Among the subcommand's words it is a word of the text, which the
		// subcommand refuses; after the last word it is pimem's.
		{"memory", []string{"remember", "global", "Set", "--project", "docs", "to", "the", "shared", "folder"}, []string{"remember", "global", "Set", "--project", "docs", "to", "the", "shared", "folder"}, "", "", ""},
		{"decision", []string{"add", "Keep", "--session", "s", "pointing", "at", "x"}, []string{"add", "Keep", "--session", "s", "pointing", "at", "x"}, "", "", ""},
		{"memory", []string{"search", "postgres", "--project", "/p"}, []string{"search", "postgres"}, "", "/p", ""},
		{"decision", []string{"add", "Use", "Go", "--tag", "lang", "--project", "/p"}, []string{"add", "Use", "Go", "--tag", "lang"}, "", "/p", ""},
		{"om-status", []string{"--session", "s.jsonl"}, nil, "s.jsonl", "", ""},
	}
	for _, tt := range tests {
		var o options
		rest, err := hoist(tt.command, tt.argv, &o)
		if tt.err != "" {
			require.True(t, err != nil && strings.Contains(err.Error(), tt.err), "hoist(%q) = %v, want %q", tt.argv, err, tt.err)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, tt.rest, rest)
		require.Equal(t, tt.session, o.session)
		require.Equal(t, tt.project, o.project)
	}
}

// pimem's global --project took the word of decision disable --project
// ("--project needs a value"): the subcommand's own flag is the
// subcommand's, and the global one still works before the command.
func TestSubcommandsKeepTheirOwnProjectFlag(t *testing.T) {
	wasm := testmod.Cores[0].Path(t)
	dir, agent, run := onCore(t, wasm)
	r := run("decision", "disable", "--project")
	require.Equal(t, 0, r.exit, r.stderr)
	cfg, err := os.ReadFile(filepath.Join(dir, ".pi", "decision-memory.config.json"))
	require.NoError(t, err)
	require.Contains(t, string(cfg), `"enabled": false`)
	elsewhere := t.TempDir()
	r = runBin(t, pimemBin, elsewhere, []string{"PI_CODING_AGENT_DIR=" + agent}, "--wasm", wasm, "--project", dir, "decision", "enable", "--project")
	require.Equal(t, 0, r.exit, r.stderr)
	cfg, err = os.ReadFile(filepath.Join(dir, ".pi", "decision-memory.config.json"))
	require.NoError(t, err)
	require.Contains(t, string(cfg), `"enabled": true`)
	_, err = os.Stat(filepath.Join(elsewhere, ".pi"))
	require.True(t, os.IsNotExist(err), "nothing written where pimem ran: %v", err)
}

func TestSubcommandHelpAndTyposAnswerInALine(t *testing.T) {
	dir := project(t)
	wasm := testmod.Cores[0].Path(t)
	r := runBin(t, pimemBin, dir, nil, "decision", "add", "--help", "--wasm", wasm)
	require.Equal(t, 0, r.exit, r.stderr)
	require.True(t, strings.HasPrefix(r.stdout, "Usage: pimem decision add"), r.stdout)
	r = runBin(t, pimemBin, dir, nil, "decision", "lsit", "--wasm", wasm)
	require.Equal(t, 2, r.exit)
	require.Equal(t, "error: Unknown pimem decision command \"lsit\". Did you mean pimem decision list? pimem decision help lists them.\n", r.stderr)
}

// A project reached through a symbolic link is the project pi names by its
// physical path (h-v93 d2): one state, one set of recovery records, whether
// pimem runs in the link or in the folder, with --project or without.
func TestAProjectReachedThroughALinkIsThePhysicalFolder(t *testing.T) {
	m := testmod.Cores[0]
	real := project(t)
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(real, link))
	physical, err := filepath.EvalSymlinks(real)
	require.NoError(t, err)
	agent := t.TempDir()
	for _, run := range []struct {
		dir  string
		args []string
	}{
		{t.TempDir(), []string{"--project", link}},
		{link, nil},
	} {
		args := append([]string{"--wasm", m.Path(t), "--agent-dir", agent}, run.args...)
		r := runBin(t, pimemBin, run.dir, []string{"PWD=" + run.dir}, append(args, "--json", "memory", "status")...)
		require.Equal(t, 0, r.exit, r.stderr)
		require.Contains(t, r.stdout, `"projectConfig":"`+filepath.Join(physical, ".pi/memory/config.json")+`"`)
	}
}
