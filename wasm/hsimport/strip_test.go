package hsimport

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestStripRemovesEveryBlockPiMemoryInjects(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"no block", "plain text", "plain text"},
		{"a recall block", "fix it\n\n<pi-memory-recall>\n- uses Go\n</pi-memory-recall>", "fix it\n\n"},
		{"any name", "a<pi-memory-decisions>x</pi-memory-decisions>b<pi-memory-notes_2>y</pi-memory-notes_2>c", "abc"},
		{"the observations block", "a<!-- pi-memory:observations -->\n* 🔴 x\n<!-- /pi-memory:observations -->b", "ab"},
		{"both kinds", "<!-- pi-memory:observations -->o<!-- /pi-memory:observations --><pi-memory-recall>r</pi-memory-recall>kept", "kept"},
		{"an unclosed block runs to the end", "keep <pi-memory-recall>\n- half a memory", "keep "},
		{"an unclosed observations block", "keep <!-- pi-memory:observations -->\n* x", "keep "},
		{"a closer of another name does not close", "a<pi-memory-recall>x</pi-memory-notes>y", "a"},
		{"the prefix in prose is not a tag", "the <pi-memory- prefix and <pi-memory-x y> are words", "the <pi-memory- prefix and <pi-memory-x y> are words"},
		{"a tag after prose that looked like one", "<pi-memory- then <pi-memory-recall>x</pi-memory-recall>!", "<pi-memory- then !"},
		{"a tag that removing a block makes", "<pi-memory-<pi-memory-x>y</pi-memory-x>recall>recalled</pi-memory-recall>kept", "kept"},
		{"a lone closer stays", "a</pi-memory-recall>b", "a</pi-memory-recall>b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, strip(tc.in))
		})
	}
}
