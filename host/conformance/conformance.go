// Package conformance runs the fixtures of testdata/conformance (see its
// README) for the Go runners of the core: natively (wasm/lifecycle) and on
// wazero (host), both builds. The Node runner (ts/test/conformance.test.ts)
// reads the same fixtures with its own small reader. Test support only.
//
// It owns the fixture format: reading case.json, preparing a temp root,
// putting real paths into step inputs and taking them out of what comes back,
// and comparing envelopes, files and the tree with expected.json. It decides
// nothing about memory; a runner only supplies one fresh engine per case.
//
// It lives outside host/internal because wasm/lifecycle, which is not under
// host/, imports it too.
package conformance

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
)

// Case is one folder of testdata/conformance: case.json and its input files.
type Case struct {
	Name        string              `json:"-"`
	Dir         string              `json:"-"`
	Description string              `json:"description"`
	Now         string              `json:"now"`
	Files       map[string]FileSpec `json:"files"`
	Check       []string            `json:"check"`
	Steps       []Step              `json:"steps"`

	nowMs int64
}

// FileSpec is a file written before the first step: the bytes of a file in
// the case folder (From) or literal text.
type FileSpec struct {
	From    *string `json:"from"`
	Text    *string `json:"text"`
	Symlink *string `json:"symlink"` // a symbolic link to this path, relative to the temp root
}

// Step is one export call. Input may use $PROJECT and $AGENT. Pin, when
// set, names the effect fields the step pins (besides "t"; "exit" is always
// pinned): expected.json then holds only those, so a case pins the behaviour
// it is about, not every word of prose around it.
//
// Write, when set, changes files just before the export runs, as another
// process or the person would mid-session: each as in "files", or null to
// remove it.
type Step struct {
	Export string               `json:"export"`
	Input  json.RawMessage      `json:"input"`
	Pin    []string             `json:"pin"`
	Write  map[string]*FileSpec `json:"write"`
}

// Reduce keeps, of each effect of an envelope, "t" and the fields in pin; and
// the envelope's "v" and "exit". With no pin the effects are kept as they
// are. A state effect (the session's state, which the host keeps for a
// restart) is left out unless pin names "state": it repeats what the other
// effects and the files already show, and its own tests pin it. The Node
// runner (ts/test/conformance.test.ts) does the same.
func Reduce(env []byte, pin []string) []byte {
	var e struct {
		V       int               `json:"v"`
		Effects []json.RawMessage `json:"effects"`
		Exit    int               `json:"exit"`
	}
	if json.Unmarshal(env, &e) != nil {
		return env
	}
	changed := false
	kept := e.Effects[:0]
	for _, raw := range e.Effects {
		var eff map[string]any
		if json.Unmarshal(raw, &eff) != nil {
			return env
		}
		if eff["t"] == "state" && !slices.Contains(pin, "state") {
			changed = true
			continue
		}
		if len(pin) > 0 {
			reduced := map[string]any{"t": eff["t"]}
			for _, k := range pin {
				if v, ok := eff[k]; ok {
					reduced[k] = v
				}
			}
			raw, _ = json.Marshal(reduced)
			changed = true
		}
		kept = append(kept, raw)
	}
	if !changed {
		return env
	}
	e.Effects = kept
	out, _ := json.Marshal(e)
	return out
}

// Expected is expected.json: what the steps return and leave on disk.
type Expected struct {
	Envelopes []json.RawMessage  `json:"envelopes"`
	Files     map[string]*string `json:"files"`
	Tree      []string           `json:"tree"`
}

// NowMs is the fixed clock of the case, in Unix milliseconds.
func (c *Case) NowMs() int64 { return c.nowMs }

// Cases reads every case folder, sorted by name.
func Cases(t testing.TB) []*Case {
	t.Helper()
	root, err := testmod.RepoRoot()
	require.NoError(t, err)
	base := filepath.Join(root, "testdata", "conformance")
	entries, err := os.ReadDir(base)
	require.NoError(t, err)
	var cases []*Case
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		c := &Case{Name: e.Name(), Dir: filepath.Join(base, e.Name())}
		require.NoError(t, decodeStrict(filepath.Join(c.Dir, "case.json"), c), c.Name)
		now, err := time.Parse(time.RFC3339Nano, c.Now)
		require.NoError(t, err, "%s: case.json \"now\"", c.Name)
		c.nowMs = now.UnixMilli()
		require.True(t, c.Description != "" && len(c.Steps) > 0, "%s: case.json needs a description and at least one step", c.Name)
		cases = append(cases, c)
	}
	require.True(t, len(cases) > 0, "no cases in %s", base)
	return cases
}

