package hindsight

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// The footer: Hindsight's piece of pi's footer (store.Footer), kept short,
// from what the driver keeps; it never asks the host.

// footing is what the footer is made from.
type footing struct {
	Configured bool   // a server is named, or a config file that cannot be read
	Off        string // why the store is off in a word (offWord), "" when on
	Importing  string // an import's progress while it runs in pi, else ""
	Failed     string // the banks that failed in the newest recall (recallFooter), else ""
	Waiting    int    // the jobs waiting in the outbox
	Mode       string
	Banks      []bank
}

// footer is Hindsight's piece: nothing while it is not configured, why it
// is off, an import's progress, the banks the newest recall could not
// reach, else footerText.
//
//	footer(footing{}) => ""
//	footer(footing{Configured: true, Off: "untrusted"}) => "hindsight off (untrusted)"
//	footer(footing{Configured: true, Failed: "user bank HTTP 500", Mode: modeNormal}) => "hindsight user bank HTTP 500"
func footer(f footing) string {
	switch {
	case !f.Configured:
		return ""
	case f.Off != "":
		return store.OffPiece(footerName, f.Off)
	case f.Importing != "":
		return footerName + " " + f.Importing
	case f.Failed != "":
		return footerName + " " + f.Failed
	}
	return footerText(f.Waiting, f.Mode, f.Banks)
}

// footerName is the store's name in the footer.
const footerName = "hindsight"

// footerText is the footer between recalls: the jobs waiting in the outbox,
// else a mode other than normal, else the scopes of the selected banks.
//
//	footerText(2, modeNormal, banks) => "hindsight 2 waiting"
//	footerText(0, modeReadOnly, banks) => "hindsight read-only"
//	footerText(0, modeNormal, []bank{{bankProject, "p"}, {bankUser, "u"}}) => "hindsight project+user"
func footerText(pending int, mode string, banks []bank) string {
	switch {
	case pending > 0:
		return footerName + " " + numstr.Itoa(pending) + " waiting"
	case mode != modeNormal:
		return footerName + " " + mode
	}
	scopes := make([]string, len(banks))
	for i, b := range banks {
		scopes[i] = b.Scope
	}
	return footerName + " " + strings.Join(scopes, "+")
}

// recallFooter names each bank that failed in a recall and why; "" when
// every bank answered.
//
//	recallFooter([]recalled{{Bank: bank{bankUser, "u"}, Problem: "HTTP 500"}}) => "user bank HTTP 500"
func recallFooter(rs []recalled) string {
	var failed []string
	for _, r := range rs {
		if r.Problem != "" {
			failed = append(failed, r.Bank.Scope+" bank "+r.Problem)
		}
	}
	return strings.Join(failed, "; ")
}

// status is what /hindsight status and the hindsight_status tool report,
// as the driver found it.
type status struct {
	Off    string // why the gate keeps Hindsight from injecting, a sentence that says it is off; "" when it is on
	URL    string
	Mode   string
	OptOut bool // the next run is not retained
	Banks  []bank
	// Outbox is the outbox's path, "" without an agent folder: then none of
	// the fields up to Dead is reported.
	Outbox    string
	OutboxErr string // why it could not be read; "" when it was
	Box       Outbox // what it folds to, its size, and the time its jobs are due by
	Size, Now int64
	Self      string     // this process's name on its claims (driver.owner)
	Dead      string     // the dead-letter file, when it holds any; else ""
	Aside     string     // the file of lines set aside by a compaction (asideFile), when it holds any; else ""
	Last      []recalled // the newest recall's outcome; nil before the first
}

