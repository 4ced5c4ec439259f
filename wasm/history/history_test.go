package history

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/observe"
)

const header = `{"type":"session","version":3,"id":"s1","timestamp":"2026-11-20T09:00:00.000Z","cwd":"/w/app"}`

func TestReadKeepsMessagesAndObservationsWithTheirLines(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  []string // "line kind text"
	}{
		{"a user string", []string{`{"type":"message","id":"a","timestamp":"2026-11-20T09:00:01.000Z","message":{"role":"user","content":"Use tabs"}}`},
			[]string{"2 User Use tabs"}},
		{"assistant text blocks, not thinking or tool calls", []string{
			`{"type":"message","id":"b","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"Done:\n  moved it"},{"type":"toolCall","name":"bash","arguments":{}}]}}`},
			[]string{"2 Assistant Done: moved it"}},
		{"tool results are left out", []string{`{"type":"message","id":"c","message":{"role":"toolResult","content":[{"type":"text","text":"ok"}]}}`}, nil},
		{"injected memory stripped", []string{`{"type":"message","id":"d","message":{"role":"user","content":"fix it\n\n<pi-memory-recall>\n- uses Go\n</pi-memory-recall>"}}`},
			[]string{"2 User fix it"}},
		{"only injected memory: nothing", []string{`{"type":"message","id":"d","message":{"role":"user","content":"<pi-memory-recall>x</pi-memory-recall>"}}`}, nil},
		{"secrets redacted with their lines (the index redacts the line again)", []string{`{"type":"message","id":"e","message":{"role":"user","content":"token ghp_` + strings.Repeat("a", 36) + `"}}`},
			[]string{"2 User token [REDACTED:github-token]"}},
		{"a table's rows are read as lines", []string{`{"type":"message","id":"t","message":{"role":"user","content":"| user | password |\n|---|---|\n| admin | Tabl3Pass! |"}}`},
			[]string{"2 User | user | password | |---|---| | admin | [REDACTED:secret] |"}},
		{"observations once each, without bullet, priority and time", []string{
			`{"type":"custom","id":"f","customType":"pi-memory-om","data":{"v":1,"op":"observe","t":1,"obs":"Date: Nov 20, 2026\n* 🔴 (09:10) User prefers pnpm\n  * -> ran pnpm install"}}`,
			`{"type":"custom","id":"g","customType":"pi-memory-om","data":{"v":1,"op":"reflect","t":2,"obs":"Date: Nov 20, 2026\n* 🔴 (09:10) User prefers pnpm"}}`,
			`{"type":"custom","id":"h","customType":"pi-memory-om","data":{"v":1,"op":"clear","t":3}}`,
			`{"type":"custom","id":"i","customType":"other","data":{"op":"observe","obs":"* secret plan"}}`},
			[]string{"2 obs User prefers pnpm", "2 obs ran pnpm install"}},
		{"a line that is not JSON is skipped", []string{`{torn`, `{"type":"message","id":"a","message":{"role":"user","content":"after"}}`},
			[]string{"3 User after"}},
		// The cut at 8,000 bytes came before redaction: a token it went
		// through kept 33 of its 40 characters, which search showed.
		{"a cut keeps no part of a word", []string{`{"type":"message","id":"a","message":{"role":"user","content":"` + strings.Repeat("x ", 3985) + `abcdefghij1234567890abcdefghijABCDEFGHIJ123456 tail"}}`},
			[]string{"2 User " + strings.TrimSpace(strings.Repeat("x ", 3985))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Read([]byte(header + "\n" + strings.Join(tt.lines, "\n")))
			require.NoError(t, err)
			require.Equal(t, "s1", s.ID)
			require.Equal(t, "/w/app", s.Cwd)
			var got []string
			for _, e := range s.Entries {
				kind := e.Role
				if e.Observation {
					kind = "obs"
				}
				got = append(got, strconv.Itoa(e.Line)+" "+kind+" "+e.Text)
				require.True(t, e.Time > 0, "every entry has a time")
			}
			require.Equal(t, strings.Join(tt.want, "|"), strings.Join(got, "|"))
		})
	}
}

func TestReadRefusesWhatIsNotASessionFile(t *testing.T) {
	for _, in := range []string{"", "\n\n", "not json", `{"type":"message"}`} {
		_, err := Read([]byte(in))
		require.Error(t, err, in)
	}
}

func TestTheObservationCustomTypeIsTheObservationStores(t *testing.T) {
	require.Equal(t, observe.CustomTypeLedger, customObservations)
}

func FuzzRead(f *testing.F) {
	f.Add([]byte(header + "\n" + `{"type":"message","id":"a","message":{"role":"user","content":"Use tabs"}}`))
	f.Add([]byte(header + "\n" + `{"type":"custom","customType":"pi-memory-om","data":{"op":"observe","obs":"* 🔴 (0"}}`))
	f.Add([]byte("\xEF\xBB\xBF" + header))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Read(data)
		if err != nil {
			return
		}
		for _, e := range s.Entries {
			if e.Line < 2 || len(e.Text) > maxText || strings.ContainsAny(e.Text, "\n\t") {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}

// h-v94 c5: a URL's password whose "@host" lies past the first 64 KiB is
// still one, even when private keys before it shrink the kept text under
// what an entry holds.
func TestCleanRedactsWithWhatFollowsItsCut(t *testing.T) {
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEAx7Lm2Zr9KxWq3Tn5Pv8Hj6Gf4Dd2Sa1Qw0Er9Ty8Ui7Op6\n", 42) + "-----END RSA PRIVATE KEY-----\n"
	var b strings.Builder
	b.WriteString("here are the old deploy keys\n")
	for b.Len() < 60<<10 {
		b.WriteString(key)
	}
	b.WriteString("\nand the database is at ")
	for b.Len() < maxRaw-len("postgres://app:Sup3rS3cretPw") {
		b.WriteString("pineapple ")
	}
	s := b.String()[:maxRaw-len("postgres://app:Sup3rS3cretPw")] + "postgres://app:Sup3rS3cretPw@db:5432/app\nmore words"
	got := clean(s)
	require.NotContains(t, got, "Sup3rS3cretPw")
	require.NotContains(t, got, "MIIEow")
}
