package decision

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

const (
	stRoot   = "/src/app"
	stLog    = stRoot + "/.pi/decision-memory/decisions.jsonl"
	stGlobal = "/home/ana/.pi/agent/decision-memory.config.json"
	stProj   = stRoot + "/.pi/decision-memory.config.json"
	stSnap   = "/home/ana/.pi/agent/pi-memory/snapshots/5f1c2a9be07d43aa.snap"
)

// page is a status page of the project above; on says the store may be read.
func page(f func(p *statusPage)) statusPage {
	p := statusPage{projectRoot: stRoot, projectID: "5f1c2a9be07d43aa", log: stLog, globalCfg: stGlobal, projectCfg: stProj, cfg: defaultSettings(), snapshot: stSnap}
	f(&p)
	return p
}

func TestStatusPageSaysWhyMemoryIsOffAndNothingOfTheLog(t *testing.T) {
	p := page(func(p *statusPage) {
		p.off = "Decision memory is disabled by " + stProj + "; nothing is injected or written. Turn it back on with /decision enable --project."
		p.cfg.ProjectPresent = true
		p.lines, p.counts[Active], p.snapNote = 9, 3, "loaded at start (covered 9 lines)"
	})
	require.Equal(t, "Decision memory: off — Decision memory is disabled by "+stProj+"; nothing is injected or written. Turn it back on with /decision enable --project."+
		"\nProject: /src/app (id 5f1c2a9be07d43aa)"+
		"\nConfig: global "+stGlobal+" (absent); project "+stProj, p.text())
	require.Equal(t, `{"enabled":false,"reason":"Decision memory is disabled by `+stProj+`; nothing is injected or written. Turn it back on with /decision enable --project.",`+
		`"injecting":false,"projectRoot":"/src/app","projectId":"5f1c2a9be07d43aa","log":"`+stLog+`",`+
		`"globalConfig":"`+stGlobal+`","globalConfigPresent":false,"projectConfig":"`+stProj+`","projectConfigPresent":true}`, string(p.appendJSON(nil)))
}

func TestStatusPageDescribesTheLogAndWhatIsInjected(t *testing.T) {
	const head = "Decision memory: on\nProject: /src/app (id 5f1c2a9be07d43aa)\nConfig: global " + stGlobal + " (absent); project " + stProj + " (absent)"
	const capture = "\nAuto-capture: on (rule classifier, threshold 0.65, max 2 per turn, asks before saving)\nRetention: draft 30d, rejected 90d, superseded 180d"
	tests := []struct {
		name string
		page statusPage
		want string
	}{
		{"no log yet", page(func(p *statusPage) {}),
			head + "\nLog: " + stLog + " (not created yet; it appears on the first write)\nDecisions: 0 active, 0 draft, 0 rejected, 0 superseded" +
				"\nInjected each turn: nothing (no active decisions)" + capture},
		{"a log, a snapshot note and problems", page(func(p *statusPage) {
			p.lines, p.bytes, p.counts[Active], p.injected, p.problems = 9, 1160, 3, 361, 6
			p.snapNote = "not needed: the log is under 64 KiB and replays as fast"
		}),
			head + "\nLog: " + stLog + " (9 lines, 1160 bytes)\nDecisions: 3 active, 0 draft, 0 rejected, 0 superseded" +
				"\nInjected each turn: 361 of 2200 chars, up to 20 decisions" + capture +
				"\nSnapshot: " + stSnap + " — not needed: the log is under 64 KiB and replays as fast" +
				"\nProblems: 6 lines need attention; run /decision doctor"},
		{"one line, every status, one problem", page(func(p *statusPage) {
			p.lines, p.bytes, p.injected, p.problems = 1, 120, 90, 1
			p.counts = [numStatus]int{Active: 6, draft: 1, rejected: 2, Superseded: 3}
		}),
			head + "\nLog: " + stLog + " (1 line, 120 bytes)\nDecisions: 6 active, 1 draft, 2 rejected, 3 superseded" +
				"\nInjected each turn: 90 of 2200 chars, up to 20 decisions" + capture +
				"\nProblems: 1 line needs attention; run /decision doctor"},
		{"a torn first line: bytes but no line", page(func(p *statusPage) { p.bytes = 40 }),
			head + "\nLog: " + stLog + " (0 lines, 40 bytes)\nDecisions: 0 active, 0 draft, 0 rejected, 0 superseded" +
				"\nInjected each turn: nothing (no active decisions)" + capture},
		{"the gate stops the injection", page(func(p *statusPage) {
			p.lines, p.bytes, p.counts[Active], p.injected = 1, 120, 1, 90
			p.inject = "memory is off for this session (/memory off)"
		}),
			head + "\nLog: " + stLog + " (1 line, 120 bytes)\nDecisions: 1 active, 0 draft, 0 rejected, 0 superseded" +
				"\nInjected each turn: 90 of 2200 chars, up to 20 decisions — but memory is off for this session (/memory off)" + capture},
		{"no snapshot place: no note", page(func(p *statusPage) { p.snapshot, p.snapNote = "", "replayed the log" }),
			head + "\nLog: " + stLog + " (not created yet; it appears on the first write)\nDecisions: 0 active, 0 draft, 0 rejected, 0 superseded" +
				"\nInjected each turn: nothing (no active decisions)" + capture},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.page.text(), tt.name)
	}
}

