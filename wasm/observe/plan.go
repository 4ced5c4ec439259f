package observe

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
)

// What a plan asks the driver to do.
const (
	doNothing = ""        // nothing is due (Why may say what is waiting)
	doObserve = "observe" // call the model with System and Prompt, then state.Answer
	doReflect = "reflect" // call the model with System and Prompt, then state.Answer
	doCompact = "compact" // compact now, keeping FirstKept onwards, with summaryOf's text
)

// defaultWindow is the context window assumed when the model's is unknown.
const defaultWindow = 128000

// piReserveTokens is pi's default compaction.reserveTokens: pi compacts by
// itself once a reply's usage passes the model's window less this.
const piReserveTokens = 16384

// thresholds are the points at which the observer and our own compaction
// start on a model with this context window (0: defaultWindow). The
// observer starts at ObserverTokens unobserved, but never past one chunk
// (chunkTokens), so one trigger is one call. Our compaction starts at
// ObserverTokens + RetainTokens added since the last compaction, but never
// past the point where pi compacts by itself (window − piReserveTokens: on a
// 32k model, 38000 is never reached) nor before the observer's.
//
//	thresholds(defaults, 128000) => 25600, 38000
//	thresholds(defaults, 32000)  => 6400, 15616
func thresholds(cfg omConfig, window int) (observe, compact int) {
	if window <= 0 {
		window = defaultWindow
	}
	observe = min(cfg.ObserverTokens, chunkTokens(cfg, window, 0))
	compact = cfg.ObserverTokens + cfg.RetainTokens
	if pi := window - piReserveTokens; compact > pi {
		compact = max(pi, observe)
	}
	return observe, compact
}

// observerMaxTokens is the answer budget of one observer call.
const observerMaxTokens = 8192

// minReflectTokens keeps the count and pre-compaction triggers from calling
// the reflector over a memory too small to consolidate.
const minReflectTokens = 2000

// planEnv is what a plan needs besides the state, the config and the transcript.
// outWhy is why nothing is planned while a background call is out.
const outWhy = "a background observer or reflector call is out; its answer plans what comes next"

type planEnv struct {
	Window     int    // the model's context window in tokens (0: defaultWindow)
	Clock      clock  // now
	Force      bool   // /om observe: observe all that is unobserved now, whatever its size
	NoCompact  bool   // /om observe --no-compact
	Reflect    bool   // /om reflect: reflect now
	Aggressive bool   // /om reflect --aggressive
	Focus      string // /om reflect [focus]: what the reflector should pay attention to
	// Out says a background observer or reflector call is out: its answer
	// plans again, and a compaction must not send a span a second time
	// while the first call on it may still answer (issue 19, item 7).
	Out bool
}

// action is the next thing to do. For doObserve and doReflect the driver
// issues one complete effect (System, Prompt, MaxTokens, on Model) and
// passes the answer to state.Answer with this action; then it plans again,
// until doNothing. No plan ever asks for the same span twice: an empty
// answer moves the watermark like any other.
type action struct {
	Do        string
	Why       string // one line for status and receipts
	System    string
	Prompt    string
	MaxTokens int
	Model     string // cfg.ObserverModel: "" for the session's current model

	Chunk      chunk  // doObserve: the span this call covers
	Pending    int    // doObserve: calls the whole backlog needs, this one included
	Aggressive bool   // doReflect
	FirstKept  string // doCompact: the entry the compaction keeps from

	version int // the state's version when planned: an answer to an older state is stale
	upto    int // doReflect: how many of the oldest items this reflection rewrites
}

// chunk is one observer call's part of the transcript: whole entries (or
// parts of one too large for a call), oldest first, each covered once.
type chunk struct {
	From     string // the entry it starts in
	Start    Mark   // the watermark it starts after (the state's Mark when planned)
	Through  Mark   // the watermark once it is observed
	Text     string // what the observer reads, with a line for each new day
	Tokens   int    // estimate of Text
	Entries  int    // entries it covers, empty ones included
	Read     []string
	Modified []string
	day      int64 // local day of its last entry (items without a date line get it)
}

