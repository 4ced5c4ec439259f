package observe

import (
	"fmt"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"strings"
	"testing"
	"unsafe"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/store"
)

func TestTranscriptSerializesEachRole(t *testing.T) {
	s := newSession(feb12)
	s.user("Fix the login bug in auth/login.go")
	s.assistant("Let me look.", call{"c1", "read", `{"path":"auth/login.go","limit":40}`})
	s.result("c1", "read", "package auth\nfunc Login() {}", false)
	s.assistant("", call{"c2", "bash", `{"command":"go test ./auth"}`})
	s.result("c2", "bash", "--- FAIL: TestLogin (0.00s)", true)
	tr := s.transcript()
	var texts []string
	for _, e := range tr.Entries {
		texts = append(texts, e.Text)
	}
	require.Equal(t, []string{
		"[14:30] User: Fix the login bug in auth/login.go",
		"[14:31] Assistant: Let me look.\n[14:31] Assistant calls read(path=\"auth/login.go\", limit=40)",
		"[14:32] Result of read(path=\"auth/login.go\", limit=40):\npackage auth\nfunc Login() {}",
		"[14:33] Assistant calls bash(command=\"go test ./auth\")",
		"[14:34] Result of bash(command=\"go test ./auth\") (error):\n--- FAIL: TestLogin (0.00s)",
	}, texts)
	require.Equal(t, -1, tr.LastCompaction)
	require.Equal(t, []string{"auth/login.go"}, tr.Entries[1].Read)
	require.False(t, tr.Entries[2].CanCut, "pi never starts a kept tail at a tool result")
	require.True(t, tr.Entries[1].CanCut)
}

func TestTranscriptUsesLocalTime(t *testing.T) {
	s := newSession(feb12)
	s.user("hello there")
	tr := readEntries(s.jsonl(), -300) // UTC−5
	require.Equal(t, "[09:30] User: hello there", tr.Entries[0].Text)
}

func TestTranscriptRedactsEverything(t *testing.T) {
	s := newSession(feb12)
	s.user("deploy with token=abc123def456ghi")
	s.assistant("", call{"c1", "bash", `{"command":"export GITHUB_TOKEN=ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}`})
	s.result("c1", "bash", "db password = hunter22x", false)
	tr := s.transcript()
	for _, e := range tr.Entries {
		require.Contains(t, e.Text, "[REDACTED:")
		require.NotContains(t, e.Text, "abc123def456ghi")
		require.NotContains(t, e.Text, "hunter22x")
		require.NotContains(t, e.Text, "ghp_aaaa")
	}
}

func TestTranscriptNeverShowsTheObserverOurOwnBlocks(t *testing.T) {
	s := newSession(feb12)
	s.user("before " + markerStart + "\n* 🔴 User prefers tabs\n" + markerEnd + " after")
	s.custom(CustomTypeContext, "<observations>…</observations>")
	s.custom(customTypeContinuation, "carry on")
	s.custom("observational-memory-state", "{}")
	ours := s.compaction("e1", "## Observations\n* 🔴 old", true)
	theirs := s.compaction("e1", "The user wants tabs.", false)
	s.custom("other-extension", "a note from another extension")
	s.user("unclosed " + markerStart + " everything after is ours")
	tr := s.transcript()
	byID := map[string]entry{}
	for _, e := range tr.Entries {
		byID[e.ID] = e
	}
	require.Equal(t, "[14:30] User: before  after", tr.Entries[0].Text)
	for _, id := range []string{"e2", "e3", "e4", ours} {
		require.Equal(t, "", byID[id].Text, id)
		require.True(t, byID[id].Ours, id)
		require.True(t, byID[id].Tokens > 0, "our blocks still take room in the context: %s", id)
	}
	require.Contains(t, byID[theirs].Text, "Summary of the earlier conversation:\nThe user wants tabs.")
	require.Equal(t, roleCompaction, byID[theirs].Role)
	require.Equal(t, 5, tr.LastCompaction)
	require.Contains(t, byID["e7"].Text, "Message from an extension (other-extension): a note from another extension")
	require.Equal(t, "[14:37] User: unclosed", byID["e8"].Text)
}

