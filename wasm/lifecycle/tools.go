package lifecycle

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/pi-memory/pi-memory/wasm/search"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/pi-memory/pi-memory/wasm/vectors"
	"github.com/tidwall/gjson"
)

// The orchestrator's own tools and commands, about every store at once:
// memory_search (/memory search) ranks every store.Searcher's entries in
// one index kept across calls (search.Index: a source is read again only
// when its stamp changed); memory_forget and memory_restore (/memory forget,
// /memory restore) ask each store.Forgetter in list order. Like every loop
// here they never name a store; the gate decides, store by store, what may
// be read or written.

// ownTools run the registry's tools whose Store is "" (the orchestrator's).
var ownTools = map[string]func(e *Engine, out *store.Out, params gjson.Result){
	"memory_search":  (*Engine).toolSearch,
	"memory_forget":  (*Engine).toolForget,
	"memory_restore": (*Engine).toolRestore,
	"memory_status":  (*Engine).toolStatus,
}

// memoryToolsOn says whether the orchestrator's tools are offered: memory is
// on for the session (not --no-memory, not /memory off). Trust is each
// store's to decide, as for every other read and write: in an untrusted
// project the tools search, forget and restore global notes only, as
// memory_remember writes there.
func (e *Engine) memoryToolsOn() bool { return e.s.Switch == "" }

// ownActiveTools are the orchestrator's tools the model may call now, in the
// registry's order: each only while a store could answer it (answers).
func (e *Engine) ownActiveTools() []string {
	if !e.memoryToolsOn() {
		return nil
	}
	var names []string
	for _, t := range registry.Tools {
		if t.Store == "" && t.For(registry.Pi) && e.answers(t.Name) {
			names = append(names, t.Name)
		}
	}
	return names
}

// answers says whether a store could answer the orchestrator's tool name
// now: a search needs a Searcher the gate lets read, a forget or a restore a
// Forgetter it lets write. A store disabled by its config is neither.
func (e *Engine) answers(name string) bool {
	act := store.Write
	switch name {
	case "memory_search":
		act = store.Read
	case "memory_forget", "memory_restore":
	default:
		return true
	}
	for _, st := range e.stores {
		_, searcher := st.(store.Searcher)
		_, forgetter := st.(store.Forgetter)
		if (act == store.Read && searcher || act == store.Write && forgetter) && e.may(st, act) == "" {
			return true
		}
	}
	return false
}

// readable are the stores that are a T (store.Searcher, store.Resourcer)
// and may be read now, in list order: each follows its configuration, is
// let through the gate for Read and catches up (Ready) first.
func readable[T any](e *Engine, out *store.Out) []T {
	var xs []T
	for _, st := range e.stores {
		x, ok := st.(T)
		if !ok {
			continue
		}
		st.Refresh(out)
		if e.may(st, store.Read) != "" || st.Ready(out) != nil {
			continue
		}
		xs = append(xs, x)
	}
	return xs
}

// Budget is what one search may do (decision 018). It is done in slices,
// each ending after SliceMs of the host's clock or SliceUnits of work
// (bytes read or indexed, files looked at, entries scored), whichever comes
// first; on a host with an event loop (pi) the core then asks for nothing
// (an http ask of no request), which the adapter answers once pi's loop has
// run, and the next slice goes on in the resume. Earlier sessions are read
// while the search is under Ms and has read under Units, and the index's
// estimate of what they hold is under IndexBytes; the answer says what was
// not read, and the next search goes on with it. The decisions, notes and
// observations are always read.
//
// Units is an int64: a command's search may do CLITimes as much work, 2 GiB,
// past the module's int (32 bits under TinyGo).
type Budget struct {
	SliceMs, Ms int64
	SliceUnits  int
	Units       int64
	IndexBytes  int
}

