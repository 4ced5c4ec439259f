package store

import (
	"encoding/base64"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// pasted is a log of about n bytes, the shape of one pasted into a prompt.
func pasted(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString("2026-11-20T09:00:00 INFO request id=")
		b.WriteString(strings.Repeat("7", i%9+1))
		b.WriteString(" status=200\n")
	}
	return b.String()[:n]
}

func TestBoundedReadsALongTextAsItsEnds(t *testing.T) {
	require.Equal(t, "Fix the login bug", Bounded("Fix the login bug"))
	s := "FIRST " + pasted(8<<20) + " LAST"
	for _, got := range []string{Bounded(s), func() string { g, _ := BoundedRaw(string(jsonw.String(nil, s))); return g }()} {
		require.True(t, len(got) <= MaxRead+100, "read %d bytes of %d", len(got), len(s))
		require.True(t, strings.HasPrefix(got, "FIRST "), "%.40q", got)
		require.True(t, strings.HasSuffix(got, " LAST"), "%.40q", got[len(got)-40:])
		require.Contains(t, got, " bytes not read …]\n")
	}
	got, size := BoundedRaw(string(jsonw.String(nil, s)))
	require.Equal(t, len(s), size, "the whole text is counted")
	require.Equal(t, Bounded(s), got, "read from its JSON as from its text")
	got, size = BoundedRaw(`"short\ntext"`)
	require.Equal(t, "short\ntext", got)
	require.Equal(t, 10, size)
}

// A secret where a cut falls is redacted with its label, at either cut and
// at every offset around it, in the text read and in the JSON read.
func TestBoundedKeepsNoSecretItsCutSeparatedFromItsLabel(t *testing.T) {
	const v = "Vq7Lm2Zr9KxW"
	long := pasted(1 << 20)
	for _, at := range []int{MaxRead * 2 / 3, len(long) - MaxRead/3} {
		for k := -24; k <= 24; k++ {
			s := long[:at+k] + "\n  password:\n    " + v + "\n" + long[at+k:]
			got, _ := BoundedRaw(string(jsonw.String(nil, s)))
			require.NotContains(t, got, v, "cut at %d%+d", at, k)
			require.NotContains(t, Bounded(s), v, "cut at %d%+d", at, k)
		}
	}
}

// h-v94 b1, c1: a token cut where the raw text was cut never goes out in
// part, even when redactions above it shortened the head (two private keys
// near the top) or the JSON spells the text with escapes.
func TestBoundedKeepsNoPartOfATokenAtItsCut(t *testing.T) {
	const token = "ghp_sUhdYiP5RtbVNim3EQhwSlZ7n01puK82kVHl"
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEAx7Lm2Zr9KxWq3Tn5Pv8Hj6Gf4Dd2Sa1Qw0Er9Ty8Ui7Op6\n", 42) + "-----END RSA PRIVATE KEY-----\n"
	for _, lead := range []string{key + key, strings.Repeat("\x01\x02 ", 9000)} {
		for at := MaxRead*2/3 - 6000; at < MaxRead*2/3+4200; at += 97 {
			s := lead + pasted(at) + " the deploy key " + token + " " + pasted(MaxRead)
			got, _ := BoundedRaw(string(jsonw.String(nil, s)))
			for k := 8; k <= len(token); k++ {
				if strings.Contains(got, token[:k]+"\n[…") || strings.Contains(got, token[:k]+" ") || strings.HasSuffix(strings.SplitN(got, "\n[…", 2)[0], token[:k]) {
					t.Fatalf("at %d: %d characters of the token kept", at, k)
				}
			}
		}
	}
}

// h-v94 c3: a heading or a table header in the cut-away middle still names
// the entries of the tail below it, read from the text and from its JSON.
func TestBoundedTailKeepsWhatHeadsItInTheMiddle(t *testing.T) {
	var list, table strings.Builder
	var head strings.Builder
	head.WriteString(pasted(60<<10) + "\n# Ops\n\n- Credentials:\n")
	list.WriteString(pasted(60<<10) + "\n# Ops\n\n## Passwords\n\n")
	table.WriteString(pasted(60<<10) + "\n## Hosts\n\n| host | password |\n|---|---|\n")
	for i := 0; i < 4000; i++ {
		fmt.Fprintf(&list, "- host-%d: Pw%06dxQz!\n", i, i)
		fmt.Fprintf(&table, "| host-%d | Pw%06dxQz! |\n", i, i)
		fmt.Fprintf(&head, "  - host-%d: Pw%06dxQz!\n", i, i)
	}
	for _, s := range []string{list.String(), table.String(), head.String()} {
		raw, _ := BoundedRaw(string(jsonw.String(nil, s)))
		for _, got := range []string{Bounded(s), raw} {
			_, tail, _ := strings.Cut(got, "not read …]\n")
			require.True(t, strings.Contains(tail, "host-3999") && strings.Contains(tail, "[REDACTED:secret]"), "%.200q", tail)
			require.NotContains(t, got, "xQz!", "a password kept bare")
		}
	}
}

