package lifecycle_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hindsight"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
	"github.com/tidwall/gjson"
)

// writeSession writes a pi session file that ran in cwd, with one user
// message and one answer, into agent/sessions/<cwd's folder>/.
func (r *hsRig) writeSession(cwd, id, said string) string {
	r.t.Helper()
	dir := filepath.Join(r.agent, "sessions", hsimport.SessionFolder(cwd))
	require.NoError(r.t, os.MkdirAll(dir, 0o755))
	p := filepath.Join(dir, "2026-11-20T09-00-00-000Z_"+id+".jsonl")
	data := `{"type":"session","version":3,"id":"` + id + `","timestamp":"2026-11-20T09:00:00.000Z","cwd":"` + cwd + `"}
{"type":"message","id":"a","parentId":null,"timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"` + said + `"}}
{"type":"message","id":"b","parentId":"a","timestamp":"2026-11-20T09:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"Noted."}]}}
`
	require.NoError(r.t, os.WriteFile(p, []byte(data), 0o644))
	return p
}

func (r *hsRig) checkpoint() string {
	b, _ := os.ReadFile(filepath.Join(r.agent, "pi-memory/hindsight", hsimport.CheckpointName("http://hs:1")))
	return string(b)
}

func (r *hsRig) importCmd(argv ...string) gjson.Result {
	r.t.Helper()
	return r.call("command", map[string]any{"name": "hindsight", "argv": append([]string{"import"}, argv...)})
}

// outputs are the texts of the last envelope's output effects.
func (r *hsRig) outputs() string {
	var s []string
	for _, e := range r.effects("output") {
		s = append(s, e.Get("text").String())
	}
	return strings.Join(s, "\n")
}

// requests are the requests of the last envelope's http ask.
func (r *hsRig) requests() []gjson.Result {
	asks := r.effects("http")
	if len(asks) == 0 {
		return nil
	}
	return asks[0].Get("requests").Array()
}

func TestImportDryRunSaysWhatItWouldSendAndWritesNothing(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.writeSession(r.project, "s-a", "Use tabs")
	r.writeSession(r.project, "s-b", "Deploy with token "+hsSecret)
	before := tree(t, r.agent)
	r.importCmd("--dry-run")
	require.Equal(t, 0, len(r.effects("http")))
	require.Equal(t, int64(0), r.last.Get("exit").Int())
	out := r.outputs()
	require.Contains(t, out, "as pimem-import:s-a")
	require.Contains(t, out, "to bank "+hindsight.ProjectBankID("github.com/o/r"))
	require.Contains(t, out, "(1 secret redacted)")
	require.Contains(t, out, "dry run: 2 session files; 2 would be sent")
	require.NotContains(t, r.last.Raw, hsSecret)
	require.Equal(t, before, tree(t, r.agent))
}

func TestImportSendsOneRetainPerSessionAndRecordsOnly2xx(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1","apiKey":"k"}`, nil)
	a := r.writeSession(r.project, "s-a", "Use tabs")
	b := r.writeSession(r.project+"/cmd", "s-b", "Keep the cache small")
	r.importCmd()
	reqs := r.requests()
	require.Equal(t, 2, len(reqs))
	bank := hindsight.ProjectBankID("github.com/o/r")
	for i, id := range []string{"s-a", "s-b"} {
		require.Equal(t, "http://hs:1/v1/default/banks/"+bank+"/memories", reqs[i].Get("url").String())
		require.Equal(t, "Bearer k", reqs[i].Get("headers.Authorization").String())
		body := reqs[i].Get("body").String()
		require.Equal(t, int64(1), gjson.Get(body, "items.#").Int())
		require.Equal(t, "pimem-import:"+id, gjson.Get(body, "items.0.document_id").String())
		require.Equal(t, `["project:github.com/o/r","session:`+id+`","source:import"]`, gjson.Get(body, "items.0.tags").Raw)
	}
	require.Equal(t, "", r.checkpoint(), "nothing is recorded before the server answers")

	// s-a taken, s-b refused with a 500: only s-a is recorded.
	r.answer(ok(retained), map[string]any{"status": 500, "body": "boom"})
	require.Equal(t, int64(1), r.last.Get("exit").Int())
	require.Contains(t, r.outputs(), "failed "+b+": HTTP 500 boom")
	require.Contains(t, r.outputs(), "1 failed (run the import again to retry them)")
	cp := hsimport.DecodeCheckpoint([]byte(r.checkpoint()))
	require.Equal(t, 1, len(cp.Files))
	require.Equal(t, "pimem-import:s-a", cp.Files[a].Doc)
	require.Equal(t, bank, cp.Files[a].Bank)

	// The next run sends the one that failed, and resumes after the last file recorded.
	r.importCmd()
	require.Contains(t, r.outputs(), "resuming after "+a)
	reqs = r.requests()
	require.Equal(t, 1, len(reqs))
	require.Equal(t, "pimem-import:s-b", gjson.Get(reqs[0].Get("body").String(), "items.0.document_id").String())
	r.answer(ok(retained))
	require.Equal(t, int64(0), r.last.Get("exit").Int())

	// A second full run sends nothing.
	r.importCmd()
	require.Equal(t, 0, len(r.effects("http")))
	require.Contains(t, r.outputs(), "2 session files; 0 sent (0 messages, 0 characters), 2 already imported.")
}

