package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	extism "github.com/extism/go-sdk"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tidwall/gjson"
)

// Config is what an Instance's imports are bound to.
type Config struct {
	FS     fsys.FS
	Clock  fsys.Clock                  // pm_now; nil is fsys.Real
	Random io.Reader                   // pm_random; nil is crypto/rand
	Log    func(level int, msg string) // pm_log (0 debug … 3 error); nil discards
}

var (
	// ErrTrap matches every *TrapError.
	ErrTrap = errors.New("core trapped")
	// ErrLost is returned by calls on an instance that trapped and has not
	// been recreated.
	ErrLost = errors.New("core instance lost after a trap; call Recreate")
	// ErrUnknownExport is a call to a function the module does not export.
	ErrUnknownExport = errors.New("core module has no such export")
	// ErrClosed is a call on a closed instance.
	ErrClosed = errors.New("core instance closed")
)

// TrapError is a call that ended in a WebAssembly trap (a TinyGo panic,
// unreachable code) or a Go runtime exit. The instance is unusable after it.
type TrapError struct {
	Export  string
	Msg     string // the runtime's error, with the wasm stack trace
	Console string // what the module printed before it died (the panic message)
}

func (e *TrapError) Error() string {
	return "core trapped in " + e.Export + ": " + e.Summary()
}

// Summary is the line a person needs: the module's panic message if it
// printed one, else the first line of the runtime's error.
func (e *TrapError) Summary() string {
	for _, line := range strings.Split(e.Console, "\n") {
		if strings.HasPrefix(line, "panic: ") {
			return line
		}
	}
	first, _, _ := strings.Cut(e.Msg, "\n")
	return first
}

func (e *TrapError) Is(target error) bool { return target == ErrTrap }

// Instance is one instantiation of the core, bound to an FS, a clock and a
// random source. Calls are serialized: an instance is not re-entrant.
type Instance struct {
	rt  *Runtime
	cfg Config

	mu           sync.Mutex
	plugin       *extism.Plugin
	mem          api.Memory // the guest's linear memory, not Extism's
	console      *tail
	lastErr      string // pm_last_error: the message of the last failing import
	lost         *TrapError
	sessionStart []byte // the last session_start input, replayed by Recreate
	// state is the newest state effect's state since that session_start,
	// and interrupted the call that trapped: Recreate hands both back
	// ("restore"), so a restart keeps what the person set.
	state       json.RawMessage
	interrupted json.RawMessage
	input       []byte // the input of the call in progress (pm_input)
	output      []byte // the envelope pm_output gave in the call in progress, nil if none
	// block is the newest context_messages effect that carried its messages:
	// the core names it (same) while it is unchanged instead of sending it again.
	block Effect
	// replaying is set while Recreate replays session_start.
	replaying bool
}

type instanceKey struct{}

// NewInstance instantiates the module with imports bound to cfg.
func (r *Runtime) NewInstance(ctx context.Context, cfg Config) (*Instance, error) {
	if cfg.FS == nil {
		return nil, errors.New("host: Config.FS is required")
	}
	if cfg.Clock == nil {
		cfg.Clock = fsys.Real{}
	}
	if cfg.Random == nil {
		cfg.Random = rand.Reader
	}
	if cfg.Log == nil {
		cfg.Log = func(int, string) {}
	}
	i := &Instance{rt: r, cfg: cfg}
	if err := i.instantiate(ctx); err != nil {
		return nil, err
	}
	return i, nil
}

func (i *Instance) instantiate(ctx context.Context) error {
	i.console = &tail{max: 16 << 10}
	mc := wazero.NewModuleConfig().WithStdout(i.console).WithStderr(i.console)
	p, err := i.rt.compiled.Instance(experimental.WithMemoryAllocator(ctx, linearMemory()), extism.PluginInstanceConfig{ModuleConfig: mc})
	if err != nil {
		return fmt.Errorf("host: instantiate core module: %w", err)
	}
	mem, err := guestMemory(p)
	if err != nil {
		p.Close(ctx)
		return err
	}
	i.plugin, i.mem, i.lastErr, i.lost, i.block = p, mem, "", nil, Effect{}
	return nil
}

// Call runs an export with a JSON input and returns its envelope.
func (i *Instance) Call(export string, input []byte) (Envelope, error) {
	return i.CallContext(context.Background(), export, input)
}