// statusText is the status in words: on or off, the banks, the outbox
// (waiting and due jobs, each failing job's last error, its unreadable
// lines), the dead letters, and the newest recall; a URL's secrets hidden
// (hideURLSecrets), as in everything a person reads.
func statusText(s status) string {
	var b text.Builder
	if s.Off != "" {
		b.WriteString(s.Off)
	} else {
		b.WriteString("Hindsight is on: " + s.URL + ", mode " + s.Mode)
		if s.OptOut {
			b.WriteString(" (the next run is not retained)")
		}
	}
	for _, bk := range s.Banks {
		b.WriteString("\n  " + bk.Scope + " bank " + bk.ID)
	}
	if s.Outbox != "" {
		if s.OutboxErr != "" {
			b.WriteString("\nOutbox " + s.Outbox + ": " + s.OutboxErr)
		} else {
			b.WriteString("\nOutbox " + s.Outbox + ": " + numstr.Itoa(len(s.Box.Pending)) + " waiting, " + numstr.Itoa(len(s.Box.due(s.Now, ""))) + " due, " + strconv.FormatInt(s.Size, 10) + " bytes")
			for _, c := range claimsOf(s.Box.Pending, s.Now) {
				b.WriteString("\n  " + claimText(c, s.Self, s.Now))
			}
			for _, j := range s.Box.Pending {
				if j.LastError != "" {
					b.WriteString("\n  " + j.ID + " → " + j.Bank + ": " + text.Plural(j.Attempts, "failure", "failures") + ", last " + j.LastError)
				}
			}
			for _, p := range s.Box.Problems {
				b.WriteString("\n  " + p)
			}
		}
		if s.Dead != "" {
			b.WriteString("\nDead letters: " + s.Dead)
		}
		if s.Aside != "" {
			b.WriteString("\nLines the outbox could not read, kept as they were when it was compacted: " + s.Aside)
		}
	}
	if s.Last != nil {
		b.WriteString("\nLast recall: " + strings.Join(summary(s.Last), "; "))
	}
	return hideURLSecrets(b.String())
}

// claim is the jobs one process's flush is sending: they are neither due
// nor sent by another process until it ends.
type claim struct {
	By    string
	Jobs  int
	Until int64 // the latest of their claims, ms
}

// claimsOf groups the jobs claimed at now by the process claiming them, in
// queue order; a claim that ran out is none (its jobs are due again).
func claimsOf(jobs []Job, now int64) []claim {
	var out []claim
	for _, j := range jobs {
		if j.Claimed <= now {
			continue
		}
		i := 0
		for i < len(out) && out[i].By != j.ClaimedBy {
			i++
		}
		if i == len(out) {
			out = append(out, claim{By: j.ClaimedBy})
		}
		out[i].Jobs++
		out[i].Until = max(out[i].Until, j.Claimed)
	}
	return out
}

// claimText is a status line for c: which pi sends the jobs (this one,
// self, or another, by its session; the random part of its name says
// nothing to a person) and how long the claim lasts at most.
//
//	claimText(claim{By: "s2/3f9a0c11d2e4", Jobs: 3, Until: 40500}, "s1/77aa", 1000) => "3 being sent by another pi (session s2), for 40 s more at most"
func claimText(c claim, self string, now int64) string {
	who := "this pi"
	if c.By != self || self == "" {
		session, _, _ := strings.Cut(c.By, "/")
		who = "another pi (session " + session + ")"
	}
	return numstr.Itoa(c.Jobs) + " being sent by " + who + ", for " + strconv.FormatInt((c.Until-now+999)/1000, 10) + " s more at most"
}

// doctorText is /hindsight doctor before the server is asked: the config
// files (the project's only when it is read), their warnings, the repo key,
// and the status.
func doctorText(files [2]string, warnings []string, repoKey, status string) string {
	var b text.Builder
	b.WriteString("Config files: " + files[0])
	if files[1] != "" {
		b.WriteString(", " + files[1])
	}
	for _, w := range warnings {
		b.WriteString("\n  warning: " + w)
	}
	b.WriteString("\nRepo key: " + repoKey)
	b.WriteString("\n" + status)
	return hideURLSecrets(b.String())
}

// serverText is what doctor adds once each bank answered a recall: a line
// per bank, "answers" or what went wrong; bad when something did.
//
//	serverText([]recalled{{Bank: bank{bankUser, "u"}, Problem: "HTTP 404"}}) => "\nServer, user bank u: HTTP 404", true
func serverText(rs []recalled) (text string, bad bool) {
	for _, r := range rs {
		p := r.Problem
		if p == "" {
			p = "answers"
		} else {
			bad = true
		}
		text += "\nServer, " + r.Bank.Scope + " bank " + r.Bank.ID + ": " + hideURLSecrets(p)
	}
	return text, bad
}