func TestImportStopsAtAConnectionErrorAndResumesFromTheCheckpoint(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	var files []string
	for i := 0; i < 11; i++ {
		files = append(files, r.writeSession(r.project, "s-"+strconv.Itoa(10+i), "fact "+strconv.Itoa(i)))
	}
	r.importCmd()
	require.Equal(t, 8, len(r.requests()), "a batch of sessions per ask")
	answers := make([]any, 8)
	for i := range answers {
		answers[i] = ok(retained)
	}
	r.answer(answers...)
	require.Contains(t, r.outputs(), "imported 8/11 sessions, 16 messages")
	require.Equal(t, 3, len(r.requests()))
	r.answer(ok(retained), map[string]any{"error": "connect ECONNREFUSED 127.0.0.1:1"}, ok(retained))
	require.Equal(t, int64(1), r.last.Get("exit").Int())
	require.Equal(t, 0, len(r.effects("http")), "nothing more is asked once the server is away")
	require.Contains(t, r.last.Raw, "Hindsight import stopped: the server did not answer (connect ECONNREFUSED 127.0.0.1:1)")
	require.Equal(t, 10, len(hsimport.DecodeCheckpoint([]byte(r.checkpoint())).Files))

	r.importCmd()
	reqs := r.requests()
	require.Equal(t, 1, len(reqs))
	require.Equal(t, "pimem-import:s-19", gjson.Get(reqs[0].Get("body").String(), "items.0.document_id").String())
	r.answer(ok(retained))
	require.Equal(t, 11, len(hsimport.DecodeCheckpoint([]byte(r.checkpoint())).Files))
}

func TestImportSendsAChangedSessionAgainUnderTheSameDocument(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	p := r.writeSession(r.project, "s-a", "Use tabs")
	r.importCmd()
	r.answer(ok(retained))
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	f.WriteString(`{"type":"message","id":"c","parentId":"b","timestamp":"2026-11-20T09:00:03.000Z","message":{"role":"user","content":"And spaces in YAML"}}` + "\n")
	f.Close()
	r.importCmd()
	reqs := r.requests()
	require.Equal(t, 1, len(reqs))
	body := reqs[0].Get("body").String()
	require.Equal(t, "pimem-import:s-a", gjson.Get(body, "items.0.document_id").String())
	require.Equal(t, "replace", gjson.Get(body, "items.0.update_mode").String())
	require.Contains(t, gjson.Get(body, "items.0.content").String(), "And spaces in YAML")
	r.answer(ok(retained))
	require.Contains(t, r.outputs(), "1 of them changed since they were imported")
}