func TestTranscriptDropsToolResultsWithoutTheirCall(t *testing.T) {
	s := newSession(feb12)
	s.result("gone", "read", "contents of a file whose call was compacted away", false)
	s.assistant("", call{"c1", "read", `{"path":"a.go"}`})
	s.result("c1", "read", "package a", false)
	tr := s.transcript()
	require.Equal(t, "", tr.Entries[0].Text)
	require.True(t, tr.Entries[0].Tokens > 0)
	require.Contains(t, tr.Entries[2].Text, "Result of read(path=\"a.go\")")
}

func TestTranscriptOmitsThinkingButCountsIt(t *testing.T) {
	data := `[{"type":"message","id":"a","timestamp":"2026-02-12T14:30:00Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"` + strings.Repeat("x", 4000) + `"},{"type":"text","text":"Done."}]}}]`
	tr := readEntries([]byte(data), 0)
	require.Equal(t, "[14:30] Assistant: Done.", tr.Entries[0].Text)
	require.True(t, tr.Entries[0].Tokens >= 1000)
}

func TestTranscriptShortensHugeOutputsAndSaysHowMuch(t *testing.T) {
	s := newSession(feb12)
	s.assistant("", call{"c1", "read", `{"path":"big.txt","content":"` + strings.Repeat("y", 2000) + `"}`})
	body := "FIRST LINE\n" + strings.Repeat("middle line\n", 5000) + "LAST LINE error: boom"
	s.result("c1", "read", body, false)
	tr := s.transcript()
	call, res := tr.Entries[0], tr.Entries[1]
	require.Contains(t, call.Text, "…[1602 more characters]")
	require.Contains(t, res.Text, "FIRST LINE")
	require.Contains(t, res.Text, "LAST LINE error: boom")
	require.Contains(t, res.Text, "characters of output not shown …]")
	require.True(t, len(res.Text) < 6000)
	require.True(t, res.Tokens >= len(body)/4, "the threshold counts the full output")
}

func TestTranscriptReadsUserCommandsImagesAndEdits(t *testing.T) {
	data := `[
{"type":"message","id":"b1","timestamp":"2026-02-12T14:30:00Z","message":{"role":"bashExecution","command":"make test","output":"ok","exitCode":2,"cancelled":false,"truncated":false}},
{"type":"message","id":"b2","timestamp":"2026-02-12T14:31:00Z","message":{"role":"bashExecution","command":"cat secret","output":"hidden","exitCode":0,"excludeFromContext":true}},
{"type":"message","id":"b3","timestamp":"2026-02-12T14:32:00Z","message":{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":"AAAA","mimeType":"image/png"}]}},
{"type":"message","id":"b4","timestamp":"2026-02-12T14:33:00Z","message":{"role":"user","content":"an old wording"}},
{"type":"context_edit","id":"b5","targetId":"b4","replacement":{"content":"the new wording"}},
{"type":"message","id":"b6","timestamp":"2026-02-12T14:34:00Z","message":{"role":"user","content":"omitted later"}},
{"type":"context_edit","id":"b7","targetId":"b6","replacement":null},
{"type":"model_change","id":"b8","timestamp":"2026-02-12T14:35:00Z","provider":"x","modelId":"y"},
{"type":"message","id":"b9","timestamp":"2026-02-12T14:36:00Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"w","name":"write","arguments":{"path":"b.go","content":"x"}},{"type":"toolCall","id":"e","name":"edit","arguments":{"path":"c.go"}}],"stopReason":"error","errorMessage":"overloaded"}}
]`
	tr := readEntries([]byte(data), 0)
	texts := map[string]string{}
	for _, e := range tr.Entries {
		texts[e.ID] = e.Text
	}
	require.Equal(t, "[14:30] User ran `make test` (exit 2):\nok", texts["b1"])
	// A heredoc's heading names the values below it: redacted as written
	// before it is folded to one line (h-v94 c10).
	heredoc := readEntries([]byte(`[{"type":"message","id":"h","timestamp":"2026-02-12T14:30:00Z","message":{"role":"bashExecution","command":"cat > notes.md <<'EOF'\n## Passwords\n\n- prod: Zq9vLm2Kx7Pw\n- stage: Yt8uKn1Jw6Ov\nEOF","output":"","exitCode":0}}]`), 0)
	require.Equal(t, "[14:30] User ran `cat > notes.md <<'EOF' ## Passwords - prod: [REDACTED:secret] - stage: [REDACTED:secret] EOF` (exit 0):", heredoc.Entries[0].Text)
	require.Equal(t, "", texts["b2"])
	require.Equal(t, "[14:32] User: look\n[image image/png]", texts["b3"])
	require.Equal(t, "[14:33] User: the new wording", texts["b4"])
	require.Equal(t, "", texts["b6"])
	require.Equal(t, "", texts["b8"])
	require.Contains(t, texts["b9"], "Assistant stopped (error): overloaded")
	require.Equal(t, []string{"b.go", "c.go"}, tr.Entries[len(tr.Entries)-1].Modified)
	require.Equal(t, 7, len(tr.Entries), "context edits and the session header are not entries")
}

