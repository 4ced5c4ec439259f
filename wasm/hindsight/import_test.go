package hindsight

import (
	"path"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
)

func TestAnImportRetainsIntoTheSelectedProjectBankOnly(t *testing.T) {
	require.Equal(t, "p", projectBankOf(twoBanks))
	require.Equal(t, "p", projectBankOf([]bank{twoBanks[1], twoBanks[0]}))
	require.Equal(t, "", projectBankOf(twoBanks[1:]))
	require.Equal(t, "", projectBankOf(nil))
}

func TestTheImportFolderIsHomesCwdsOrAsGivenAndTheAgentFoldersSessions(t *testing.T) {
	const home, cwd, agent = "/home/ada", "/w/app", "/home/ada/.pi/agent"
	tests := []struct{ dir, want string }{
		{"~", "/home/ada"},
		{"~/old/", "/home/ada/old"},
		{"~ada/x", "/w/app/~ada/x"}, // only "~" and "~/" are home
		{"old", "/w/app/old"},
		{"../lib/./s", "/w/lib/s"},
		{"/srv/sessions//", "/srv/sessions"},
		{`C:\x`, "/w/app/C:/x"},
		{"/home/ada/.pi/agent/", "/home/ada/.pi/agent/sessions"},
		{"~/.pi/agent", "/home/ada/.pi/agent/sessions"},
		{"/home/ada/.pi/agent/sessions", "/home/ada/.pi/agent/sessions"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, importDir(tc.dir, home, cwd, agent), tc.dir)
	}
}

func FuzzImportDir(f *testing.F) {
	f.Add("~/old")
	f.Add("../../..")
	f.Add(`..\x\\y`)
	f.Fuzz(func(t *testing.T, dir string) {
		got := importDir(dir, "/home/ada", "/w/app", "/home/ada/.pi/agent")
		if !path.IsAbs(got) || got != path.Clean(got) {
			t.Fatalf("%q gives %q: not a clean absolute path", dir, got)
		}
		if got == "/home/ada/.pi/agent" {
			t.Fatalf("%q names the agent folder itself", dir)
		}
	})
}

func TestTheImportsFirstLineSaysWhatFromWhereToWhichServer(t *testing.T) {
	todo := hsimport.Todo{Files: make([]hsimport.File, 3)}
	require.Equal(t, "importing 3 of 5 session files from the sessions of /w/app to http://hs:1",
		importHead(false, todo, 5, "", "/w/app", "http://hs:1"))
	require.Equal(t, "dry run: would import 3 of 5 session files from /srv/old to http://hs:1",
		importHead(true, todo, 5, "/srv/old", "/w/app", "http://hs:1"))
	todo.Resume, todo.Done = "/a/s.jsonl", 2
	require.Equal(t, "importing 3 of 5 session files from /srv/old to http://hs:1; resuming after /a/s.jsonl (2 already imported)",
		importHead(false, todo, 5, "/srv/old", "/w/app", "http://hs:1"))
}

func TestASessionIsSentWhenItHasAFolderAConversationAndIsInTheProjectUnlessDirIsGiven(t *testing.T) {
	in := hsimport.Session{Cwd: "/w/app/cmd", Messages: 2}
	other := hsimport.Session{Cwd: "/w/lib", Messages: 2}
	tests := []struct {
		name   string
		s      hsimport.Session
		all    bool
		why    string
		record bool
	}{
		{"in the project", in, false, "", false},
		{"another project's, without DIR: not recorded", other, false, hsimport.SkipOtherProject(other), false},
		{"another project's, with DIR", other, true, "", false},
		{"no folder, with DIR", hsimport.Session{Messages: 2}, true, "its header names no working folder, so it belongs to no project's bank", true},
		{"no conversation", hsimport.Session{Cwd: "/w/app"}, false, hsimport.SkipEmpty, true},
	}
	for _, tc := range tests {
		why, record := notSent(tc.s, "/w/app", tc.all)
		require.Equal(t, tc.why, why, tc.name)
		require.Equal(t, tc.record, record, tc.name)
	}
}

func TestASessionOutsideTheProjectGoesToItsOwnRepositorysBank(t *testing.T) {
	key, bank := projectOf("/w/lib", "[remote \"origin\"]\n\turl = git@github.com:o/lib.git\n")
	require.Equal(t, "github.com/o/lib", key)
	require.Equal(t, ProjectBankID("github.com/o/lib"), bank)
	key, bank = projectOf("/w/scratch", "")
	require.Equal(t, "/w/scratch", key)
	require.Equal(t, ProjectBankID("/w/scratch"), bank)
}