func TestStatusJSONCarriesTheSameFactsKeyed(t *testing.T) {
	tests := []struct {
		name string
		page statusPage
		want string
	}{
		{"injecting, with a snapshot", page(func(p *statusPage) {
			p.lines, p.bytes, p.injected, p.problems = 9, 1160, 361, 6
			p.counts = [numStatus]int{Active: 3, draft: 1, rejected: 2, Superseded: 4}
			p.snapNote = "loaded at start (covered 9 lines)"
		}),
			`{"enabled":true,"injecting":true,"projectRoot":"/src/app","projectId":"5f1c2a9be07d43aa","log":"` + stLog + `",` +
				`"globalConfig":"` + stGlobal + `","globalConfigPresent":false,"projectConfig":"` + stProj + `","projectConfigPresent":false,` +
				`"lines":9,"bytes":1160,"counts":{"active":3,"draft":1,"rejected":2,"superseded":4},"injectedChars":361,"maxDecisions":20,"problems":6,` +
				`"snapshot":"` + stSnap + `","snapshotNote":"loaded at start (covered 9 lines)"}`},
		{"not injecting, no snapshot place", page(func(p *statusPage) {
			p.inject, p.snapshot = "memory is off for this session (/memory off)", ""
			p.cfg.MaxDecisions = 5
		}),
			`{"enabled":true,"injecting":false,"projectRoot":"/src/app","projectId":"5f1c2a9be07d43aa","log":"` + stLog + `",` +
				`"globalConfig":"` + stGlobal + `","globalConfigPresent":false,"projectConfig":"` + stProj + `","projectConfigPresent":false,` +
				`"lines":0,"bytes":0,"counts":{"active":0,"draft":0,"rejected":0,"superseded":0},"injectedChars":0,"maxDecisions":5,"problems":0}`},
		{"a snapshot place and no note yet", page(func(p *statusPage) {}),
			`{"enabled":true,"injecting":true,"projectRoot":"/src/app","projectId":"5f1c2a9be07d43aa","log":"` + stLog + `",` +
				`"globalConfig":"` + stGlobal + `","globalConfigPresent":false,"projectConfig":"` + stProj + `","projectConfigPresent":false,` +
				`"lines":0,"bytes":0,"counts":{"active":0,"draft":0,"rejected":0,"superseded":0},"injectedChars":0,"maxDecisions":20,"problems":0,` +
				`"snapshot":"` + stSnap + `","snapshotNote":""}`},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, string(tt.page.appendJSON(nil)), tt.name)
	}
}

