package observe

import (
	"errors"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Why an answer is refused, for callers that react to one (errs.Is). A
// refused answer never changes the state: the watermark stays where it was,
// so the span is observed again once the backoff allows.
var (
	// errTooLong is a model call that failed because the prompt did not fit
	// (a "prompt is too long" error, in an error or as the answer's text).
	// It is a failure, never an empty result: the next chunks are smaller.
	errTooLong = errors.New("the prompt was too long for the model")
	// errDegenerate is an answer no observer writes on purpose: over the
	// size limit, a line over 10,000 characters, or the same line repeated.
	errDegenerate = errors.New("the answer is degenerate")
	// errFormat is text that holds no observation and does not say there is
	// nothing new.
	errFormat = errors.New("the answer is not in the observation format")
	// errFailed is a model call that returned an error instead of text, or
	// that the host could not make (no usable model: model.go).
	errFailed = errors.New("the model call failed")
	// errIncomplete is an answer that ended before the model wrote it out:
	// no text at all (a reasoning model that spent its budget thinking), or
	// cut off at the output limit. It is a failure, never "nothing new":
	// what the model did not write was not observed.
	errIncomplete = errors.New("the answer is empty or cut off")
	// errStale is an answer to a job the state has moved past (another
	// answer was merged in the meantime).
	errStale = errors.New("the answer is for an older state")
)

// Limits on answers. An observer answer is bounded by observerMaxTokens; a
// reply far beyond it is a model stuck in a loop, not observations.
const (
	maxLineChars       = 10000
	maxObserverAnswer  = 128 << 10 // bytes
	repeatLimit        = 4         // copies of one observation that make an answer degenerate
	distinctLinesFloor = 40        // from this many lines on, fewer than half distinct is degenerate
)

// answerError is a refused answer: Err is one of the reasons above, Msg
// says it for a person.
type answerError struct {
	err error
	msg string
}

func (e *answerError) Error() string { return e.msg }
func (e *answerError) Unwrap() error { return e.err }

//go:noinline
func refuse(err error, msg string) error { return &answerError{err: err, msg: msg} }

// modelAnswer is what the host returns for a complete effect: the model's text
// and why it stopped, or the error it reported (pi's complete resolves with
// stopReason "error" rather than throwing; the adapter passes its
// errorMessage here), or that it found no usable model for the name asked.
type modelAnswer struct {
	Text       string
	StopReason string // pi's: "stop", "length" (cut off at maxTokens), "toolUse"; "" when the host did not say
	Error      string
	Model      string // the name the call asked for ("" for the session's model)
	NoModel    string // why the host found no usable model (model.go), "" when it called one
	Provider   string // with NoModel "no-credentials": the provider without them
}

// reply is a valid answer, read.
type reply struct {
	parsed
	empty bool   // the model said there is nothing new
	body  string // the answer as it was parsed: sanitized, its reasoning removed
}

// readAnswer validates and reads an observer or reflector answer. Empty
// tags, or a reply that only says there is nothing new, is valid and empty;
// a failure the model reported (in the error or as its text), no text at
// all and an answer cut off at the output limit are errors, never an empty
// result. The answer is data (data.go): its control characters and escape
// sequences are removed and its reasoning blocks dropped before it is read,
// so an answer that is only reasoning is one with no text.
func readAnswer(a modelAnswer, defaultDay int64, maxBytes int) (reply, error) {
	if a.NoModel != "" {
		return reply{}, refuse(errFailed, "the model call was not made: "+modelProblem(a.Model, a.NoModel, a.Provider))
	}
	if a.Error != "" {
		if tooLong(a.Error) {
			return reply{}, refuse(errTooLong, "the model refused the prompt as too long: "+oneLine(a.Error, 300))
		}
		return reply{}, refuse(errFailed, "the model call failed: "+oneLine(a.Error, 300))
	}
	text := a.Text
	if a.StopReason == "length" {
		return reply{}, refuse(errIncomplete, "the answer was cut off at the model's output limit (stopReason \"length\" after "+itoa(len(text))+" bytes of text)")
	}
	if strings.TrimSpace(text) == "" {
		return reply{}, refuse(errIncomplete, "the model answered with no text (a reasoning model may have spent its output budget before writing)")
	}
	if len(text) > maxBytes {
		return reply{}, refuse(errDegenerate, "the answer is "+itoa(len(text))+" bytes, over the limit of "+itoa(maxBytes))
	}
	if text = stripReasoning(sanitize(text)); strings.TrimSpace(text) == "" {
		return reply{}, refuse(errIncomplete, "the model answered with nothing but its reasoning (a reasoning model may have spent its output budget before writing)")
	}
	lines := 0
	for rest := text; rest != ""; {
		ln := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			ln, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if len(ln) > maxLineChars {
			return reply{}, refuse(errDegenerate, "line "+itoa(lines+1)+" of the answer is "+itoa(len(ln))+" characters, over "+itoa(maxLineChars))
		}
		lines++
	}
	// sanitize left valid UTF-8, as stored records are (jsonw writes U+FFFD
	// for anything else): the state must hold what a fold of its records would.
	p := parseObservations(text, defaultDay)
	if countItems(p.groups) == 0 && p.task == "" && p.response == "" {
		if saysNothing(text) {
			return reply{parsed: p, empty: true, body: text}, nil
		}
		if tooLong(text) && len(text) < 2000 {
			return reply{}, refuse(errTooLong, "the model answered that the prompt is too long: "+oneLine(text, 300))
		}
		return reply{}, refuse(errFormat, "the answer holds no observation (no \"* \" item under a \"Date:\" line) and does not say there is nothing new: "+oneLine(text, 120))
	}
	if err := repetitive(text, p.groups); err != nil {
		return reply{}, err
	}
	return reply{parsed: p, body: text}, nil
}

// saysNothing reports an answer that means "no new observations": only
// empty tags, or a short sentence saying so (readAnswer refuses no text at
// all before asking).
func saysNothing(text string) bool {
	s := text
	for _, tag := range []string{"observations", "current-task", "suggested-response"} {
		s = strings.ReplaceAll(s, "<"+tag+">", "")
		s = strings.ReplaceAll(s, "</"+tag+">", "")
	}
	n := normalize(s)
	switch n {
	case "", "none", "nothing", "nothing new", "no new observations", "no observations", "nothing to record", "no new information", "n a":
		return true
	}
	return false
}

// tooLong recognises the ways providers say a prompt did not fit.
func tooLong(s string) bool {
	l := strings.ToLower(s)
	for _, p := range []string{"prompt is too long", "prompt too long", "context length", "context_length", "context window", "maximum context", "too many tokens", "request too large", "input is too long", "exceeds the maximum", "token limit"} {
		if strings.Contains(l, p) {
			return true
		}
	}
	return false
}

// repetitive refuses an answer that repeats itself: one observation more
// than repeatLimit times, or many lines of which fewer than half differ.
func repetitive(text string, groups []group) error {
	counts := map[string]int{}
	for gi := range groups {
		for ii := range groups[gi].Items {
			it := &groups[gi].Items[ii]
			k := itoa(it.Minute) + " " + key(it)
			if counts[k]++; counts[k] >= repeatLimit {
				return refuse(errDegenerate, "the answer repeats one observation "+itoa(counts[k])+" times or more: "+oneLine(groups[gi].Items[ii].Text, 80))
			}
		}
	}
	total, distinct := 0, map[string]bool{}
	for _, ln := range strings.Split(text, "\n") {
		if ln = strings.TrimSpace(ln); ln == "" {
			continue
		}
		total++
		distinct[ln] = true
	}
	if total >= distinctLinesFloor && len(distinct)*2 < total {
		return refuse(errDegenerate, "the answer repeats its lines ("+itoa(len(distinct))+" distinct of "+itoa(total)+")")
	}
	return nil
}

// oneLine collapses s and cuts it to max bytes for a message.
//
//go:noinline
func oneLine(s string, max int) string {
	s = collapse(sanitize(s))
	if len(s) > max {
		return text.Bytes(s, max) + "…"
	}
	return s
}