// DefaultBudget: a slice of 12 ms or 4 MiB of work keeps pi's event loop
// answering well within 50 ms; 3 s or 512 MiB of work bounds how long the
// model waits for the answer on a first search of 20,000 sessions, and 96
// MiB what the sessions hold of the module's memory (TinyGo's heap grows to
// about twice what is live).
var DefaultBudget = Budget{SliceMs: 12, SliceUnits: 4 << 20, Ms: 3000, Units: 512 << 20, IndexBytes: 96 << 20}

// CLITimes is how many times DefaultBudget's time and work a pimem command's
// search may take: it is the only search of its process.
const CLITimes = 4

// timedUnits is how much work a slice does before it reads the clock, and
// how often after: a search of a few entries never yields.
const timedUnits = 64 << 10

// cancelled is what a search hands its then, with no hits, when the call
// it serves was cancelled before it finished: nothing was ranked.
const cancelled = "The search was cancelled before it finished."

// searchJob is one search in slices: the index's update, then its ranking.
type searchJob struct {
	e     *Engine
	q     string
	cut   bool           // the query was cut (search.Bounded)
	o     search.Options // Gone: a forget by words, which reads no earlier session
	start int64          // when it began, on the host's clock
	read  int            // the index's Read when it began
	r     *search.Ranking
	then  func(out *store.Out, hits []search.Hit, unread string)
}

// search ranks every readable store's entries against q with o (its
// Limit, Gone and Span; Now is the host's clock), in slices, and hands the
// hits and what was not read (search.Unread.Said) to then.
func (e *Engine) search(out *store.Out, q string, o search.Options, then func(out *store.Out, hits []search.Hit, unread string)) {
	q, cut := search.Bounded(q)
	// The list of sources is rebuilt in the one before (20,000 earlier
	// sessions are as many sources; Plan drops the update it replaces).
	srcs := e.srcs[:0]
	for _, st := range e.stores {
		x, ok := st.(store.Searcher)
		if !ok {
			continue
		}
		st.Refresh(out)
		if e.may(st, store.Read) != "" {
			continue
		}
		// A store whose files could not be read is asked all the same: its
		// sources say so (search.Unreadable), where leaving it out would
		// pass what it holds for nothing remembered.
		st.Ready(out)
		srcs = append(srcs, x.SearchSources()...)
	}
	e.srcs = srcs
	e.index.MaxBytes = e.budget.IndexBytes
	e.index.Plan(srcs)
	j := &searchJob{e: e, q: q, cut: cut, o: o, start: e.fs.Now(), read: e.index.Read, then: then}
	j.run(out)
}

// searched names what a search reads now: each store the gate lets read
// that searches (store.Searcher.Searches), as an answer that found nothing
// names them.
func (e *Engine) searched() []string {
	var names []string
	for _, st := range e.stores {
		if x, ok := st.(store.Searcher); ok && e.may(st, store.Read) == "" {
			names = append(names, x.Searches())
		}
	}
	return names
}

// fuseK and fuseN are the reciprocal-rank fusion's constant and how many of
// each ranking it fuses (decision 019 measured them).
const (
	fuseK = 60
	fuseN = search.MaxLimit
)

// searchFused is search for memory_search and /memory search: when a
// store ranks entries another way (store.Ranker: the vectors of earlier
// sessions), the word ranking's first fuseN are fused with its first fuseN
// that the index holds (vectors.Fuse), and what it says is added to what
// was not read. Without one, it is search.
func (e *Engine) searchFused(out *store.Out, q string, o search.Options, then func(out *store.Out, hits []search.Hit, unread string)) {
	rankers := readable[store.Ranker](e, out)
	if len(rankers) == 0 {
		e.search(out, q, o, then)
		return
	}
	limit := o.Limit
	if limit <= 0 {
		limit = search.DefaultLimit
	}
	o.Limit = fuseN
	e.search(out, q, o, func(out *store.Out, hits []search.Hit, unread string) {
		if unread == cancelled {
			then(out, hits, unread)
			return
		}
		rankers[0].Rank(out, q, func(out *store.Out, refs []string, said string) {
			then(out, e.fused(hits, refs, q, o.Span, min(limit, search.MaxLimit)), joinedSaid(unread, said))
		})
	})
}

