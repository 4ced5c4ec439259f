package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestConfigFilesAreTheAgentFoldersAndATrustedProjects(t *testing.T) {
	agent := omConfigFile{primary: "/a/om-config.json", alias: "/a/extensions/observational-memory/om-config.json"}
	project := omConfigFile{primary: "/p/.pi/om-config.json", alias: "/p/.pi/extensions/observational-memory/om-config.json"}
	tests := []struct {
		name           string
		agentDir, root string
		trusted        bool
		want           [2]omConfigFile
	}{
		{"both folders, trusted", "/a", "/p", true, [2]omConfigFile{agent, project}},
		{"an untrusted project's file is never read", "/a", "/p", false, [2]omConfigFile{agent, {}}},
		{"no project", "/a", "", true, [2]omConfigFile{agent, {}}},
		{"no agent folder", "", "/p", true, [2]omConfigFile{{}, project}},
		{"neither", "", "", false, [2]omConfigFile{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, configFiles(tt.agentDir, tt.root, tt.trusted))
		})
	}
}

func TestConfigNameReadsSeed004sPathOnlyWhenItIsTheOnlyOne(t *testing.T) {
	f := omConfigFile{primary: "/p/.pi/om-config.json", alias: "/p/.pi/extensions/observational-memory/om-config.json"}
	both := "both /p/.pi/om-config.json and /p/.pi/extensions/observational-memory/om-config.json exist; /p/.pi/om-config.json is read and the other is ignored. Merge them into /p/.pi/om-config.json and remove the other."
	tests := []struct {
		name           string
		f              omConfigFile
		primary, alias bool
		want, wantBoth string
	}{
		{"neither exists: the documented path", f, false, false, f.primary, ""},
		{"the documented one", f, true, false, f.primary, ""},
		{"only seed 004's", f, false, true, f.alias, ""},
		{"both: the documented one, with a warning", f, true, true, f.primary, both},
		{"no such folder", omConfigFile{}, false, true, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name, warning := configName(tt.f, tt.primary, tt.alias)
			require.Equal(t, tt.want, name)
			require.Equal(t, tt.wantBoth, warning)
		})
	}
}

func TestConfigSourcesNameTheFilesRead(t *testing.T) {
	g := omConfigFile{primary: "/a/om-config.json", used: "/a/om-config.json"}
	p := omConfigFile{primary: "/p/.pi/om-config.json", used: "/p/.pi/extensions/observational-memory/om-config.json"}
	tests := []struct {
		name    string
		fs      [2]omConfigFile
		trusted bool
		want    string
	}{
		{"none", [2]omConfigFile{{primary: "/a/om-config.json"}, {}}, true, "defaults (no om-config.json)"},
		{"none, untrusted", [2]omConfigFile{}, false, "defaults (no om-config.json)"},
		{"global then project", [2]omConfigFile{g, p}, true, "/a/om-config.json, then /p/.pi/extensions/observational-memory/om-config.json"},
		{"untrusted says so", [2]omConfigFile{g, {}}, false, "/a/om-config.json (the project is not trusted: its file is not read)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, configSources(tt.fs, tt.trusted))
		})
	}
}

func TestEditTargetIsTheProjectsFileWhenTheProjectsIsRead(t *testing.T) {
	g := omConfigFile{primary: "/a/om-config.json", alias: "/a/x/om-config.json"}
	p := omConfigFile{primary: "/p/.pi/om-config.json", alias: "/p/.pi/x/om-config.json"}
	gSeed, pSeed := g, p
	gSeed.used, pSeed.used = g.alias, p.alias
	tests := []struct {
		name string
		fs   [2]omConfigFile
		want string
	}{
		{"the project's documented path", [2]omConfigFile{g, p}, p.primary},
		{"the project's seed path, when that is the one read", [2]omConfigFile{gSeed, pSeed}, p.alias},
		{"the agent folder's, without a trusted project", [2]omConfigFile{g, {}}, g.primary},
		{"the agent folder's seed path, when read", [2]omConfigFile{gSeed, {}}, g.alias},
		{"none", [2]omConfigFile{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, editTarget(tt.fs))
		})
	}
}

func TestEditHintNamesTheFileAndHowToCreateIt(t *testing.T) {
	require.Equal(t, "Edit /p/.pi/om-config.json, then run /om config reload. Keys and defaults: /om config.", editHint("/p/.pi/om-config.json", true))
	require.Equal(t, `Edit /p/.pi/om-config.json (it does not exist yet: create it with the keys to change, e.g. {"observerTokens": 20000}), then run /om config reload. Keys and defaults: /om config.`, editHint("/p/.pi/om-config.json", false))
}

func TestConfigEditWritesOnlyAChangedTextTheStoreReadsAsWritten(t *testing.T) {
	const target = "/p/.pi/om-config.json"
	prefill := DefaultConfigJSON()
	tests := []struct {
		name   string
		saved  bool
		answer string
		want   configEdit
	}{
		{"closed without saving", false, "{}", configEdit{say: "Nothing written: the editor was closed without saving."}},
		{"unchanged", true, prefill, configEdit{say: "Nothing written: /p/.pi/om-config.json is unchanged."}},
		{"a change gets its newline", true, `{"observerTokens": 20000}`, configEdit{text: "{\"observerTokens\": 20000}\n",
			say: "Wrote /p/.pi/om-config.json; it is in force now (/om config shows the values)."}},
		{"a newline is not doubled", true, "{}\n", configEdit{text: "{}\n",
			say: "Wrote /p/.pi/om-config.json; it is in force now (/om config shows the values)."}},
		{"warnings are said, each naming the key", true, `{"observerTokens": 5}`, configEdit{text: "{\"observerTokens\": 5}\n",
			warnings: []string{`/p/.pi/om-config.json: "observerTokens" is below 1000 (got 5); using 1000 (0 turns it off)`},
			say:      "Wrote /p/.pi/om-config.json; it is in force now (/om config shows the values).\nwarning: /p/.pi/om-config.json: \"observerTokens\" is below 1000 (got 5); using 1000 (0 turns it off)"}},
		{"not JSON is refused", true, `{"observerTokens": 5`, configEdit{fail: true}},
		{"an unclear enabled is refused", true, `{"enabled": "no"}`, configEdit{fail: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkConfigEdit(target, prefill, tt.saved, tt.answer)
			if tt.want.fail {
				require.True(t, got.fail)
				require.Equal(t, "", got.text)
				require.Contains(t, got.say, "Nothing written: /p/.pi/om-config.json")
				require.Contains(t, got.say, ". Run /om config edit again to fix it.")
				return
			}
			require.Equal(t, tt.want, got)
		})
	}
}