// plan decides what is due after a turn (turn_end, agent_settled) or a
// command, in this order: observe what is unobserved, reflect, compact.
//
//   - Observe (buffered mode) when the unobserved conversation reaches the
//     observer threshold: ObserverTokens, but never more than one chunk
//     (0.2 × the context window), so one trigger is one call. A backlog is
//     cut oldest first into chunks; each call covers one, and a remainder
//     below the threshold waits for more conversation. planEnv.Force observes
//     everything now.
//   - Reflect when the observations pass ReflectorTokens, after
//     ReflectEveryNObservations runs that added something, before our own
//     compaction (ReflectBeforeCompaction), or when asked (planEnv.Reflect).
//   - Compact (buffered mode with AutoCompact) when the conversation added
//     since the last compaction entry reaches ObserverTokens + RetainTokens
//     (before pi's own compaction on a small window: thresholds):
//     counting only what came after the compaction, a kept tail already over
//     the threshold never makes compaction repeat. It keeps at least
//     RecentTurnBudgetTokens raw, never keeps less than the previous
//     compaction did, and only drops entries the observations cover.
//
// Model calls back off after failures (state.Answer records them) and stop
// after three failures in a row; a compaction needs no model call and is
// still planned.
func plan(s *state, cfg omConfig, t *transcript, env planEnv) action {
	cfg = cfg.With(s.Settings)
	if !cfg.Enabled {
		return action{Why: "observational memory is off"}
	}
	if env.Out {
		return action{Why: outWhy}
	}
	now := env.Clock.Ms
	size := chunkTokens(cfg, env.Window, s.shrink)
	idx, off := s.start(t)
	unobserved := observable(t, idx, off)
	threshold, _ := thresholds(cfg, env.Window)
	var wait []string

	// 1. Observe.
	if unobserved > 0 {
		due := env.Force || (cfg.Mode == modeBuffered && threshold > 0 && unobserved >= threshold)
		switch {
		case !due:
			wait = append(wait, "~"+itoa(unobserved)+" unobserved tokens, observer at "+itoa(threshold))
		case !s.observer.ready(now):
			wait = append(wait, s.observer.waiting("observer", now, env.Clock.Zone))
		default:
			chunks := cutChunks(t, idx, off, len(t.Entries), s.Mark, size)
			if len(chunks) > 0 {
				a := s.observeAction(cfg, t, chunks[0], env)
				a.Pending = len(chunks)
				a.Why = "observing ~" + txt.Plural(unobserved, "unobserved token", "unobserved tokens") + " in " + txt.Plural(len(chunks), "call", "calls") + " of at most " + txt.Plural(size, "token", "tokens")
				return a
			}
		}
	}

	// Our own compaction, if due, decides the last reflection before it.
	keep, compactWhy := s.compactDue(cfg, t, env)

	// 2. Reflect.
	if len(s.Groups) > 0 {
		tokens := s.Tokens()
		why := ""
		switch {
		case env.Reflect:
			why = "reflecting on request"
		case !cfg.EnableReflection:
		case tokens > cfg.ReflectorTokens:
			why = "observations at ~" + txt.Plural(tokens, "token", "tokens") + ", reflector at " + itoa(cfg.ReflectorTokens)
		case cfg.ReflectEveryNObservations > 0 && s.SinceReflect >= cfg.ReflectEveryNObservations && tokens >= minReflectTokens:
			why = txt.Plural(s.SinceReflect, "observer run", "observer runs") + " since the last reflection"
		case keep != "" && cfg.ReflectBeforeCompaction && s.SinceReflect > 0 && tokens >= minReflectTokens:
			why = "reflecting before compaction"
		}
		if why != "" {
			if !s.reflector.ready(now) {
				wait = append(wait, s.reflector.waiting("reflector", now, env.Clock.Zone))
			} else {
				a := s.reflectAction(cfg, env)
				a.Why = why
				return a
			}
		}
	}

	// 3. Compact.
	if keep != "" {
		return action{Do: doCompact, FirstKept: keep, Why: compactWhy, version: s.version}
	}
	if compactWhy != "" {
		wait = append(wait, compactWhy)
	}
	return action{Why: strings.Join(wait, "; ")}
}

