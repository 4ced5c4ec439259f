package history

import (
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hsimport"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/search"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// maxSessionFile bounds a session file read for search: a larger one is
// left out rather than read whole at every change.
const maxSessionFile = 64 << 20

// driver is the history store of one session: it knows where pi keeps the
// project's sessions and which one is running (its messages are in the
// model's context already, and its observations are the observation
// store's). It talks to the host only through the guarded FS it was handed.
type driver struct {
	s         *store.Session
	h         *files.FS
	sessionID string
}

// The moments and services the store takes part in (wasm/store): a method
// whose signature drifts from its interface fails to build here rather than
// silently dropping the store from that moment.
var (
	_ store.Store    = (*driver)(nil)
	_ store.Starter  = (*driver)(nil)
	_ store.Searcher = (*driver)(nil)
	_ store.Follower = (*driver)(nil)
)

// Open is the history store's driver for a session (wasm/store).
func Open(env *store.Env) store.Store {
	return &driver{s: env.Session, h: env.FS}
}

// Name is the store's name; it has no command and no tool of its own.
func (d *driver) Name() string { return "history" }

// Off says why earlier sessions cannot be searched: no agent folder, no
// project, or a project that is not trusted (its sessions say what it holds).
func (d *driver) Off() string {
	switch {
	case d.s.AgentDir == "":
		return "No agent folder: pi's earlier sessions cannot be found."
	case d.s.ProjectRoot == "":
		return "No project: earlier sessions are searched per project."
	case !d.s.Trusted:
		return "The project is not trusted: its earlier sessions are not read."
	}
	return ""
}

// Follows: earlier sessions have no switch of their own; they are searched
// while a store a person keeps is on (store.Follower).
func (d *driver) Follows() {}

// Refresh has nothing to follow: the store has no configuration.
func (d *driver) Refresh(*store.Out) {}

// Ready has nothing to catch up with: SearchSources looks at the files.
func (d *driver) Ready(*store.Out) error { return nil }

// Commands: none; /memory search is the orchestrator's.
func (d *driver) Commands() map[string]func(c *store.Cmd) { return nil }

// Start notes the running session, which is not an earlier one.
func (d *driver) Start(_ *store.Out, in gjson.Result) {
	d.sessionID = jsonr.Get(in, "sessionId").Str
}

// SearchSources are the project's earlier session files (store.Searcher):
// those in the folders of <agentDir>/sessions/ that may hold sessions
// started in the project or below it (hsimport.FolderMayHold), one source
// per file, stamped with its size and mtime. Load reads one and keeps its
// entries when the session ran in the project and is not the running one.
func (d *driver) SearchSources() []search.Source {
	if d.Off() != "" {
		return nil
	}
	dir := path.Join(d.s.AgentDir, "sessions")
	folders, err := d.h.List(dir)
	if err != nil {
		return nil
	}
	var srcs []search.Source
	for _, f := range folders {
		if !hsimport.FolderMayHold(f, d.s.ProjectRoot) {
			continue
		}
		names, err := d.h.List(path.Join(dir, f))
		if err != nil {
			continue
		}
		for _, name := range names {
			if !hsimport.IsSessionFile(name) {
				continue
			}
			p := path.Join(dir, f, name)
			info, err := d.h.Stat(p)
			if err != nil || info.Dir || info.Size > maxSessionFile {
				continue
			}
			srcs = append(srcs, search.Source{
				Key:   "history:" + p,
				Stamp: strconv.FormatInt(info.Size, 10) + "@" + strconv.FormatInt(info.MtimeMs, 10),
				Load:  func() []search.Doc { return d.docs(p) },
			})
		}
	}
	return srcs
}

// docs reads one session file as search entries.
func (d *driver) docs(p string) []search.Doc {
	data, err := files.Read(d.h, p, maxSessionFile)
	if err != nil {
		return nil
	}
	s, err := Read(data)
	if err != nil || s.ID == d.sessionID || !(hsimport.Session{Cwd: s.Cwd}).Under(d.s.ProjectRoot) {
		return nil
	}
	cite := p
	if home := d.s.Home; home != "" && home != "/" && strings.HasPrefix(p, home+"/") {
		cite = "~" + p[len(home):]
	}
	docs := make([]search.Doc, len(s.Entries))
	for i, e := range s.Entries {
		line := ":" + strconv.Itoa(e.Line)
		doc := search.Doc{Kind: search.Message, Ref: p + line, Cite: cite + line, Text: e.Role + ": " + e.Text, Time: e.Time}
		if e.Observation {
			doc.Kind, doc.Text = search.Observation, e.Text
		}
		docs[i] = doc
	}
	return docs
}