func TestTranscriptReadsAJSONArrayAsWellAsLines(t *testing.T) {
	s := newSession(feb12)
	s.user("one")
	s.user("two")
	lines := s.transcript()
	arr := readEntries([]byte("["+strings.Join(s.lines[1:], ",")+"]"), 0)
	require.Equal(t, lines, arr)
	require.Equal(t, 0, len(readEntries([]byte("not json\n[1,2]\n"), 0).Entries))
}

func TestAppendReadsOnlyWhatIsNew(t *testing.T) {
	s := newSession(feb12)
	s.user("one")
	s.assistant("", call{"c1", "read", `{"path":"a.go"}`})
	whole := s.transcript()
	s.result("c1", "read", "package a", false)
	s.compaction("e2", "pi's summary", false)
	s.user("three")
	all := s.transcript()

	tr := whole
	// The new entries, with an overlap the adapter may send again.
	require.True(t, tr.Append([]byte(strings.Join(s.lines[2:], "\n"))))
	require.Equal(t, all.Entries, tr.Entries)
	require.Equal(t, all.LastCompaction, tr.LastCompaction)
	require.Contains(t, tr.Entries[2].Text, "Result of read(path=\"a.go\")", "a result finds its call read before")

	// An edit of an entry already read: read the branch again.
	require.False(t, tr.Append([]byte(`{"type":"context_edit","id":"x","targetId":"e1","replacement":null}`)))
	require.Equal(t, all.Entries, tr.Entries)
}

func TestPendingShowsWhatTheObserverWouldRead(t *testing.T) {
	s := newSession(feb12)
	s.user("one")
	s.user("two")
	tr := s.transcript()
	st := &state{Mark: Mark{ID: "e1"}}
	text, tokens := st.Pending(&tr)
	require.Equal(t, "--- Thu Feb 12, 2026 ---\n[14:31] User: two", text)
	require.True(t, tokens > 0)
}

func TestTranscriptRedactsArgumentsWithTheirKeys(t *testing.T) {
	s := newSession(feb12)
	s.assistant("", call{"c1", "login", `{"user":"ada","password":"hunter22x","note":"` + strings.Repeat("n", 390) + ` token=abcdef1234567890"}`})
	tr := s.transcript()
	require.NotContains(t, tr.Entries[0].Text, "hunter22x")
	require.NotContains(t, tr.Entries[0].Text, "abcdef123")
	require.Contains(t, tr.Entries[0].Text, `password="[REDACTED:`)
}