// compactDue returns the first kept entry of our own compaction when one is
// due, or "" and why not (or "" when nothing is pending).
func (s *state) compactDue(cfg omConfig, t *transcript, env planEnv) (string, string) {
	forced := env.Force && cfg.ForceObserveAutoCompact && !env.NoCompact
	if !forced {
		if cfg.Mode != modeBuffered || !cfg.AutoCompact || cfg.ObserverTokens == 0 || env.NoCompact {
			return "", ""
		}
		added := 0
		for i := t.LastCompaction + 1; i < len(t.Entries); i++ {
			added += t.Entries[i].Tokens
		}
		if _, act := thresholds(cfg, env.Window); added < act {
			return "", ""
		}
	}
	if len(s.Groups) == 0 {
		return "", "compaction waits for the first observations"
	}
	cut := s.keepFrom(t, cfg.RecentTurnBudgetTokens)
	if cut < 0 {
		return "", "nothing the observations cover can be compacted yet"
	}
	return t.Entries[cut].ID, "compacting: the observations cover everything before " + entryAt(t, cut, env.Clock)
}

// keepFrom chooses our compaction's first kept entry: at least keepTokens of
// the newest conversation stay raw, every entry before it is covered, it is
// an entry pi accepts as a cut point, and it is later than the previous
// compaction's. -1 when no such entry exists.
func (s *state) keepFrom(t *transcript, keepTokens int) int {
	n := len(t.Entries)
	cut, sum := n, 0
	for cut > 0 && sum < keepTokens {
		cut--
		sum += t.Entries[cut].Tokens
	}
	idx, off := s.start(t)
	if off > 0 || idx < cut {
		cut = idx // everything from the first entry not wholly covered stays
	}
	for cut > 0 && cut < n && !t.Entries[cut].CanCut {
		cut--
	}
	if cut <= 0 || cut >= n || !t.Entries[cut].CanCut || t.Entries[cut].ID == "" {
		return -1
	}
	prev := -1
	if t.LastCompaction >= 0 {
		prev = t.index(t.Entries[t.LastCompaction].firstKept)
		if prev < 0 {
			prev = t.LastCompaction
		}
	}
	if cut <= prev {
		return -1
	}
	// Something must go: a compaction that drops only empty entries is noise.
	for i := prev + 1; i < cut; i++ {
		if t.Entries[i].Tokens > 0 && t.Entries[i].Role != roleCompaction {
			return cut
		}
	}
	return -1
}