func TestImportWithoutDirKeepsToTheProjectAndWithDirSendsEachToItsOwnBank(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	r.writeSession(r.project, "s-own", "Use tabs")
	other := filepath.Join(filepath.Dir(r.project), "lib")
	os.MkdirAll(filepath.Join(other, ".git"), 0o755)
	os.WriteFile(filepath.Join(other, ".git/config"), []byte("[remote \"origin\"]\n\turl = https://github.com/o/lib.git\n"), 0o644)
	r.writeSession(other, "s-lib", "Lib uses spaces")
	// A folder name that may hold the project's (pi's encoding loses "/" vs "-"), and does not.
	r.writeSession(r.project+"-old", "s-old", "Old notes")

	r.importCmd()
	require.Contains(t, r.outputs(), "ran in another project ("+r.project+"-old)")
	reqs := r.requests()
	require.Equal(t, 1, len(reqs))
	require.Contains(t, reqs[0].Get("body").String(), "pimem-import:s-own")
	r.answer(ok(retained))

	r.importCmd(filepath.Join(r.agent, "sessions"))
	reqs = r.requests()
	require.Equal(t, 2, len(reqs), "s-own is done; s-old was skipped only for the project-only run")
	banks := map[string]string{}
	for _, q := range reqs {
		banks[gjson.Get(q.Get("body").String(), "items.0.document_id").String()] = q.Get("url").String()
	}
	require.Contains(t, banks["pimem-import:s-lib"], "/banks/"+hindsight.ProjectBankID("github.com/o/lib")+"/memories")
	require.Contains(t, banks["pimem-import:s-old"], "/banks/"+hindsight.ProjectBankID(r.project+"-old")+"/memories")
}

func TestImportRefusesWhereNothingMayBeRetained(t *testing.T) {
	tests := []struct {
		name   string
		start  map[string]any
		before []string // commands before the import
		want   string
	}{
		{"untrusted project", map[string]any{"trusted": false}, nil, "not trusted"},
		{"--no-memory", map[string]any{"flags": map[string]any{"no-memory": true}}, nil, "--no-memory"},
		{"/memory off", nil, []string{"memory off"}, "/memory off"},
		{"read-only", nil, []string{"hindsight mode read-only"}, "mode is read-only"},
		{"ignored", nil, []string{"hindsight mode ignored"}, "mode is ignored"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newHSRig(t, `{"url":"http://hs:1"}`, tc.start)
			r.writeSession(r.project, "s-a", "Use tabs")
			for _, c := range tc.before {
				w := strings.Fields(c)
				r.call("command", map[string]any{"name": w[0], "argv": w[1:]})
			}
			before := tree(t, r.agent)
			for _, argv := range [][]string{nil, {"--dry-run"}} {
				r.importCmd(argv...)
				require.Equal(t, int64(1), r.last.Get("exit").Int())
				require.Equal(t, 0, len(r.effects("http")))
				require.Contains(t, r.last.Raw, tc.want)
			}
			require.Equal(t, before, tree(t, r.agent))
		})
	}
}

func TestImportShowsProgressInTheFooterWithAUI(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	for i := 0; i < 9; i++ {
		r.writeSession(r.project, "s-"+strconv.Itoa(i), "fact "+strconv.Itoa(i))
	}
	r.call("command", map[string]any{"name": "hindsight", "args": "import", "hasUI": true})
	require.Equal(t, 0, len(r.effects("output")), "with a UI, lines are gathered for the end")
	answers := make([]any, 8)
	for i := range answers {
		answers[i] = ok(retained)
	}
	r.answer(answers...)
	require.Equal(t, "hindsight imported 8/9 sessions, 16 messages", r.status())
	r.answer(ok(retained))
	st := r.effects("status")
	require.Equal(t, "hindsight project", lifecycle.FooterPiece(st[len(st)-1], "hindsight"), "the footer is given back")
	require.Contains(t, r.outputs(), "importing 9 of 9 session files")
	require.Contains(t, r.outputs(), "9 sent (18 messages")
}

// tree lists every path under root, for "nothing was written" checks.
func tree(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			out = append(out, p+"@"+strconv.FormatInt(info.Size(), 10))
		}
		return nil
	})
	return out
}