func TestHeads(t *testing.T) {
	for _, c := range []struct{ name, above, want string }{
		{"nothing heads it", "some text\nmore", ""},
		{"the last heading", "# A\ntext\n## Passwords\n- a: x\n- b", "# A\n## Passwords\n"},
		{"a deeper one after", "## Passwords\n### prod\n- a: x", "## Passwords\n### prod\n"},
		{"a sibling closes", "## Passwords\n## Notes\n- a", "## Notes\n"},
		{"not a heading", "## Keys\n#include <x>\n#!/bin/sh\n", "## Keys\n"},
		{"the table it starts in", "intro\n| user | password |\n|---|---|\n| a | Pw1!x |\n| b | P", "| user | password |\n|---|---|\n"},
		{"at a row's start", "| user | password |\n| --- | :-: |\n| a | Pw1!x |\n", "| user | password |\n| --- | :-: |\n"},
		{"a table that ended", "| user | password |\n|---|---|\n| a | x |\n\ntext", ""},
		{"a heading over a table", "# Creds\n| k | v |\n|---|---|\n| a", "# Creds\n| k | v |\n|---|---|\n"},
		{"a list head (h-v96 b3)", "intro\n- Credentials:\n  - a: Pw1!x\n  - b: P", "- Credentials:\n"},
		{"a bold line", "**Passwords**\n- a: Pw1!x\n- b", "**Passwords**\n"},
		{"YAML's secrets:", "secrets:\n  db: Db7Pw9Xx\n  api", "secrets:\n"},
		{"a list head an unindented line ended", "- Credentials:\n  - a: x\nThe rest is prose\n- b", ""},
		{"a heading and a list head under it", "## Ops\n- Passwords:\n  - a: x\n  - b", "## Ops\n- Passwords:\n"},
		{"a private key still open (h-v97 b1)", "intro\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNz+/aC1rZXk=\n\nAAAA", "-----BEGIN OPENSSH PRIVATE KEY-----\n"},
		{"one glued to text", "log line x-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: 1\n\nlQdGBGa", "-----BEGIN PGP PRIVATE KEY BLOCK-----\n"},
		{"a key that ended", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nnotes", ""},
		{"a public key", "-----BEGIN PUBLIC KEY-----\nMIIB\nAAAA", ""},
	} {
		require.Equal(t, c.want, redact.Heads(c.above, "\n", nil), c.name)
		raw := string(jsonw.String(nil, c.above))
		require.Equal(t, c.want, redact.Heads(raw[1:len(raw)-1], `\n`, jsonr.Text), c.name+" (JSON)")
	}
}

// h-v95 b2: redaction that shortens the tail's read by more than its window
// (private keys) does not move the tail onto the raw cut, where a label was
// cut from its value.
func TestBoundedTailIsMeasuredAsWrittenNotAsRedacted(t *testing.T) {
	var keys strings.Builder
	for i := 0; i < 5; i++ {
		keys.WriteString("-----BEGIN RSA PRIVATE KEY-----\n" + strings.Repeat("MIIEowIBAAKCAQEAx7Lm2Zr9KxWq3Tn5Pv8Hj6Gf4Dd2Sa1Qw0Er9Ty8Ui7Op6\n", 48) + "-----END RSA PRIVATE KEY-----\n\nnotes\n")
	}
	region := MaxRead/3 + redact.Window
	tail := "ssword: Hunter2xyzQ and more words\n" + keys.String()
	tail += strings.Repeat("tail words ", 5000)[:region-len(tail)]
	s := strings.Repeat("head words ", 20000)[:100000] + "the db pa" + tail
	raw, _ := BoundedRaw(string(jsonw.String(nil, s)))
	for _, got := range []string{Bounded(s), raw} {
		require.NotContains(t, got, "Hunter2xyzQ")
		require.NotContains(t, got, "MIIEow")
	}
}

// redact.Head keeps the first n bytes as written, ending at a blank and
// outside every secret, redacted with what follows them.
func TestHead(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"short text", 100, "short text"},
		{"a password: hunter22x b", 14, "a password:"},
		{"a password: hunter22x b", 21, "a password:"},
		{"a password: hunter22x\nnext line here", 30, "a password: [REDACTED:secret]\nnext"},
		{"token ghp_sUhdYiP5RtbVNim3EQhwSlZ7n01puK82kVHl and more", 20, "token"},
		{"token ghp_sUhdYiP5RtbVNim3EQhwSlZ7n01puK82kVHl and more", 50, "token [REDACTED:github-token] and"},
		{"see postgres://app:Sup3rS3cretPw@db:5432/app now", 30, "see"},
		{"nospacesatallhere", 5, ""},
	} {
		require.Equal(t, c.want, redact.Head(c.s, c.n), "%q %d", c.s, c.n)
	}
}

// keyBody is n random bytes in base64 lines of 64, as a key's armor has
// them.
func keyBody(n int, seed int64) string {
	raw := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(raw)
	b64 := base64.StdEncoding.EncodeToString(raw)
	var body strings.Builder
	for i := 0; i < len(b64); i += 64 {
		body.WriteString(b64[i:min(len(b64), i+64)] + "\n")
	}
	return body.String()
}

