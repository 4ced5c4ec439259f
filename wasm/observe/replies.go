package observe

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// What the /om commands and the store's warnings say, rendered from values:
// the driver (driver*.go) gathers the values and sends the text.

// piOnly is why a command that changes the observations (/om sub) cannot
// run in mode, or "" when it can: pimem (mode "cli") reads a session file
// but never writes to it, and the observations live in the session.
func piOnly(mode, sub string) string {
	if mode != "cli" {
		return ""
	}
	return "/om " + sub + " changes the observations, which live in the pi session: run it in pi. pimem reads a session (--session FILE) but never writes to it."
}

// covered says how far the observations reach in the branch t, as a
// person counts a session (entryAt); "nothing yet" before the first.
func covered(s *state, t *transcript, now clock) string {
	if s.Mark.ID == "" {
		return "nothing yet"
	}
	i := -1
	if t != nil {
		i = t.index(s.Mark.ID)
	}
	part := ""
	if s.Mark.Off > 0 {
		part = "part of "
	}
	return cat("through ", part, entryAt(t, i, now))
}

// roleWords name an entry by its role, as a person finds it in pi.
var roleWords = [...][2]string{
	{roleUser, "your message"}, {roleAssistant, "the reply"}, {roleToolResult, "a tool's result"},
	{roleBash, "a shell command's output"}, {roleCustom, "an extension's message"},
	{roleSummary, "a summary"}, {roleCompaction, "a summary"},
}

// entryAt names entry i of t as a person finds it in the session: the
// turn it is in (a message of the user and what answered it), counted in
// the branch, what it is and when it was written; never its id, which
// nothing shows.
//
//	entryAt(t, 3, now) => "turn 2 of 3 (the reply at 14:31)"
func entryAt(t *transcript, i int, now clock) string {
	switch {
	case t == nil:
		return "an entry of the session (its branch is not read here)"
	case i < 0 || i >= len(t.Entries):
		return "an entry that is not on this branch"
	}
	turn, turns := 0, 0
	for k := range t.Entries {
		if t.Entries[k].Role == roleUser {
			turns++
			if k <= i {
				turn = turns
			}
		}
	}
	e := &t.Entries[i]
	what := "an entry"
	for _, w := range roleWords {
		if w[0] == e.Role {
			what = w[1]
		}
	}
	if e.Time > 0 {
		c := clock{Ms: e.Time, Zone: now.Zone}
		day := ""
		if c.Day() != now.Day() {
			day = formatDay(c.Day()) + ", "
		}
		what = cat(what, " at ", day, formatMinute(c.minute()))
	}
	if turn == 0 {
		return cat("the start of the session (", what, ")")
	}
	return cat("turn ", itoa(turn), " of ", itoa(turns), " (", what, ")")
}

// observedText is /om observe's answer once its calls are done: runs is the
// observer runs they merged, why what the last plan said; t is the branch
// and now the time, to say what the observations cover.
func observedText(s *state, t *transcript, now clock, runs int, why string) string {
	msg := "Nothing new to observe."
	if runs > 0 {
		msg = "Observed in " + txt.Plural(runs, "call", "calls") + ": " + txt.Plural(s.Items()[0], "observation", "observations") + " (~" + txt.Plural(s.Tokens(), "token", "tokens") + "), covered " + covered(s, t, now) + "."
	}
	if why != "" && runs == 0 {
		msg += " (" + why + ")"
	}
	return msg
}

// observeFailedText is /om observe's answer when a model call failed after
// runs merged ones: the failure is said as such, never as "nothing new",
// and what it was asked stays unobserved for the next run.
func observeFailedText(s *state, t *transcript, now clock, runs int, err error) string {
	msg := "The observer call failed: " + err.Error() + ". "
	if runs > 0 {
		msg = "Observed in " + txt.Plural(runs, "call", "calls") + " (" + txt.Plural(s.Items()[0], "observation", "observations") + ", covered " + covered(s, t, now) + "), then the next call failed: " + err.Error() + ". "
	}
	return msg + "What it was asked is not marked observed: the next run observes it again (/om status shows the failure; /om observe retries at once)."
}

