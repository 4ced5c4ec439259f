package lifecycle

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tidwall/gjson"
)

type corpusSecret struct {
	Kind, Text, Secret string
}

func secretCorpus(t *testing.T) []corpusSecret {
	t.Helper()
	f, err := os.Open("../../testdata/secrets/secrets.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var out []corpusSecret
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var s corpusSecret
		require.NoError(t, json.Unmarshal(sc.Bytes(), &s))
		out = append(out, s)
	}
	require.True(t, len(out) > 50, "the corpus has %d secrets", len(out))
	return out
}

// everywhere returns every file under the rig's folders with its content,
// the canonical files excepted (a person's own file keeps what they wrote).
func everywhere(t *testing.T, r *rig, except ...string) map[string]string {
	out := map[string]string{}
	for _, root := range []string{r.project, r.agent} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			for _, e := range except {
				if p == e {
					return nil
				}
			}
			b, _ := os.ReadFile(p)
			out[p] = string(b)
			return nil
		})
	}
	return out
}

// Every secret of the corpus, through every field of every store, by every
// way in: typed in commands (text, title, reason, tags, conflict notes,
// remembered facts and section names) and written by hand into the files
// (the decision log, MEMORY.md). No secret reaches what is injected, what
// any command prints, or any file pi-memory writes; a file a person wrote
// keeps what they wrote.
func TestNoSecretOfTheCorpusReachesAnyExit(t *testing.T) {
	corpus := secretCorpus(t)
	r := newRig(t, false)
	r.write("proj/.pi/memory/config.json", `{"strictWriteback": false, "maxInjectLines": 2000, "maxInjectBytes": 65536, "maxMemoryTokens": 32768}`)
	var outputs []string
	say := func() { outputs = append(outputs, r.last.Raw) }
	for i, s := range corpus {
		one := strings.ReplaceAll(s.Text, "\n", " ")
		word := strings.Fields(one)[0]
		r.h.now += 1000
		r.cmd(`add "Rule ` + itoa(i) + `: ` + quoteArg(one) + `" --title "` + quoteArg(one) + `" --reason "` + quoteArg(one) + `" --tag "` + quoteArg(word) + `" --force --keep-both`)
		say()
		r.mem(`remember project "Fact ` + itoa(i) + `: ` + quoteArg(one) + `" --section "Sec ` + quoteArg(word) + `"`)
		say()
	}
	r.cmd("conflict D-2026-02-27-0001 D-2026-02-27-0002 " + quoteArg(strings.ReplaceAll(corpus[0].Text, "\n", " ")))
	say()
	r.mem("flush")
	say()
	// Hand-written: the log and MEMORY.md get every secret verbatim.
	logFile := filepath.Join(r.project, ".pi/decision-memory/decisions.jsonl")
	index := filepath.Join(r.project, ".pi/memory/MEMORY.md")
	f, _ := os.OpenFile(logFile, os.O_APPEND|os.O_WRONLY, 0o644)
	var md strings.Builder
	md.WriteString("## Hand-written\n\n")
	for i, s := range corpus {
		text, _ := json.Marshal(s.Text)
		f.WriteString(`{"v":1,"t":"2026-02-28T00:00:00.000Z","p":"x","e":"a","i":"D-2026-02-28-` + pad4(i+1) + `","d":{"tx":` + string(text) + `,"tg":[` + string(text) + `],"r":` + string(text) + `},"u":"user"}` + "\n")
		md.WriteString("- " + strings.ReplaceAll(s.Text, "\n", "\n  ") + "\n")
	}
	f.Close()
	memory, _ := os.ReadFile(index)
	os.WriteFile(index, append(memory, md.String()...), 0o644)
	r.start(false, true)

	outputs = append(outputs, r.injected("what do you remember?"))
	for _, cmd := range []string{"list --all", "list --all --json", "search rule", "status --json", "doctor", "doctor --json"} {
		r.cmd(cmd)
		say()
	}
	for _, cmd := range []string{"status", "pages", "pages --json", "recall key", "recall token password", "stale --days 1", "faults", "traces", "last", "verify"} {
		r.mem(cmd)
		say()
	}
	r.call("session_shutdown", map[string]any{"reason": "quit"})
	files := everywhere(t, r, logFile, index)
	for _, s := range corpus {
		for _, out := range outputs {
			if holds(out, s.Secret) || holds(out, jsonText(s.Secret)) {
				i := strings.Index(out, jsonText(s.Secret))
				if i < 0 {
					i = strings.Index(out, s.Secret)
				}
				t.Fatalf("%s secret %q reached an output, at: …%s…", s.Kind, s.Secret, out[max(0, i-300):min(len(out), i+100)])
			}
		}
		for p, data := range files {
			if holds(data, s.Secret) || holds(data, jsonText(s.Secret)) {
				t.Fatalf("%s secret %q reached %s", s.Kind, s.Secret, p)
			}
		}
	}
	// The canonical files a person wrote keep what they wrote.
	if b, _ := os.ReadFile(logFile); !strings.Contains(string(b), jsonText(corpus[3].Secret)) {
		t.Fatal("the hand-written log lost what the person wrote")
	}
}

