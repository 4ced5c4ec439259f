// Command pimem runs pi-memory's core outside pi, with the grammar of the
// slash commands: `pimem decision list` does what `/decision list` does in pi.
// The commands it knows are the core's own (its registry export), so pimem,
// pi and `/… help` always list the same ones. `pimem inject` prints exactly
// what would be added to the system prompt for a prompt; `pimem --version`
// names the core it runs, as `/memory status` does in pi. Command output goes
// to stdout, everything else to stderr.
//
//	pimem [--project DIR] [--agent-dir DIR] [--json] [--wasm PATH] <command> [args…]
//	pimem [flags] --session FILE om <view|status|observations|dump|…>
//	pimem [flags] inject [--prompt TEXT] [--json]
//	pimem [flags] commands [--json]
//	pimem [flags] git setup
//	pimem [--project DIR] [--agent-dir DIR] [--wasm PATH] mcp
//	pimem [--wasm PATH] merge-driver %O %A %B %P
//	pimem [--wasm PATH] --version
//
// Exit codes: 0 ok, 1 user error (or a failure of the core), 2 usage error.
//
// Build: go build -o build/out/pimem ./host/cmd/pimem
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/wasm/registry"
)

const usageHead = `usage: pimem [--project DIR] [--agent-dir DIR] [--json] [--wasm PATH]
             <command> [args...]
       pimem [flags] --session FILE om <status|observations|view|dump|...>
       pimem [flags] inject [--prompt TEXT] [--json]
       pimem [flags] commands [--json]
       pimem [flags] git setup
       pimem [flags] mcp
       pimem [--wasm PATH] merge-driver %O %A %B %P
       pimem [--wasm PATH] --version

Runs pi-memory's commands outside pi, with the grammar of the slash commands:
"pimem decision list" does what "/decision list" does.
`

const usageTail = `  inject      print what would be added to the system prompt for --prompt
  commands    the core's commands and their subcommands (--json: as pi
              registers them)
  git setup   make git merge the decision log with pimem: the .gitattributes
              line and the git config of the merge driver (each clone runs it
              once)
  merge-driver
              what git runs to merge the decision log (git setup registers it)
  mcp         serve this project's memory to other agents over MCP (stdio): the
              tools, the decisions and notes as resources, the "memory" prompt

flags (before the command; after it, those the subcommand does not take):
  --project DIR    the project (default: the current folder); running pimem in
                   a folder trusts it, as "pi --approve" would
                   (docs/decisions/001)
  --agent-dir DIR  pi's agent folder (default: $PI_CODING_AGENT_DIR, else
                   ~/.pi/agent)
  --json           every command answers in JSON: what it shows, or what it
                   wrote
  --session FILE   a pi session file (JSON Lines): "om" commands read its
                   current branch (the path to its last entry); pimem never
                   writes to it
  --wasm PATH      the core module (default: $PIMEM_WASM, else core.wasm beside
                   pimem, else ts/core.wasm in a folder above pimem)
  --version        the core's release and the SHA-256 of its module (first 12
                   digits), as /memory status ends in pi, and the module's path

exit codes: 0 ok, 1 user error (or a problem found by doctor/verify),
            2 usage error
`

func main() {
	os.Exit(run(os.Args[1:], plainWriter{os.Stdout}, plainWriter{os.Stderr}))
}