// fused is the word ranking's hits fused with refs, another ranking of
// entries, cut to limit: an entry of refs the index does not hold (another
// project's session, one not read yet) is left out, and one shown already as
// the other half of an exchange is not shown again.
func (e *Engine) fused(hits []search.Hit, refs []string, q string, span search.When, limit int) []search.Hit {
	if len(refs) == 0 {
		return hits[:min(limit, len(hits))]
	}
	byRef := map[string]int{}
	words := make([]string, 0, len(hits))
	for i, h := range hits {
		byRef[h.Doc.Ref] = i
		words = append(words, h.Doc.Ref)
	}
	other := map[string]search.Hit{}
	var theirs []string
	for _, ref := range refs {
		if len(theirs) == fuseN {
			break
		}
		if _, ok := byRef[ref]; ok {
			theirs = append(theirs, ref)
		} else if h, ok := e.index.HitOf(ref, q, span); ok {
			other[ref] = h
			theirs = append(theirs, ref)
		}
	}
	shown := map[string]bool{}
	var out []search.Hit
	for _, ref := range vectors.Fuse(fuseK, words, theirs) {
		if len(out) == limit {
			break
		}
		h, ok := other[ref]
		if i, word := byRef[ref]; word {
			h, ok = hits[i], true
		}
		if !ok || shown[ref] {
			continue
		}
		shown[ref] = true
		if h.Turn != nil {
			if shown[h.Turn.Doc.Ref] {
				h.Turn = nil
			}
			if h.Turn != nil {
				shown[h.Turn.Doc.Ref] = true
			}
		}
		out = append(out, h)
	}
	return out
}

// joinedSaid is two sentences of an answer's end, either of which may be "".
func joinedSaid(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "\n" + b
}

// run does slices until the search is done: in pimem's commands all in
// one call, elsewhere one slice a call, asking the host for the next (pi's
// adapter runs its event loop between them; either host answers with an
// error once the call the search serves is cancelled).
// Its budget (late) counts the time, and the work of reading sessions: not
// the looks at files read before, which would leave the oldest unread for
// good once there are enough of them.
func (j *searchJob) run(out *store.Out) {
	e, bg := j.e, j.e.budget
	if e.s.Mode == "cli" {
		// A person at a terminal waits for one answer, and no later
		// search goes on with what this one leaves.
		bg.Ms, bg.Units = bg.Ms*CLITimes, bg.Units*CLITimes
	}
	for {
		t0, used, clock := e.fs.Now(), 0, timedUnits
		work := func(n int) bool {
			if used < 0 {
				return false
			}
			used += n
			if used >= clock {
				clock = used + timedUnits
				if e.fs.Now()-t0 >= bg.SliceMs {
					used = bg.SliceUnits
				}
			}
			if used >= bg.SliceUnits {
				used = -1
				return false
			}
			return true
		}
		late := j.o.Gone || int64(e.index.Read-j.read) >= bg.Units || e.fs.Now()-j.start >= bg.Ms
		if e.index.Build(work, late) {
			if j.r == nil {
				j.o.Now = e.fs.Now()
				j.r = e.index.Rank(j.q, j.o)
			}
			if j.r.Run(work) {
				u := e.index.Unread
				u.Once = e.s.Mode == "cli"
				u.Big = make([]string, len(u.Big))
				for i, p := range e.index.Unread.Big {
					u.Big[i] = e.home(p)
				}
				j.then(out, j.r.Hits(), u.Said(j.cut))
				return
			}
		}
		if e.s.Mode != "cli" {
			out.Yield(func(out *store.Out, in gjson.Result) {
				// The host answers the ask with an error once the call
				// the search serves is cancelled (Escape in pi).
				if jsonr.Get(in, "0.error").Exists() {
					j.then(out, nil, cancelled)
					return
				}
				j.run(out)
			})
			return
		}
	}
}