// A command or a file quoted whole as an argument (h-v93 c1): its values
// are read as the string says them, not behind JSON's escaped quotes and
// "\n", at any depth of the arguments.
func TestTranscriptRedactsWhatAnArgumentsStringSays(t *testing.T) {
	s := newSession(feb12)
	s.assistant("", call{"c1", "bash", `{"command":"export OPENAI_API_KEY=\"Wq8xR2pLa8abcdEFGHijkl\" && echo ok"}`},
		call{"c2", "write", `{"path":"docker-compose.yml","content":"services:\n  db:\n    environment:\n      POSTGRES_PASSWORD: \"Wr1teToolPw9\"\n"}`},
		call{"c3", "batch", `{"steps":[{"run":"htpasswd -bc .htpasswd admin Vq7Lm2Zr9Kx"}]}`})
	tr := s.transcript()
	text := tr.Entries[0].Text
	for _, v := range []string{"Wq8xR2pLa8abcdEFGHijkl", "Wr1teToolPw9", "Vq7Lm2Zr9Kx"} {
		require.NotContains(t, text, v)
	}
	require.Contains(t, text, `OPENAI_API_KEY=\"[REDACTED:`)
}

func TestABranchReadWhereItGrewEqualsTheBranchReadAfresh(t *testing.T) {
	s := newSession(feb12)
	s.user("one")
	s.assistant("", call{"c1", "read", `{"path":"a.go"}`})
	s.result("c1", "read", "package a", false)
	s.compaction("e2", "pi's summary", false)
	s.user("three")
	vals := splitBranch("[" + strings.Join(s.lines[1:], ",") + "]")
	all := readEntries([]byte("["+strings.Join(s.lines[1:], ",")+"]"), 0)
	for cut := 0; cut <= len(vals); cut++ {
		tr := readEntries(nil, 0)
		require.True(t, tr.AppendEntries(vals[:cut]))
		require.True(t, tr.AppendEntries(vals[cut:]))
		require.Equal(t, all.Entries, tr.Entries, "cut at %d", cut)
		require.Equal(t, all.LastCompaction, tr.LastCompaction, "cut at %d", cut)
	}
	require.Equal(t, len(vals), len(splitBranch(string(s.jsonl())))-1, "JSON Lines hold the session header too")
}

// An entry outlives the event that carried it (the transcript is kept from
// one event to the next), so nothing it keeps may point into that event's
// text: a substring would hold all of pi's branch in memory.
func TestAnEntryKeepsNothingOfTheEventsText(t *testing.T) {
	s := newSession(feb12)
	s.user("one")
	s.assistant("", call{"c1", "write", `{"path":"a.go"}`})
	s.result("c1", "write", "ok", false)
	s.compaction("e2", "pi's summary", false)
	data := "[" + strings.Join(s.lines[1:], ",") + "]"
	lo := uintptr(unsafe.Pointer(unsafe.StringData(data)))
	inside := func(v string) bool {
		p := uintptr(unsafe.Pointer(unsafe.StringData(v)))
		return v != "" && p >= lo && p < lo+uintptr(len(data))
	}
	tr := readEntries(nil, 0)
	require.True(t, tr.AppendEntries(splitBranch(data)))
	require.Equal(t, 4, len(tr.Entries))
	for _, e := range tr.Entries {
		for _, v := range append([]string{e.ID, e.Role, e.Text, e.firstKept}, append(e.Read, e.Modified...)...) {
			require.False(t, inside(v), "entry %s keeps %q from the event's text", e.ID, v)
		}
	}
	require.Equal(t, []string{"a.go"}, tr.Entries[1].Modified)
}