// hoist takes pimem's own value flags (--session, --project, --agent-dir,
// --wasm) out of the words after the command, where a person also types
// them (pimem om view --session FILE), and sets them in o; the other words
// go to the core as they are. A flag the subcommand takes itself (the
// registry's: decision disable --project) is the subcommand's, and so are
// words after a bare "--". So is a flag that stands among the subcommand's
// own words: `pimem memory remember global Set --agent-dir docs to …` gives
// the subcommand the words --agent-dir docs, which it refuses as a flag it
// does not take, rather than writing memory to another folder; after the
// last word (pimem memory search x --project DIR) it is pimem's. A flag
// given twice is a usage error, as is one without its value.
//
//	hoist("om", ["view", "--session", "s.jsonl", "raw"]) => ["view", "raw"], o.session "s.jsonl"
//	hoist("decision", ["disable", "--project"])         => ["disable", "--project"]
//	hoist("decision", ["add", "Keep", "--wasm", "x"])   => ["add", "Keep", "--wasm", "x"]
//	hoist("memory", ["search", "x", "--project", "p"])  => ["search", "x"], o.project "p"
func hoist(command string, argv []string, o *options) ([]string, error) {
	flags := map[string]*string{"session": &o.session, "project": &o.project, "agent-dir": &o.agentDir, "wasm": &o.wasm}
	own, values := subFlags(command, argv)
	var rest []string
	_, implied, _ := registry.Resolve(command)
	sub, text, value := len(implied) > 0, false, false
	for i := 0; i < len(argv); i++ {
		w := argv[i]
		if w == "--" {
			return append(rest, argv[i:]...), nil
		}
		name, value_, inline := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(w, "-"), "-"), "=")
		dst, ok := flags[name]
		if !ok || !strings.HasPrefix(w, "-") || own[name] || text && wordAfter(argv[i+1:], values, !inline) {
			switch {
			case value:
				value = false
			case strings.HasPrefix(w, "--"):
				value = !inline && values[name]
			case !sub:
				sub = true
			default:
				text = true
			}
			rest = append(rest, w)
			continue
		}
		value := value_
		if !inline {
			if i+1 >= len(argv) {
				return nil, usageError{"--" + name + " needs a value"}
			}
			i++
			value = argv[i]
		}
		if *dst != "" {
			return nil, usageError{"--" + name + " is given twice"}
		}
		*dst = value
	}
	return rest, nil
}

// wordAfter reports whether rest, what follows a flag, holds a positional
// word: neither a flag nor a flag's value (skip: the first word is the
// flag's own). values are the subcommand's flags that take one.
func wordAfter(rest []string, values map[string]bool, skip bool) bool {
	for _, w := range rest {
		switch {
		case w == "--":
			return false
		case skip:
			skip = false
		case strings.HasPrefix(w, "--"):
			name, _, inline := strings.Cut(w[2:], "=")
			_, global := map[string]bool{"session": true, "project": true, "agent-dir": true, "wasm": true}[name]
			skip = !inline && (values[name] || global)
		default:
			return true
		}
	}
	return false
}

// subFlags are the flags of the subcommand argv runs of command, by name,
// as the registry gives them: the subcommand named first (after the words
// an alias like om-status stands for), else the command's default.
//
//	subFlags("decision", ["disable", "--project"]) => {"global", "project"}
func subFlags(command string, argv []string) (own, values map[string]bool) {
	c, implied, ok := registry.Resolve(command)
	if !ok {
		return nil, nil
	}
	words := append(append([]string(nil), implied...), argv...)
	sub := c.Default
	if len(words) > 0 && !strings.HasPrefix(words[0], "-") {
		sub = words[0]
	}
	s, ok := c.Sub(sub)
	if !ok {
		return nil, nil
	}
	own, values = map[string]bool{}, map[string]bool{}
	for _, f := range s.Flags {
		own[f.Name] = true
		values[f.Name] = f.Value != ""
	}
	return own, values
}

// usageError is a bad pimem command line: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

type options struct {
	project, agentDir, wasm, session string
	json, version                    bool
}

func run(args []string, stdout, stderr io.Writer) int {
	code, err := pimem(args, stdout, stderr)
	var ue usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "pimem: %s\nRun 'pimem --help' for usage.\n", ue.msg)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "pimem: %s\n", err)
		return 1
	}
	return code
}

