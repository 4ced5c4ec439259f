package lifecycle

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/observe"
)

// resourceRig is one pi session of the project at base in resource scope:
// sessions made over the same base share the agent folder and so the
// ledger, each with its own engine and branch, as two pi processes do.
func resourceRig(t *testing.T, base, session, flags, env string) *omRig {
	t.Helper()
	r := &omRig{rig: &rig{t: t, h: &osHost{now: 1772172000000}, project: filepath.Join(base, "proj"), agent: filepath.Join(base, "agent")}}
	os.MkdirAll(filepath.Join(r.project, ".git"), 0o755)
	os.MkdirAll(filepath.Join(r.project, ".pi"), 0o755)
	os.WriteFile(filepath.Join(r.project, ".pi", "om-config.json"), []byte(observerConfig), 0o644)
	os.MkdirAll(r.agent, 0o755)
	if env == "" {
		env = `"PI_OM_SCOPE":"resource"`
	}
	r.e = New(r.h)
	r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":true,"hasUI":true,"mode":"interactive","reason":"startup","flags":{`+flags+`},"branch":[],"sessionId":`+quote(session)+`,"zone":0,"window":200000,"env":{`+env+`}}`)
	return r
}

func (r *omRig) ledgerPath() string {
	return filepath.Join(r.agent, "pi-memory", "observations", ProjectHash(r.project)+".jsonl")
}

const otherAnswer = "Date: Feb 27, 2026\n* 🔴 (06:00) User wants the lexer rewritten in src/lex.go\n"

func TestResourceScopeSessionsShareObservationsAndKeepTheirOwnWatermark(t *testing.T) {
	base := t.TempDir()
	a := resourceRig(t, base, "s1", "", "")
	a.turn(1500)
	a.settle(answerText(observerAnswer))
	require.Equal(t, 1, len(a.calls))
	require.Equal(t, 0, len(a.of("session_entry")), "resource scope appends to the ledger file, not the session")
	data, err := os.ReadFile(a.ledgerPath())
	require.NoError(t, err)
	recs, problems := observe.DecodeLedger(data)
	require.Equal(t, 0, len(problems))
	require.Equal(t, 1, len(recs))
	require.Equal(t, "s1", recs[0].Session)
	require.Equal(t, "e2", recs[0].Through.ID)

	// A second session of the project sees the first one's observations…
	b := resourceRig(t, base, "s2", "", "")
	blocks := b.context()
	require.Equal(t, 1, len(blocks))
	require.Contains(t, blocks[0].Get("messages.0.content").String(), "fix the parser")
	// …and observes its own conversation: the first session's record,
	// which names entry e2 of another session, does not cover this one's e2.
	b.turn(1500)
	b.settle(answerText(otherAnswer))
	require.Equal(t, 1, len(b.calls), "another session's watermark is not this one's")
	b.settle(answerText(otherAnswer))
	require.Equal(t, 1, len(b.calls), "its own record moved its own watermark")

	// The first session reads the changed file before its next request.
	blocks = a.context()
	require.Equal(t, 1, len(blocks))
	require.Contains(t, blocks[0].Get("messages.0.content").String(), "lexer rewritten")
	a.settle(answerText(observerAnswer))
	require.Equal(t, 1, len(a.calls), "the other session's record does not make this one observe again")

	a.raw("command", `{"name":"om","args":"status"}`)
	require.Contains(t, a.text(), "Scope: resource ("+a.ledgerPath()+": 2 records")
}

func TestResourceScopeATornLastLineIsReportedAndTheNextAppendStartsANewLine(t *testing.T) {
	base := t.TempDir()
	first := resourceRig(t, base, "s1", "", "")
	path := first.ledgerPath()
	os.MkdirAll(filepath.Dir(path), 0o755)
	good := `{"v":1,"op":"observe","t":1772172000000,"session":"s0","from":"e1","through":"e2","tokens":900,"obs":` + quote(observerAnswer) + `}`
	os.WriteFile(path, []byte(good+"\n"+`{"v":1,"op":"obs`), 0o644)

	r := resourceRig(t, base, "s1", "", "")
	warn := r.last.Get(`effects.#(t=="notify")#.text`).String()
	require.Contains(t, warn, "torn last line")
	require.Contains(t, warn, path+": line 2")
	r.raw("command", `{"name":"om","args":"observations"}`)
	require.Contains(t, r.text(), "fix the parser", "the lines before the torn one load")

	r.raw("command", `{"name":"om","args":"clear"}`)
	data, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	require.Equal(t, 3, len(lines))
	require.Equal(t, `{"v":1,"op":"obs`, lines[1], "the torn line is kept as it was")
	require.Equal(t, `{"v":1,"op":"clear","t":1772172000000,"session":"s1"}`, lines[2])
	recs, problems := observe.DecodeLedger(data)
	require.Equal(t, 2, len(recs))
	require.Equal(t, 1, len(problems))
}