// planCompaction is the plan for pi's own compaction (session_before_compact,
// firstKept from its preparation): doCompact when the observations cover
// every entry before firstKept (render summaryOf, no model call); doObserve
// for the one chunk that would complete them (run it with a hard timeout,
// then plan again); doNothing when our summary cannot be given in time, and
// Why says so: pi's own compaction then runs. In blocking mode, where the
// person chose to wait, the uncovered span may take several calls.
//
// For a branch summary (session_before_tree, when the person wants one),
// fold the records of the branch being left, read its entries, and plan
// with firstKept "": everything given must be covered.
func planCompaction(s *state, cfg omConfig, t *transcript, firstKept string, env planEnv) action {
	cfg = cfg.With(s.Settings)
	if !cfg.Enabled {
		return action{Why: "observational memory is off"}
	}
	end := len(t.Entries)
	if firstKept != "" {
		if end = t.index(firstKept); end < 0 {
			return action{Why: cat("the first kept entry ", quote(firstKept), " is not in the branch; pi's own compaction runs")}
		}
	}
	idx, off := s.start(t)
	if idx < end && observableRange(t, idx, off, end) > 0 {
		if !s.observer.ready(env.Clock.Ms) {
			return action{Why: s.observer.waiting("observer", env.Clock.Ms, env.Clock.Zone) + "; pi's own compaction runs"}
		}
		if env.Out {
			return action{Why: outWhy + "; pi's own compaction runs rather than send it twice"}
		}
		chunks := cutChunks(t, idx, off, end, s.Mark, chunkTokens(cfg, env.Window, s.shrink))
		if len(chunks) > 1 && cfg.Mode != modeBlocking {
			return action{Why: "the observations miss ~" + txt.Plural(observableRange(t, idx, off, end), "token", "tokens") + " that need " + itoa(len(chunks)) + " observer calls; pi's own compaction runs"}
		}
		if len(chunks) > 0 {
			a := s.observeAction(cfg, t, chunks[0], env)
			a.Pending = len(chunks)
			a.Why = "observing the span the compaction drops"
			return a
		}
	}
	if len(s.Groups) == 0 {
		return action{Why: "no observations yet; pi's own compaction runs"}
	}
	return action{Do: doCompact, FirstKept: firstKept, Why: "the observations cover the compacted span", version: s.version}
}

// Pending is the conversation the observations do not cover yet, as the
// observer would read it (/om view raw), and its estimated tokens.
func (s *state) Pending(t *transcript) (string, int) {
	idx, off := s.start(t)
	var b txt.Builder
	for _, c := range cutChunks(t, idx, off, len(t.Entries), s.Mark, 1<<28) {
		b.WriteString(c.Text)
	}
	return b.String(), observable(t, idx, off)
}

// start is the first position the observations do not cover: an entry
// index and a byte offset into its text.
func (s *state) start(t *transcript) (int, int) {
	if s.Mark.ID == "" {
		return 0, 0
	}
	i := t.index(s.Mark.ID)
	if i < 0 {
		return 0, 0 // the watermark is not in what we were given: all of it is new
	}
	if off := s.Mark.Off; off > 0 && off < len(t.Entries[i].Text) {
		return i, off
	}
	return i + 1, 0
}

// observable is the tokens of conversation from (idx, off) to the end that
// the observer has something to read in.
func observable(t *transcript, idx, off int) int { return observableRange(t, idx, off, len(t.Entries)) }

func observableRange(t *transcript, idx, off, end int) int {
	sum := 0
	for i := idx; i < end && i < len(t.Entries); i++ {
		e := &t.Entries[i]
		if e.Text == "" {
			continue
		}
		n := e.Tokens
		if tt := budget.EstimateTokens(e.Text); tt > n {
			n = tt
		}
		if i == idx && off > 0 {
			n = n * (len(e.Text) - off) / len(e.Text)
		}
		sum += n
	}
	return sum
}

// chunkTokens is the most transcript one observer call reads: a fifth of
// the context window, within maxObserverTranscriptChars, halved for every
// prompt-too-long failure. Around it the prompt holds the instructions
// (about 1,500 tokens) and at most a twentieth of the window of the newest
// observations, so one call stays near a quarter of the window.
func chunkTokens(cfg omConfig, window, shrink int) int {
	if window <= 0 {
		window = defaultWindow
	}
	n := window / 5
	if c := cfg.MaxObserverTranscriptChars / 4; c < n {
		n = c
	}
	n >>= shrink
	if n < 256 {
		n = 256
	}
	return n
}

