package hsimport

import (
	"github.com/pi-memory/pi-memory/wasm/redact"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestParseReadsTheHeader(t *testing.T) {
	s := mustParse(t, fixture(t, "0195f3a2"))
	require.Equal(t, "0195f3a2-7c1e-7d4b-9a55-2f8e1c0b6d11", s.ID)
	require.Equal(t, "/w/app", s.Cwd)
	require.Equal(t, 3, s.Version)
	require.Equal(t, int64(1795165200000), s.Start) // 2026-11-20T09:00:00Z
}

func TestParseKeepsOnlyTheCurrentBranchAndItsSummaryOfTheOneLeft(t *testing.T) {
	s := mustParse(t, fixture(t, "0195f3a2"))
	require.Equal(t, []string{
		"User: We need a cache for the session store. What are the options?",
		"Assistant: Two options fit: Redis (a server to run) or SQLite (a file beside the app).",
		"Summary of a branch left earlier: Tried Redis: rejected because CI has no Redis server.",
		"User: Use SQLite for the cache instead.",
		"Assistant: I'll add it to the store.",
		`Tool call: edit {"path":"store/cache.go","oldText":"// cache","newText":"db, err := sql.Open(\"sqlite\", path)"}`,
		"Tool result: edit: Edited store/cache.go",
		"Assistant: The cache now uses SQLite in store/cache.go.",
	}, texts(s))
	require.Equal(t, 6, s.Messages) // 2 user, 3 assistant, 1 tool result
	require.Equal(t, 12, s.Entries) // the header is not an entry
	require.Equal(t, 10, s.Branch)  // "Try Redis first." and its answer are off the branch
	require.NotContains(t, s.Content(), "Try Redis first")
	require.NotContains(t, s.Content(), "Weigh Redis") // thinking is never sent
}

func TestParseReadsTheWholeBranchOfACompactedSessionButNotTheCompactionSummary(t *testing.T) {
	s := mustParse(t, fixture(t, "0195f3b0"))
	c := s.Content()
	require.Contains(t, c, "User: Run the tests and tell me what fails.") // before the compaction
	require.Contains(t, c, "TestCacheExpiry passes.")                     // after it
	require.NotContains(t, c, "## Goal")                                  // pi's digest of what is sent in full
	require.Contains(t, c, "Tool result: bash (error): --- FAIL: TestCacheExpiry")
}

func TestParseNeverSendsWhatPiMemoryInjected(t *testing.T) {
	s := mustParse(t, fixture(t, "0195f3b0"))
	c := s.Content()
	for _, ours := range []string{"pi-memory", "The cache uses SQLite", "[project]", "🔴", "observations"} {
		require.NotContains(t, c, ours)
	}
	require.Contains(t, c, "User: Fix the expiry check.")
	require.Equal(t, 1, s.Omitted) // the custom message pi-memory-notice
}

func TestParseRedactsSecretsInEveryPartOfTheConversation(t *testing.T) {
	data := fixture(t, "0195f3c4")
	s := mustParse(t, data)
	c := s.Content()
	for _, secret := range []string{
		"ghp_EXAMPLE0123456789abcdefEXAMPLE012345", // the user's text
		"s3cretEXAMPLEpw", "AKIAIOSFODNN7EXAMPLE",  // a tool result
		"EXAMPLEtok3n0123456789abcdef", // a shell command
	} {
		require.True(t, strings.Contains(string(data), secret), "the fixture holds %s", secret)
		require.NotContains(t, c, secret)
	}
	require.Contains(t, c, "[REDACTED:github-token]")
	require.Contains(t, c, "postgres://deploy:[REDACTED:url-password]@db.internal:5432/app")
	require.Contains(t, c, "User ran: `curl -H 'Authorization: Bearer [REDACTED:bearer]' https://deploy.example.com/status` (exit 0)")
	require.Equal(t, 4, s.Redacted)
}

func TestParseSkipsAndCountsCorruptLines(t *testing.T) {
	s := mustParse(t, fixture(t, "0195f3d8"))
	require.Equal(t, []int{3, 5}, s.Corrupt) // a line cut in the middle, and the torn last line
	require.Equal(t, []string{
		"User: Rename the package to libcore.",
		"Assistant: Renamed the package to libcore in go.mod and every import.",
	}, texts(s))
}

func TestParseAcceptsAByteOrderMarkAndCRLF(t *testing.T) {
	data := fixture(t, "0195f3ec")
	require.True(t, strings.HasPrefix(string(data), "\uFEFF") && strings.Contains(string(data), "\r\n"), "the fixture has a BOM and CRLF")
	s := mustParse(t, data)
	require.Equal(t, "0195f3ec-4444-7000-8111-000000000005", s.ID)
	require.Equal(t, []string{"User: Which Go version does the library need?", "Assistant: Go 1.25 or newer: go.mod says go 1.25."}, texts(s))
	require.Equal(t, 0, len(s.Corrupt))
}

func TestParseRefusesAFileThatIsNotASession(t *testing.T) {
	tests := []struct {
		name, data, why string
	}{
		{"empty", "", "is empty"},
		{"blank lines", "\n  \r\n\n", "is empty"},
		{"a BOM alone", "\uFEFF", "is empty"},
		{"not JSON", "hello\n" + header, "line 1 is not JSON"},
		{"an entry first", userEntry("a", "", "hi"), `line 1 is not a session header (its type is "message"`},
		{"the header later", "\n\n" + `{"type":"model_change"}` + "\n" + header, `line 3 is not a session header`},
		{"no id", `{"type":"session","version":3,"timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w"}`, "has no id"},
		{"a blank id", `{"type":"session","version":3,"id":"  ","cwd":"/w"}`, "has no id"},
		{"a newer version", `{"type":"session","version":4,"id":"s","cwd":"/w"}`, "newer pi (session version 4; this import reads 1 to 3)"},
		{"an array", `[{"type":"session","id":"s"}]`, "is not a session header"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.data), Limits{})
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.why)
		})
	}
	_, err := Parse(fixture(t, "notes.jsonl"), Limits{})
	require.Error(t, err)
}

