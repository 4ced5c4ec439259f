package decision

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// candidate is a possible decision found in a user prompt.
type candidate struct {
	Text     string
	Score    float64 // 1 for an explicit "Decision:" line; the rule score otherwise
	Explicit bool
}

// Auto-capture limits.
const (
	minCandidateChars = 8
	maxCandidateChars = 500
	// candidateFloor is the lowest rule score worth keeping as a candidate at
	// all (an LLM classifier may still promote it in hybrid mode).
	candidateFloor = 0.3
)

// candidates extracts decision candidates from the text a person typed. It
// reads only that text: fenced code, quoted lines ("> …") and lines in the
// format pi-memory injects ("D-… | …") are skipped, so pasted or injected
// memory is never captured again. Explicit "Decision: <text>" lines come first
// (score 1); other sentences are scored by score and kept at candidateFloor
// or above.
//
//	candidates("Decision: Use pnpm\nFrom now on we run tests before pushing.")
//	=> [{Text:"Use pnpm", Score:1, Explicit:true}, {Text:"From now on we run tests before pushing.", Score:0.8}]
func candidates(prompt string) []candidate {
	var explicit, ruled []candidate
	fenced := false
	// Line by line without splitting: a slice of every line of a pasted
	// 8 MB log points into it 100,000 times, and TinyGo's collector walks
	// back to the text's start for each of them (decision 003).
	for rest, more := prompt, true; more; {
		var raw string
		raw, rest, more = strings.Cut(rest, "\n")
		line := strings.TrimSpace(raw)
		if isFence(line) {
			fenced = !fenced
			continue
		}
		if fenced || line == "" || strings.HasPrefix(line, ">") || looksInjected(line) {
			continue
		}
		if text, ok := explicitDecision(line); ok {
			if c, ok := newCandidate(text, 1, true); ok {
				explicit = append(explicit, c)
			}
			continue
		}
		for _, sentence := range sentences(line) {
			if sc := score(sentence); sc >= candidateFloor {
				if c, ok := newCandidate(sentence, sc, false); ok {
					ruled = append(ruled, c)
				}
			}
		}
	}
	return dedupeCandidates(append(explicit, ruled...))
}

// promptLines is what capture reads of a prompt as it stands in JSON: all
// of it up to store.MaxRead bytes, else the whole lines of its ends (a line
// cut at a word, a quote's ">" cut off, would be captured as a fragment:
// h-v94 d1); the end's lines only when nothing in between could have opened
// or closed a code block, and the start's leave none open.
func promptLines(raw string) string {
	first, last, _, cut := jsonr.Ends(raw, store.MaxRead*2/3, store.MaxRead/3)
	if !cut {
		return first
	}
	head := first[:strings.LastIndexByte(first, '\n')+1]
	tail := ""
	if i := strings.IndexByte(last, '\n'); i >= 0 {
		tail = last[i+1:]
	}
	fences := func(s string) int { return strings.Count(s, "```") + strings.Count(s, "~~~") }
	if tail == "" || fenced(head) || fences(raw) != fences(first)+fences(last) {
		return head
	}
	return head + tail
}

// fenced says whether a code block is open at the end of text, read as
// candidates reads it.
func fenced(text string) bool {
	open := false
	for rest, more := text, true; more; {
		var l string
		l, rest, more = strings.Cut(rest, "\n")
		if isFence(strings.TrimSpace(l)) {
			open = !open
		}
	}
	return open
}

// isFence: a trimmed line that opens or closes a code block for capture.
func isFence(line string) bool {
	return strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~")
}

func newCandidate(text string, score float64, explicit bool) (candidate, bool) {
	// Redacted before it is cut: a password cut in half is no longer one
	// (h-v94 c4).
	text, _ = redact.String(text)
	text = strings.TrimSpace(txt.OneLine(text))
	n := len([]rune(text))
	if n < minCandidateChars {
		return candidate{}, false
	}
	if n > maxCandidateChars {
		text = txt.Runes(text, maxCandidateChars)
	}
	return candidate{Text: text, Score: score, Explicit: explicit}, true
}

