package decision

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// What /decision status shows, as text and with --json, rendered from a
// value the driver fills in: these rules never read the log or ask the gate.

// statusPage is the decision store as /decision status describes it.
type statusPage struct {
	// off is why the store may not be read (the gate's answer for a read),
	// "" when it may; inject is why nothing is injected (its answer for an
	// injection), "" when the section is.
	off, inject string

	projectRoot, projectID string
	log                    string
	globalCfg, projectCfg  string // the config files' paths, "" when there is no such place
	cfg                    settings

	// The rest is read only when the store may be read (off is "").
	lines    int            // lines of the log replayed
	bytes    int64          // bytes of the log replayed
	counts   [numStatus]int // live decisions by status
	injected int            // characters of the section injected each turn
	snapshot string         // the snapshot's path, "" when there is no place for one
	snapNote string         // what happened to the snapshot (loadNote), "" when nothing
	problems int            // lines doctor lists (bad lines and a torn tail)
}

// text is the status page as a person reads it.
//
//	Decision memory: on
//	Project: /src/app (id 5f1c2a9be07d43aa)
//	Config: global /home/ana/.pi/agent/decision-memory.config.json (absent); project /src/app/.pi/decision-memory.config.json (absent)
//	Log: /src/app/.pi/decision-memory/decisions.jsonl (9 lines, 1160 bytes)
//	Decisions: 3 active, 0 draft, 0 rejected, 0 superseded
//	Injected each turn: 361 of 2200 chars, up to 20 decisions
//	Auto-capture: on (rule classifier, threshold 0.65, max 2 per turn, asks before saving)
//	Retention: draft 30d, rejected 90d, superseded 180d
//	Snapshot: /home/ana/.pi/agent/pi-memory/snapshots/5f1c2a9be07d43aa.snap — not needed: the log is under 64 KiB and replays as fast
//	Problems: 6 lines need attention; run /decision doctor
func (p *statusPage) text() string {
	var sb text.Builder
	if p.off == "" {
		sb.WriteString("Decision memory: on")
	} else {
		sb.WriteString("Decision memory: off — " + p.off)
	}
	sb.WriteString("\nProject: " + p.projectRoot + " (id " + p.projectID + ")")
	sb.WriteString("\nConfig: global " + files.Presence(p.globalCfg, p.cfg.GlobalPresent) + "; project " + files.Presence(p.projectCfg, p.cfg.ProjectPresent))
	if p.off != "" {
		return sb.String()
	}
	if p.bytes == 0 && p.lines == 0 {
		sb.WriteString("\nLog: " + p.log + " (not created yet; it appears on the first write)")
	} else {
		sb.WriteString("\nLog: " + p.log + " (" + text.Plural(p.lines, "line", "lines") + ", " + strconv.FormatInt(p.bytes, 10) + " bytes)")
	}
	sb.WriteString("\nDecisions: " + numstr.Itoa(p.counts[Active]) + " active, " +
		numstr.Itoa(p.counts[draft]) + " draft, " + numstr.Itoa(p.counts[rejected]) + " rejected, " +
		numstr.Itoa(p.counts[Superseded]) + " superseded")
	inj := "nothing (no active decisions)"
	if p.injected > 0 {
		inj = numstr.Itoa(p.injected) + " of " + numstr.Itoa(maxSectionChars) + " chars, up to " + text.Plural(p.cfg.MaxDecisions, "decision", "decisions")
	}
	if p.inject != "" {
		inj += " — but " + p.inject
	}
	sb.WriteString("\nInjected each turn: " + inj)
	sb.WriteString("\nAuto-capture: " + autoCaptureText(p.cfg))
	sb.WriteString("\nRetention: " + retentionText(p.cfg.RetentionDays))
	if p.snapshot != "" && p.snapNote != "" {
		sb.WriteString("\nSnapshot: " + p.snapshot + " — " + p.snapNote)
	}
	if p.problems > 0 {
		sb.WriteString("\nProblems: " + text.Plural(p.problems, "line needs", "lines need") + " attention; run /decision doctor")
	}
	return sb.String()
}