func TestParseWalksFromTheLastEntryUpThroughParents(t *testing.T) {
	tests := []struct {
		name   string
		lines  []string
		want   []string
		broken bool
	}{
		{"a chain", []string{userEntry("a", "", "one"), assistantEntry("b", "a", "two")},
			[]string{"User: one", "Assistant: two"}, false},
		{"the leaf is on an older branch", []string{
			userEntry("a", "", "one"), assistantEntry("b", "a", "two"),
			userEntry("c", "b", "left"), assistantEntry("d", "c", "left too"),
			userEntry("e", "b", "kept")},
			[]string{"User: one", "Assistant: two", "User: kept"}, false},
		{"parents written after their children", []string{assistantEntry("b", "a", "two"), userEntry("a", "", "one"), userEntry("c", "b", "three")},
			[]string{"User: one", "Assistant: two", "User: three"}, false},
		{"a parent the file lacks", []string{userEntry("a", "", "gone"), assistantEntry("b", "x", "after a hole"), userEntry("c", "b", "last")},
			[]string{"Assistant: after a hole", "User: last"}, true},
		{"a loop", []string{userEntry("a", "b", "one"), assistantEntry("b", "a", "two")},
			[]string{"User: one", "Assistant: two"}, true},
		{"an entry that is its own parent", []string{userEntry("a", "a", "self")},
			[]string{"User: self"}, true},
		{"a label as the leaf", []string{userEntry("a", "", "one"), `{"type":"label","id":"l","parentId":"a","targetId":"a","label":"x"}`},
			[]string{"User: one"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, session(append([]string{header}, tc.lines...)...))
			require.Equal(t, tc.want, texts(s))
			require.Equal(t, tc.broken, s.Broken)
		})
	}
}

func TestParseReadsAVersion1FileInOrder(t *testing.T) {
	s := mustParse(t, session(
		`{"type":"session","id":"old","timestamp":"2025-01-02T03:04:05.000Z","cwd":"/w"}`,
		`{"type":"message","timestamp":"2025-01-02T03:04:06.000Z","message":{"role":"user","content":"first"}}`,
		`{"type":"message","timestamp":"2025-01-02T03:04:07.000Z","message":{"role":"hookMessage","customType":"x","content":"an extension's"}}`,
		`{"type":"message","timestamp":"2025-01-02T03:04:08.000Z","message":{"role":"assistant","content":[{"type":"text","text":"second"}]}}`,
	))
	require.Equal(t, 1, s.Version)
	require.Equal(t, []string{"User: first", "Assistant: second"}, texts(s))
	require.Equal(t, 1, s.Omitted)
}

func TestParseSendsWhatTheModelSawAfterAContextEdit(t *testing.T) {
	s := mustParse(t, session(header,
		userEntry("a", "", "my huge paste"),
		assistantEntry("b", "a", "noted"),
		userEntry("c", "b", "drop that"),
		`{"type":"context_edit","id":"d","parentId":"c","targetId":"a","replacement":{"content":"(paste removed)"}}`,
		`{"type":"context_edit","id":"e","parentId":"d","targetId":"b","replacement":null}`,
	))
	require.Equal(t, []string{"User: (paste removed)", "User: drop that"}, texts(s))
	require.Equal(t, 1, s.Omitted)
}