func TestStatusPageNamesAConfigPlaceThatDoesNotExist(t *testing.T) {
	p := page(func(p *statusPage) {
		p.off, p.globalCfg, p.projectCfg = "pi-memory has no project folder for this session.", "", ""
	})
	require.Equal(t, "Decision memory: off — pi-memory has no project folder for this session.\nProject: /src/app (id 5f1c2a9be07d43aa)\nConfig: global (none); project (none)", p.text())
}

func TestAutoCaptureTextSaysHowCandidatesAreSaved(t *testing.T) {
	tests := []struct {
		name string
		set  func(c *settings)
		want string
	}{
		{"defaults", func(c *settings) {}, "on (rule classifier, threshold 0.65, max 2 per turn, asks before saving)"},
		{"off", func(c *settings) { c.AutoCapture = false }, "off"},
		{"without asking", func(c *settings) { c.Confirm, c.Classifier, c.Threshold, c.MaxPerTurn = false, "hybrid", 1, 5 },
			"on (hybrid classifier, threshold 1, max 5 per turn, saves without asking)"},
		{"a threshold of many digits", func(c *settings) { c.Threshold = 0.123456789 },
			"on (rule classifier, threshold 0.123456789, max 2 per turn, asks before saving)"},
	}
	for _, tt := range tests {
		c := defaultSettings()
		tt.set(&c)
		require.Equal(t, tt.want, autoCaptureText(c), tt.name)
	}
}

func TestRetentionTextNamesEachStatusPurgeRemoves(t *testing.T) {
	tests := []struct {
		r    retention
		want string
	}{
		{defaultSettings().RetentionDays, "draft 30d, rejected 90d, superseded 180d"},
		{retention{Active: 99, draft: 1, rejected: 14, Superseded: 21}, "draft 1d, rejected 14d, superseded 21d"},
		{retention{}, "draft 0d, rejected 0d, superseded 0d"},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, retentionText(tt.r))
	}
}

func TestFooterCountsActiveDecisionsAndUnresolvedConflictsOrSaysWhyOff(t *testing.T) {
	for _, tt := range []struct {
		off               string
		unreadable        bool
		active, conflicts int
		want              string
	}{
		{"", false, 0, 0, "decisions 0"},
		{"", false, 1, 0, "decisions 1"},
		{"", false, 20, 0, "decisions 20"},
		{"", false, 2, 1, "decisions 2, 1 conflict"},
		{"", false, 5, 3, "decisions 5, 3 conflicts"},
		{"", true, 0, 0, "decisions unreadable"},
		{"untrusted", false, 4, 1, "decisions off (untrusted)"},
		{"disabled", true, 0, 0, "decisions off (disabled)"},
	} {
		require.Equal(t, tt.want, footer(tt.off, tt.unreadable, tt.active, tt.conflicts))
	}
}

func TestOffWordNamesWhyTheStoreIsOffInAWord(t *testing.T) {
	on := defaultSettings()
	disabled := defaultSettings()
	disabled.Enabled, disabled.DisabledBy = false, "/p/.pi/decision-memory.config.json"
	broken := disabled
	broken.Why = "cannot read /p/.pi/decision-memory.config.json"
	for _, tt := range []struct {
		root    string
		trusted bool
		cfg     settings
		want    string
	}{
		{"/p", true, on, ""},
		{"", true, on, "no project"},
		{"/p", false, on, "untrusted"},
		{"/p", false, disabled, "untrusted"},
		{"/p", true, disabled, "disabled"},
		{"/p", true, broken, "bad config"},
	} {
		require.Equal(t, tt.want, offWord(tt.root, tt.trusted, tt.cfg))
		require.Equal(t, tt.want == "", offReason(tt.root, tt.trusted, tt.cfg, "/g.json") == "", "offWord and offReason agree on off")
	}
}

func TestBadLinesNoticeCountsTheLinesAndNamesDoctor(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want string
	}{
		{1, stLog + " has 1 line that needs attention (bad lines stay on disk and are skipped); /decision doctor lists them."},
		{6, stLog + " has 6 lines that need attention (bad lines stay on disk and are skipped); /decision doctor lists them."},
	} {
		require.Equal(t, tt.want, badLinesNotice(stLog, tt.n))
	}
}
