package notes

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/registry"
)

// onReport is a trusted project with its index, a personal notes file git
// would commit, and a global scope with nothing yet.
func onReport() statusReport {
	return statusReport{
		cfg:           defaultConfig(),
		globalConfig:  "/h/.pi/agent/memory/config.json",
		projectConfig: "/p/.pi/memory/config.json",
		project:       "/p",
		trusted:       true,
		block:         strings.Repeat("x", 400),
		scopes: []scopeStatus{
			{name: scopeGlobal, file: "/h/.pi/agent/memory/MEMORY.md", display: "~/.pi/agent/memory/MEMORY.md", table: "/h/.pi/agent/pi-memory/notes/global/page-table.jsonl"},
			{name: scopeProject, file: "/p/.pi/memory/MEMORY.md", display: ".pi/memory/MEMORY.md", table: "/h/t/page-table.jsonl", exists: true, bytes: 93, lines: 6, injected: 93,
				pageTable: tableState{Status: "stale", Detail: ".pi/memory/MEMORY.md changed since it was built"},
				topics:    []topicFile{{name: "build.md", size: 120}, {name: "odd.md", size: -1}}, archived: 2},
			{name: scopeLocal, file: "/p/.pi/memory/MEMORY.local.md", display: ".pi/memory/MEMORY.local.md", table: "/h/t/page-table.local.jsonl", exists: true, bytes: 15, lines: 1, injected: 15,
				pageTable: tableState{Status: "valid"}, unignored: true},
		},
	}
}