// cited is hits with each Ref the citation its reader is given. A person
// (/memory search, /memory forget) reads the short form (Doc.Cite: a
// project's file relative to the project, the home folder as ~), which
// forget takes back. A model (pi's, an MCP client's: the same text) is
// given that form too when it can open it from where it works: ~ is
// expanded, and a relative path is read from the working folder, which
// must then be the project's root; else the absolute Ref. An entry with no
// Cite (an earlier session's message) is cited with the home folder as ~.
// The hits are the search's own (a new slice each time): changed in place.
func (e *Engine) cited(hits []search.Hit, person bool) []search.Hit {
	for i := range e.tilde(hits) {
		cite(&hits[i], person || e.s.Cwd == e.s.ProjectRoot)
	}
	return hits
}

// cite gives h, and the other half of its exchange, the Ref cited: its Cite
// when it has one that is no relative path, or when relative paths may be.
func cite(h *search.Hit, relative bool) {
	for ; h != nil; h = h.Turn {
		d := &h.Doc
		if d.Cite != "" && (relative || strings.IndexByte(d.Cite, '/') <= 0 || strings.HasPrefix(d.Cite, "~/")) {
			d.Ref = d.Cite
		}
	}
}

// tilde gives each hit without a Cite (an earlier session's message), and
// the other half of its exchange, its Ref with the home folder as ~.
func (e *Engine) tilde(hits []search.Hit) []search.Hit {
	for i := range hits {
		for h := &hits[i]; h != nil; h = h.Turn {
			if d := &h.Doc; d.Cite == "" {
				d.Cite = e.home(d.Ref)
			}
		}
	}
	return hits
}

// home is path p with the home folder as ~, as search cites it.
func (e *Engine) home(p string) string { return files.HomeRelative(e.s.Home, p) }

// forget removes the entry ref names: the first Forgetter that knows it,
// in list order, among those the gate lets write. A reference in the home
// folder may be cited with ~, as search shows it.
func (e *Engine) forget(out *store.Out, ref store.Ref) (store.Forgot, error) {
	if !e.answers("memory_forget") {
		return store.Forgot{}, errors.New(nothingToForget)
	}
	if strings.HasPrefix(ref.ID, "~/") && e.s.Home != "" {
		ref.ID = e.s.Home + ref.ID[1:]
	}
	var got store.Forgot
	found, refused, err := e.forgetters(out, ref, func(f store.Forgetter) (ok bool, err error) {
		got, ok, err = f.Forget(out, ref)
		return ok, err
	})
	switch {
	case err != nil:
		return store.Forgot{}, err
	case found:
		e.forgot = got.Restore
		return got, nil
	case refused != "":
		return store.Forgot{}, errors.New("Nothing was forgotten: " + refused)
	}
	return store.Forgot{}, errNoSuch{ref.ID}
}

// errNoSuch says no store knows a reference.
type errNoSuch struct{ ref string }

func (e errNoSuch) Error() string {
	return "No decision or note is " + quoted(e.ref) + ": search first, and give a hit's whole id (a decision's D-…, a note's <file>:<line>#P-…)."
}

// quoted is text given to a tool or a command, quoted to be said back:
// redacted, as everything said is.
func quoted(s string) string { return strconv.Quote(redacted(s)) }

// redacted is a message that names what a caller sent (a query, an id, a
// resource's URI): said back, a secret in it must not come back.
func redacted(s string) string {
	s, _ = redact.String(s)
	return s
}