func TestParseKeepsWhatIsConversationAndCountsWhatItLeavesOut(t *testing.T) {
	tests := []struct {
		name    string
		entry   string
		want    []string
		omitted int
	}{
		{"an image in a user message", `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":[{"type":"text","text":"see"},{"type":"image","data":"AAAA","mimeType":"image/png"}]}}`,
			[]string{"User: see\n[image]"}, 0},
		{"an aborted reply with nothing in it", `{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":[],"stopReason":"aborted","errorMessage":"aborted"}}`,
			nil, 1},
		{"a user message holding only our block", `{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"<pi-memory-recall>\n- x\n</pi-memory-recall>"}}`,
			nil, 1},
		{"a shell command kept from the model", `{"type":"message","id":"a","parentId":null,"message":{"role":"bashExecution","command":"cat secrets","output":"x","exitCode":0,"excludeFromContext":true}}`,
			nil, 1},
		{"a cancelled shell command", `{"type":"message","id":"a","parentId":null,"message":{"role":"bashExecution","command":"make\nall","output":"","cancelled":true}}`,
			[]string{"User ran: `make all` (cancelled)"}, 0},
		{"a heredoc's heading names the values below it, folded or not (h-v94 c10)", `{"type":"message","id":"a","parentId":null,"message":{"role":"bashExecution","command":"cat > notes.md <<'EOF'\n## Passwords\n\n- prod: Zq9vLm2Kx7Pw\nEOF","output":"","exitCode":0}}`,
			[]string{"User ran: `cat > notes.md <<'EOF' ## Passwords - prod: [REDACTED:secret] EOF` (exit 0)"}, 0},
		{"a table's header names its column, folded or not (h-v94 c10)", `{"type":"message","id":"a","parentId":null,"message":{"role":"bashExecution","command":"cat > creds.md <<'EOF'\n| host | password |\n|---|---|\n| prod | Mn4bVc6xZl8k |\nEOF","output":"","exitCode":0}}`,
			[]string{"User ran: `cat > creds.md <<'EOF' | host | password | |---|---| | prod | [REDACTED:secret] | EOF` (exit 0)"}, 0},
		{"a tool result whose call is off the branch", `{"type":"message","id":"a","parentId":null,"message":{"role":"toolResult","toolCallId":"zz","toolName":"grep","content":[],"isError":false}}`,
			[]string{"Tool result: grep: (no output)"}, 0},
		{"another extension's message", `{"type":"custom_message","id":"a","parentId":null,"customType":"plan-mode","content":"Plan mode is on","display":true}`,
			nil, 1},
		{"our observations summary", `{"type":"branch_summary","id":"a","parentId":null,"fromId":"x","summary":"Date: Feb 1\n* 🔴 x","details":{"store":"observations"}}`,
			nil, 1},
		{"a compaction", `{"type":"compaction","id":"a","parentId":null,"summary":"digest","firstKeptEntryId":"a","tokensBefore":1}`,
			nil, 0},
		{"a custom entry", `{"type":"custom","id":"a","parentId":null,"customType":"pi-memory-om","data":{"obs":"x"}}`,
			nil, 0},
		{"an entry of a type pi may add later", `{"type":"usage","id":"a","parentId":null,"kind":"cache_warm"}`,
			nil, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, session(header, tc.entry))
			require.Equal(t, tc.want, texts(s))
			require.Equal(t, tc.omitted, s.Omitted)
		})
	}
}

func TestParseCountsMessagesNotTurns(t *testing.T) {
	s := mustParse(t, session(header,
		`{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":[{"type":"text","text":"two calls"},{"type":"toolCall","id":"c1","name":"read","arguments":{"path":"a"}},{"type":"toolCall","id":"c2","name":"read","arguments":{"path":"b"}}]}}`,
	))
	require.Equal(t, 3, len(s.Turns))
	require.Equal(t, 1, s.Messages)
}

func TestParseStartFallsBackToTheFirstEntryTime(t *testing.T) {
	s := mustParse(t, session(`{"type":"session","version":3,"id":"s","timestamp":"yesterday","cwd":"/w"}`, userEntry("a", "", "hi")))
	require.Equal(t, int64(1795165201000), s.Start) // 2026-11-20T09:00:01Z
	s = mustParse(t, session(`{"type":"session","version":3,"id":"s","cwd":"/w"}`))
	require.Equal(t, int64(0), s.Start)
}

