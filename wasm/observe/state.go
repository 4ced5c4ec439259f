package observe

import (
	"github.com/pi-memory/pi-memory/wasm/budget"
)

// Mark is how far the observations cover a session: every entry up to and
// including ID, or, when Off > 0, the entries before ID and the first Off
// bytes of ID's text (an entry too large for one observer prompt is
// observed in parts).
type Mark struct {
	ID  string
	Off int
}

// state is the observational memory of one session (thread scope) or one
// project (resource scope): what fold rebuilds from the ledger, plus the
// failure counters of this process, which are not recorded.
type state struct {
	Groups   []group
	Task     string // what the user and the agent are working on now
	Response string // how the agent should pick up from here
	Mark     Mark   // what the observations cover, in this session
	Read     []string
	Modified []string
	Settings settings // overrides set by commands

	Observed     int   // observer runs merged, empty ones included
	Empty        int   // of those, runs that found nothing new
	Reflected    int   // reflections accepted
	SinceReflect int   // observer runs that added something since the last reflection
	Changed      int64 // Unix ms of the last change to what is injected

	session   string // the session whose records move the Mark ("" in thread scope)
	version   int    // bumped by every Apply: a job planned before a change is stale
	observer  failure
	reflector failure
	shrink    int // prompt-too-long failures halve the chunk size this many times
	inj       *injView
	tokens    *tokenCount
}

// failure is the backoff of one kind of model call.
type failure struct {
	count   int
	retryAt int64
	stopped bool
	last    string // why the last call failed, kept until one succeeds
	lastAt  int64  // when, Unix ms
}

// Backoff: after the n-th failure in a row the next attempt waits
// backoffBase × 2^(n-1); after maxFailures failures in a row that kind of
// call stops for the session, with one warning, and pi's own compaction
// does the work. A success (an empty answer is one) resets the count.
const (
	maxFailures = 3
	backoffBase = 30 * 1000 // ms
	maxShrink   = 4         // chunks shrink to 1/16 at most
)

// Tokens is the estimated size of the observations as rendered.
//
// The footer asks after every event, so the count is kept for the
// observations it was made for: rendering 1,200 of them each time is 100
// KiB before every model request.
func (s *state) Tokens() int {
	m := s.mark()
	if s.tokens == nil || s.tokens.print != m {
		s.tokens = &tokenCount{print: m, n: budget.EstimateTokens(render(s.Groups))}
	}
	return s.tokens.n
}

// tokenCount is Tokens for the observations print describes.
type tokenCount struct {
	print stateMark
	n     int
}

// Items counts observations by priority: [0] all, then [low], [medium], [high].
func (s *state) Items() [4]int {
	var n [4]int
	for gi := range s.Groups {
		for ii := range s.Groups[gi].Items {
			n[0]++
			if p := s.Groups[gi].Items[ii].Priority; p >= low && p <= high {
				n[p]++
			}
		}
	}
	return n
}

// Text is the observations in their canonical form (the observer's format),
// with the current task and the suggested response in their tags: what
// /om observations prints.
func (s *state) Text() string {
	out := render(s.Groups)
	if s.Task != "" {
		out += "\n<current-task>\n" + s.Task + "\n</current-task>\n"
	}
	if s.Response != "" {
		out += "\n<suggested-response>\n" + s.Response + "\n</suggested-response>\n"
	}
	return out
}

// Apply changes the state by one ledger record, as fold does for each. Only
// records of the state's session (see fold) move the Mark. Text is redacted
// and made data (data.go: no control character or escape sequence, no
// marker or tag of ours, the task rule) as it comes in (a ledger may have
// been edited by hand), so the state never holds a secret or an escape and
// what is rendered from it needs no second pass. Observations
// beyond cfg.MaxObservationItems are pruned, lowest priority and oldest
// first.
func (s *state) Apply(r Record, cfg omConfig) {
	f := folder{s: s, cfg: cfg}
	f.apply(r)
	f.settle()
}

// folder applies records to a state in order, as Apply does one at a time,
// except that it merges the observations they carry only when it settles:
// a reflect replaces every observation and a clear empties them, so what a
// later one replaces is never read into the state, deduplicated and pruned.
// Nothing else a record changes depends on the observations, and merging
// later runs the same steps on the same observations in the same order, so
// the state is the one Apply gives. A long-lived ledger, where every fourth
// record is a reflect carrying every observation kept, took 16 s to fold
// under TinyGo record by record (issue 19). What waits is bounded: the last
// reflect's text, and observations up to cfg.MaxObservationItems items or
// ledgerPiece bytes of text, beyond which the folder settles.
type folder struct {
	s   *state
	cfg omConfig

	rebase  bool      // the observations are to be read from reflect before adds are merged
	reflect string    // the observations of the last reflect, as its record has them
	day     int64     // the day of the reflect's time: items without a date belong to it
	adds    [][]group // the observations of the observe records since, in order, not yet merged
	items   int       // observations in adds
	bytes   int       // text of the records adds were read from
}

// newFolder starts the fold of a ledger for session (see fold).
func newFolder(session string, cfg omConfig) *folder {
	return &folder{s: &state{session: session}, cfg: cfg}
}