func decodeStrict(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// Sandbox is the temp root a case runs in: project/ (a git work tree, so
// the project root never depends on what lies above the temp folder) and
// agent/, with the case's files written.
type Sandbox struct {
	Root, Project, Agent string
	// ProjectID is the id the core must derive for Project: the first 16 hex
	// digits of the SHA-1 of its path (docs/formats.md). Computed here
	// independently of the core, so the fixtures pin the rule.
	ProjectID string
}

// Prepare makes the case's sandbox in a fresh temp folder.
func (c *Case) Prepare(t testing.TB) *Sandbox {
	t.Helper()
	root := t.TempDir()
	s := &Sandbox{Root: root, Project: filepath.Join(root, "project"), Agent: filepath.Join(root, "agent")}
	sum := sha1.Sum([]byte(filepath.ToSlash(s.Project)))
	s.ProjectID = hex.EncodeToString(sum[:])[:16]
	require.NoError(t, os.MkdirAll(filepath.Join(s.Project, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(s.Agent, 0o755))
	for _, rel := range sortedKeys(c.Files) {
		spec := c.Files[rel]
		s.write(t, c, rel, &spec)
	}
	return s
}

// Write makes the changes a step asks for before its export runs.
func (s *Sandbox) Write(t testing.TB, c *Case, step Step) {
	t.Helper()
	for _, rel := range sortedKeys(step.Write) {
		s.write(t, c, rel, step.Write[rel])
	}
}

// write writes one file of the case (relative to the root, $PROJECT_ID
// replaced) as spec says; a nil spec removes it.
func (s *Sandbox) write(t testing.TB, c *Case, rel string, spec *FileSpec) {
	t.Helper()
	p := filepath.Join(s.Root, filepath.FromSlash(strings.ReplaceAll(rel, "$PROJECT_ID", s.ProjectID)))
	var data []byte
	switch {
	case spec == nil:
		require.NoError(t, os.Remove(p))
		return
	case spec.Symlink != nil && spec.From == nil && spec.Text == nil:
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.Symlink(filepath.Join(s.Root, filepath.FromSlash(*spec.Symlink)), p))
		return
	case spec.From != nil && spec.Text == nil:
		b, err := os.ReadFile(filepath.Join(c.Dir, *spec.From))
		require.NoError(t, err)
		data = b
	case spec.Text != nil && spec.From == nil:
		data = []byte(*spec.Text)
	default:
		t.Fatalf("%s: file %s needs exactly one of \"from\", \"text\" and \"symlink\"", c.Name, rel)
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, data, 0o644))
}

// Input is a step's input with $PROJECT and $AGENT replaced by real paths.
func (s *Sandbox) Input(step Step) []byte {
	in := string(step.Input)
	if in == "" {
		in = "{}"
	}
	return []byte(strings.NewReplacer("$PROJECT", jsonText(s.Project), "$AGENT", jsonText(s.Agent), "$ROOT", jsonText(s.Root)).Replace(in))
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// Abstract replaces the sandbox's real paths and project id by $PROJECT,
// $AGENT, $PROJECT_ID and $ROOT, in JSON text or plain file content.
func (s *Sandbox) Abstract(b []byte) string {
	return strings.NewReplacer(
		jsonText(s.Project), "$PROJECT", jsonText(s.Agent), "$AGENT",
		s.Project, "$PROJECT", s.Agent, "$AGENT", s.ProjectID, "$PROJECT_ID",
		jsonText(s.Root), "$ROOT", s.Root, "$ROOT",
	).Replace(string(b))
}

// AbstractTree replaces the project id in tree paths (the agent dir keys
// derived files by it) by $PROJECT_ID, and sorts again.
func (s *Sandbox) AbstractTree(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = strings.ReplaceAll(p, s.ProjectID, "$PROJECT_ID")
	}
	sort.Strings(out)
	return out
}

// Call runs one export on the engine under test and returns its envelope as
// the core wrote it.
type Call func(export string, input []byte) ([]byte, error)

// Run runs every case as a subtest of t, each on a fresh engine from start.
// With update set it rewrites expected.json from the results instead of
// comparing (only the native runner offers that).
func Run(t *testing.T, update bool, start func(t *testing.T, c *Case, s *Sandbox) Call) {
	for _, c := range Cases(t) {
		t.Run(c.Name, func(t *testing.T) {
			s := c.Prepare(t)
			call := start(t, c, s)
			got := Expected{Files: map[string]*string{}}
			for i, step := range c.Steps {
				s.Write(t, c, step)
				out, err := call(step.Export, s.Input(step))
				require.NoError(t, err, "step %d (%s)", i+1, step.Export)
				abs := s.Abstract(out)
				require.True(t, json.Valid([]byte(abs)), "step %d (%s) returned invalid JSON: %s", i+1, step.Export, out)
				got.Envelopes = append(got.Envelopes, json.RawMessage(Reduce([]byte(abs), step.Pin)))
			}
			for _, rel := range c.Check {
				real := strings.ReplaceAll(rel, "$PROJECT_ID", s.ProjectID)
				b, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(real)))
				switch {
				case errors.Is(err, fs.ErrNotExist):
					got.Files[rel] = nil
				case err != nil:
					require.NoError(t, err)
				default:
					text := s.Abstract(b)
					got.Files[rel] = &text
				}
			}
			got.Tree = s.AbstractTree(Tree(t, s.Root))
			file := filepath.Join(c.Dir, "expected.json")
			if update {
				require.NoError(t, os.WriteFile(file, encode(t, got), 0o644))
				return
			}
			var want Expected
			require.NoError(t, decodeStrict(file, &want), "generate it with: go test ./wasm/lifecycle -run TestConformance -update")
			compare(t, c, want, got)
		})
	}
}