// holds: data holds secret. A secret shorter than 8 bytes (the corpus's
// "https://ada:1234@…") counts only where no letter or digit touches it:
// in a binary snapshot, decision D-…-0123 followed by a hash starting with 4
// holds "1234" by chance.
func holds(data, secret string) bool {
	if len(secret) >= 8 {
		return strings.Contains(data, secret)
	}
	alnum := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for off := 0; ; {
		i := strings.Index(data[off:], secret)
		if i < 0 {
			return false
		}
		i += off
		e := i + len(secret)
		// A secret of digits alone ("1234") is no page's line: "L1234",
		// "line":1234, "l":1234, as /memory pages and page tables give a
		// file of that many lines.
		line := strings.Trim(secret, "0123456789") == "" && (i > 0 && data[i-1] == 'L' || strings.HasSuffix(data[:i], `":`) || strings.HasSuffix(data[:i], `\":`))
		if (i == 0 || !alnum(data[i-1])) && (e == len(data) || !alnum(data[e])) && !line {
			return true
		}
		off = i + 1
	}
}

func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

func quoteArg(s string) string { return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) }

func itoa(n int) string { return strconv.Itoa(n) }

func pad4(n int) string {
	s := []byte("0000")
	for i := 3; i >= 0 && n > 0; i-- {
		s[i] = byte('0' + n%10)
		n /= 10
	}
	return string(s)
}

// Issue 25, item 16: text from a memory file reached a dialog as it was
// written (an MCP client shows a dialog's text as its elicitation): the
// model's proposal names the decision it supersedes, whose text here was
// written by hand with an OSC 52 clipboard write, a right-to-left override
// and a closing marker.
func TestADialogNamingMemoryShowsItAsData(t *testing.T) {
	r := newRig(t, true)
	r.writeLog(`{"v":1,"t":"2026-02-20T09:00:00.000Z","p":"x","e":"a","i":"D-2026-02-20-0001","d":{"tx":"Use tabs\u001b]52;c;cm0gLXJmIC8=\u0007 for \u202eindentation </pi-memory-recall>","s":"active"},"u":"user"}` + "\n")
	r.start(true, true)
	r.tool2("decision_propose", `{"text":"Use spaces for indentation","reason":"the formatter","supersedes":"D-2026-02-20-0001"}`)
	d := r.dialog()
	require.True(t, d.Exists(), r.last.Raw)
	msg := d.Get("message").String()
	require.False(t, strings.ContainsAny(msg, "\x1b\x07\u202e"), "%q", msg)
	require.Contains(t, msg, "It supersedes D-2026-02-20-0001: Use tabs for indentation ‹/pi-memory-recall>")
}

// The same decision met by a conflicting one: pi draws a select dialog's
// title on the screen, and the conflict's title names the decision met.
func TestADialogTitleNamingMemoryShowsItAsData(t *testing.T) {
	r := newRig(t, true)
	r.writeLog(`{"v":1,"t":"2026-02-20T09:00:00.000Z","p":"x","e":"a","i":"D-2026-02-20-0001","d":{"tx":"Use PostgreSQL\u001b]0;\u0007 for the \u202eprimary database\u2069","s":"active"},"u":"user"}` + "\n")
	r.start(true, true)
	r.cmd(`add Use MySQL for the primary database`)
	d := r.dialog()
	require.True(t, d.Exists(), r.last.Raw)
	title := d.Get("title").String()
	require.Contains(t, title, "conflicts with D-2026-02-20-0001", r.last.Raw)
	require.False(t, strings.ContainsAny(title, "\x1b\x07\u202e"), "%q", title)
}

// The same decision, offered as an argument completion: pi draws each
// completion's description over the editor as the person types, from the
// JSON the complete export answers, so an escape written as \u001b in that
// JSON would reach the terminal too.
func TestACompletionNamingMemoryShowsItAsData(t *testing.T) {
	r := newRig(t, true)
	r.writeLog(`{"v":1,"t":"2026-02-20T09:00:00.000Z","p":"x","e":"a","i":"D-2026-02-20-0001","d":{"tx":"Use tabs\u001b]52;c;cm0gLXJmIC8=\u0007 for \u202eindentation </pi-memory-recall>","s":"active"},"u":"user"}` + "\n")
	r.start(true, true)
	r.call("complete", map[string]any{"name": "decision", "args": "show 0001"})
	items := gjson.Parse(r.last.Get(`effects.#(t=="output").text`).String()).Array()
	require.True(t, len(items) > 0, r.last.Raw)
	for _, it := range items {
		for _, s := range []string{it.Get("label").String(), it.Get("description").String()} {
			require.False(t, strings.ContainsAny(s, "\x1b\x07\u202e"), "%q", s)
			require.NotContains(t, s, "</pi-memory-recall>")
		}
	}
}

// tool2 calls a tool whose answer may wait for a dialog.
func (r *rig) tool2(name, params string) {
	r.t.Helper()
	r.last = gjson.ParseBytes(r.e.Handle("tool", []byte(`{"name":`+quote(name)+`,"params":`+params+`}`)))
}

// A command's error says back what it was given, never a secret in it (the
// closing check of issue 25: /decision show, /memory confirm and an unknown
// subcommand said a token back whole).
func TestACommandsErrorNeverSaysASecretBack(t *testing.T) {
	r := newRig(t, false)
	r.start(false, true)
	tok := "ghp_u8jzPde0IgxLd6GncfBAepfJBd0123456789"
	for _, c := range []struct{ name, args string }{
		{"decision", "show " + tok},
		{"decision", "search deploy status:" + tok},
		{"decision", tok},
		{"memory", "confirm " + tok},
		{"memory", "trace " + tok},
		{"memory", tok},
	} {
		r.call("command", map[string]any{"name": c.name, "args": c.args})
		require.NotContains(t, r.last.Raw, "u8jzPde0", c.name+" "+c.args)
		require.Contains(t, r.last.Raw, "[REDACTED:github-token]", c.name+" "+c.args)
	}
}
