package main

// pimem's two git commands: the merge driver git runs for the decision log,
// and the one-time setup that registers it. The merge rule is the core's
// (its merge export, wasm/decision/driver_merge.go, over the rule in
// wasm/decision/merge.go): pimem finds the files and runs
// git, which the core may not.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
)

const (
	// logPath is where the core keeps a project's decision log, from the
	// repository's root (wasm/decision/driver.go).
	logPath    = ".pi/decision-memory/decisions.jsonl"
	driverName = "pi-memory-decisions"
	driverCmd  = "pimem merge-driver %O %A %B %P"
	driverDesc = "pi-memory decision log (keeps every decision of both sides)"
)

// mergeDriver is git's merge driver: `pimem merge-driver %O %A %B %P`. The
// core reads the three files, writes the merged log over %A, and exits 0,
// or 1 when git must stop (then %A is ours, unchanged).
func mergeDriver(o options, argv []string, stdout, stderr io.Writer) (int, error) {
	if len(argv) < 3 || len(argv) > 4 {
		return 0, usageError{fmt.Sprintf("merge-driver takes git's %%O %%A %%B and optionally %%P, got %d arguments; `pimem git setup` registers it with git", len(argv))}
	}
	var paths [3]string
	for i := range paths {
		p, err := filepath.Abs(argv[i])
		if err != nil {
			return 0, err
		}
		paths[i] = filepath.ToSlash(p)
	}
	name := logPath
	if len(argv) == 4 {
		name = argv[3]
	}
	input, _ := json.Marshal(struct {
		Ancestor string `json:"ancestor"`
		Ours     string `json:"ours"`
		Theirs   string `json:"theirs"`
		Path     string `json:"path"`
	}{paths[0], paths[1], paths[2], name})
	return withModule(o.wasm, func(inst *host.Instance) (int, error) {
		d := &host.Driver{Inst: inst, Stdout: stdout, Stderr: stderr}
		res, err := d.Run("merge", input)
		if errors.Is(err, host.ErrUnknownExport) {
			return 0, errors.New("this core module cannot merge decision logs (it is older than this pimem); rebuild it with `make wasm` or pass --wasm")
		}
		if err != nil {
			return 0, coreFailed("merge", err)
		}
		return res.Exit, nil
	})
}

// gitSetup registers the merge driver in the repository holding the project:
// the .gitattributes line (committed, so every clone asks for the driver)
// and the git config entries that define it (in .git/config, so each clone
// runs setup once). Running it again changes nothing and says so.
func gitSetup(o options, argv []string, stdout io.Writer) (int, error) {
	if len(argv) != 1 || argv[0] != "setup" {
		return 0, usageError{"git takes one command: setup (pimem git setup)"}
	}
	dir := o.project
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return 0, fmt.Errorf("cannot tell the current folder: %w", err)
		}
		dir = wd
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return 0, fmt.Errorf("pimem git setup needs a git repository: %v", err)
	}
	var done []string
	changed := false
	note := func(what string, didChange bool) {
		done = append(done, what)
		changed = changed || didChange
	}

	// git reads .gitattributes too: a FIFO there would hold it, so the
	// file is looked at first.
	if err := attributesFile(filepath.Join(top, ".gitattributes")); err != nil {
		return 0, err
	}
	attr, err := mergeAttribute(top)
	if err != nil {
		return 0, err
	}
	if attr == driverName {
		note(".gitattributes: "+logPath+" already merges with "+driverName, false)
	} else {
		line := logPath + " merge=" + driverName
		if err := appendLine(filepath.Join(top, ".gitattributes"), line); err != nil {
			return 0, err
		}
		note(".gitattributes: added \""+line+"\" (commit it, so every clone merges the log this way)", true)
		if attr, err = mergeAttribute(top); err != nil {
			return 0, err
		}
		if attr != driverName {
			return 0, fmt.Errorf("added the line to %s, but git still merges %s with %q: another attributes file wins (.git/info/attributes, or a .gitattributes nearer the log); remove its merge= for that path and run pimem git setup again", filepath.Join(top, ".gitattributes"), logPath, attr)
		}
	}
	for _, kv := range [][2]string{{"merge." + driverName + ".name", driverDesc}, {"merge." + driverName + ".driver", driverCmd}} {
		old, _ := git(top, "config", "--local", "--get", kv[0])
		switch {
		case old == kv[1]:
			note("git config "+kv[0]+": already "+quote(kv[1]), false)
		default:
			if _, err := git(top, "config", "--local", kv[0], kv[1]); err != nil {
				return 0, err
			}
			what := "git config " + kv[0] + ": set to " + quote(kv[1])
			if old != "" {
				what += " (was " + quote(old) + ")"
			}
			note(what, true)
		}
	}
	_, onPath := exec.LookPath("pimem")

	if o.json {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.Encode(struct {
			Repository string   `json:"repository"`
			Changed    bool     `json:"changed"`
			Done       []string `json:"done"`
			OnPath     bool     `json:"pimemOnPath"`
		}{top, changed, done, onPath == nil})
		return 0, nil
	}
	fmt.Fprintf(stdout, "pimem git setup in %s:\n", top)
	for _, d := range done {
		fmt.Fprintf(stdout, "  %s\n", d)
	}
	if changed {
		fmt.Fprintln(stdout, "git now merges the decision log with pimem: both sides' decisions are kept, and ids they share are renumbered on the side merged in.")
		fmt.Fprintln(stdout, "The git config lives in .git/config, not in the repository: every clone runs pimem git setup once.")
	} else {
		fmt.Fprintln(stdout, "Nothing changed: this repository was already set up.")
	}
	if onPath != nil {
		fmt.Fprintln(stdout, "Note: git runs `pimem` from PATH, and there is none on this PATH; install it (make install) or a merge of the log stops with a conflict.")
	}
	return 0, nil
}