// h-v94 c7: an 8192-bit key straddling a cut keeps none of its body: the
// window past a cut is longer than the key.
func TestBoundedKeepsNoPartOfALongKeyAtItsCut(t *testing.T) {
	body := keyBody(4800, 7)
	key := "-----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----\n"
	lines := strings.Split(body, "\n")
	for _, before := range []int{500, 1000, 3000} { // its BEGIN this far before where the tail's read started with a 4 KiB window
		s := pasted(100000) + key + strings.Repeat("word ", 20000)[:MaxRead/3+4096-(len(key)-before)]
		got, _ := BoundedRaw(string(jsonw.String(nil, s)))
		for _, l := range []string{lines[len(lines)-3], lines[len(lines)/2]} {
			require.NotContains(t, got, l, "BEGIN %d before", before)
			require.NotContains(t, Bounded(s), l, "BEGIN %d before", before)
		}
	}
}

// h-v97 b1: a private key longer than the window (a PGP key with subkeys
// is 10–20 KB), its BEGIN line more than Window above the tail's read: the
// tail keeps none of its body. b2: a heading the cut falls in is read
// whole ("## Service pass|words").
func TestBoundedTailReadsAKeyOrAHeadingItsCutFallsIn(t *testing.T) {
	body := keyBody(10000, 9)
	key := "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n" + body + "=Ab3x\n-----END PGP PRIVATE KEY BLOCK-----\n"
	lines := strings.Split(body, "\n")
	region := MaxRead/3 + redact.Window
	for _, into := range []int{500, 2000, len(key) - redact.Window - 500} { // the tail's read starts this far into the key, its END past the window
		s := pasted(100000) + "\n" + key + strings.Repeat("word ", 20000)[:region-(len(key)-into)]
		got, _ := BoundedRaw(string(jsonw.String(nil, s)))
		for _, l := range []string{lines[len(lines)-3], lines[len(lines)-20]} {
			require.NotContains(t, got, l, "%d into the key", into)
			require.NotContains(t, Bounded(s), l, "%d into the key", into)
		}
	}
	var list strings.Builder
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&list, "- admin-%d: Svc%04dAdm!nPw\n", i, i)
	}
	// h-v98 b3: the key indented under YAML's "key: |", quoted, commented.
	for _, form := range []struct{ name, prefix string }{{"yaml", "  "}, {"quote", "> "}, {"comment", "# "}, {"tab", "\t"}} {
		var k strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(key, "\n"), "\n") {
			k.WriteString(form.prefix + l + "  \n")
		}
		fk := "privateKey: |\n" + k.String()
		into := 2000
		s := pasted(100000) + "\n" + fk + strings.Repeat("word ", 20000)[:region-(len(fk)-into)]
		got, _ := BoundedRaw(string(jsonw.String(nil, s)))
		for _, l := range []string{lines[len(lines)-3], lines[len(lines)-20]} {
			require.NotContains(t, got, l, form.name)
			require.NotContains(t, Bounded(s), l, form.name)
		}
	}
	// h-v98 b1, b2: a table's header the read point falls in, and a table
	// of CRLF lines.
	for _, nl := range []string{"\n", "\r\n"} {
		var rows strings.Builder
		for i := 0; i < 2000; i++ {
			fmt.Fprintf(&rows, "| svc-%d | Svc%04dAdm!nPw |%s", i, i, nl)
		}
		header := "| Service | Password |" + nl + "|---|---|" + nl
		for _, split := range []int{3, 12, 20} {
			below := rows.String()
			below = below[len(below)-(region-len(header)+split):]
			below = below[strings.IndexByte(below, '\n')+1:]
			below = "| " + strings.Repeat("x", region-len(header)+split-len(below)-len(nl)-4) + " |" + nl + below
			s := pasted(100000) + "\n" + header + below
			require.Equal(t, 100001+split, len(s)-region)
			got, _ := BoundedRaw(string(jsonw.String(nil, s)))
			for _, g := range []string{Bounded(s), got} {
				require.True(t, strings.Contains(g, "svc-1999"), "split %d", split)
				require.NotContains(t, g, "Adm!nPw", "split %d %q", split, nl)
			}
		}
	}
	const heading = "## Service passwords\n"
	for _, split := range []int{4, 8, 12, 16} {
		// The tail's read starts split bytes into the heading: what is
		// below it is region-split bytes long.
		below := list.String()
		below = below[len(below)-(region-len(heading)+split):]
		below = below[strings.IndexByte(below, '\n')+1:]
		below = strings.Repeat("-", region-len(heading)+split-len(below)-1) + "\n" + below
		s := pasted(100000) + "\n" + heading + below
		require.Equal(t, 100001+split, len(s)-region)
		got, _ := BoundedRaw(string(jsonw.String(nil, s)))
		for _, g := range []string{Bounded(s), got} {
			require.True(t, strings.Contains(g, "admin-1999"), "split %d: %.300q", split, g)
			require.NotContains(t, g, "Adm!nPw", "split %d", split)
		}
	}
}