// restore brings back what ref names: the first Forgetter that knows it.
func (e *Engine) restore(out *store.Out, ref store.Ref) (string, error) {
	var said string
	found, refused, err := e.forgetters(out, ref, func(f store.Forgetter) (ok bool, err error) {
		said, ok, err = f.Restore(out, ref)
		return ok, err
	})
	switch {
	case err != nil:
		return "", err
	case found:
		if e.forgot == ref.ID {
			e.forgot = ""
		}
		return said, nil
	case refused != "":
		return "", errors.New("Nothing was restored: " + refused)
	}
	return "", errors.New("Nothing to restore is " + quoted(ref.ID) + ": give the id memory_forget or /memory forget returned.")
}

// forgetters asks each Forgetter the gate lets write, in list order, until
// one knows the reference (do's ok) or fails; refused is why a store the
// gate kept out was kept out, for an answer when none knew it: one that
// claims ref by its shape (store.Claimer). A store that does not claim it
// is not said: the reference is a word to search for then (h-v99 d1: a
// disabled store's reason answered "/memory forget pnpm").
func (e *Engine) forgetters(out *store.Out, ref store.Ref, do func(store.Forgetter) (bool, error)) (found bool, refused string, err error) {
	for _, st := range e.stores {
		f, ok := st.(store.Forgetter)
		if !ok {
			continue
		}
		st.Refresh(out)
		if why := e.may(st, store.Write); why != "" {
			if c, ok := st.(store.Claimer); !ok || c.Claims(ref) {
				refused = why
			}
			continue
		}
		if err := st.Ready(out); err != nil {
			return false, "", err
		}
		if ok, err := do(f); err != nil || ok {
			return ok, "", err
		}
	}
	return false, refused, nil
}

// forgetQuery is a forget by words: the entry search.ToForget picks, else
// the candidates to choose from by id, handed to then. When the words name
// an entry forgotten already (another process forgot it a moment ago), it
// says so and removes nothing.
func (e *Engine) forgetQuery(out *store.Out, q string, then func(out *store.Out, got store.Forgot, cands []search.Hit, err error)) {
	if !e.answers("memory_forget") {
		then(out, store.Forgot{}, nil, errors.New(nothingToForget))
		return
	}
	e.search(out, q, search.Options{Limit: search.MaxLimit, Gone: true}, func(out *store.Out, hits []search.Hit, unread string) {
		if unread == cancelled {
			then(out, store.Forgot{}, nil, errors.New(cancelled+" Nothing was forgotten."))
			return
		}
		best, cands := search.ToForget(q, hits)
		switch {
		case best != nil && strings.Contains(unread, "could not be read"):
			// The entry meant may be in what could not be read: the best of
			// the rest is not taken for it, nor said to be forgotten already
			// when it was (h-v97 d).
			rest := " The best match of the rest is " + quoted(best.Doc.Text) + " (" + best.Doc.Cite + "); forget it by its id, " + best.Doc.Ref + ", if it is the one."
			if best.Doc.Gone {
				rest = " The best match of the rest, " + quoteGone(best.Doc.Text) + " (" + best.Doc.Cite + "), was forgotten already."
			}
			then(out, store.Forgot{}, nil, errors.New("Nothing was forgotten: the entry meant may be in a memory file that could not be read. "+unread+rest))
		case best != nil && best.Doc.Gone:
			then(out, store.Forgot{Said: quoteGone(best.Doc.Text) + " (" + best.Doc.Cite + ") was forgotten already; nothing else was removed.", Restore: best.Doc.Ref}, nil, nil)
		case best != nil:
			got, err := e.forget(out, store.Ref{ID: best.Doc.Ref})
			then(out, got, nil, err)
		case len(cands) == 0:
			// What could not be read is said: the entry may be in it.
			then(out, store.Forgot{}, nil, errors.New(strings.TrimSpace("No decision or note matches "+quoted(q)+"; nothing was forgotten.\n"+unread)))
		default:
			then(out, store.Forgot{}, cands, nil)
		}
	})
}

// nothingToForget is a forget's answer when no store could answer it.
const nothingToForget = "Nothing was forgotten: every store whose entries can be forgotten (decisions, notes) is off here (disabled by its config, or the project is not trusted); /memory status says why."

