package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/pi-memory/pi-memory/wasm/similarity"
	"github.com/tidwall/gjson"
)

// Auto-capture: candidates found in a prompt are classified
// when the run ends — by the rule score, or by the model for the ones the
// configured classifier sends it — then deduplicated and capped before a
// person sees them. Everything here is pure; the driver makes the model
// call and shows the dialogs (driver_capture.go).

// ByRule keeps the explicit candidates and those the rule classifier scores
// at or above the threshold.
func (c *settings) ByRule(cands []candidate) []candidate {
	var out []candidate
	for _, k := range cands {
		if k.Explicit || k.Score >= c.Threshold {
			out = append(out, k)
		}
	}
	return out
}

// ToAsk returns the candidates the model must judge: all of them with the
// "llm" classifier, the unsure ones (neither explicit nor over the
// threshold) with "hybrid", none with "rule".
func (c *settings) ToAsk(cands []candidate) []candidate {
	var ask []candidate
	for _, k := range cands {
		switch {
		case c.Classifier == "llm":
			ask = append(ask, k)
		case c.Classifier == "hybrid" && !k.Explicit && k.Score < c.Threshold:
			ask = append(ask, k)
		}
	}
	return ask
}

// classifierSystem is the model's instruction for judging candidates.
const classifierSystem = "You classify sentences a developer wrote to a coding agent. A decision is a chosen, actionable rule for the project that had alternatives (for example \"Use PostgreSQL for the primary database\", \"Never commit generated files\"). Tasks, questions, one-off instructions and plain facts are not decisions. Answer with JSON only: an array of objects {\"n\": <number>, \"decision\": true|false, \"confidence\": <0..1>}."

// classifierPrompt numbers the candidates for the model, redacted: a
// secret never leaves the machine in a model call.
//
//	classifierPrompt([{Text: "Use pnpm"}, {Text: "Always run lint"}]) => "1. Use pnpm\n2. Always run lint\n"
func classifierPrompt(cands []candidate) string {
	var b txt.Builder
	for i, k := range cands {
		text, _ := redact.String(k.Text)
		b.WriteString(numstr.Itoa(i+1) + ". " + txt.OneLine(text) + "\n")
	}
	return b.String()
}

// verdicts is the model's answer about the asked candidates: a confidence
// per candidate it judged (0 for "not a decision"), by position.
type verdicts struct {
	Conf   []float64
	Judged []bool
}

// parseVerdicts reads the model's answer about n candidates: the first JSON
// array in it (firstArray), whose objects carry "n" (1-based), "decision"
// and "confidence". Entries out of range or of the wrong shape are ignored;
// an answer with no readable array reports false, and the caller falls back
// to the rule classifier. The answer is outside data: it never panics.
//
//	parseVerdicts(`Sure: [{"n":1,"decision":true,"confidence":0.9}]`, 2) => Conf [0.9 0], Judged [true false], true
func parseVerdicts(answer string, n int) (verdicts, bool) {
	span, ok := firstArray(answer)
	if !ok {
		return verdicts{}, false
	}
	arr := gjson.Parse(span)
	v := verdicts{Conf: make([]float64, n), Judged: make([]bool, n)}
	arr.ForEach(func(_, e gjson.Result) bool {
		if !e.IsObject() {
			return true
		}
		k := jsonr.Get(e, "n")
		if k.Type != gjson.Number || k.Num != float64(int(k.Num)) || k.Num < 1 || k.Num > float64(n) {
			return true
		}
		i := int(k.Num) - 1
		conf := jsonr.Get(e, "confidence").Float()
		if conf < 0 || conf != conf {
			conf = 0
		}
		if conf > 1 {
			conf = 1
		}
		if jsonr.Get(e, "decision").Type != gjson.True {
			conf = 0
		}
		v.Conf[i], v.Judged[i] = conf, true
		return true
	})
	return v, true
}

// firstArray is the first bracketed span of s that is a valid JSON array.
// Brackets are matched, those inside a JSON string in a bracket left out, so
// prose before or after the array may hold brackets of its own; a span that
// is not JSON is skipped whole (what it holds is not tried), which keeps the
// search linear in the length of s. A stray quote in prose brackets would
// hide everything after it in a "string", so when no array is found that
// way, quotes are ignored in a second pass.
//
//	firstArray(`[{"n":1,"why":"a ]"}] (see [1])`) => `[{"n":1,"why":"a ]"}]`, true
//	firstArray(`[sic] then [1]`)                 => `[1]`, true
//	firstArray(`[1`)                             => "", false
func firstArray(s string) (string, bool) {
	if a, ok := firstValidSpan(s, bracketEnds(s, true)); ok {
		return a, true
	}
	return firstValidSpan(s, bracketEnds(s, false))
}