// compare reports every difference of a case at once (t.Errorf, not require),
// so one run shows all that a change to the core moved.
func compare(t *testing.T, c *Case, want, got Expected) {
	t.Helper()
	if len(want.Envelopes) != len(got.Envelopes) {
		t.Errorf("%d envelopes, expected.json has %d", len(got.Envelopes), len(want.Envelopes))
	}
	for i := 0; i < len(want.Envelopes) && i < len(got.Envelopes); i++ {
		var w, g any
		require.NoError(t, json.Unmarshal(want.Envelopes[i], &w), "expected.json envelope %d", i+1)
		json.Unmarshal(got.Envelopes[i], &g)
		if !reflect.DeepEqual(w, g) {
			t.Errorf("step %d (%s %s):\n got: %s\nwant: %s", i+1, c.Steps[i].Export, c.Steps[i].Input, got.Envelopes[i], compact(want.Envelopes[i]))
		}
	}
	for _, rel := range sortedKeys(mergeKeys(want.Files, got.Files)) {
		w, g := want.Files[rel], got.Files[rel]
		switch {
		case w == nil && g == nil:
		case w == nil || g == nil:
			t.Errorf("file %s:\n got: %s\nwant: %s", rel, show(g), show(w))
		case *w != *g:
			t.Errorf("file %s differs: %s", rel, firstDiff(*g, *w))
		}
	}
	if !reflect.DeepEqual(want.Tree, got.Tree) {
		t.Errorf("tree:\n got: %q\nwant: %q", got.Tree, want.Tree)
	}
}

// Tree lists everything under root as sorted slash paths, folders ending
// in "/".
func Tree(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		out = append(out, rel)
		return nil
	})
	require.NoError(t, err)
	sort.Strings(out)
	return out
}

func encode(t testing.TB, e Expected) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(e))
	return buf.Bytes()
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

// firstDiff names the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.SplitAfter(got, "\n"), strings.SplitAfter(want, "\n")
	for i := 0; ; i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
}

func show(s *string) string {
	if s == nil {
		return "(no file)"
	}
	return fmt.Sprintf("%q", *s)
}

func mergeKeys(a, b map[string]*string) map[string]*string {
	out := map[string]*string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Random is the runners' random source: a fixed pattern, so nothing a case
// shows can depend on chance.
type Random struct{}

func (Random) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(i)
	}
	return len(p), nil
}