func pimem(args []string, stdout, stderr io.Writer) (code int, err error) {
	var o options
	fs := flag.NewFlagSet("pimem", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.project, "project", "", "")
	fs.StringVar(&o.agentDir, "agent-dir", "", "")
	fs.BoolVar(&o.json, "json", false, "")
	fs.StringVar(&o.wasm, "wasm", "", "")
	fs.StringVar(&o.session, "session", "", "")
	fs.BoolVar(&o.version, "version", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return help(o.wasm, stdout)
		}
		return 0, usageError{err.Error()}
	}
	rest := fs.Args()
	if o.version {
		if len(rest) > 0 {
			return 0, usageError{fmt.Sprintf("--version takes no command, got %q", rest)}
		}
		return version(o.wasm, stdout)
	}
	if len(rest) == 0 {
		// Said at 80 columns after run's "pimem: ".
		msg := indent("no command given; the commands are "+known(nil)+".", 80, "pimem: ", "       ")
		return 0, usageError{strings.TrimPrefix(strings.TrimSuffix(msg, "\n"), "pimem: ")}
	}
	store, argv := rest[0], rest[1:]
	if store == "help" && len(argv) == 0 {
		return help(o.wasm, stdout)
	}
	argv, err = hoist(store, argv, &o)
	if err != nil {
		return 0, err
	}
	typed := store // the core resolves an alias that implies a subcommand (om-status) itself

	var prompt string
	if store == "inject" {
		ifs := flag.NewFlagSet("pimem inject", flag.ContinueOnError)
		ifs.SetOutput(io.Discard)
		ifs.StringVar(&prompt, "prompt", "", "")
		ifs.BoolVar(&o.json, "json", o.json, "")
		if err := ifs.Parse(argv); err != nil {
			return 0, usageError{"inject: " + err.Error()}
		}
		if ifs.NArg() > 0 {
			return 0, usageError{fmt.Sprintf("inject takes no arguments, got %q (quote the prompt: --prompt \"…\")", ifs.Args())}
		}
	} else if store == "commands" {
		return commands(o, argv, stdout)
	} else if store == "merge-driver" {
		return mergeDriver(o, argv, stdout, stderr)
	} else if store == "git" {
		return gitSetup(o, argv, stdout)
	} else if store == "mcp" {
		in, out := stdio()
		return mcpServe(o, argv, in, out, stderr)
	}
	// From here the core may write; a signal lets it finish (mcp has its own).
	stopped, stop := finishOnSignal(stderr)
	defer func() {
		if s, ok := stop(); ok && err == nil {
			code = 128 + int(s)
		}
	}()

	session, err := sessionInput(o)
	if err != nil {
		return 0, err
	}
	if o.session != "" {
		if session.SessionFile, err = filepath.Abs(o.session); err != nil {
			return 0, fmt.Errorf("--session: %w", err)
		}
	}
	wasm, err := findModule(o.wasm)
	if err != nil {
		return 0, err
	}
	if session.Module, err = moduleSHA256(wasm); err != nil {
		return 0, err
	}
	ctx := context.Background()
	rt, err := newRuntime(ctx, wasm)
	if err != nil {
		return 0, err
	}
	defer rt.Close(ctx)
	inst, err := rt.NewInstance(ctx, host.Config{FS: fsys.NewOS(), Log: logTo(stderr)})
	if err != nil {
		return 0, err
	}
	defer inst.Close()
	if store != "inject" {
		reg, err := readRegistry(inst)
		if err != nil {
			return 0, err
		}
		name, ok := reg.lookup(store)
		if !ok {
			msg := fmt.Sprintf("unknown command %s (%s)", commandWord(store), known(reg))
			if meant := registry.Meant(store); len(meant) > 0 {
				msg += "; did you mean pimem " + strings.Join(meant, " or pimem ") + "?"
			}
			return 0, usageError{msg}
		}
		store = name
	}
	d := &host.Driver{Inst: inst, Stdout: stdout, Stderr: stderr, Stop: stopped}

	start, _ := json.Marshal(session)
	res, err := d.Run("session_start", start)
	if err != nil {
		return 0, coreFailed("session_start", err)
	}
	if res.Exit != 0 {
		return res.Exit, nil
	}
	// Like pi, end the session when the work is done: the core writes what
	// can wait (a snapshot) then, not before the answer.
	defer shutdown(d, stderr)
	if store == "inject" {
		return inject(d, prompt, o.json, stdout)
	}
	if o.json {
		argv = withJSON(argv)
	}
	// The session file went with session_start: the core read its branch
	// there, and the command works on that branch.
	input, _ := json.Marshal(struct {
		Name  string   `json:"name"`
		Argv  []string `json:"argv"`
		HasUI bool     `json:"hasUI"`
	}{typed, append([]string{}, argv...), false})
	res, err = d.Run("command", input)
	if err != nil {
		return 0, coreFailed("command", err)
	}
	return res.Exit, nil
}