// nothingToSearch is a search's answer when no store could answer it.
const nothingToSearch = "Nothing to search: every store that could answer is off here (disabled by its config, or the project is not trusted); /memory status says why."

// ---- the tools ----------------------------------------------------------------

func (e *Engine) toolOff(out *store.Out) bool {
	if e.memoryToolsOn() {
		return false
	}
	out.ToolResult("pi-memory's tools are not available: memory is off for this session ("+e.s.Switch+").", true, nil)
	return true
}

func (e *Engine) toolSearch(out *store.Out, params gjson.Result) {
	if e.toolOff(out) {
		return
	}
	q := strings.TrimSpace(jsonr.Get(params, "query").String())
	if !e.answers("memory_search") {
		out.ToolResult(nothingToSearch, true, nil)
		return
	}
	// A time's words are joined by "-" (since:last-week). What is no time
	// is said back in an error: redacted while its words are apart
	// ("password is …" joined is no longer known), and cut (no time is
	// longer than a few words).
	for _, f := range [...]string{"since", "until"} {
		if v := strings.TrimSpace(jsonr.Get(params, f).String()); v != "" {
			q += " " + f + ":" + strings.Join(strings.Fields(redacted(text.Whole(v, 4<<10))), "-")
		}
	}
	o := search.Options{Limit: int(jsonr.Get(params, "limit").Int())}
	words, err := e.within(q, &o)
	if err == nil && words == "" {
		err = errors.New("memory_search needs a query: a few words of what to find.")
	}
	if err != nil {
		out.ToolResult(err.Error(), true, nil)
		return
	}
	e.searchFused(out, words, o, func(out *store.Out, hits []search.Hit, unread string) {
		if unread == cancelled {
			out.ToolResult(cancelled, true, nil)
			return
		}
		q, _ := search.Bounded(q)
		out.ToolResult(joined(search.ForModel(q, e.cited(hits, false), e.searched()), unread), false, nil)
	})
}

// within takes the since: and until: words out of q (search.Within, against
// the host's clock) into o.Span.
func (e *Engine) within(q string, o *search.Options) (string, error) {
	words, span, err := search.Within(q, e.fs.Now())
	o.Span = span
	return words, err
}

// joined is text and then what a search did not read, on a line of its own.
func joined(text, unread string) string {
	if unread == "" {
		return text
	}
	return text + "\n" + unread
}

func (e *Engine) toolForget(out *store.Out, params gjson.Result) {
	if e.toolOff(out) {
		return
	}
	id := strings.TrimSpace(jsonr.Get(params, "id").String())
	q := strings.TrimSpace(jsonr.Get(params, "query").String())
	answer := func(out *store.Out, got store.Forgot, cands []search.Hit, err error) {
		switch {
		case err != nil:
			out.ToolResult(err.Error(), true, nil)
		case cands != nil:
			out.ToolResult(search.Candidates(q, e.cited(cands, false)), false, nil)
		default:
			out.ToolResult(got.Said+" To bring it back: memory_restore with id "+strconv.Quote(got.Restore)+".", false, nil)
		}
	}
	switch {
	case id != "":
		got, err := e.forget(out, store.Ref{ID: id})
		answer(out, got, nil, err)
	case q != "":
		e.forgetQuery(out, q, answer)
	default:
		answer(out, store.Forgot{}, nil, errors.New("memory_forget needs an id (from memory_search) or a query."))
	}
}

func (e *Engine) toolRestore(out *store.Out, params gjson.Result) {
	if e.toolOff(out) {
		return
	}
	id := strings.TrimSpace(jsonr.Get(params, "id").String())
	if id == "" {
		out.ToolResult("memory_restore needs the id memory_forget returned.", true, nil)
		return
	}
	said, err := e.restore(out, store.Ref{ID: id})
	if err != nil {
		out.ToolResult(err.Error(), true, nil)
		return
	}
	out.ToolResult(said, false, nil)
}

