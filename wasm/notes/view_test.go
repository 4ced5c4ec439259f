package notes

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/redact"
)

// Issue 25, item 10: what is injected hides what search hides. Search reads
// an entry's lines as one text, so the view does too: a value on a
// continuation line, after its label on the line before, is a secret.
func TestViewHidesInAnEntryWhatSearchHides(t *testing.T) {
	for _, tc := range []struct{ name, src, view string }{
		{"a label, its value on the next line",
			"## Db\n- staging db password:\n  hunter2x9\n- Use pgbouncer\n",
			"## Db\n- staging db password:\n  [REDACTED:secret]\n- Use pgbouncer\n"},
		{"a sentence broken before its value",
			"- my password is\n  hunter2x9, keep it safe\n",
			"- my password is\n  [REDACTED:secret], keep it safe\n"},
		{"a passphrase across lines",
			"- passphrase: correct horse\n  battery staple\n",
			"- passphrase: [REDACTED:secret]\n  [REDACTED:secret]\n"},
		{"a paragraph",
			"Deploy notes. The admin password is\nhunter2x9.\n",
			"Deploy notes. The admin password is\n[REDACTED:secret].\n"},
		{"a key in continuation lines keeps every line",
			"- deploy key:\n  -----BEGIN RSA PRIVATE KEY-----\n  MIIEowIBAAKCAQEAexample0123\n  -----END RSA PRIVATE KEY-----\n- next\n",
			"- deploy key:\n  [REDACTED:private-key]\n  [REDACTED:private-key]\n  [REDACTED:private-key]\n- next\n"},
		{"CRLF line ends stay",
			"- db password:\r\n  hunter2x9\r\n",
			"- db password:\r\n  [REDACTED:secret]\r\n"},
		{"a label, its value in a nested bullet",
			"- db password:\n  - Hunter2Hunter2xyz\n- api password\n  * Hunter4Hunter4xyz\n",
			"- db password:\n  - [REDACTED:secret]\n- api password\n  * [REDACTED:secret]\n"},
		{"a nested bullet under a BOM and CRLF",
			"\ufeff- db password:\r\n  1. Hunter2Hunter2xyz\r\n",
			"\ufeff- db password:\r\n  1. [REDACTED:secret]\r\n"},
		{"nested bullets about a password stay",
			"- the password policy:\n  - rotated every 90 days\n",
			"- the password policy:\n  - rotated every 90 days\n"},
		{"prose about a password across lines stays",
			"- the password is\n  rotated every 90 days\n",
			"- the password is\n  rotated every 90 days\n"},
		{"a token wrapped inside its word",
			"- push with ghp_abcdefghijklmnop\n  qrstuvwxyz0123456789 from CI\n- next\n",
			"- push with [REDACTED:github-token]\n  [REDACTED:github-token] from CI\n- next\n"},
		{"a key wrapped in a nested bullet, CRLF",
			"- aws:\r\n  - AKIAIOSFOD\r\n    NN7EXAMPLE\r\n",
			"- aws:\r\n  - [REDACTED:aws-key]\r\n    [REDACTED:aws-key]\r\n"},
		{"a token wrapped over three lines",
			"- sk-ant-api03-abcdefghij\n  klmnopqrstuvwx\n  yz0123456789\n",
			"- [REDACTED:api-key]\n  [REDACTED:api-key]\n  [REDACTED:api-key]\n"},
		{"a fenced block with its language keeps its words (h-v70 B6)",
			"# Notes\n\n```groovy\n    storePassword \"Fg9xQm2zz\"\n```\n",
			"# Notes\n\n```groovy\n    storePassword \"[REDACTED:secret]\"\n```\n"},
		{"a numbered line in a paragraph (h-v70 B1)",
			"Release signing:\n1. DB_PASSWORD 'Li7xQm2zz'\n",
			"Release signing:\n1. DB_PASSWORD '[REDACTED:secret]'\n"},
		{"words at a break stay words",
			"- the CI token lives in ghp\n  vault under deploy\n- key rotation2024\n  notes\n",
			"- the CI token lives in ghp\n  vault under deploy\n- key rotation2024\n  notes\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			view, pages := readView("project", []byte(tc.src), nil)
			require.Equal(t, tc.view, string(view))
			for _, p := range pages {
				require.False(t, redact.Contains(p.Text), "page %d's text, as search reads it, holds a secret: %q", p.Line, p.Text)
			}
		})
	}
}