// shutdown sends session_shutdown; a failure there is reported but never
// changes the command's exit code.
func shutdown(d *host.Driver, stderr io.Writer) {
	// A module without the export has nothing to finish.
	if _, err := d.Run("session_shutdown", []byte(`{"reason":"quit"}`)); err != nil && !errors.Is(err, host.ErrUnknownExport) {
		fmt.Fprintln(stderr, "pimem: "+coreFailed("session_shutdown", err).Error())
	}
}

// sessionStart is the input of session_start.
type sessionStart struct {
	Cwd      string          `json:"cwd"`
	AgentDir string          `json:"agentDir"`
	Home     string          `json:"home"`
	Trusted  bool            `json:"trusted"`
	HasUI    bool            `json:"hasUI"`
	Mode     string          `json:"mode"`
	Reason   string          `json:"reason"`
	Flags    map[string]bool `json:"flags"`
	// Module is the module file's SHA-256, as pi's adapter sends the one it
	// loaded: the core names itself with it in `memory status`.
	Module string `json:"moduleSha256"`
	// Zone is the local offset from UTC in minutes, for observations' times.
	Zone int `json:"zone"`
	// SessionFile is the pi session file --session names: the core reads
	// its current branch from it (wasm/internal/pisession), as pi's
	// getBranch() would give it; absent without --session.
	SessionFile string `json:"sessionFile,omitempty"`
	// Env is this process's values of the variables that steer
	// observational memory and Hindsight (sessionEnv), as pi's adapter
	// passes pi's.
	Env map[string]string `json:"env,omitempty"`
}

// sessionEnv names the environment variables session_start passes in env
// (decision 001); what they mean is the core's to say.
var sessionEnv = []string{"PI_OM_SCOPE", "PI_OM_SQLITE", "PI_OM_SQLITE_PATH", "HINDSIGHT_API_URL", "HINDSIGHT_API_KEY", "HINDSIGHT_BANK_ID"}

// envOf is the set variables of names, nil when none is set.
func envOf(names []string) map[string]string {
	var env map[string]string
	for _, k := range names {
		if v, ok := os.LookupEnv(k); ok {
			if env == nil {
				env = map[string]string{}
			}
			env[k] = v
		}
	}
	return env
}