// compactionFailedText is the warning when the observer call a compaction
// waited for failed: pi's own summary is used this time, and the span stays
// unobserved.
func compactionFailedText(err error) string {
	return "pi-memory: the observer call for this compaction failed (" + err.Error() + "); pi's own compaction summarises instead, and the observer tries the same conversation again later."
}

// noReflection is /om reflect's answer when there is nothing to reflect on.
const noReflection = "No observations to reflect on yet."

// reflectedText is /om reflect's answer once its calls are done: before is
// the count of reflections, tokens the observations' size, both as they were
// when it started; ok is false when no reflection was applied.
func reflectedText(s *state, before, tokens int, why string) (msg string, ok bool) {
	if s.Reflected == before {
		return "The reflection was not applied; the observations are kept as they are (" + why + ").", false
	}
	return "Reflected: ~" + numstr.Itoa(tokens) + " → ~" + txt.Plural(s.Tokens(), "token", "tokens") + ", " + txt.Plural(s.Items()[0], "observation", "observations") + ".", true
}

// observationsPage is /om observations: the observations with the current
// task and response, as text or (asJSON) as one JSON object.
func observationsPage(s *state, asJSON bool) string {
	text := s.Text()
	if asJSON {
		w := jsonw.Open(nil)
		w.Str("observations", text)
		w.Str("task", s.Task)
		w.Str("response", s.Response)
		return string(w.Close())
	}
	if strings.TrimSpace(text) == "" {
		return "No observations yet."
	}
	return strings.TrimRight(text, "\n")
}

// viewPage is /om view: what v selects of the observations and of the
// conversation in t they do not cover yet (with its size), each part cut
// to v.limit lines.
func viewPage(s *state, t *transcript, v viewSel) string {
	var b txt.Builder
	if v.obs {
		text := s.Text()
		if strings.TrimSpace(text) == "" {
			text = "(none yet)"
		}
		b.WriteString("--- observations ---\n" + firstLines(text, v.limit))
	}
	if v.raw {
		text, tokens := s.Pending(t)
		if v.obs {
			b.WriteString("\n")
		}
		b.WriteString("--- not yet observed: ~" + txt.Plural(tokens, "token", "tokens") + " ---\n")
		if strings.TrimSpace(text) == "" {
			text = "(nothing)"
		}
		b.WriteString(firstLines(text, v.limit))
	}
	return strings.TrimRight(b.String(), "\n")
}

