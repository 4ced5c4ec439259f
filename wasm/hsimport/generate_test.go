package hsimport

import (
	"flag"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

// The generator of an agent dir for the import benchmark (issue 9's
// "import speed of a generated 1,000-session agent dir"):
//
//	go test ./wasm/hsimport -run '^TestGenerateAgentDir$' -hsimport.gen /tmp/agent [-hsimport.sessions 1000]
//
// writes <dir>/sessions/--w-project-NN--/<time>_<id>.jsonl, the same bytes
// for the same count every time, for a host to import against a real server
// (make bench). Without -hsimport.gen the test writes a few sessions to a
// temporary folder and checks that each reads back.
var (
	genDir      = flag.String("hsimport.gen", "", "write a generated agent dir here")
	genSessions = flag.Int("hsimport.sessions", 1000, "sessions to generate with -hsimport.gen")
)

// generated is one generated session file.
type generated struct {
	rel  string // path under the agent dir
	data []byte
}

// generate makes n sessions in 20 projects, seeded by n: realistic shapes
// and sizes (a few to 60 messages, tool results up to 24 KB), with the
// things an import must handle now and then: a branch left through /tree,
// a compaction, our recalled block, our custom entries, a secret, a corrupt
// line.
func generate(n int) []generated {
	rng := rand.New(rand.NewSource(int64(n)))
	start := civil.ParseTime("2026-01-05T08:00:00.000Z")
	out := make([]generated, 0, n)
	for i := 0; i < n; i++ {
		at := start + int64(i)*3*3600*1000 + rng.Int63n(3600*1000)
		out = append(out, generateOne(rng, i, at))
	}
	return out
}

func generateOne(rng *rand.Rand, i int, at int64) generated {
	project := "project-" + strconv.Itoa(i%20)
	cwd := "/w/" + project
	id := hexID(rng)
	var b strings.Builder
	g := &gen{rng: rng, b: &b, at: at}
	g.line(`{"type":"session","version":3,"id":"` + id + `","timestamp":"` + civil.FormatTime(at) + `","cwd":"` + cwd + `"}`)
	g.entry(`"type":"model_change","provider":"fake","modelId":"fake-model"`)
	if rng.Intn(4) == 0 {
		g.entry(`"type":"custom","customType":"pi-memory-hindsight","data":{"mode":"normal"}`)
	}
	turns := 1 + rng.Intn(15)
	for t := 0; t < turns; t++ {
		text := sentence(rng, 8+rng.Intn(30))
		if rng.Intn(5) == 0 {
			text += "\n\n<pi-memory-recall>\n- [project] " + sentence(rng, 10) + "\n</pi-memory-recall>"
		}
		if rng.Intn(40) == 0 {
			text += " my token=" + hexID(rng)[:20]
		}
		fork := g.parent
		g.message(`{"role":"user","content":[{"type":"text","text":` + quote(text) + `}],"timestamp":` + strconv.FormatInt(g.at, 10) + `}`)
		for c := rng.Intn(4); c > 0; c-- {
			call := "call_" + strconv.Itoa(g.n)
			tool, args, result := toolUse(rng)
			g.message(`{"role":"assistant","content":[{"type":"thinking","thinking":` + quote(sentence(rng, 12)) + `},{"type":"toolCall","id":"` + call + `","name":"` + tool + `","arguments":` + args + `}],"stopReason":"toolUse","timestamp":0}`)
			g.message(`{"role":"toolResult","toolCallId":"` + call + `","toolName":"` + tool + `","content":[{"type":"text","text":` + quote(result) + `}],"isError":` + strconv.FormatBool(rng.Intn(10) == 0) + `,"timestamp":0}`)
		}
		g.message(`{"role":"assistant","content":[{"type":"text","text":` + quote(sentence(rng, 20+rng.Intn(80))) + `}],"stopReason":"stop","timestamp":0}`)
		switch k := rng.Intn(12); {
		case k == 0 && t > 0: // the user went back with /tree: this turn is left, a summary replaces it
			left := g.parent
			g.parent = fork
			g.entry(`"type":"branch_summary","fromId":"` + left + `","summary":` + quote(sentence(rng, 15)))
		case k == 1:
			g.entry(`"type":"compaction","summary":` + quote("## Goal\n"+sentence(rng, 30)) + `,"firstKeptEntryId":"` + g.parent + `","tokensBefore":40000`)
		case k == 2:
			g.line(`{"type":"message","id":"broken` + strconv.Itoa(g.n) + `","parentId":"`) // a torn line from a crash
		}
	}
	name := strings.ReplaceAll(strings.ReplaceAll(civil.FormatTime(at), ":", "-"), ".", "-") + "_" + id + ".jsonl"
	return generated{rel: filepath.Join("sessions", "--w-"+project+"--", name), data: []byte(b.String())}
}

type gen struct {
	rng    *rand.Rand
	b      *strings.Builder
	at     int64
	n      int
	parent string
}

func (g *gen) line(s string) {
	g.b.WriteString(s)
	g.b.WriteByte('\n')
}

func (g *gen) entry(fields string) {
	g.n++
	g.at += 1000 + g.rng.Int63n(20000)
	id := strconv.FormatInt(int64(0x10000000+g.n), 16)
	typ, rest, _ := strings.Cut(fields, ",") // pi writes type, id, parentId and timestamp first
	if rest != "" {
		rest = "," + rest
	}
	g.line(`{` + typ + `,"id":"` + id + `","parentId":` + parentJSON(g.parent) + `,"timestamp":"` + civil.FormatTime(g.at) + `"` + rest + `}`)
	g.parent = id
}

func (g *gen) message(m string) { g.entry(`"type":"message","message":` + m) }

var words = strings.Fields(`the cache store config handler test build deploy database migration query index
schema token request response error retry timeout session user project branch commit module package
function method interface struct field value file folder path line column parse render write read
fix add remove rename move check verify update replace keep skip send receive lock unlock flush`)

func sentence(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[rng.Intn(len(words))])
	}
	b.WriteByte('.')
	return b.String()
}