// apply is Apply without the merge of the observations (see folder).
func (f *folder) apply(r Record) {
	s := f.s
	s.version++
	switch r.Op {
	case opObserve:
		s.Observed++
		if r.Session == s.session {
			s.Mark = r.Through
		}
		s.Read = union(s.Read, dataPaths(r.Read))
		s.Modified = union(s.Modified, dataPaths(r.Modified))
		add, _ := readGroups(clean(sanitize(r.Obs)), clock{Ms: r.Time}.Day())
		changed := false
		if len(add) > 0 {
			f.adds = append(f.adds, add)
			f.items += countItems(add)
			f.bytes += len(r.Obs)
			s.SinceReflect++
			changed = true
		} else {
			s.Empty++
		}
		if t := taskOf(r.Task); r.HasTask && t != s.Task {
			s.Task, changed = t, true
		}
		if t := taskOf(r.Response); r.HasResponse && t != s.Response {
			s.Response, changed = t, true
		}
		if changed {
			s.Changed = r.Time
		}
		if f.items > f.cfg.MaxObservationItems || f.bytes > ledgerPiece {
			f.settle()
		}
	case opReflect:
		f.rebase, f.reflect, f.day = true, r.Obs, clock{Ms: r.Time}.Day()
		f.adds, f.items, f.bytes = nil, 0, 0
		if r.HasTask {
			s.Task = taskOf(r.Task)
		}
		if r.HasResponse {
			s.Response = taskOf(r.Response)
		}
		s.Reflected++
		s.SinceReflect = 0
		s.Changed = r.Time
	case opClear:
		f.rebase, f.reflect = false, ""
		f.adds, f.items, f.bytes = nil, 0, 0
		s.Groups, s.Task, s.Response = nil, "", ""
		s.SinceReflect = 0
		s.Changed = r.Time
	case opSet:
		if r.Settings.Mode != nil {
			s.Settings.Mode = r.Settings.Mode
		}
		if r.Settings.AutoCompact != nil {
			s.Settings.AutoCompact = r.Settings.AutoCompact
		}
		if r.Settings.ObserverTokens != nil {
			s.Settings.ObserverTokens = r.Settings.ObserverTokens
		}
		if r.Settings.ReflectorTokens != nil {
			s.Settings.ReflectorTokens = r.Settings.ReflectorTokens
		}
		if r.Settings.RetainTokens != nil {
			s.Settings.RetainTokens = r.Settings.RetainTokens
		}
	}
}

// settle merges the observations waiting: the last reflect's, read as its
// record came, then each observe record's after it, each pruned.
func (f *folder) settle() {
	s, most := f.s, f.cfg.MaxObservationItems
	if f.rebase {
		groups, _ := readGroups(clean(sanitize(f.reflect)), f.day)
		s.Groups = prune(groups, most, 0)
	}
	for _, add := range f.adds {
		s.Groups = prune(appendGroups(s.Groups, add), most, 0)
	}
	f.rebase, f.reflect = false, ""
	f.adds, f.items, f.bytes = nil, 0, 0
}

// done settles and returns the state.
func (f *folder) done() *state {
	f.settle()
	return f.s
}

// Retry forgets the failures of both kinds of call, so the next plan may
// call the model again at once: what /om observe and /om reflect do before
// planning, and what a new session starts with.
// The last failure is kept for /om status until a call succeeds.
func (s *state) Retry() {
	s.observer = failure{last: s.observer.last, lastAt: s.observer.lastAt}
	s.reflector = failure{last: s.reflector.last, lastAt: s.reflector.lastAt}
}

// fail records a failed call and returns the one warning a person gets
// when that kind of call stops, else "".
func (f *failure) fail(what, why string, now int64) string {
	f.count++
	f.last, f.lastAt = why, now
	if f.count >= maxFailures {
		if f.stopped {
			return ""
		}
		f.stopped = true
		return "pi-memory: the " + what + " failed " + itoa(f.count) + " times in a row (last: " + why + "); it stops for this session and pi's own compaction is used. /om observe tries again."
	}
	f.retryAt = now + backoffBase<<(f.count-1)
	return ""
}

func (f *failure) ok() { *f = failure{} }

// ready reports whether this kind of call may run at now.
func (f *failure) ready(now int64) bool { return !f.stopped && now >= f.retryAt }

// waiting says why a call may not run now, for status lines; "" when it may.
func (f *failure) waiting(what string, now int64, zone int) string {
	switch {
	case f.stopped:
		return what + " stopped after " + itoa(f.count) + " failures (last: " + f.last + ")"
	case now < f.retryAt:
		return what + " backing off after " + itoa(f.count) + " failure(s) until " + formatMinute(clock{Ms: f.retryAt, Zone: zone}.minute()) + " (last: " + f.last + ")"
	}
	return ""
}

// lastFailed says when and why the last call of this kind failed, for
// /om status; "" when none failed since the last success.
func (f *failure) lastFailed(what string, zone int) string {
	if f.last == "" {
		return ""
	}
	return "the last " + what + " call failed at " + formatMinute(clock{Ms: f.lastAt, Zone: zone}.minute()) + ": " + f.last
}