func TestResourceScopeOffWritesNothing(t *testing.T) {
	for _, how := range []string{"--no-memory", "/memory off"} {
		t.Run(how, func(t *testing.T) {
			flags := ""
			if how == "--no-memory" {
				flags = `"no-memory":true`
			}
			r := resourceRig(t, t.TempDir(), "s1", flags, "")
			if how == "/memory off" {
				r.raw("command", `{"name":"memory","args":"off"}`)
			}
			r.turn(1500)
			r.settle(answerText(observerAnswer))
			r.raw("command", `{"name":"om","args":"clear"}`)
			r.raw("command", `{"name":"om","args":"mode blocking"}`)
			r.context()
			_, err := os.Stat(filepath.Join(r.agent, "pi-memory"))
			require.True(t, os.IsNotExist(err), "no folder under the agent folder: %v", err)
		})
	}
}

func TestResourceScopeIsFolderFreeUntilTheFirstRecord(t *testing.T) {
	r := resourceRig(t, t.TempDir(), "s1", "", "")
	r.context()
	r.raw("command", `{"name":"om","args":"status"}`)
	_, err := os.Stat(filepath.Join(r.agent, "pi-memory"))
	require.True(t, os.IsNotExist(err), "nothing is created before a record is written")
}

func TestResourceScopeRefusesALinkedLedger(t *testing.T) {
	base := t.TempDir()
	r := resourceRig(t, base, "s1", "", "")
	os.MkdirAll(filepath.Dir(r.ledgerPath()), 0o755)
	elsewhere := filepath.Join(base, "elsewhere.jsonl")
	os.WriteFile(elsewhere, nil, 0o644)
	require.NoError(t, os.Symlink(elsewhere, r.ledgerPath()))
	r.raw("command", `{"name":"om","args":"clear"}`)
	data, _ := os.ReadFile(elsewhere)
	require.Equal(t, 0, len(data), "nothing is written through the link")
	require.Contains(t, r.last.Get(`effects.#(t=="notify")#.text`).String(), "is a symbolic link")
}

func TestScopeVariablesThatSelectNothingSaySo(t *testing.T) {
	for _, tc := range []struct {
		name, env, trusted, want string
	}{
		{"sqlite", `"PI_OM_SQLITE":"1"`, "true", "PI_OM_SQLITE selects nothing"},
		{"sqlite path", `"PI_OM_SQLITE_PATH":"/tmp/om.sqlite","PI_OM_SCOPE":"resource"`, "true", "PI_OM_SQLITE_PATH selects nothing"},
		{"unknown scope", `"PI_OM_SCOPE":"global"`, "true", "PI_OM_SCOPE=global is not thread or resource"},
		{"untrusted", `"PI_OM_SCOPE":"resource"`, "false", "this project is not trusted; thread scope is used"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			r := &omRig{rig: &rig{t: t, h: &osHost{now: 1772172000000}, project: filepath.Join(base, "proj"), agent: filepath.Join(base, "agent")}}
			os.MkdirAll(filepath.Join(r.project, ".git"), 0o755)
			r.e = New(r.h)
			start := r.raw("session_start", `{"cwd":`+quote(r.project)+`,"agentDir":`+quote(r.agent)+`,"trusted":`+tc.trusted+`,"hasUI":true,"mode":"interactive","sessionId":"s1","env":{`+tc.env+`}}`)
			warnings := start.Get(`effects.#(t=="notify")#.text`).Array()
			require.Equal(t, 1, len(warnings), "one warning at session start")
			require.Contains(t, warnings[0].String(), tc.want)
			r.raw("command", `{"name":"om","args":"status"}`)
			require.Contains(t, r.text(), tc.want)
			r.raw("command", `{"name":"om","args":"status"}`)
			require.Equal(t, 0, len(r.last.Get(`effects.#(t=="notify")#`).Array()), "the warning is not repeated")
		})
	}
}

func TestResourceScopeCommandsApplyToEverySessionOfTheProject(t *testing.T) {
	base := t.TempDir()
	a := resourceRig(t, base, "s1", "", "")
	a.raw("command", `{"name":"om","args":"mode blocking"}`)
	require.Equal(t, "Mode: blocking (kept for every session of this project).", a.text())
	b := resourceRig(t, base, "s2", "", "")
	b.raw("command", `{"name":"om","args":"mode"}`)
	require.Contains(t, b.text(), "Mode: blocking")
	b.raw("command", `{"name":"om","args":"dump"}`)
	require.Equal(t, `{"v":1,"op":"set","t":1772172000000,"session":"s1","mode":"blocking"}`, b.text())
}

