package history

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonl"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/search"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// maxSessionFile bounds a session file read for search: a larger one is
// skipped (the search says so) rather than read through at every change.
const maxSessionFile = 64 << 20

// driver is the history store of one session: it knows where pi keeps the
// project's sessions and which one is running (its messages are in the
// model's context already, and its observations are the observation
// store's). It talks to the host only through the guarded FS it was handed.
type driver struct {
	s         *store.Session
	h         *files.FS
	sessionID string
	piece     []byte // the buffer every session file is read through
	// The last listing of the session files as sources, and the folders'
	// stamps it was made at.
	listed  string
	sources []search.Source
	// What each session file's last stat said, and when (stat).
	looked map[string]looked
	now    int64 // the host's clock when this search listed its sources
	// The folders of sessions/ that may hold the project's (folders), the
	// stamp of sessions/ they were listed at, and when: 20,000 other
	// projects' folders were listed again by every search.
	mine      []string
	mineStamp string
	mineAt    int64
}

// looked is what one stat of a session file said, and when.
type looked struct {
	stamp     uint64
	skip      bool
	mtime, at int64
}

// A session file untouched for quiet is looked at again at most every
// recheck: pi appends to the running session, not to one that has been
// still for minutes, and 20,000 stats were most of a warm search's time (a
// host call each). One resumed after that is seen within recheck; one
// written lately is looked at by every search.
const (
	quiet   = 10 * 60 * 1000
	recheck = 30 * 1000
)

// The moments and services the store takes part in (wasm/store): a method
// whose signature drifts from its interface fails to build here rather than
// silently dropping the store from that moment.
var (
	_ store.Store    = (*driver)(nil)
	_ store.Starter  = (*driver)(nil)
	_ store.Searcher = (*driver)(nil)
	_ store.Bulky    = (*driver)(nil)
	_ store.Follower = (*driver)(nil)
)

// Open is the history store's driver for a session (wasm/store).
func Open(env *store.Env) store.Store {
	return &driver{s: env.Session, h: env.FS}
}

// Name is the store's name; it has no command and no tool of its own.
func (d *driver) Name() string { return "history" }

// Off says why earlier sessions cannot be searched (Unread).
func (d *driver) Off() string { return Unread(d.s) }