// toolStatus is memory_status, for MCP clients (pi shows the footer): the
// core and the project, the footer's line, and each store on or off and
// why. It answers also when memory is off: saying so is its job.
func (e *Engine) toolStatus(out *store.Out, _ gjson.Result) {
	var b text.Builder
	b.WriteString("pi-memory " + registry.Release)
	if len(e.s.Module) >= 12 {
		b.WriteString(" (core " + e.s.Module[:12] + ")")
	}
	root := e.s.ProjectRoot
	if root == "" {
		root = e.s.Cwd
	}
	b.WriteString(" for " + root)
	if !e.s.Trusted {
		b.WriteString(" (not trusted: only global notes are read)")
	}
	if line := e.footerNow(); line != "" {
		b.WriteString("\n" + line)
	}
	for _, st := range e.stores {
		b.WriteString("\n" + st.Name() + ": ")
		if why := st.Off(); why != "" {
			b.WriteString("off: " + why)
		} else {
			b.WriteString("on")
		}
	}
	// What is there and could not be read, and why (resources/read says it
	// too): each resource's Unread, which reads no more than it must (a
	// decision log of 100k events is not rendered for it).
	if e.s.Switch == "" {
		for _, x := range readable[store.Resourcer](e, out) {
			for _, r := range x.Resources() {
				if r.Unread == nil {
					continue
				}
				if err := r.Unread(); err != nil {
					b.WriteString("\ncould not read " + r.URI + ": " + err.Error())
				}
			}
		}
	}
	text, _ := redact.String(b.String())
	out.ToolResult(text, false, nil)
}

// ---- the commands ---------------------------------------------------------------

// cmdSearch is /memory search <words> [--limit N].
func (e *Engine) cmdSearch(c *store.Cmd) {
	limit, err := search.ParseLimit(c.Args.Value("limit"))
	if err != nil {
		c.Out.Usage(err.Error())
		return
	}
	if !e.answers("memory_search") {
		c.Out.Fail(nothingToSearch)
		return
	}
	q := c.Args.Text(0)
	asJSON := c.JSON
	o := search.Options{Limit: limit}
	words, err := e.within(q, &o)
	if err != nil {
		c.Out.Usage("/memory search: " + err.Error())
		return
	}
	e.searchFused(c.Out, words, o, func(out *store.Out, hits []search.Hit, unread string) {
		if unread == cancelled {
			out.Fail(cancelled)
			return
		}
		hits = e.tilde(hits)
		// A file's name is cited as it is, but a secret in it must not
		// reach pi's transcript (a tool's answer is redacted whole).
		for i := range hits {
			for h := &hits[i]; h != nil; h = h.Turn {
				h.Doc.Cite, h.Doc.Ref = redacted(h.Doc.Cite), redacted(h.Doc.Ref)
			}
		}
		unread = redacted(unread)
		if asJSON {
			out.Output(string(search.JSON(hits)))
			if unread != "" {
				out.Notify("info", unread)
			}
			return
		}
		q, _ := search.Bounded(q)
		out.Output(joined(search.ForPerson(q, hits, e.searched()), unread))
	})
}