// bracketEnds maps the index of each '[' of s that is closed to the index
// of its ']'; when quoted, brackets in a JSON string inside a bracket do
// not count.
func bracketEnds(s string, quoted bool) map[int]int {
	ends := map[int]int{}
	var open []int
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString && c == '\\':
			i++
		case inString:
			inString = c != '"'
		case quoted && c == '"' && len(open) > 0:
			inString = true
		case c == '[':
			open = append(open, i)
		case c == ']' && len(open) > 0:
			ends[open[len(open)-1]] = i
			open = open[:len(open)-1]
		}
	}
	return ends
}

// firstValidSpan is the first span of ends, by where it starts, that is
// valid JSON; a span that is not is skipped with what it holds.
func firstValidSpan(s string, ends map[int]int) (string, bool) {
	for i := 0; i < len(s); i++ {
		end, ok := ends[i]
		if !ok {
			continue
		}
		if jsonr.Valid(s[i : end+1]) {
			return s[i : end+1], true
		}
		i = end
	}
	return "", false
}

// verdictsOf reads the host's answer to the classifier call about n
// candidates: {"text": the model's answer} (parseVerdicts), or {"error": why}
// when the call failed. ok is false when there is no usable answer.
//
//	verdictsOf({"text": "[{\"n\":1,\"decision\":true,\"confidence\":0.9}]"}, 1) => Conf [0.9], Judged [true], true
//	verdictsOf({"error": "timeout"}, 1) => false
func verdictsOf(answer gjson.Result, n int) (verdicts, bool) {
	if jsonr.Get(answer, "error").String() != "" || !jsonr.Get(answer, "text").Exists() {
		return verdicts{}, false
	}
	return parseVerdicts(jsonr.Get(answer, "text").String(), n)
}

// ByModel applies the model's verdicts about the asked candidates (asked[i]
// judged by v at i). A candidate the model was not asked about passes by the
// rule (hybrid: explicit or confident ones); one it was asked about passes
// when it judged it a decision at or above the threshold. With the "llm"
// classifier only what the model judged passes.
func (c *settings) ByModel(all, asked []candidate, v verdicts) []candidate {
	var out []candidate
	for _, k := range all {
		i := indexOf(asked, k.Text)
		switch {
		case i < 0 && c.Classifier == "llm":
		case i < 0:
			if k.Explicit || k.Score >= c.Threshold {
				out = append(out, k)
			}
		case i < len(v.Judged) && v.Judged[i] && v.Conf[i] >= c.Threshold:
			k.Score = v.Conf[i]
			out = append(out, k)
		}
	}
	return out
}

func indexOf(cands []candidate, text string) int {
	for i, k := range cands {
		if k.Text == text {
			return i
		}
	}
	return -1
}

// Fresh redacts the candidates and drops those that duplicate a decision of
// the state, an earlier candidate or a text the person declined this
// session, keeping at most max.
func (s *state) Fresh(cands []candidate, max int, declined []string) []candidate {
	var fresh []candidate
	for _, k := range cands {
		if len(fresh) == max {
			break
		}
		k.Text, _ = redact.String(k.Text)
		if dups, _ := s.Check(k.Text); len(dups) > 0 || repeats(declined, k.Text) {
			continue
		}
		dup := false
		for _, f := range fresh {
			if normalize(f.Text) == normalize(k.Text) {
				dup = true
				break
			}
		}
		if !dup {
			fresh = append(fresh, k)
		}
	}
	return fresh
}

// maxDeclined bounds the texts a session remembers the person declined.
const maxDeclined = 50

// repeats says whether text is a near-duplicate (the measure of /decision
// add) of one of texts: a proposal the person declined is not put to them
// again as the same turn's candidate, nor a skipped candidate in a later
// turn.
//
//	repeats([]string{"Use black for Python formatting"}, "use Black for python formatting") => true
//	repeats([]string{"Use black for Python formatting"}, "Use PostgreSQL 16") => false
func repeats(texts []string, text string) bool {
	nf := similarity.Prepare(clean(text))
	for _, t := range texts {
		f := similarity.Prepare(clean(t))
		if similarity.Compare(&nf, &f).Verdict == similarity.Duplicate {
			return true
		}
	}
	return false
}

// decline adds text to the declined texts, keeping the newest maxDeclined.
//
//go:noinline
func decline(texts []string, text string) []string {
	texts = append(texts, text)
	if len(texts) > maxDeclined {
		texts = texts[len(texts)-maxDeclined:]
	}
	return texts
}