func dedupeCandidates(in []candidate) []candidate {
	seen := map[string]bool{}
	out := in[:0]
	for _, c := range in {
		k := strings.ToLower(c.Text)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, c)
	}
	return out
}

// explicitDecision matches "Decision: <text>" (any case, optional bullet).
func explicitDecision(line string) (string, bool) {
	line = strings.TrimLeft(line, "-*• \t")
	if len(line) < 9 || !strings.EqualFold(line[:8], "decision") {
		return "", false
	}
	rest := strings.TrimLeft(line[8:], " \t")
	if !strings.HasPrefix(rest, ":") {
		return "", false
	}
	text := strings.TrimSpace(rest[1:])
	return text, text != ""
}

func looksInjected(line string) bool {
	return len(line) > 20 && validID(strings.TrimSpace(strings.SplitN(line, "|", 2)[0])) && strings.Contains(line, " | ")
}

// sentences splits a line at ". ", "! " and "; " boundaries.
func sentences(line string) []string {
	var out []string
	start := 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		if (c == '.' || c == '!' || c == ';') && (i+1 == len(line) || line[i+1] == ' ') {
			if s := strings.TrimSpace(line[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(line[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// Directive cues and their weights. A sentence's score is the strongest cue
// it starts with or contains; questions score 0.
var (
	leadCues = []struct {
		cue   string
		score float64
	}{
		{"from now on", 0.8}, {"going forward", 0.8}, {"we decided", 0.8}, {"i decided", 0.8},
		{"the decision is", 0.8}, {"we have decided", 0.8}, {"let's standardize on", 0.8},
		{"always", 0.7}, {"never", 0.7}, {"do not ever", 0.7}, {"don't ever", 0.7},
		{"we will use", 0.7}, {"we'll use", 0.7}, {"we use", 0.55}, {"let's use", 0.7},
		{"let's go with", 0.7}, {"we're going with", 0.7}, {"we are going with", 0.7},
		{"use", 0.4}, {"prefer", 0.5}, {"avoid", 0.45}, {"don't use", 0.5}, {"do not use", 0.5},
	}
	innerCues = []struct {
		cue   string
		score float64
	}{
		{" from now on", 0.75}, {" going forward", 0.75}, {" instead of ", 0.66}, {" over ", 0.3},
		{" as our ", 0.6}, {" as the standard", 0.7}, {" must always ", 0.7}, {" must never ", 0.7},
	}
)

// score rates how much a sentence reads like a decision (a chosen, actionable
// rule) rather than a task, a question or a passing remark.
//
//	score("From now on we squash-merge every PR.") => 0.8
//	score("Can you fix the login bug?")            => 0
func score(sentence string) float64 {
	s := strings.ToLower(strings.TrimSpace(sentence))
	if s == "" || strings.HasSuffix(s, "?") {
		return 0
	}
	best := 0.0
	for _, c := range leadCues {
		if strings.HasPrefix(s, c.cue) && (len(s) == len(c.cue) || !isWordChar(rune(s[len(c.cue)]))) {
			if c.score > best {
				best = c.score
			}
		}
	}
	for _, c := range innerCues {
		if strings.Contains(s, c.cue) && c.score > best {
			best = c.score
		}
	}
	if best > 0 && best < 0.66 && strings.Contains(s, " instead of ") {
		best = 0.7
	}
	return best
}

func isWordChar(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' }

// unsavedNotice names the candidates auto-capture did not save because
// confirming them needs a UI, and says how to keep them.
//
//	unsavedNotice([{Text: "Use pnpm"}]) => `1 decision candidate was not saved, because confirming needs a UI: "Use pnpm". Add it with /decision add, or set autoCapture.confirm to false.`
func unsavedNotice(cands []candidate) string {
	q := make([]string, len(cands))
	for i, c := range cands {
		q[i] = strconv.Quote(c.Text)
	}
	return txt.Plural(len(cands), "decision candidate was", "decision candidates were") +
		" not saved, because confirming needs a UI: " + strings.Join(q, ", ") + ". Add it with /decision add, or set autoCapture.confirm to false."
}