func TestImportKeepsATornCheckpointLineAndCompactsSupersededRecords(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	p := r.writeSession(r.project, "s-a", "Use tabs")
	// 300 records of an earlier size of the same file (it grew after each
	// import), then a line torn by a kill.
	var old strings.Builder
	for i := 0; i < 300; i++ {
		old.Write(hsimport.Record{Op: hsimport.OpDone, Path: p, Size: int64(i), Mtime: 1, Doc: "pimem-import:s-a", Bank: "b", Messages: 1, At: 1}.Line())
	}
	cpFile := filepath.Join(r.agent, "pi-memory/hindsight", hsimport.CheckpointName("http://hs:1"))
	require.NoError(t, os.MkdirAll(filepath.Dir(cpFile), 0o755))
	require.NoError(t, os.WriteFile(cpFile, []byte(old.String()+`{"v":1,"op":"do`), 0o644))

	r.importCmd()
	require.Contains(t, r.last.Raw, "line 301: the last line is cut short")
	require.Equal(t, 1, len(r.requests()))
	r.answer(ok(retained))
	lines := strings.Split(strings.TrimSuffix(r.checkpoint(), "\n"), "\n")
	require.Equal(t, 302, len(lines), "a line it cannot read is never compacted away")
	require.Equal(t, `{"v":1,"op":"do`, lines[300])
	require.Contains(t, lines[301], `"op":"done"`)

	// Without the torn line, the superseded records go.
	require.NoError(t, os.WriteFile(cpFile, []byte(old.String()), 0o644))
	r.importCmd()
	r.answer(ok(retained))
	cp := hsimport.DecodeCheckpoint([]byte(r.checkpoint()))
	require.Equal(t, 1, cp.Lines)
	info, _ := os.Stat(p)
	require.Equal(t, info.Size(), cp.Files[p].Size)
}

func TestImportWithAUIShowsAtMostFortyLines(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	for i := 0; i < 45; i++ {
		r.writeSession(r.project, "s-"+strconv.Itoa(10+i), "fact")
	}
	r.call("command", map[string]any{"name": "hindsight", "args": "import --dry-run", "hasUI": true})
	out := r.outputs()
	require.Equal(t, 39, strings.Count(out, "would send "))
	require.Contains(t, out, "… and 6 more lines (pimem hindsight import prints every line)")
	require.Contains(t, out, "45 would be sent")
}

// twin is a second pi process over the same project and agent folders.
func (r *hsRig) twin() *hsRig {
	o := &hsRig{t: r.t, clock: r.clock, project: r.project, agent: r.agent}
	o.e = lifecycle.New(fsys.NewHost(fsys.NewOS(), r.clock, nil, nil))
	o.call("session_start", map[string]any{"cwd": r.project, "agentDir": r.agent, "trusted": true, "hasUI": false, "mode": "rpc", "reason": "startup", "sessionId": "s2"})
	return o
}

// Two imports to one server at once would each send every session (each
// plans from the checkpoint as it was when it started): the second is
// refused while the first runs, and once it has ended sends nothing.
func TestASecondImportToTheSameServerWaitsForTheFirst(t *testing.T) {
	r := newHSRig(t, `{"url":"http://hs:1"}`, nil)
	for i := 0; i < 3; i++ {
		r.writeSession(r.project, "s-"+strconv.Itoa(10+i), "fact "+strconv.Itoa(i))
	}
	r.importCmd()
	require.Equal(t, 3, len(r.requests()), r.last.Raw)
	other := r.twin()
	other.importCmd()
	require.Equal(t, 0, len(other.effects("http")), "nothing sent while the first import runs")
	require.Equal(t, int64(1), other.last.Get("exit").Int())
	require.Contains(t, other.last.Raw, "Not imported: another import to http://hs:1 is running")
	other.importCmd("--dry-run")
	require.Contains(t, other.outputs(), "dry run: 3 session files; 3 would be sent", "a dry run sends nothing: it is not refused")
	r.answer(ok(retained), ok(retained), ok(retained))
	require.Equal(t, int64(0), r.last.Get("exit").Int())
	other.importCmd()
	require.Equal(t, 0, len(other.effects("http")))
	require.Contains(t, other.outputs(), "3 already imported")
	r.importCmd()
	require.Equal(t, int64(0), r.last.Get("exit").Int(), "the first let go of the server when it ended: %s", r.last.Raw)
}
