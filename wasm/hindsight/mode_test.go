package hindsight

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/tidwall/gjson"
)

func TestHindsightIsOffInAnUntrustedProjectThenWithABrokenConfigThenWithoutAURL(t *testing.T) {
	broken := parseConfig(config.Parse("/a/hindsight.json", []byte(`{"url":`)), nil, envVars{URL: "http://e:1"})
	tests := []struct {
		name    string
		trusted bool
		c       settings
		want    string
	}{
		{"configured and trusted", true, on, ""},
		{"untrusted", false, on, "This project is not trusted, so Hindsight neither recalls nor retains here."},
		{"untrusted and broken", false, broken, "This project is not trusted, so Hindsight neither recalls nor retains here."},
		{"broken", true, broken, "Hindsight is off: " + broken.Why},
		{"no url", true, defaultConfig(), `Hindsight is not configured: set "url" in /a/hindsight.json (or the project's .pi/hindsight.json), or HINDSIGHT_API_URL.`},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, offReason(tc.trusted, tc.c, "/a/hindsight.json"), tc.name)
	}
	require.Contains(t, broken.Why, "/a/hindsight.json is not valid JSON")
}

func TestTheRetainToolIsOfferedOnlyWhileTheSessionRetains(t *testing.T) {
	require.Equal(t, []string{"hindsight_recall", "hindsight_retain", "hindsight_reflect", "hindsight_status"}, offeredTools(true))
	require.Equal(t, []string{"hindsight_recall", "hindsight_reflect", "hindsight_status"}, offeredTools(false))
}

// A tool another store registers is that store's to offer, never Hindsight's.
func TestHindsightOffersOnlyItsOwnTools(t *testing.T) {
	saved := registry.Tools
	defer func() { registry.Tools = saved }()
	registry.Tools = append(append([]registry.Tool(nil), saved...), registry.Tool{Store: "notes", Name: "memory_search"})
	require.Equal(t, []string{"hindsight_recall", "hindsight_retain", "hindsight_reflect", "hindsight_status"}, offeredTools(true))
}

func TestTheBranchsNewestModeEntrySetsTheMode(t *testing.T) {
	entry := func(mode string) string {
		return `{"type":"custom","customType":"pi-memory-hindsight","data":{"mode":` + mode + `}}`
	}
	tests := []struct {
		name, branch, want string
	}{
		{"no entries", `[]`, ""},
		{"no branch", ``, ""},
		{"one entry", `[` + entry(`"read-only"`) + `]`, modeReadOnly},
		{"the newest wins", `[` + entry(`"ignored"`) + `,{"type":"message"},` + entry(`"normal"`) + `]`, modeNormal},
		{"an unknown mode is passed over", `[` + entry(`"ignored"`) + `,` + entry(`"Read-Only"`) + `]`, modeIgnored},
		{"a mode that is not a string is passed over", `[` + entry(`1`) + `]`, ""},
		{"another extension's entry is passed over", `[{"type":"custom","customType":"other","data":{"mode":"ignored"}}]`, ""},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, branchMode(gjson.Parse(tc.branch)), tc.name)
	}
}

func TestTheModeCommandReadsAModeInAnyCaseOrTheOptOut(t *testing.T) {
	tests := []struct {
		words []string
		want  string
		ok    bool
	}{
		{nil, "", true},
		{[]string{"normal"}, modeNormal, true},
		{[]string{"READ-ONLY"}, modeReadOnly, true},
		{[]string{"Ignored", "now"}, modeIgnored, true},
		{[]string{"next-opt-out"}, optOutWord, true},
		{[]string{"off"}, "", false},
		{[]string{""}, "", false},
		{[]string{"read only"}, "", false},
	}
	for _, tc := range tests {
		m, ok := modeArg(tc.words)
		require.Equal(t, tc.want, m, tc.words)
		require.Equal(t, tc.ok, ok, tc.words)
	}
}

func FuzzBranchMode(f *testing.F) {
	f.Add(`[{"type":"custom","customType":"pi-memory-hindsight","data":{"mode":"read-only"}}]`)
	f.Add(`[{"customType":"pi-memory-hindsight","data":{"mode":["ignored"]}},{"customType":"pi-memory-hindsight"}]`)
	f.Add(`{"customType":"pi-memory-hindsight","data":{"mode":"ignored"}}`)
	f.Fuzz(func(t *testing.T, branch string) {
		switch m := branchMode(gjson.Parse(branch)); m {
		case "", modeNormal, modeReadOnly, modeIgnored:
		default:
			t.Fatalf("mode %q", m)
		}
	})
}

func FuzzModeArg(f *testing.F) {
	f.Add("read-only")
	f.Add("NEXT-OPT-OUT")
	f.Add("İgnored")
	f.Fuzz(func(t *testing.T, word string) {
		m, ok := modeArg([]string{word})
		switch {
		case !ok && m != "":
			t.Fatalf("%q: not ok, yet mode %q", word, m)
		case ok && m != modeNormal && m != modeReadOnly && m != modeIgnored && m != optOutWord:
			t.Fatalf("%q: ok with %q", word, m)
		}
	})
}