// bankText is /hindsight bank: the repo key, and for each selected bank
// the tags a retain puts on what it keeps and the filter a recall uses.
func bankText(repoKey, session string, banks []bank) string {
	var b text.Builder
	b.WriteString("Repo key: " + repoKey)
	for _, bk := range banks {
		b.WriteString("\n" + bk.Scope + " bank " + bk.ID + ": retains with tags " + strings.Join(baseTags(bk, repoKey, session, sourcePi), ", "))
		if t := recallTags(bk, repoKey); len(t) > 0 {
			b.WriteString("; recalls tagged " + strings.Join(t, ", "))
		} else {
			b.WriteString("; recalls without a project filter")
		}
	}
	return b.String()
}

// flushText is /hindsight flush's answer once the server answered (or
// nothing was sent); fail when it is a failure (nothing sent, and a
// problem).
func flushText(sent, failed int, problem string) (text string, fail bool) {
	problem = hideURLSecrets(problem)
	switch {
	case problem != "" && sent+failed == 0:
		return "Hindsight: " + problem, true
	case sent+failed == 0:
		return "Hindsight: nothing is due in the outbox.", false
	case failed > 0:
		return "Hindsight: " + numstr.Itoa(sent) + " sent, " + numstr.Itoa(failed) + " failed (" + problem + "); they are tried again later.", false
	}
	return "Hindsight: " + numstr.Itoa(sent) + " sent.", false
}

// retainReply is the hindsight_retain tool's answer once the flush that
// follows its queueing is done: a job the server did not take stays queued.
func retainReply(failed int, problem string) string {
	if failed > 0 || problem != "" {
		return "Queued; the server did not take it yet (" + hideURLSecrets(problem) + "). It is sent again later."
	}
	return "Retained."
}

// recallReply is the hindsight_recall tool's answer: the recalled block's
// text (or that there is none) and a line per bank; an error when no bank
// answered.
func recallReply(rs []recalled, maxTokens int) (text string, isError bool) {
	text = strings.TrimSpace(render(rs, maxTokens))
	if text == "" {
		text = "No memories found."
	}
	isError = true
	for _, r := range rs {
		isError = isError && r.Problem != ""
	}
	return text + "\n" + strings.Join(summary(rs), "\n"), isError
}

// reflectReply is the hindsight_reflect tool's answer, from the resume
// value of its one request: the server's answer, marked as memory (what
// memory answers is never retained again), or why there is none.
//
//	reflectReply(`[{"status":200,"body":"{\"text\":\"Use make.\"}"}]`) => "<pi-memory-reflect>\nUse make.\n</pi-memory-reflect>", false
func reflectReply(value []byte) (text string, isError bool) {
	r := readResponses(value, 1)[0]
	p := r.problem()
	if p == "" {
		text, p = parseReflect(r.Body)
	}
	if p != "" {
		return "Hindsight could not reflect: " + p, true
	}
	return marker.Wrap("reflect", text), false
}

// receiptText is /memory last's part for Hindsight: what each bank
// returned for the newest user message, and the block appended to it.
func receiptText(last []recalled, block string) string {
	s := "\n\n--- hindsight recall (in the newest user message): " + text.Plural(len(block), "byte", "bytes") + " ---"
	for _, line := range summary(last) {
		s += "\n" + line
	}
	if block == "" {
		return s + "\n(nothing appended)"
	}
	return s + "\n" + strings.TrimSpace(block)
}

// receiptJSON is that part as JSON: where the block went, each bank's
// count of memories or error, and the block.
func receiptJSON(last []recalled, block string) []byte {
	w := jsonw.Open(nil)
	w.Str("where", "newest user message")
	w.Raw("banks", jsonw.Array(nil, len(last), func(b []byte, i int) []byte {
		r := &last[i]
		o := jsonw.Open(b)
		o.Str("scope", r.Bank.Scope)
		o.Str("bank", r.Bank.ID)
		o.Int("memories", int64(len(r.Memories)))
		o.Str("error", r.Problem)
		return o.Close()
	}))
	w.Str("text", block)
	return w.Close()
}