// firstLines keeps the first n lines of text (all when n is 0), saying how
// many were left out; the result ends with one newline.
//
//	firstLines("a\nb\nc", 2) => "a\nb\n(1 more line)\n"
func firstLines(text string, n int) string {
	text = strings.TrimRight(text, "\n") + "\n"
	if n <= 0 {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	if len(lines) <= n {
		return text
	}
	return strings.Join(lines[:n], "") + "(" + txt.Plural(len(lines)-n, "more line", "more lines") + ")\n"
}

// clearedText is /om clear's answer: n observations were cleared.
func clearedText(n int) string {
	return "Cleared " + txt.Plural(n, "observation", "observations") + " with the current task and response. The ledger keeps the earlier records; what they covered is not observed again."
}

// modeText is /om mode without a word: the mode in force (eff is the
// configuration with the session's overrides).
func modeText(eff omConfig) string {
	return "Mode: " + eff.Mode + " (buffered: observe between turns; blocking: only when pi compacts or on /om observe)."
}

// modeSetText is /om mode's answer once it set mode, kept where sc keeps it.
func modeSetText(mode string, sc *omScope) string {
	return "Mode: " + mode + " (kept " + sc.keptIn() + ")."
}

// thresholdText is when the observer and our compaction start on a model
// with window (thresholds), saying why when the window moves them from what
// is configured.
//
//	thresholdText(defaults, 32000) => "observer at 6400 tokens, compaction at 15616 (on this model's 32000-token window; configured: 30000 and 38000)"
func thresholdText(cfg omConfig, window int) string {
	observe, compact := thresholds(cfg, window)
	why := ""
	if configured := cfg.ObserverTokens + cfg.RetainTokens; observe != cfg.ObserverTokens || compact != configured {
		model := cat("on this model's ", itoa(window), "-token window")
		if window <= 0 {
			model = "the model's window is not known, " + itoa(defaultWindow) + " tokens assumed"
		}
		why = cat(" (", model, "; configured: ", itoa(cfg.ObserverTokens), " and ", itoa(configured), ")")
	}
	return cat("observer at ", txt.Plural(observe, "token", "tokens"), ", compaction at ", itoa(compact), why)
}

// autoCompactText is /om auto-compact's answer: our own compaction's
// settings in force (eff is the configuration with the session's
// overrides) and where they start on the model's window, after what set
// them (sc, nil when nothing was set).
func autoCompactText(eff omConfig, window int, sc *omScope) string {
	prefix := ""
	if sc != nil {
		prefix = "Kept " + sc.keptIn() + ". "
	}
	return prefix + "Auto-compact " + onOff(eff.AutoCompact) + ", " + eff.Mode + " mode; " + thresholdText(eff, window) +
		"; reflector at " + numstr.Itoa(eff.ReflectorTokens) + ", retain " + numstr.Itoa(eff.RetainTokens) + "."
}

// rebuiltText is /om rebuild's answer: s was folded again from recs
// records of the ledger sc names.
func rebuiltText(s *state, t *transcript, now clock, recs int, sc *omScope) string {
	of := "of this branch"
	if sc.resource {
		of = "of " + sc.file
	}
	return "Rebuilt from " + txt.Plural(recs, "ledger entry", "ledger entries") + " " + of + ": " + txt.Plural(s.Items()[0], "observation", "observations") + ", covered " + covered(s, t, now) + "."
}

// dumpPage is /om dump: the ledger's records, one JSON line each (lines,
// as encode writes them; asJSON says nothing at all when there are none).
func dumpPage(lines []string, asJSON bool, sc *omScope) string {
	if len(lines) == 0 {
		if asJSON {
			return ""
		}
		where := "in this branch"
		if sc.resource {
			where = "in " + sc.file
		}
		return "No observational-memory entries " + where + "."
	}
	return strings.Join(lines, "\n")
}

// problemsText is the one warning that names the ledger entries (thread
// scope) or lines (resource scope, sc) that could not be read.
func problemsText(problems []Problem, sc *omScope) string {
	where, what := "branch ", "entries of this branch"
	if sc.resource {
		where, what = sc.file+": ", "lines of "+sc.file
	}
	msg := "pi-memory: " + numstr.Itoa(len(problems)) + " observational-memory " + what + " could not be read and are skipped (/om dump shows the others):"
	for _, p := range problems {
		msg += "\n  " + where + p.String()
	}
	return msg
}

// receiptPart is /memory last's part for the observations: the block the
// newest model request got (inj) and why, or, when injWhy is not "", why
// nothing was injected.
func receiptPart(inj injection, injWhy string) store.Receipt {
	text, why, tokens := inj.Text+inj.Hint, inj.Why, inj.Tokens
	switch {
	case injWhy != "":
		text, why, tokens = "", injWhy, 0
	case inj.Text == "":
		text, tokens = "", 0
	}
	w := jsonw.Open(nil)
	w.Str("store", "observations")
	w.Str("where", "context")
	w.Int("bytes", int64(len(text)))
	w.Int("tokens", int64(tokens))
	w.Str("why", why)
	w.Str("text", text)
	t := "\n\n--- observations (in the newest request): " + txt.Plural(len(text), "byte", "bytes") + " ≈ " + txt.Plural(tokens, "token", "tokens") + " ---"
	if text == "" {
		t += "\n(nothing: " + why + ")"
	} else {
		t += "\n" + why + "\n" + strings.TrimRight(text, "\n")
	}
	return store.Receipt{Key: "context", Text: t, JSON: w.Close()}
}