// mergeAttribute is the merge attribute git applies to the log now.
func mergeAttribute(top string) (string, error) {
	out, err := git(top, "check-attr", "merge", "--", logPath)
	if err != nil {
		return "", err
	}
	// "<path>: merge: <value>"
	i := strings.LastIndex(out, ": ")
	if i < 0 {
		return "", fmt.Errorf("cannot read git check-attr's answer %q", out)
	}
	return out[i+2:], nil
}

// maxAttributes is the largest .gitattributes appendLine reads.
const maxAttributes = 1 << 20

// appendLine adds line to the end of a text file, on a line of its own,
// creating the file when there is none. The file comes with the
// repository, so it must be one: a symbolic link (to a file outside the
// work tree), a FIFO or a device is refused, and its size is bounded.
func appendLine(file, line string) error {
	if err := attributesFile(file); err != nil {
		return err
	}
	// O_NOFOLLOW: a link put in its place since is not followed either.
	f, err := os.OpenFile(file, os.O_RDWR|os.O_CREATE|fsys.NoWaitNoLink, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file; pimem adds its line only to a file", file)
	}
	old, err := io.ReadAll(io.LimitReader(f, maxAttributes+1))
	if err != nil {
		return err
	}
	if len(old) > maxAttributes {
		return fmt.Errorf("%s is over the %d bytes pimem reads; add the line by hand", file, maxAttributes)
	}
	var b []byte
	if len(old) > 0 && old[len(old)-1] != '\n' {
		b = append(b, '\n')
	}
	b = append(b, line+"\n"...)
	_, err = f.Write(b) // after what was read: the end
	return err
}

// attributesFile refuses a .gitattributes that is not a regular file of
// at most maxAttributes bytes (one that is not there is fine).
func attributesFile(file string) error {
	info, err := os.Lstat(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (%s); pimem adds its line only to a file: replace it with one and run pimem git setup again", file, kindOf(info.Mode()))
	}
	if err == nil && info.Size() > maxAttributes {
		return fmt.Errorf("%s is %d bytes, over the %d pimem reads; add the line by hand", file, info.Size(), maxAttributes)
	}
	return nil
}

// kindOf names a file mode that is not a regular file's.
func kindOf(m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "not a file"
}

// git runs git in dir and returns its output without the final newline; an
// error carries what git said.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errs strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errs
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return "", fmt.Errorf("cannot run git (%v); is git installed and on PATH?", err)
		}
		msg := strings.TrimSpace(errs.String())
		if msg == "" {
			msg = exit.Error()
		}
		return strings.TrimSpace(out.String()), fmt.Errorf("git %s in %s: %s", strings.Join(args, " "), dir, msg)
	}
	return strings.TrimRight(out.String(), "\n"), nil
}

func quote(s string) string { return `"` + s + `"` }
