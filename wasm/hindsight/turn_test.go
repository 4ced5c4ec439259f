package hindsight

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/marker"
)

func TestTheRetainToolKeepsRedactedStrippedContentAndContext(t *testing.T) {
	recalled := "\n\n<pi-memory-recall>\nold fact\n</pi-memory-recall>"
	tests := []struct {
		name, content, context string
		want                   turn
		ok                     bool
	}{
		{"content, default context", " Deploys go through make release ", "", turn{Content: "Deploys go through make release", Context: "stated in a pi session in k"}, true},
		{"its own context", "Use Go 1.25", " from the README ", turn{Content: "Use Go 1.25", Context: "from the README"}, true},
		{"recalled memory is stripped from both", "Use Go" + recalled, recalled, turn{Content: "Use Go", Context: "stated in a pi session in k"}, true},
		{"secrets are redacted in both", "token " + secret, "from " + secret, turn{Content: "token [REDACTED:github-token]", Context: "from [REDACTED:github-token]"}, true},
		{"the content is cut", strings.Repeat("a", 600), "", turn{Content: strings.Repeat("a", 500), Context: "stated in a pi session in k"}, true},
		{"the context is cut", "c", strings.Repeat("b", 1200), turn{Content: "c", Context: strings.Repeat("b", 1000)}, true},
		{"no content", "  ", "ctx", turn{}, false},
		{"only recalled memory", recalled, "", turn{}, false},
	}
	for _, tc := range tests {
		got, ok := toolTurn(tc.content, tc.context, "k", 500)
		require.Equal(t, tc.want, got, tc.name)
		require.Equal(t, tc.ok, ok, tc.name)
	}
}

func FuzzToolTurn(f *testing.F) {
	f.Add("Use Go", "", 500)
	f.Add("x <pi-memory-recall>\nold\n</pi-memory-recall> "+secret, "<pi-memory-reflect>", 16000)
	f.Add("é", "\u00a0", 1)
	f.Add("c", "é"+strings.Repeat("\x87", 1200), 0)                      // not UTF-8: cut near the cap all the same
	f.Add("x <pi-memory-recall>\n</pi-memory-recall> old"+secret, "", 0) // a secret glued to a word (CI, 2026-11-27)
	f.Fuzz(func(t *testing.T, content, context string, maxChars int) {
		maxChars = 500 + (maxChars&0x7fffffff)%20000 // retain.maxChars is at least 500
		tr, ok := toolTurn(content, context, "k", maxChars)
		if ok != (strings.TrimSpace(marker.Plain(marker.Strip(content))) != "") {
			t.Fatalf("ok %v for %q", ok, content)
		}
		if !ok {
			if tr != (turn{}) {
				t.Fatalf("nothing to keep, yet %+v", tr)
			}
			return
		}
		// Something is always kept, UTF-8 or not (text.Bytes never cuts to
		// nothing).
		if tr.Content == "" || tr.Context == "" || tr.UserMs != 0 {
			t.Fatalf("%+v", tr)
		}
		if utf8.ValidString(content) && !utf8.ValidString(tr.Content) || utf8.ValidString(context) && !utf8.ValidString(tr.Context) {
			t.Fatalf("a cut inside a character: %q", tr)
		}
		if strings.Contains(tr.Content, secret) || strings.Contains(tr.Context, secret) {
			t.Fatalf("a secret kept: %+v", tr)
		}
	})
}

// A tool result longer than its cap keeps its ends, and each end is
// redacted with what stood around its cut (h-v93 c4): the tail starting
// between "password:" and its value, or the head ending there, keeps no
// value without its label.
func TestACutResultKeepsNoSecretItsCutSeparatedFromItsLabel(t *testing.T) {
	const v = "Vq7Lm2Zr9KxW"
	n := capResult
	for _, s := range []string{
		strings.Repeat("x ", 3000) + "db:\n  password: " + v + " " + strings.Repeat("y", n/3-len(v)-2),
		strings.Repeat("x ", n/3-6) + "password: " + v + " " + strings.Repeat("z ", 3000),
		strings.Repeat("x", 5000) + "\n  password:\n    " + v + "\n" + strings.Repeat("q", n/3-len(v)-2),
	} {
		for k := -8; k <= 8; k++ {
			s := strings.Repeat("w", 8+k) + s
			if got := headTail(s, n); strings.Contains(got, v) {
				t.Fatalf("headTail kept the value: …%q", got[max(0, strings.Index(got, v)-40):])
			}
		}
	}
	if got := headTail("short password: "+v, n); got != "short password: [REDACTED:secret]" {
		t.Fatalf("a result within its cap is redacted whole: %q", got)
	}
}
