package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/wasm/registry"
)

// coreRegistry is the core's list of commands, as its registry export returns
// it (wasm/registry). pimem reads only what it prints and routes.
type coreRegistry struct {
	V        int    `json:"v"`
	Version  string `json:"version"`
	Commands []struct {
		Name        string   `json:"name"`
		Aliases     []string `json:"aliases"`
		Description string   `json:"description"`
	} `json:"commands"`
	raw string
}

// readRegistry asks the core for its registry.
func readRegistry(inst *host.Instance) (*coreRegistry, error) {
	env, err := inst.Call("registry", []byte("{}"))
	if err != nil {
		if errors.Is(err, host.ErrUnknownExport) {
			return nil, errors.New("this core module has no command registry (it is older than this pimem); rebuild it with `make wasm` or pass --wasm")
		}
		return nil, coreFailed("registry", err)
	}
	for _, e := range env.Effects {
		if e.T == "output" {
			r := &coreRegistry{raw: e.Text}
			if err := json.Unmarshal([]byte(e.Text), r); err != nil || r.V != 1 {
				return nil, fmt.Errorf("the core's registry is not one this pimem reads (v=%d): %v", r.V, err)
			}
			return r, nil
		}
	}
	return nil, errors.New("the core's registry export answered nothing")
}

// lookup finds a command by name or alias and returns its name.
func (r *coreRegistry) lookup(word string) (string, bool) {
	word = strings.ToLower(word)
	for _, c := range r.Commands {
		if c.Name == word {
			return c.Name, true
		}
		for _, a := range c.Aliases {
			if a == word {
				return c.Name, true
			}
		}
	}
	return "", false
}

// known lists the command names for a usage message: the core's (r), or
// without it those of the registry pimem was built with.
func known(r *coreRegistry) string {
	var names []string
	if r != nil {
		for _, c := range r.Commands {
			names = append(names, c.Name)
		}
	} else {
		for _, c := range registry.Commands {
			names = append(names, c.Name)
		}
	}
	return strings.Join(append(names, "inject", "commands", "git", "merge-driver", "mcp"), ", ")
}

// listing is the commands part of --help: the core's, then pimem's own,
// at 80 columns. A description names commands as pimem takes them
// (registry.ForShell, the core's rule).
func (r *coreRegistry) listing() string {
	var b strings.Builder
	b.WriteString("\ncommands (the core's; \"pimem <command> help\" lists its subcommands):\n")
	for _, c := range r.Commands {
		text := registry.ForShell(c.Description)
		if len(c.Aliases) > 0 {
			text += "; also: " + strings.Join(c.Aliases, ", ")
		}
		first := fmt.Sprintf("  %-11s ", c.Name)
		if len(first) > 14 {
			b.WriteString(strings.TrimRight(first, " ") + "\n")
			first = strings.Repeat(" ", 14)
		}
		b.WriteString(indent(text, 80, first, strings.Repeat(" ", 14)))
	}
	return b.String()
}

// indent is s wrapped at width columns, its first line after first and the
// others after hang (wasm/internal/text's Indent, which pimem cannot import).
func indent(s string, width int, first, hang string) string {
	var b strings.Builder
	line, prefix := "", first
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case utf8.RuneCountInString(prefix+line+" "+w) <= width:
			line += " " + w
		default:
			b.WriteString(prefix + line + "\n")
			line, prefix = w, hang
		}
	}
	if line != "" {
		b.WriteString(prefix + line + "\n")
	}
	return b.String()
}

// withModule loads the core and runs f on a fresh instance (no session).
func withModule(wasmFlag string, f func(inst *host.Instance) (int, error)) (int, error) {
	wasm, err := findModule(wasmFlag)
	if err != nil {
		return 0, err
	}
	ctx := context.Background()
	rt, err := newRuntime(ctx, wasm)
	if err != nil {
		return 0, err
	}
	defer rt.Close(ctx)
	inst, err := rt.NewInstance(ctx, host.Config{FS: fsys.NewOS()})
	if err != nil {
		return 0, err
	}
	defer inst.Close()
	return f(inst)
}

// help prints the usage with the core's commands. Without a module it still
// prints the usage, and says why the commands are missing.
func help(wasmFlag string, stdout io.Writer) (int, error) {
	io.WriteString(stdout, usageHead)
	_, err := withModule(wasmFlag, func(inst *host.Instance) (int, error) {
		r, err := readRegistry(inst)
		if err != nil {
			return 0, err
		}
		io.WriteString(stdout, r.listing())
		return 0, nil
	})
	if err != nil {
		fmt.Fprintf(stdout, "\ncommands: unknown, the core could not be loaded (%v)\n", err)
	}
	io.WriteString(stdout, usageTail)
	return 0, nil
}

// commands prints the registry: a list, or with --json exactly what the core
// published (what pi registers its commands from).
func commands(o options, argv []string, stdout io.Writer) (int, error) {
	asJSON := o.json
	for _, w := range argv {
		if w != "--json" {
			return 0, usageError{"commands takes only --json, got " + fmt.Sprintf("%q", w)}
		}
		asJSON = true
	}
	return withModule(o.wasm, func(inst *host.Instance) (int, error) {
		r, err := readRegistry(inst)
		if err != nil {
			return 0, err
		}
		if asJSON {
			io.WriteString(stdout, r.raw+"\n")
		} else {
			io.WriteString(stdout, strings.TrimPrefix(r.listing(), "\n"))
		}
		return 0, nil
	})
}

// version prints the line that names the core, made by the core's own rule
// (registry.About) from the release its registry export reports and the
// SHA-256 of the module file, then the module's path. In pi, `/memory status`
// ends with the same line, so the two can be compared.
func version(wasmFlag string, stdout io.Writer) (int, error) {
	wasm, err := findModule(wasmFlag)
	if err != nil {
		return 0, err
	}
	sum, err := moduleSHA256(wasm)
	if err != nil {
		return 0, err
	}
	return withModule(wasm, func(inst *host.Instance) (int, error) {
		r, err := readRegistry(inst)
		if err != nil {
			return 0, err
		}
		if r.Version == "" {
			return 0, errors.New("the core module " + wasm + " does not say its release (it is older than this pimem); rebuild it with `make wasm` or pass --wasm")
		}
		abs, err := filepath.Abs(wasm)
		if err != nil {
			abs = wasm
		}
		fmt.Fprintf(stdout, "%s\nmodule: %s\n", registry.About(r.Version, sum), abs)
		return 0, nil
	})
}