// Issue 19: a long-lived project's ledger, where every reflect record
// carries every observation, is folded as it is read. A session keeps the
// state (1,200 observations), not the records: it kept every decoded record
// and its encoding, twice the ledger's size in memory. The ceiling is
// generous; the point is that memory does not follow the ledger.
func TestResourceScopeKeepsTheFoldNotTheLedger(t *testing.T) {
	base := t.TempDir()
	path := resourceRig(t, base, "s0", "", "").ledgerPath()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	var b strings.Builder
	for run, n := 0, 0; b.Len() < 16<<20; run++ {
		obs := `Date: Feb 27, 2026\n`
		line := `{"v":1,"op":"observe","t":1772170000000,"session":"old","from":"x` + strconv.Itoa(run) + `","through":"x` + strconv.Itoa(run) + `",`
		first, last := n, n+10
		if run%4 == 3 {
			line, first, last = `{"v":1,"op":"reflect","t":1772170000000,"session":"old",`, max(0, n-1200), n
		} else {
			n += 10
		}
		for k := first; k < last; k++ {
			obs += "* 🟡 (05:00) User keeps the old API number " + strconv.Itoa(k) + " for the billing client, since " + strings.Repeat("it is stable ", 6) + `\n`
		}
		b.WriteString(line + `"obs":"` + obs + `"}` + "\n")
	}
	size := b.Len()
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	b = strings.Builder{}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	a := resourceRig(t, base, "s1", "", "")
	a.raw("command", `{"name":"om","args":"status"}`)
	require.Contains(t, a.text(), "Observations: 1200 ")
	require.NotContains(t, a.text(), "could not be read")
	runtime.GC()
	runtime.ReadMemStats(&after)
	kept := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	require.True(t, kept < int64(size)/4, "a session keeps %d KiB after reading a %d KiB ledger", kept>>10, size>>10)
	runtime.KeepAlive(a)

	// /om dump and /om rebuild read the file again.
	a.raw("command", `{"name":"om","args":"rebuild"}`)
	require.Contains(t, a.text(), "Rebuilt from ")
	require.Contains(t, a.text(), ": 1200 observations")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	a.raw("command", `{"name":"om","args":"dump"}`)
	require.Equal(t, strings.Count(string(data), "\n"), strings.Count(a.text(), "\n")+1, "one line per record")
}

// Issue 19, item 2: a resource ledger over 64 MiB (a long-lived project's
// reflect records carry every observation) is read, in pieces, by every
// session, and what is appended to it is read back.
func TestResourceScopeALedgerOver64MiBIsStillRead(t *testing.T) {
	base := t.TempDir()
	first := resourceRig(t, base, "s0", "", "")
	path := first.ledgerPath()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	f, err := os.Create(path)
	require.NoError(t, err)
	// 66 records of 1 MiB each; the padding is a member the decoder does not use.
	pad := strings.Repeat("x", 1<<20)
	for i := 0; i < 66; i++ {
		_, err = f.WriteString(`{"v":1,"op":"observe","t":1772170000000,"session":"old","through":"x` + strconv.Itoa(i) + `","obs":"Date: Feb 27, 2026\n* 🔴 (05:00) User keeps the old API number ` + strconv.Itoa(i) + `\n","pad":"` + pad + `"}` + "\n")
		require.NoError(t, err)
	}
	require.NoError(t, f.Close())
	info, err := os.Stat(path)
	require.NoError(t, err)
	require.True(t, info.Size() > 64<<20, "%d bytes", info.Size())

	a := resourceRig(t, base, "s1", "", "")
	blocks := a.context()
	require.Equal(t, 1, len(blocks))
	require.Contains(t, blocks[0].Get("messages.0.content").String(), "User keeps the old API number 65")
	a.raw("command", `{"name":"om","args":"status"}`)
	require.Contains(t, a.text(), "Scope: resource ("+a.ledgerPath()+": 66 records")
	require.NotContains(t, a.text(), "could not be read")

	// An append goes on, and another session reads it back with the rest.
	a.turn(1500)
	a.settle(answerText(observerAnswer))
	require.Equal(t, 1, len(a.calls))
	b := resourceRig(t, base, "s2", "", "")
	blocks = b.context()
	require.Equal(t, 1, len(blocks))
	require.Contains(t, blocks[0].Get("messages.0.content").String(), "fix the parser")
	require.Contains(t, blocks[0].Get("messages.0.content").String(), "old API number 0")
}