func toolUse(rng *rand.Rand) (tool, args, result string) {
	path := words[rng.Intn(len(words))] + "/" + words[rng.Intn(len(words))] + ".go"
	switch rng.Intn(3) {
	case 0:
		var b strings.Builder
		for l := 200 + rng.Intn(600); l > 0; l-- {
			b.WriteString("\t" + sentence(rng, 4+rng.Intn(6)) + "\n")
		}
		return "read", `{"path":"` + path + `"}`, b.String()
	case 1:
		return "bash", `{"command":"go test ./` + words[rng.Intn(len(words))] + `/..."}`, "ok  \tapp/" + words[rng.Intn(len(words))] + "\t0.0" + strconv.Itoa(rng.Intn(90)+10) + "s\n"
	}
	return "edit", `{"path":"` + path + `","oldText":` + quote(sentence(rng, 8)) + `,"newText":` + quote(sentence(rng, 12)) + `}`, "Edited " + path
}

func hexID(rng *rand.Rand) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 36)
	for i := range b {
		switch i {
		case 8, 13, 18, 23:
			b[i] = '-'
		default:
			b[i] = hex[rng.Intn(16)]
		}
	}
	return string(b)
}

func TestGenerateAgentDir(t *testing.T) {
	dir, n := *genDir, *genSessions
	if dir == "" {
		dir, n = t.TempDir(), 40
	}
	var listing []File
	for _, g := range generate(n) {
		p := filepath.Join(dir, g.rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, g.data, 0o644))
		info, err := os.Stat(p)
		require.NoError(t, err)
		listing = append(listing, File{Path: p, Size: info.Size(), Mtime: info.ModTime().UnixMilli()})
	}
	todo := Plan(Checkpoint{}, listing)
	require.Equal(t, n, len(todo.Files))
	messages := 0
	for _, f := range todo.Files {
		data, err := os.ReadFile(f.Path)
		require.NoError(t, err)
		s, err := Parse(data, Limits{})
		require.NoError(t, err, f.Path)
		require.True(t, s.Messages > 0, "%s sends nothing", f.Path)
		require.NotContains(t, s.Content(), "pi-memory")
		messages += s.Messages
	}
	t.Logf("%d sessions, %d messages in %s", n, messages, dir)
}

// BenchmarkImport runs the pure part of an import of a generated
// 1,000-session agent dir: plan, read each session, build its item and
// request body, record it in the checkpoint. The host's file reads and the
// server's time are not in it (make bench measures those against the real
// server).
func BenchmarkImport(b *testing.B) {
	sessions := generate(1000)
	listing := make([]File, len(sessions))
	byPath := make(map[string][]byte, len(sessions))
	var bytes int64
	for i, g := range sessions {
		listing[i] = File{Path: "/agent/" + g.rel, Size: int64(len(g.data)), Mtime: 1}
		byPath[listing[i].Path] = g.data
		bytes += int64(len(g.data))
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	messages := 0
	for i := 0; i < b.N; i++ {
		var cp Checkpoint
		todo := Plan(cp, listing)
		p := Progress{Total: len(todo.Files)}
		for _, f := range todo.Files {
			s, err := Parse(byPath[f.Path], Limits{})
			if err != nil {
				b.Fatal(err)
			}
			it := NewItem(s, "github.com/ada/app")
			_ = RequestBody([]Item{it})
			cp.Add(Record{Op: OpDone, Path: f.Path, Size: f.Size, Mtime: f.Mtime, Doc: it.DocumentID, Bank: "b", Messages: s.Messages, At: 1})
			p.Add(s, it)
		}
		messages = p.Messages
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(1000/sec, "sessions/s")
	b.ReportMetric(float64(messages)/sec, "messages/s")
}