func TestParseCapsEachPart(t *testing.T) {
	long := strings.Repeat("x", 5000) + "THE END"
	s, err := Parse(session(header,
		userEntry("a", "", long),
		`{"type":"message","id":"b","parentId":"a","message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"write","arguments":{"path":"a.go","content":"`+strings.Repeat("y", 2000)+`"}}]}}`,
		`{"type":"message","id":"c","parentId":"b","message":{"role":"toolResult","toolCallId":"c","toolName":"write","content":[{"type":"text","text":"START `+strings.Repeat("z", 3000)+` ERROR AT THE END"}]}}`,
	), Limits{TextChars: 1200, ArgChars: 90, ResultChars: 600})
	require.NoError(t, err)
	user, call, result := s.Turns[0].Text, s.Turns[1].Text, s.Turns[2].Text
	require.True(t, len(user) < 1300 && strings.HasSuffix(user, "THE END"), "user text cut to its head and tail: %d bytes", len(user))
	require.Contains(t, user, "characters not sent …]")
	require.True(t, strings.HasPrefix(call, `write {"path":"a.go"`) && len(call) < 200, "call: %q", call)
	require.True(t, strings.HasPrefix(result, "write: START") && strings.HasSuffix(result, "ERROR AT THE END"), "result keeps head and tail: %q", result)
}

func TestShortenNeverSplitsARune(t *testing.T) {
	s := strings.Repeat("é", 100) // two bytes each
	for max := 1; max < 60; max++ {
		out := shorten(s, max)
		require.True(t, strings.ToValidUTF8(out, "?") == out, "max %d: %q", max, out)
	}
	require.Equal(t, "short", shorten("short", 5))
}

func TestParseLeavesOutTheMiddleOfASessionOverItsLimit(t *testing.T) {
	lines := []string{header}
	parent := ""
	for i := 0; i < 100; i++ {
		id := "u" + itoa3(i)
		lines = append(lines, userEntry(id, parent, "question "+itoa3(i)+" "+strings.Repeat("q", 80)))
		parent = id
	}
	s, err := Parse(session(lines...), Limits{SessionChars: 2000})
	require.NoError(t, err)
	c := s.Content()
	require.True(t, len(c) <= 2000+200, "content %d bytes", len(c))
	require.Contains(t, c, "question 000")
	require.Contains(t, c, "question 099")
	require.NotContains(t, c, "question 050")
	require.Contains(t, c, "Not sent: ")
	require.True(t, s.Cut > 50, "cut %d", s.Cut)
	require.Equal(t, 100, s.Messages+s.Cut)
	require.Equal(t, s.Cut, s.Omitted)
}

func itoa3(i int) string {
	return string([]byte{byte('0' + i/100), byte('0' + i/10%10), byte('0' + i%10)})
}

func TestACutThroughASecretKeepsNoneOfIt(t *testing.T) {
	for _, n := range []int{200, 380, 385, 396} { // the value before, across, at and after the cut (at 400 bytes)
		for _, long := range []bool{false, true} { // redacted whole, or only near what is kept
			tail := 100
			if long {
				tail = 20000
			}
			text := strings.Repeat("a", n) + " db password = hunter22x " + strings.Repeat("b", tail)
			s := Session{}
			r := renderer{s: &s}
			out := r.clean(text, 600)
			require.NotContains(t, out, "hunt")
			require.Equal(t, 1, s.Redacted, "n=%d long=%v: %q", n, long, out)
		}
	}
}

// A tool call's arguments are read as their strings say them (h-v93 c1):
// the escaped quotes of a command quoted whole hide no value.
func TestParseRedactsWhatAnArgumentsStringSays(t *testing.T) {
	s := mustParse(t, session(header,
		`{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"export OPENAI_API_KEY=\"Wq8xR2pLa8abcdEFGHijkl\" && echo ok"}}]}}`,
	))
	all := strings.Join(texts(s), "\n")
	require.NotContains(t, all, "Wq8xR2pLa8abcdEFGHijkl")
	require.Contains(t, all, "[REDACTED:secret]")
}

// The output of a command that prints a secret bare is withheld (h-v93 c5).
func TestParseWithholdsWhatASecretReadingCommandPrints(t *testing.T) {
	s := mustParse(t, session(header,
		`{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"gcloud secrets versions access latest --secret=db"}}]}}`,
		`{"type":"message","id":"b","parentId":"a","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"Xk9Lm2Qz7Wv4"}]}}`,
	))
	all := strings.Join(texts(s), "\n")
	require.NotContains(t, all, "Xk9Lm2Qz7Wv4")
	require.Contains(t, all, redact.Withheld)
}