// cutChunks cuts the entries from (idx, off) up to end into chunks of at
// most maxTokens of text. An assistant message and the tool results after it
// stay in one chunk when they fit; an entry larger than a chunk is split at
// line boundaries into parts, each in a chunk of its own. Entries with
// nothing to read ride along with the chunk they fall in, so every entry is
// covered by exactly one chunk (a split entry by one chunk per part).
func cutChunks(t *transcript, idx, off, end int, start Mark, maxTokens int) []chunk {
	room := budget.TokenBytes(maxTokens)
	var out []chunk
	var b txt.Builder
	var cur chunk
	curDay, started := int64(0), false
	open := func(i int) {
		cur = chunk{From: t.Entries[i].ID, Start: start, Through: start}
		b.Reset()
		started = true
	}
	closeChunk := func() {
		if started && b.Len() > 0 {
			cur.Text = b.String()
			cur.Tokens = budget.EstimateTokens(cur.Text)
			out = append(out, cur)
			start = cur.Through
			started = false
		}
	}
	// cost is the bytes write adds for text[from:to] of entry i.
	cost := func(i, from, to int) int {
		c := to - from + 1
		if b.Len() == 0 || t.Entries[i].day != curDay {
			c += len(dayLine(t.Entries[i].day)) + 1
		}
		if from > 0 {
			c += len(continued)
		}
		return c
	}
	write := func(i, from, to int) {
		e := &t.Entries[i]
		if b.Len() == 0 || e.day != curDay {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(dayLine(e.day))
			curDay = e.day
		}
		b.WriteByte('\n')
		if from > 0 {
			b.WriteString(continued)
		}
		b.WriteString(e.Text[from:to])
		cur.day = e.day
		cur.Through = Mark{ID: e.ID}
		if to < len(e.Text) {
			cur.Through.Off = to
		}
	}
	join := func(e *entry) {
		cur.Entries++
		cur.Read = union(cur.Read, e.Read)
		cur.Modified = union(cur.Modified, e.Modified)
	}
	for i := idx; i < end && i < len(t.Entries); i++ {
		e := &t.Entries[i]
		from := 0
		if i == idx {
			from = off
		}
		if e.Text == "" || from >= len(e.Text) {
			if !started {
				open(i)
			}
			join(e)
			cur.Through = Mark{ID: e.ID}
			continue
		}
		need := cost(i, from, len(e.Text))
		if !e.result {
			group := need
			for j := i + 1; j < end && j < len(t.Entries) && t.Entries[j].result; j++ {
				if t.Entries[j].Text != "" {
					group += len(t.Entries[j].Text) + 1
				}
			}
			if group <= room {
				need = group
			}
		}
		if started && b.Len() > 0 && b.Len()+need > room {
			closeChunk()
		}
		if !started {
			open(i)
		}
		join(e)
		for {
			if b.Len()+cost(i, from, len(e.Text)) <= room {
				write(i, from, len(e.Text))
				break
			}
			if b.Len() > 0 {
				closeChunk()
				open(i)
				join(e)
				continue
			}
			// Larger than a whole chunk: this part fills one.
			limit := from + room - cost(i, from, from)
			to := splitAt(e.Text, from, limit)
			if to <= from {
				to = limit // one line longer than a chunk: cut inside it, at a rune boundary
				for to > from+1 && e.Text[to]&0xC0 == 0x80 {
					to--
				}
			}
			write(i, from, to)
			from = to
			closeChunk()
			open(i)
			join(e)
		}
	}
	closeChunk()
	return out
}

// continued starts the text of a part of an entry after the first.
const continued = "[… continued]\n"

// splitAt is the end of the last whole line of text[from:limit], or from
// when there is none.
func splitAt(text string, from, limit int) int {
	if limit > len(text) {
		limit = len(text)
	}
	if i := strings.LastIndexByte(text[from:limit], '\n'); i > 0 {
		return from + i + 1
	}
	return from
}

// dayLine heads the lines of one local day in a chunk.
func dayLine(d int64) string { return "--- " + weekday(d) + " " + formatDay(d) + " ---" }