func TestStatusTextSaysWhatIsInjectedFromWhere(t *testing.T) {
	const global = "\nGlobal: /h/.pi/agent/memory/MEMORY.md\n  absent: created on the first write (by the agent, or /memory remember)\n"
	const project = "\nProject: /p/.pi/memory/MEMORY.md\n" +
		"  93 bytes, 6 lines; injected 93 bytes (caps 200 lines, 8192 bytes)\n" +
		"  page table: stale (.pi/memory/MEMORY.md changed since it was built), /h/t/page-table.jsonl\n" +
		"  topic files: build.md (120 bytes), odd.md\n" +
		"  archive: 2 files (never injected)\n"
	const local = "\nPersonal notes: /p/.pi/memory/MEMORY.local.md\n" +
		"  15 bytes, 1 line; injected 15 bytes (caps 200 lines, 8192 bytes)\n" +
		"  page table: valid, /h/t/page-table.local.jsonl\n" +
		"  warning: .pi/memory/MEMORY.local.md is not in .gitignore, so it would be committed with the team's memory; /memory gitignore adds it.\n"
	const block = "\nBlock: 400 bytes ≈ 100 tokens of 4096 (maxMemoryTokens), typed pages\n"
	// With no memory file holding anything, the block is the preamble alone, and says so.
	const preambleOnly = "\nBlock: 400 bytes ≈ 100 tokens of 4096 (maxMemoryTokens), typed pages; the preamble only (where memory lives and how to keep it): no MEMORY.md holds anything yet\n"
	const config = "Config: global /h/.pi/agent/memory/config.json (absent); project /p/.pi/memory/config.json (absent)"
	tests := []struct {
		name   string
		change func(r *statusReport)
		want   string
	}{
		{"on, injected", func(r *statusReport) {},
			"Markdown memory: on, injected before every prompt\nProject: /p, trusted\n" + global + project + local + block + config},
		{"on, but the gate says no", func(r *statusReport) { r.inject = "memory is off for this session (/memory off)" },
			"Markdown memory: on, but nothing is injected: memory is off for this session (/memory off)\nProject: /p, trusted\n" + global + project + local + block + config},
		{"a turn, staged facts, faults, a plain cut, config warnings and the core", func(r *statusReport) {
			r.turned, r.lastBytes, r.pending, r.faults = true, 377, 2, 1
			r.cfg.PageTableInjection = false
			r.cfg.GlobalPresent = true
			r.cfg.Warnings = []string{"config.json: unknown key \"x\""}
			r.module = "6f1e0c4b9a2d7e3f00112233445566778899aabbccddeeff0011223344556677"
		}, "Markdown memory: on, injected before every prompt\nProject: /p, trusted\n" + global + project + local +
			"\nBlock: 400 bytes ≈ 100 tokens of 4096 (maxMemoryTokens), plain cut; 1 page does not fit (/memory faults)\n" +
			"Last turn injected 377 bytes of notes (/memory last shows it)\n" +
			"Staged facts waiting: 2 (/memory flush writes them; so does the end of the session)\n" +
			"Config: global /h/.pi/agent/memory/config.json; project /p/.pi/memory/config.json (absent)\n" +
			"warning: config.json: unknown key \"x\"\n" +
			"pi-memory " + registry.Release + " (core sha256:6f1e0c4b9a2d)"},
		{"no project: global memory only", func(r *statusReport) {
			r.project, r.projectConfig, r.scopes = "", "", r.scopes[:1]
		}, "Markdown memory: on, injected before every prompt\nProject: none (global memory only)\n" + global + preambleOnly +
			"Config: global /h/.pi/agent/memory/config.json (absent)"},
		{"an untrusted project", func(r *statusReport) {
			r.trusted, r.projectConfig, r.scopes = false, "", r.scopes[:1]
		}, "Markdown memory: on, injected before every prompt\nProject: /p, not trusted: its memory is neither read nor written\n" + global + preambleOnly +
			"Config: global /h/.pi/agent/memory/config.json (absent)"},
		{"off: each file is only said to be there or not", func(r *statusReport) {
			r.cfg.Enabled, r.cfg.DisabledBy, r.block = false, "/p/.pi/memory/config.json", ""
			r.cfg.ProjectPresent = true
			r.scopes[1].present = true
		}, "Markdown memory: off (disabled by /p/.pi/memory/config.json; nothing is read beyond the configs, nothing is written)\nProject: /p, trusted\n" +
			"\nGlobal: /h/.pi/agent/memory/MEMORY.md\n  absent\n" +
			"\nProject: /p/.pi/memory/MEMORY.md\n  present, not read while memory is off\n" +
			"\nPersonal notes: /p/.pi/memory/MEMORY.local.md\n  absent\n" +
			"\nBlock: 0 bytes ≈ 0 tokens of 4096 (maxMemoryTokens), typed pages\n" +
			"Config: global /h/.pi/agent/memory/config.json (absent); project /p/.pi/memory/config.json"},
		// A file too large, a link or a FIFO was said to be absent, to be
		// created on the first write, beside the warning that it is there.
		{"a file that is there but cannot be read is not absent", func(r *statusReport) {
			r.project, r.projectConfig, r.scopes = "", "", r.scopes[:1]
			r.scopes[0].readErr = "larger than 4194304 bytes"
		}, "Markdown memory: on, injected before every prompt\nProject: none (global memory only)\n" +
			"\nGlobal: /h/.pi/agent/memory/MEMORY.md\n  not read, so left out of memory: see the warning below\n" +
			"  warning: could not read /h/.pi/agent/memory/MEMORY.md: larger than 4194304 bytes\n" +
			strings.Replace(preambleOnly, "no MEMORY.md holds anything yet", "no MEMORY.md it could read holds anything", 1) +
			"Config: global /h/.pi/agent/memory/config.json (absent)"},
		{"off because a config cannot be read", func(r *statusReport) {
			r.cfg.Enabled, r.cfg.Why, r.scopes = false, "/p/.pi/memory/config.json is not valid JSON", nil
		}, "Markdown memory: off — /p/.pi/memory/config.json is not valid JSON\nProject: /p, trusted\n" + block + config},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := onReport()
			tt.change(&r)
			require.Equal(t, tt.want, statusText(&r))
		})
	}
}