// sessionInput is session_start as pi would send it for this project, with
// no UI and the project trusted: running pimem in a folder is consent. The
// caller adds the module's hash once it has found the module.
func sessionInput(o options) (sessionStart, error) {
	cwd := o.project
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return sessionStart{}, fmt.Errorf("cannot tell the current folder: %w", err)
		}
		cwd = wd
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return sessionStart{}, usageError{"--project: " + err.Error()}
	}
	if fi, err := os.Stat(cwd); err != nil || !fi.IsDir() {
		return sessionStart{}, usageError{"--project " + cwd + " is not a folder"}
	}
	// The folder as pi names it (Node's process.cwd() is the physical path):
	// reached through a symbolic link, one project kept two states, its
	// forgotten entries' records and ids apart (h-v93 d2), and pi's
	// sessions of it were not found.
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	agentDir := o.agentDir
	if agentDir == "" {
		agentDir = os.Getenv("PI_CODING_AGENT_DIR")
	}
	if agentDir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return sessionStart{}, fmt.Errorf("cannot find the agent folder: no home folder (%v); pass --agent-dir", err)
		}
		agentDir = filepath.Join(home, ".pi", "agent")
	}
	if agentDir, err = filepath.Abs(agentDir); err != nil {
		return sessionStart{}, usageError{"--agent-dir: " + err.Error()}
	}
	// The home folder only locates other tools' memory (memory import
	// claude); without one, that command says so.
	home, _ := os.UserHomeDir()
	_, offset := time.Now().Zone()
	return sessionStart{filepath.ToSlash(cwd), filepath.ToSlash(agentDir), filepath.ToSlash(home), true, false, "cli", "startup", map[string]bool{}, "", offset / 60, "", envOf(sessionEnv)}, nil
}

// withJSON adds the --json word pimem was given before the store. It goes
// last, where the command's flags go, but before a bare "--", after which
// every word is positional.
func withJSON(argv []string) []string {
	out := make([]string, 0, len(argv)+1)
	for n, w := range argv {
		if w == "--" {
			out = append(out, "--json")
			return append(out, argv[n:]...)
		}
		out = append(out, w)
	}
	return append(out, "--json")
}

// inject prints what the core appends to the system prompt for prompt, byte
// for byte; with --json, that text and the messages it would inject.
func inject(d *host.Driver, prompt string, asJSON bool, stdout io.Writer) (int, error) {
	input, _ := json.Marshal(struct {
		Prompt      string `json:"prompt"`
		MessageType string `json:"messageType"`
	}{prompt, "user"})
	res, err := d.Run("before_agent_start", input)
	if err != nil {
		return 0, coreFailed("before_agent_start", err)
	}
	text := strings.Join(res.SystemPromptAppend, "")
	if !asJSON {
		io.WriteString(stdout, text)
		return res.Exit, nil
	}
	messages := []map[string]any{}
	for _, m := range res.Messages {
		var fields map[string]any
		if err := json.Unmarshal(m.Raw, &fields); err != nil {
			return 0, err
		}
		delete(fields, "t")
		messages = append(messages, fields)
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(struct {
		SystemPromptAppend string           `json:"systemPromptAppend"`
		Messages           []map[string]any `json:"messages"`
	}{text, messages})
	return res.Exit, nil
}

func coreFailed(export string, err error) error {
	var trap *host.TrapError
	if errors.As(err, &trap) {
		return fmt.Errorf("the core failed during %s: %s\nThis is a bug in pi-memory; please report it with the command you ran", export, trap.Summary())
	}
	return fmt.Errorf("the core failed during %s: %w", export, err)
}

// logTo shows the core's warnings and errors; debug and info are for tests.
func logTo(w io.Writer) func(int, string) {
	return func(level int, msg string) {
		switch level {
		case 2:
			fmt.Fprintf(w, "pi-memory: warning: %s\n", msg)
		case 3:
			fmt.Fprintf(w, "pi-memory: error: %s\n", msg)
		}
	}
}

// commandWord is what an unknown command is called back: quoted when it
// could be one (a short word of letters and "-"), else only its length, so a
// token or a paste given as the command is not said back.
//
//	commandWord("decison") => `"decison"`; commandWord("ghp_u8jz…") => "of 40 characters"
func commandWord(w string) string {
	if len(w) <= 24 && strings.Trim(strings.ToLower(w), "abcdefghijklmnopqrstuvwxyz-") == "" {
		return strconv.Quote(w)
	}
	return "of " + strconv.Itoa(utf8.RuneCountInString(w)) + " characters"
}