func TestReadEntriesGivesTheObserverARedactedBranchWithoutOurBlock(t *testing.T) {
	tr := readEntries([]byte(piBranch), 60) // UTC+1
	var b strings.Builder
	for _, e := range tr.Entries {
		fmt.Fprintf(&b, "%s %-10s %q\n", e.ID, e.Role, e.Text)
	}
	require.Equal(t, `a1 user       "[15:30] User: The search fails on C++; my token=[REDACTED:secret]"
a2 assistant  "[15:31] Assistant calls read(path=\"src/search.ts\")"
a3 toolResult "[15:31] Result of read(path=\"src/search.ts\"):\nexport function search(q) { return new RegExp(q) }"
a4 custom     ""
`, b.String())
}

func TestTranscriptSkipsCommandOutputWhichNoRequestCarries(t *testing.T) {
	s := newSession(feb12)
	s.user("what did we decide?")
	s.custom(store.OutputType, "Decisions (2 active)\n  D-0001 Use pnpm")
	tr := s.transcript()
	out := tr.Entries[1]
	require.Equal(t, "", out.Text, "the observer never reads a command's output")
	require.True(t, out.Ours)
	require.Equal(t, 0, out.Tokens, "the adapter keeps it out of every request: it takes no room")
}

// Issue 19, item 11: escape sequences in the conversation (a tool's colours,
// a model's OSC 52) reach neither the observer's prompt nor /om view's
// unobserved part.
func TestTranscriptHoldsNoEscapeSequences(t *testing.T) {
	s := newSession(feb12)
	s.user("copy this\x1b]52;c;aGk=\x07 please")
	s.assistant("Running\u009b2J the tests\x1b]52;c;aGk=\x07 now", call{id: "c1", name: "bash", args: `{"command":"go test\u001b[0m"}`})
	s.result("c1", "bash", "\x1b[32mok\x1b[0m  pkg\r\n", false)
	tr := s.transcript()
	st := &state{}
	pending, _ := st.Pending(&tr)
	require.False(t, strings.ContainsAny(pending, "\x1b\x07\u009b\r"), "%q", pending)
	require.Contains(t, pending, "copy this please")
	require.Contains(t, pending, "ok  pkg")
}

// The output of a command that prints a secret bare is withheld whole
// (h-v93 c5): no pattern names "Xk9Lm2Qz7Wv4", the command does.
func TestTranscriptWithholdsWhatASecretReadingCommandPrints(t *testing.T) {
	s := newSession(feb12)
	s.assistant("", call{"c1", "bash", `{"command":"op read op://vault/db/password"}`}, call{"c2", "bash", `{"command":"ls"}`})
	s.result("c1", "bash", "Xk9Lm2Qz7Wv4", false)
	s.result("c2", "bash", "Makefile", false)
	tr := s.transcript()
	var all strings.Builder
	for _, e := range tr.Entries {
		all.WriteString(e.Text + "\n")
	}
	require.NotContains(t, all.String(), "Xk9Lm2Qz7Wv4")
	require.Contains(t, all.String(), redact.Withheld)
	require.Contains(t, all.String(), "Makefile")
}

// h-v94 a4: a message of many long blocks is read as its ends, the blocks
// together as each alone: its text is bounded, not 50 blocks of 60 KB.
func TestAMessageOfManyLongBlocksIsReadAsItsEnds(t *testing.T) {
	block := strings.Repeat("key=value password=Zq9vLm2Kx7Pw ", 60000/32)
	var blocks []string
	for i := 0; i < 50; i++ {
		blocks = append(blocks, `{"type":"text","text":"`+block+`"}`)
	}
	for _, role := range []string{"user", "assistant"} {
		tr := readEntries([]byte(`[{"type":"message","id":"m","timestamp":"2026-02-12T14:30:00Z","message":{"role":"`+role+`","content":[`+strings.Join(blocks, ",")+`]}}]`), 0)
		got := tr.Entries[0].Text
		require.True(t, len(got) < store.MaxRead+4096, "%s: %d bytes", role, len(got))
		require.NotContains(t, got, "Zq9vLm2Kx7Pw")
		require.True(t, tr.Entries[0].Tokens > 50*60000/4-1000, "%s: every block counted: %d", role, tr.Entries[0].Tokens)
	}
}