func TestScopeStatusWarnsInTheOrderAPersonFixesThem(t *testing.T) {
	cfg := defaultConfig()
	cfg.MaxInjectLines = 5
	tests := []struct {
		name string
		s    scopeStatus
		want []string
	}{
		{"nothing wrong", scopeStatus{display: "MEMORY.md", exists: true, lines: 5, bytes: 100}, nil},
		{"over a cap", scopeStatus{display: "MEMORY.md", exists: true, lines: 6, bytes: 100},
			[]string{"MEMORY.md is 6 lines, over maxInjectLines 5: only part of it is injected. Move detail to topic files or archive/."}},
		{"caps are not checked of a file that is not there", scopeStatus{display: "MEMORY.md", lines: 60}, nil},
		{"every problem, in order", scopeStatus{display: "MEMORY.local.md", file: "/p/MEMORY.local.md", exists: true, lines: 9, readErr: "permission denied", unignored: true,
			topics: []topicFile{{name: "a.md", size: 1}, {name: "b.md", size: -1, unread: "b.md is a symbolic link; …"}}},
			[]string{
				"MEMORY.local.md is 9 lines, over maxInjectLines 5: only part of it is injected. Move detail to topic files or archive/.",
				"could not read /p/MEMORY.local.md: permission denied",
				"b.md is a symbolic link; …",
				"MEMORY.local.md is not in .gitignore, so it would be committed with the team's memory; /memory gitignore adds it.",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.s.warnings(&cfg))
		})
	}
}

func TestTopicNamesSayTheSizeOrWhyNotRead(t *testing.T) {
	s := scopeStatus{topics: []topicFile{{name: "build.md", size: 0}, {name: "big.md", size: 70000}, {name: "gone.md", size: -1}, {name: "link.md", size: -1, unread: "link.md is a symbolic link"}}}
	require.Equal(t, []string{"build.md (0 bytes)", "big.md (70000 bytes)", "gone.md", "link.md (not read)"}, s.topicNames())
	require.Equal(t, []string(nil), (&scopeStatus{}).topicNames(), "no topic files")
}

func TestStatusJSONCarriesEveryFieldOfTheText(t *testing.T) {
	r := onReport()
	r.scopes = r.scopes[1:2]
	r.pending, r.inject = 1, "no"
	require.Equal(t, `{"enabled":true,"disabledBy":"","injecting":false,"trusted":true,`+
		`"globalConfig":"/h/.pi/agent/memory/config.json","globalConfigPresent":false,"projectConfig":"/p/.pi/memory/config.json","projectConfigPresent":false,`+
		`"pageTableInjection":true,"maxInjectLines":200,"maxInjectBytes":8192,"maxMemoryTokens":4096,"blockBytes":400,"blockTokens":100,"pending":1,`+
		`"scopes":[{"scope":"project","file":"/p/.pi/memory/MEMORY.md","exists":true,"bytes":93,"lines":6,"injectedBytes":93,"topics":["build.md (120 bytes)","odd.md"],"archived":2,"pageTable":"stale","pageTableFile":"/h/t/page-table.jsonl","warnings":[]}],`+
		`"warnings":[]}`, statusJSON(&r))
	r.module = "abc"
	require.True(t, strings.HasSuffix(statusJSON(&r), `"warnings":[],"version":"`+registry.Release+`","moduleSha256":"abc"}`), "the core, when the host named it: %s", statusJSON(&r))
}

func TestFooterCountsFactsOrSaysWhyOff(t *testing.T) {
	disabled := defaultConfig()
	disabled.Enabled, disabled.DisabledBy = false, "/g/memory/config.json"
	broken := disabled
	broken.Why = "cannot read /g/memory/config.json"
	for _, tt := range []struct {
		name   string
		cfg    config
		scopes int
		facts  int
		want   string
	}{
		{"facts", defaultConfig(), 3, 14, "notes 14"},
		{"on and empty, or not read yet", defaultConfig(), 3, 0, ""},
		{"disabled", disabled, 3, 14, "notes off (disabled)"},
		{"a config that cannot be read", broken, 3, 14, "notes off (bad config)"},
		{"no agent folder", defaultConfig(), 0, 0, "notes off (no agent dir)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, footer(offWord(tt.cfg, tt.scopes), tt.facts))
		})
	}
}

func TestCountFactsCountsBulletItemsOnly(t *testing.T) {
	pages := parse(scopeGlobal, []byte("# Memory\n\n## Build\n- use make\n- pnpm, not npm\n  continued\n\nSome text.\n- [build](build.md)\n"))
	require.Equal(t, 2, countFacts(pages))
}