// CallContext is Call with a context for the wasm call.
func (i *Instance) CallContext(ctx context.Context, export string, input []byte) (Envelope, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	switch {
	case i.plugin == nil:
		return Envelope{}, ErrClosed
	case i.lost != nil:
		return Envelope{}, fmt.Errorf("%w (it trapped in %s)", ErrLost, i.lost.Export)
	case !i.plugin.FunctionExists(export):
		return Envelope{}, fmt.Errorf("%w: %q", ErrUnknownExport, export)
	}
	if export == "session_start" && !i.replaying {
		i.sessionStart, i.state, i.interrupted = bytes.Clone(input), nil, nil
	}
	i.console.Reset()
	// The core reads a small input through Extism and a large one through
	// pm_input, and answers the same way (pm_output).
	i.input, i.output = input, nil
	rc, out, err := i.plugin.CallWithContext(context.WithValue(ctx, instanceKey{}, i), export, input)
	if i.output != nil {
		out = i.output
	}
	i.input, i.output = nil, nil
	if err != nil || rc != 0 {
		// The core reports every failure it can in the envelope, so any
		// error here means the module died mid-call and its state is suspect.
		msg := fmt.Sprintf("export returned %d", rc)
		if err != nil {
			msg = err.Error()
		}
		i.lost = &TrapError{Export: export, Msg: msg, Console: i.console.String()}
		i.interrupted = interrupted(export, input)
		return Envelope{}, i.lost
	}
	env, err := ParseEnvelope(out)
	if err != nil {
		return Envelope{}, fmt.Errorf("host: %s: %w", export, err)
	}
	for _, e := range env.Effects {
		if e.T == "state" {
			i.state = e.State
		}
	}
	if err := i.blocks(env); err != nil {
		// The core believes the host holds a block it does not: only a new
		// instance, which sends its block before naming it, agrees again.
		i.lost = &TrapError{Export: export, Msg: err.Error()}
		return Envelope{}, i.lost
	}
	return env, nil
}

// blocks keeps the newest block a context_messages effect carries and gives
// each one that names it (same) its messages, so every context_messages
// effect a caller gets holds them. A name this instance was not sent breaks
// the contract: the core sends a block before it names it.
func (i *Instance) blocks(env Envelope) error {
	for k := range env.Effects {
		e := &env.Effects[k]
		switch {
		case e.T != "context_messages":
		case e.Messages != nil:
			if e.ID != "" {
				i.block = *e
			}
		case e.Same != "" && e.Same == i.block.ID:
			e.Messages = i.block.Messages
		default:
			return fmt.Errorf("%w: context_messages names block %q, which this instance has not sent", ErrEnvelope, e.Same)
		}
	}
	return nil
}

// Recreate replaces the instance with a fresh one from the compiled module
// and replays the last session_start input, as the pi adapter does after a
// trap: the core rebuilds its state from the canonical files. It returns the
// replayed session_start's envelope (empty if there was none to replay).
func (i *Instance) Recreate() (Envelope, error) {
	return i.RecreateContext(context.Background())
}

// RecreateContext is Recreate with a context.
func (i *Instance) RecreateContext(ctx context.Context) (Envelope, error) {
	i.mu.Lock()
	if i.plugin != nil {
		i.plugin.Close(ctx)
		i.plugin = nil
	}
	err := i.instantiate(ctx)
	replay := restoring(i.sessionStart, i.state, i.interrupted)
	i.interrupted = nil
	i.replaying = true
	i.mu.Unlock()
	defer func() { i.mu.Lock(); i.replaying = false; i.mu.Unlock() }()
	if err != nil || replay == nil {
		return Envelope{}, err
	}
	return i.CallContext(ctx, "session_start", replay)
}

// restoring is the session_start input replayed after a trap: the session's
// own, with the newest state and the call that trapped as "restore"
// (decision 001).
func restoring(start, state, interrupted json.RawMessage) []byte {
	if start == nil || (state == nil && interrupted == nil) {
		return start
	}
	var in map[string]json.RawMessage
	if json.Unmarshal(start, &in) != nil {
		return start
	}
	r := map[string]json.RawMessage{}
	if state != nil {
		r["state"] = state
	}
	if interrupted != nil {
		r["interrupted"] = interrupted
	}
	in["restore"], _ = json.Marshal(r)
	b, _ := json.Marshal(in)
	return b
}

// interrupted is what "restore" says of a call that trapped: its export and,
// for a command, the command as it was sent.
func interrupted(export string, input []byte) json.RawMessage {
	v := map[string]json.RawMessage{}
	v["export"], _ = json.Marshal(export)
	if export == "command" {
		g := gjson.ParseBytes(input)
		for _, k := range []string{"name", "args", "argv"} {
			if f := g.Get(k); f.Exists() {
				v[k] = json.RawMessage(f.Raw)
			}
		}
	}
	b, _ := json.Marshal(v)
	return b
}

// Close releases the instance. Locks its FS holds stay held, as they would
// for a process that exits without unlocking.
func (i *Instance) Close() error {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.plugin == nil {
		return nil
	}
	err := i.plugin.Close(context.Background())
	i.plugin = nil
	return err
}

// tail keeps the last max bytes written to it: the module's stdout and
// stderr, kept only to explain a trap.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func (t *tail) Reset() {
	t.mu.Lock()
	t.b = t.b[:0]
	t.mu.Unlock()
}