// Unread says why a session cannot read the project's earlier sessions: no
// agent folder, no project, or a project that is not trusted (its sessions
// say what it holds); "" when it can. Every store of earlier sessions says
// it (the embeddings' too).
//
//	Unread(&store.Session{AgentDir: "/home/ada/.pi/agent"}) => "No project: earlier sessions are searched per project."
func Unread(s *store.Session) string {
	switch {
	case s.AgentDir == "":
		return "No agent folder: pi's earlier sessions cannot be found."
	case s.ProjectRoot == "":
		return "No project: earlier sessions are searched per project."
	case !s.Trusted:
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

// Searches is what a search of the store reads (store.Searcher).
func (d *driver) Searches() string { return "earlier sessions of this project" }

// SearchSources are the project's earlier session files (store.Searcher):
// those in the folders of <agentDir>/sessions/ that may hold sessions
// started in the project or below it (hsimport.FolderMayHold), one source
// per file, each folder's newest first (pi names them by their start). The
// index looks at a file only when it comes to it, within the search's
// budget: Stat stamps it with its size and mtime (a file over
// maxSessionFile is skipped, and the search says so), and Open reads it in
// steps, keeping its entries when the session ran in the project and is not
// the running one, up to what one session may give (maxSessionText).
func (d *driver) SearchSources() []search.Source {
	d.now = d.h.Now()
	mine, stamp, ok := d.folders()
	if !ok {
		return nil
	}
	if stamp == d.listed {
		return d.sources
	}
	var srcs []search.Source
	stat, open := d.stat, d.open
	for _, folder := range mine {
		names, err := d.h.List(folder)
		if err != nil {
			continue
		}
		for i := len(names) - 1; i >= 0; i-- {
			if hsimport.IsSessionFile(names[i]) {
				srcs = append(srcs, search.Source{Key: folder + "/" + names[i], Stat: stat, Open: open})
			} else if name, dir, ok := hostio.Unlisted(names[i]); ok && !dir && hsimport.IsSessionFile(name) {
				// A session whose name holds a newline or is not UTF-8 cannot
				// be opened by the name the list gives: it is named, quoted,
				// in every answer, not lost without a word.
				cite := files.HomeRelative(d.s.Home, folder) + "/" + strconv.Quote(name)
				srcs = append(srcs, search.Source{Key: "history-unlisted:" + folder + "/" + strconv.Quote(name), Stamp: "unreadable",
					Load: func() []search.Doc { return search.Unreadable(cite) }})
			}
		}
	}
	d.listed, d.sources = stamp, srcs
	clear(d.looked) // files gone stay out of it
	return srcs
}

// A search may hold a thread for long when the project has bulkySessions
// earlier sessions (listing 2,000 took ~60 ms in TinyGo before the first
// slice, 20,000 250 ms, and the index's collections grow with them), or
// fewer whose files hold bulkyBytes (a 60 MB session: collections of over
// 100 ms while it was read).
const (
	bulkySessions = 1000
	bulkyBytes    = 32 << 20
	bulkyFolder   = 128 << 10
)

// Bulky says the project's earlier sessions are that many or that large,
// or their folders that crowded (store.Bulky): a folder's own size is
// looked at first (crowded), then its names are listed, and below
// bulkySessions each session file is looked at once (no file is read).
func (d *driver) Bulky() bool {
	if d.Off() != "" {
		return false
	}
	if d.crowded(path.Join(d.s.AgentDir, "sessions")) {
		return true
	}
	mine, _, ok := d.folders()
	if !ok {
		return false
	}
	// Every folder and every entry counts, sessions or not: each is listed
	// or looked at by a search (990 folders of the project's subfolders,
	// one session each, held pi's thread 60–90 ms).
	n, size := len(mine), int64(0)
	for _, folder := range mine {
		if n >= bulkySessions || d.crowded(folder) {
			return true
		}
		names, err := d.h.List(folder)
		if err != nil {
			continue
		}
		for _, name := range names {
			if n++; n >= bulkySessions {
				return true
			}
			if !hsimport.IsSessionFile(name) {
				continue
			}
			if info, err := d.h.Stat(folder + "/" + name); err == nil {
				if size += info.Size; size >= bulkyBytes {
					return true
				}
			}
		}
	}
	return false
}

// crowded says folder's own size (what its entries take in the file
// system: tens of bytes each) is bulkyFolder or more: thousands of
// entries, sessions or not, whose listing alone held pi's thread 100–300
// ms (20,000 other projects' folders in sessions/, 100,000 other files
// beside the sessions). It is known without listing them.
func (d *driver) crowded(folder string) bool {
	info, err := d.h.Stat(folder)
	return err == nil && info.Dir && info.Size >= bulkyFolder
}

// folders are the folders of <agentDir>/sessions/ that may hold the
// project's sessions, and their stamp: their mtimes say whether a file was
// added or removed since the last listing, which is kept (20,000 sources
// are made once, not per search). Not ok while the store is off or the
// folder cannot be listed.
func (d *driver) folders() (mine []string, stamp string, ok bool) {
	if d.Off() != "" {
		return nil, "", false
	}
	dir := path.Join(d.s.AgentDir, "sessions")
	now := d.h.Now()
	if st := files.Stamp(d.h, dir); st == "-" || st != d.mineStamp || now-d.mineAt >= recheck || now < d.mineAt {
		folders, err := d.h.List(dir)
		if err != nil {
			return nil, "", false
		}
		d.mine, d.mineStamp, d.mineAt = d.mine[:0], st, now
		for _, f := range folders {
			if hsimport.FolderMayHold(f, d.s.ProjectRoot) {
				d.mine = append(d.mine, path.Join(dir, f))
			}
		}
	}
	var b text.Builder
	for _, folder := range d.mine {
		b.WriteString(folder + "@" + files.Stamp(d.h, folder) + "\n")
	}
	return d.mine, b.String(), true
}

// stat stamps session file p with its size and mtime, as one number (no
// string: 20,000 stats a search allocate nothing); skip when it is over
// maxSessionFile. One that cannot be looked at is read as nothing until it
// is a file again. A file still for quiet is taken at its last stat for
// recheck.
func (d *driver) stat(p string) (uint64, bool) {
	if l, ok := d.looked[p]; ok && d.now-l.mtime > quiet && d.now-l.at < recheck && d.now >= l.at {
		return l.stamp, l.skip
	}
	info, err := d.h.Stat(p)
	if err != nil || info.Dir {
		delete(d.looked, p)
		return 0, false
	}
	l := looked{Stamp(info.Size, info.MtimeMs), info.Size > maxSessionFile, info.MtimeMs, d.now}
	if d.looked == nil {
		d.looked = map[string]looked{}
	}
	d.looked[p] = l
	return l.stamp, l.skip
}

// Stamp is FNV-1a over a session file's size and mtime: it changes whenever
// either does (a collision is one chance in 2^64). The vectors of a
// session's messages are kept at its stamp (wasm/embeddings).
func Stamp(size, mtime int64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range [2]uint64{uint64(size), uint64(mtime)} {
		for range 8 {
			h = (h ^ v&0xFF) * 1099511628211
			v >>= 8
		}
	}
	return h
}

// pieceSize is how much of a session file one read takes; maxLine the
// longest line read (a longer one, a paste of megabytes, is skipped, and the
// session is said to be read in part).
const (
	pieceSize = 256 << 10
	maxLine   = 8 << 20
)

// open reads one session file in steps, as search entries: only a piece and
// the line being read are held, never the file.
func (d *driver) open(p string) search.Step {
	var pieces jsonl.Pieces
	var r reader
	read := func(off int64, dst []byte) (int, error) { return d.h.ReadAt(p, off, dst) }
	return func(n int, add func(search.Doc)) (int, bool, bool) {
		if d.piece == nil {
			d.piece = make([]byte, pieceSize)
		}
		from := pieces.Off
		// A line too long to read (a paste of megabytes) is skipped, and the
		// session counts as read in part, which the search's answer says.
		err := pieces.Next(read, d.piece, maxLine, int64(n), r.line, func(int) { r.long = true })
		s := &r.s
		if err != nil || r.err != nil || r.header && (s.ID == d.sessionID || !(hsimport.Session{Cwd: s.Cwd}).Under(d.s.ProjectRoot)) {
			return int(pieces.Off - from), true, false
		}
		for _, e := range s.Entries {
			// One string holds the Ref and the Text; no Cite (the Ref with the
			// home folder as ~, the orchestrator's cited): thousands of
			// sessions' entries are few objects for the collector.
			line := numstr.Itoa(e.Line)
			kind, role := search.Message, e.Role+": "
			if e.Observation {
				kind, role = search.Observation, ""
			}
			both := p + ":" + line + role + e.Text
			n := len(p) + 1 + len(line)
			add(search.Doc{Kind: kind, Ref: both[:n], Text: both[n:], Time: e.Time})
		}
		s.Entries = s.Entries[:0]
		return int(pieces.Off - from), pieces.Done, s.Cut || r.long
	}
}