func TestTheServersAnswersToAnImportSayWhatItTookRefusedAndWhetherItIsAway(t *testing.T) {
	batch := []importPending{{f: hsimport.File{Path: "/s/a.jsonl"}}, {f: hsimport.File{Path: "/s/b.jsonl"}}, {f: hsimport.File{Path: "/s/c.jsonl"}}}
	tests := []struct {
		name    string
		rs      []response
		took    []int
		refused []string
		down    string
	}{
		{"all taken", []response{{Status: 200, Body: tookBody}, {Status: 201, Body: tookBody}, {Status: 202, Body: tookBody}}, []int{0, 1, 2}, nil, ""},
		{"one refused", []response{{Status: 200, Body: tookBody}, {Status: 422, Body: "  bad item\n"}, {Status: 200, Body: tookBody}}, []int{0, 2},
			[]string{"failed /s/b.jsonl: HTTP 422 bad item"}, ""},
		{"a long refusal is cut", []response{{Status: 500, Body: strings.Repeat("e", 300)}, {Status: 200, Body: tookBody}, {Status: 200, Body: tookBody}}, []int{1, 2},
			[]string{"failed /s/a.jsonl: HTTP 500 " + strings.Repeat("e", 200)}, ""},
		{"a refusal is cut before a token, never through it", []response{{Status: 500, Body: strings.Repeat("e ", 95) + "ghp_u8jzPde0IgxLd6GncfBAepfJBd0123456789"}, {Status: 200, Body: tookBody}, {Status: 200, Body: tookBody}}, []int{1, 2},
			[]string{"failed /s/a.jsonl: HTTP 500 " + strings.TrimSpace(strings.Repeat("e ", 95))}, ""},
		{"a page that is not Hindsight's is refused", []response{{Status: 200, Body: "<html><title>Welcome to nginx!</title>"}, {Status: 200, Body: tookBody}, {Status: 200, Body: tookBody}}, []int{1, 2},
			[]string{"failed /s/a.jsonl: " + nginx}, ""},
		{"the server went away", []response{{Status: 200, Body: tookBody}, {Error: "connection refused"}, {Error: "timed out after 30000 ms"}}, []int{0}, nil, "the server did not answer (timed out after 30000 ms)"},
		{"an aborted request stops the run", []response{{Status: 200, Body: tookBody}, {Error: "aborted"}, {Error: "aborted"}}, []int{0}, nil, "it was asked to stop before the server answered"},
		{"slow down stops the run", []response{{Status: 429, Body: `{"detail":"slow down"}`}, {Status: 200, Body: tookBody}, {Status: 429}}, []int{1},
			[]string{`failed /s/a.jsonl: HTTP 429 {"detail":"slow down"}`, "failed /s/c.jsonl: HTTP 429 "}, "the server answered HTTP 429 (every session would get the same)"},
		{"a gateway without its server stops the run", []response{{Status: 502, Body: "Bad Gateway"}, {Status: 503}, {Status: 504}}, nil,
			[]string{"failed /s/a.jsonl: HTTP 502 Bad Gateway", "failed /s/b.jsonl: HTTP 503 ", "failed /s/c.jsonl: HTTP 504 "}, "the server answered HTTP 504 (every session would get the same)"},
		{"a refused key stops the run", []response{{Status: 401, Body: "no"}, {Status: 200, Body: tookBody}, {Status: 200, Body: tookBody}}, []int{1, 2},
			[]string{"failed /s/a.jsonl: HTTP 401 no"}, "the server answered HTTP 401 no (every session would get the same)"},
		{"a redirect stops the run", []response{{Status: 307}, {Status: 200, Body: tookBody}, {Status: 200, Body: tookBody}}, []int{1, 2},
			[]string{"failed /s/a.jsonl: HTTP 307 "}, "the server answered HTTP 307 (every session would get the same)"},
	}
	for _, tc := range tests {
		took, refused, down := importAnswers(batch, tc.rs)
		require.Equal(t, tc.took, took, tc.name)
		require.Equal(t, tc.refused, refused, tc.name)
		require.Equal(t, tc.down, down, tc.name)
	}
}