// cmdForget is /memory forget <query|id>: a word that a store knows as an
// id is forgotten at once; otherwise the words are a query.
func (e *Engine) cmdForget(c *store.Cmd) {
	arg := c.Args.Text(0)
	answer := func(out *store.Out, got store.Forgot, cands []search.Hit, err error) {
		switch {
		case err != nil:
			out.Fail(err.Error())
		case cands != nil && c.JSON:
			w := jsonw.Open(nil)
			w.Bool("forgot", false)
			w.Raw("candidates", search.JSON(e.cited(cands, true)))
			out.Output(string(w.Close()))
			out.SetExit(1)
		case cands != nil:
			out.Output(search.Candidates(arg, e.cited(cands, true)))
			out.SetExit(1)
		case c.JSON:
			w := jsonw.Open(nil)
			w.Bool("forgot", true)
			w.Str("said", redacted(got.Said))
			w.Str("restore", got.Restore)
			out.Output(string(w.Close()))
		case e.s.Mode == "cli" && got.Restore != "":
			// Each pimem command is a session of its own: the next one
			// knows nothing was forgotten unless it is told what.
			out.Output(got.Said + " /memory restore " + got.Restore + " brings it back.")
		default:
			out.Output(got.Said + " /memory restore brings it back.")
		}
	}
	if len(c.Args.Words) == 1 {
		got, err := e.forget(c.Out, store.Ref{ID: arg, Typed: true})
		if _, nosuch := err.(errNoSuch); !nosuch {
			answer(c.Out, got, nil, err)
			return
		}
	}
	e.forgetQuery(c.Out, arg, answer)
}

// cmdRestore is /memory restore [<id>]: without an id, the last thing
// forgotten in this session; when this session forgot nothing (pimem runs
// one session per command), what was forgotten before, with the ids that
// restore it.
func (e *Engine) cmdRestore(c *store.Cmd) {
	id := c.Args.Text(0)
	if id == "" {
		if id = e.forgot; id == "" {
			fs := e.forgotten(c.Out, 5)
			if c.JSON {
				w := jsonw.Open(nil)
				w.Bool("restored", false)
				w.Raw("forgotten", jsonw.Array(nil, len(fs), func(b []byte, i int) []byte {
					f := jsonw.Open(b)
					f.Str("restore", fs[i].Restore)
					f.Str("day", civil.Day(fs[i].At))
					f.Str("said", redacted(fs[i].Said))
					return f.Close()
				}))
				c.Out.Output(string(w.Close()))
			} else {
				c.Out.Output(forgottenList(fs))
			}
			c.Out.SetExit(1)
			return
		}
	}
	said, err := e.restore(c.Out, store.Ref{ID: id, Typed: true})
	if err != nil {
		c.Out.Fail(err.Error())
		return
	}
	if c.JSON {
		w := jsonw.Open(nil)
		w.Bool("restored", true)
		w.Str("id", id)
		w.Str("said", redacted(said))
		said = string(w.Close())
	}
	c.Out.Output(said)
}

// forgotten is what the readable stores forgot and may restore, newest
// first, at most limit.
func (e *Engine) forgotten(out *store.Out, limit int) []store.Forgot {
	var all []store.Forgot
	for _, f := range readable[store.Forgetter](e, out) {
		all = append(all, f.Forgotten(out, limit)...)
	}
	store.NewestFirst(all)
	return all[:min(limit, len(all))]
}

// forgottenList answers /memory restore without an id in a session that
// forgot nothing: what may be restored, newest first, one line each.
//
//	forgottenList([{Said: "“use pnpm” (.pi/memory/MEMORY.md)", Restore: "F-1a2b3c4d", At: …}])
//	  => Nothing was forgotten in this session. Forgotten before, newest first:
//	       F-1a2b3c4d  2026-11-27  “use pnpm” (.pi/memory/MEMORY.md)
//	     /memory restore <id> brings one back.
func forgottenList(fs []store.Forgot) string {
	if len(fs) == 0 {
		return "Nothing has been forgotten here, so there is nothing to restore."
	}
	var b text.Builder
	b.WriteString("Nothing was forgotten in this session. Forgotten before, newest first:")
	for _, f := range fs {
		b.WriteString("\n  " + f.Restore + "  " + civil.Day(f.At) + "  " + f.Said)
	}
	b.WriteString("\n/memory restore <id> brings one back.")
	text, _ := redact.String(b.String())
	return text
}

// quoteGone quotes an entry forgotten already, on one line, cut.
func quoteGone(s string) string {
	return "“" + text.Runes(text.OneLine(s), 80) + "”"
}
