package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// NoModel is what a Driver answers to a completion request: a host without a
// model says so, and the core falls back as it would on any model failure.
const NoModel = "no model available in pimem"

// maxResumes bounds the asks in a row that show the person nothing: a core
// that keeps asking after every answer without a word is looping, and a CLI
// must end. A long chain that reports as it goes (an import's progress line
// or footer after each batch) is not bounded by it.
const maxResumes = 64

// Driver performs a call's effects for a host without a UI or a model (pimem,
// tests): command output on Stdout, notifications on Stderr, dialogs answered
// as dismissed and completions with an error, unless Dialog and Complete
// script them. Prompt text and messages
// are collected for the caller.
type Driver struct {
	Inst   *Instance
	Stdout io.Writer
	Stderr io.Writer
	// Complete answers a completion with the resume value ({"text":…} or
	// {"error":…}): a scripted model for tests. nil answers every one with
	// NoModel.
	Complete func(e Effect) json.RawMessage
	// HTTP answers an http effect with the resume value (one {status, body}
	// or {error} per request, in order). nil performs the requests with
	// net/http (PerformHTTP).
	HTTP func(e Effect) json.RawMessage
	// Stop, once done, aborts the requests PerformHTTP has out and answers
	// every later one {error: "aborted"} (pimem asked to stop: an import
	// must not go on sending, nor wait for a server that hangs), and an ask
	// of no request (a search's next slice) [{error: "aborted"}], which
	// ends the search (an MCP client cancelled the call). nil: never.
	Stop context.Context
	// Dialog answers a dialog with the resume value (a string, a boolean or
	// null): scripted input for tests, e.g. the text an editor dialog
	// returns. nil dismisses every dialog (null), as a host without a UI does.
	Dialog func(e Effect) json.RawMessage
}

// Result is what a Run leaves for the caller.
type Result struct {
	// Exit is the highest exit code of the envelopes in the run: a user
	// error (1) or usage error (2) is never masked by a later envelope.
	Exit int
	// SystemPromptAppend holds the texts of system_prompt_append effects, in
	// order and byte for byte.
	SystemPromptAppend []string
	// Outputs holds the texts of output effects, in order and byte for byte
	// (Stdout gets each on its own line, a newline added where it lacks one).
	Outputs []string
	// Messages holds the message effects, in order.
	Messages []Effect
	// ContextMessages, Entries, Compactions and BranchSummaries hold the
	// context_messages, session_entry, compaction and branch_summary effects
	// in order: what pi's adapter would insert, append or return.
	ContextMessages, Entries, Compactions, BranchSummaries []Effect
	// Compacts counts compact effects (the core asking pi to compact now).
	Compacts int
	// Completions holds every complete effect, answered or not.
	Completions []Effect
	// ContextAppends, Tools and ToolResults hold the context_append, tools
	// and tool_result effects in order; HTTP every http effect performed.
	ContextAppends, Tools, ToolResults, HTTP []Effect
}

// Run calls export and keeps answering dialogs, completions and http
// requests through resume until the core stops asking. A foreground ask is
// answered at once; background asks are answered after the foreground chain
// ends, one by one, in the order they were asked (a CLI has no event loop
// to return to, and must not exit before they are recorded). After a trap
// it recreates the instance (replaying session_start) so the next Run
// works, and returns the trap.
func (d *Driver) Run(export string, input []byte) (Result, error) {
	var res Result
	var later []Effect
	for round := 0; ; round++ {
		env, err := d.Inst.Call(export, input)
		if err != nil {
			if errors.Is(err, ErrTrap) {
				if _, rerr := d.Inst.Recreate(); rerr != nil {
					err = errors.Join(err, fmt.Errorf("recreating the instance also failed: %w", rerr))
				}
			}
			return res, err
		}
		res.Exit = max(res.Exit, env.Exit)
		var waiting *Effect
		for _, e := range env.Effects {
			switch e.T {
			case "output", "notify", "status":
				round = 0
			}
			switch e.T {
			case "output":
				res.Outputs = append(res.Outputs, e.Text)
				d.line(d.Stdout, "", e.Text)
			case "notify":
				d.line(d.Stderr, notifyPrefix(e.Level), e.Text)
			case "status":
				// No footer outside pi.
			case "state":
				// The Instance keeps it for a restart.
			case "system_prompt_append":
				res.SystemPromptAppend = append(res.SystemPromptAppend, e.Text)
			case "message":
				res.Messages = append(res.Messages, e)
			case "context_messages":
				res.ContextMessages = append(res.ContextMessages, e)
			case "context_append":
				res.ContextAppends = append(res.ContextAppends, e)
			case "tools":
				res.Tools = append(res.Tools, e)
			case "tool_result":
				res.ToolResults = append(res.ToolResults, e)
			case "session_entry":
				res.Entries = append(res.Entries, e)
			case "compaction":
				res.Compactions = append(res.Compactions, e)
			case "branch_summary":
				res.BranchSummaries = append(res.BranchSummaries, e)
			case "compact":
				res.Compacts++
			case "complete", "dialog", "http":
				if e.T == "complete" {
					res.Completions = append(res.Completions, e)
				}
				if e.Holds() {
					waiting = &e
				} else {
					later = append(later, e)
				}
			default:
				d.line(d.Stderr, "warning: ", "ignoring effect "+e.T+", which this host does not know")
			}
		}
		if waiting == nil && len(later) > 0 {
			waiting, later = &later[0], later[1:]
		}
		if waiting == nil {
			return res, nil
		}
		if round == maxResumes {
			return res, fmt.Errorf("host: the core asked %d times in a row for a dialog, completion or request; stopping", maxResumes+1)
		}
		if waiting.T == "http" && len(waiting.Requests) == 0 {
			// A search's next slice (decision 001, addendum 2): work
			// going on, not the core asking in a loop.
			round = 0
		}
		if waiting.T == "http" {
			res.HTTP = append(res.HTTP, *waiting)
		}
		export, input = "resume", d.answer(*waiting)
	}
}

// answer is the resume input for a dialog (Dialog's answer, else dismissed:
// there is no one to ask) or a completion (Complete's answer, else there is
// no model).
func (d *Driver) answer(e Effect) []byte {
	var value any
	switch {
	case e.T == "http" && d.HTTP != nil:
		value = d.HTTP(e)
	case e.T == "http":
		stop := d.Stop
		if stop == nil {
			stop = context.Background()
		}
		if len(e.Requests) == 0 && stop.Err() != nil {
			// The call a search serves was cancelled: it ends at its
			// next slice.
			value = []map[string]string{{"error": "aborted"}}
			break
		}
		value = PerformHTTP(stop, e.Requests)
	case e.T == "complete" && d.Complete != nil:
		value = d.Complete(e)
	case e.T == "complete":
		value = map[string]string{"error": NoModel}
	case d.Dialog != nil:
		value = d.Dialog(e)
	}
	b, _ := json.Marshal(struct {
		ID    string `json:"id"`
		Value any    `json:"value"`
	}{e.ID, value})
	return b
}

func notifyPrefix(level string) string {
	switch level {
	case "", "info":
		return ""
	default:
		return level + ": "
	}
}

// line writes text on its own line. Write errors are dropped: a closed pipe
// (pimem … | head) must not turn into a core failure.
func (d *Driver) line(w io.Writer, prefix, text string) {
	if w == nil || (text == "" && prefix == "") {
		return
	}
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	io.WriteString(w, prefix+text)
}