// Every secret of the corpus, in a bullet broken across lines at each of
// its blanks: no page of the view holds it as search reads it, and the
// view's pages are the file's, line for line (what Forget relies on).
func TestViewOfEntriesBrokenAcrossLinesHoldsNoSecret(t *testing.T) {
	data, err := os.ReadFile("../../testdata/secrets/secrets.jsonl")
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c struct{ Text string }
		require.NoError(t, json.Unmarshal([]byte(line), &c))
		if strings.Contains(c.Text, "\n") {
			continue
		}
		for i := 0; i < len(c.Text); i++ {
			if c.Text[i] != ' ' {
				continue
			}
			src := "## Notes\n- " + c.Text[:i] + "\n  " + c.Text[i+1:] + "\n- Next entry\n"
			view, pages := readView("project", []byte(src), nil)
			for _, p := range pages {
				require.False(t, redact.Contains(p.Text), "%q: page %d holds a secret in the view %q", src, p.Line, view)
			}
			raw := parse("project", []byte(src))
			require.Equal(t, len(raw), len(pages), "%q: the view %q has other pages", src, view)
			for k := range raw {
				require.True(t, raw[k].Line == pages[k].Line && raw[k].Lines == pages[k].Lines && raw[k].Kind == pages[k].Kind,
					"%q: page %d of the view %q is not the file's", src, k, view)
			}
		}
	}
}

// Every token and key of the corpus wrapped inside its word, at each byte
// between two of a token's: neither part stays in the view.
func TestViewOfTokensWrappedInsideTheirWordHoldsNoSecret(t *testing.T) {
	data, err := os.ReadFile("../../testdata/secrets/secrets.jsonl")
	require.NoError(t, err)
	tokenByte := func(c byte) bool { return isTokenByte(c) }
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var c struct{ Kind, Text, Secret string }
		require.NoError(t, json.Unmarshal([]byte(line), &c))
		if c.Kind == "secret" || strings.ContainsAny(c.Text, "\n\u200b\u200c\u200d") {
			continue
		}
		at := strings.Index(c.Text, c.Secret)
		for k := at + 1; k < at+len(c.Secret); k++ {
			if !tokenByte(c.Text[k-1]) || !tokenByte(c.Text[k]) {
				continue
			}
			src := "## Notes\n- " + c.Text[:k] + "\n  " + c.Text[k:] + "\n- Next entry\n"
			view, _ := readView("project", []byte(src), nil)
			lines := strings.Split(string(view), "\n")
			require.False(t, strings.HasSuffix(lines[1], c.Text[at:k]) || strings.HasPrefix(lines[2], "  "+c.Text[k:at+len(c.Secret)]),
				"%q: a part of the %s stays in the view %q", src, c.Kind, view)
		}
	}
}

// FuzzView: any memory file's view keeps its line count, and no page of it
// holds what redaction finds, read as search reads it.
func FuzzView(f *testing.F) {
	for _, s := range []string{
		"## Db\n- staging db password:\n  hunter2x9\n",
		"- deploy key:\n  -----BEGIN RSA PRIVATE KEY-----\n  MIIE\n  -----END RSA PRIVATE KEY-----\n",
		"<!-- password=abc-->\n- x\n",
		"\ufeff- token:\r\n  ghp_abcdefghijklmnopqrstuvwxyz0123456789\r\n",
		"```sh\nmysql -u root\n  -pS3cret\n```\n",
		"- push with ghp_abcdefghijklmnop\r\n  qrstuvwxyz0123456789\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		view, pages := readView("project", src, nil)
		require.Equal(t, strings.Count(string(src), "\n"), strings.Count(string(view), "\n"), "lines of %q", src)
		for _, p := range pages {
			require.False(t, redact.Contains(p.Text), "%q: page %d holds a secret in the view %q", src, p.Line, view)
		}
	})
}