// autoCaptureText is how auto-capture is set, for the status page.
//
//	autoCaptureText(defaultSettings()) => "on (rule classifier, threshold 0.65, max 2 per turn, asks before saving)"
func autoCaptureText(c settings) string {
	if !c.AutoCapture {
		return "off"
	}
	ac := "on (" + c.Classifier + " classifier, threshold " + strconv.FormatFloat(c.Threshold, 'g', -1, 64) + ", max " + numstr.Itoa(c.MaxPerTurn) + " per turn"
	if c.Confirm {
		return ac + ", asks before saving)"
	}
	return ac + ", saves without asking)"
}

// retentionText is how long purge keeps decisions of each status it may
// remove, as status and purge say it.
//
//	retentionText(defaultSettings().RetentionDays) => "draft 30d, rejected 90d, superseded 180d"
func retentionText(r retention) string {
	return "draft " + numstr.Itoa(r[draft]) + "d, rejected " + numstr.Itoa(r[rejected]) + "d, superseded " + numstr.Itoa(r[Superseded]) + "d"
}

// appendJSON is the status page for /decision status --json: the same facts
// as text, keyed, in a fixed order.
func (p *statusPage) appendJSON(b []byte) []byte {
	w := jsonw.Open(b)
	w.Bool("enabled", p.off == "")
	if p.off != "" {
		w.Str("reason", p.off)
	}
	w.Bool("injecting", p.off == "" && p.inject == "")
	w.Str("projectRoot", p.projectRoot)
	w.Str("projectId", p.projectID)
	w.Str("log", p.log)
	w.Str("globalConfig", p.globalCfg)
	w.Bool("globalConfigPresent", p.cfg.GlobalPresent)
	w.Str("projectConfig", p.projectCfg)
	w.Bool("projectConfigPresent", p.cfg.ProjectPresent)
	if p.off == "" {
		w.Int("lines", int64(p.lines))
		w.Int("bytes", p.bytes)
		counts := jsonw.Open(nil)
		for st := Active; st <= Superseded; st++ {
			counts.Int(st.String(), int64(p.counts[st]))
		}
		w.Raw("counts", counts.Close())
		w.Int("injectedChars", int64(p.injected))
		w.Int("maxDecisions", int64(p.cfg.MaxDecisions))
		w.Int("problems", int64(p.problems))
		if p.snapshot != "" {
			w.Str("snapshot", p.snapshot)
			w.Str("snapshotNote", p.snapNote)
		}
	}
	return w.Close()
}

// footer is the store's piece of pi's footer (store.Footer): the active
// decisions and the unresolved conflicts, why the store is off (off, from
// offWord), or that its log could not be read (unreadable).
//
//	footer("", false, 3, 0) => "decisions 3"
//	footer("", false, 3, 1) => "decisions 3, 1 conflict"
//	footer("untrusted", false, 0, 0) => "decisions off (untrusted)"
func footer(off string, unreadable bool, active, conflicts int) string {
	switch {
	case off != "":
		return store.OffPiece(footerName, off)
	case unreadable:
		return footerName + " unreadable"
	}
	line := footerName + " " + numstr.Itoa(active)
	if conflicts > 0 {
		line += ", " + text.Plural(conflicts, "conflict", "conflicts")
	}
	return line
}

// footerName is the store's name in the footer.
const footerName = "decisions"

// badLinesNotice says, once a session, that n lines of the log need attention.
//
//	badLinesNotice("/p/decisions.jsonl", 1) => "/p/decisions.jsonl has 1 line that needs attention (bad lines stay on disk and are skipped); /decision doctor lists them."
func badLinesNotice(log string, n int) string {
	return log + " has " + text.Plural(n, "line that needs", "lines that need") + " attention (bad lines stay on disk and are skipped); /decision doctor lists them."
}
