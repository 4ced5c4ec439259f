package budget

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestAssembleKeepsTheOrderGivenAndSkipsEmptySections(t *testing.T) {
	tests := []struct {
		name     string
		sections []Section
		want     string
	}{
		{"nothing to inject", nil, ""},
		{"only empty sections", []Section{sec("notes", "", 100), sec("decisions", "", 100)}, ""},
		{"one section starts a fresh paragraph",
			[]Section{sec("notes", "## Memory\n- a\n", 100)},
			"\n\n## Memory\n- a\n"},
		{"later sections follow one blank line",
			[]Section{sec("notes", "## Memory\n- a\n", 100), sec("decisions", "## Decisions\n- D-1\n", 100)},
			"\n\n## Memory\n- a\n\n## Decisions\n- D-1\n"},
		{"Order decides, not the order given",
			[]Section{sec("decisions", "## Decisions\n", 100), sec("notes", "## Memory\n", 100)},
			"\n\n## Memory\n\n## Decisions\n"},
		{"a store Order does not name comes last",
			[]Section{sec("other", "## Other\n", 100), sec("decisions", "## Decisions\n", 100)},
			"\n\n## Decisions\n\n## Other\n"},
		{"an empty first section does not leave a gap",
			[]Section{sec("notes", "", 100), sec("decisions", "## Decisions\n", 100)},
			"\n\n## Decisions\n"},
		{"an empty middle section does not leave a gap",
			[]Section{sec("a", "A\n", 100), sec("b", "", 100), sec("c", "C\n", 100)},
			"\n\nA\n\nC\n"},
		{"a section cut to nothing is skipped like an empty one",
			[]Section{sec("a", "too long for its cap\n", 1), sec("b", "B\n", 100)},
			"\n\nB\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, receipts := Assemble(tt.sections)
			require.Equal(t, tt.want, got, "Assemble")
			// Every section gets a receipt, empty or not, in Order:
			// /memory last lists each store, even one that said nothing.
			want := ordered(tt.sections)
			require.Equal(t, len(want), len(receipts), "receipts, one per section")
			for i, r := range receipts {
				require.True(t, r.Store == want[i].Store && r.Cap == want[i].Cap, "receipt %d = %+v, want store %q cap %d", i, r, want[i].Store, want[i].Cap)
			}
		})
	}
}

// A section's cap is in estimated tokens; it is cut at the last line that
// ends within the cap's bytes (TokenBytes), never inside a line.
func TestASectionIsCutAtALineBoundaryWithinItsCapsBytes(t *testing.T) {
	const text = "## Memory\n- one\n- two\n- three\n" // lines end at 10, 16, 22, 30
	tests := []struct {
		name    string
		text    string
		cap     int
		want    string
		wantCut bool
	}{
		{"well under the cap", text, 100, text, false},
		{"exactly at the cap", text, len(text), text, false},
		{"one byte over drops the last line", text, len(text) - 1, "## Memory\n- one\n- two\n", true},
		{"a cap that ends on a newline keeps that line", text, 22, "## Memory\n- one\n- two\n", true},
		{"a cap one short of a newline drops that line", text, 21, "## Memory\n- one\n", true},
		{"a cap inside the first line keeps nothing", text, 9, "", true},
		{"a zero cap keeps nothing", text, 0, "", true},
		{"a negative cap keeps nothing", text, -1, "", true},
		{"a section without a final newline is kept whole when it fits", "## Memory\n- a", 100, "## Memory\n- a", false},
		{"the unterminated last line goes when cut", "## Memory\n- a\n- bbbb", 16, "## Memory\n- a\n", true},
		{"an empty section under a zero cap is not cut", "", 0, "", false},
		// A cut never splits a multi-byte character: it happens at a newline.
		{"multi-byte text is cut at a newline", "é\nçççç\n", 6, "é\n", true},
		{"a cap of whole tokens: 2 tokens are 8 bytes", "é\nçççç\n", 8, "é\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := fit(tt.text, tt.cap)
			require.True(t, got == tt.want && cut == tt.wantCut, "fit %q cut %v, want %q cut %v", got, cut, tt.want, tt.wantCut)
			require.True(t, tt.cap < 0 || len(got) <= tt.cap, "kept %d bytes over a cap of %d", len(got), tt.cap)
			if tt.cap%4 != 0 || tt.cap < 0 {
				return
			}
			// Through Assemble, the same cap given in tokens.
			all, receipts := Assemble([]Section{sec("notes", tt.text, tt.cap/4)})
			r := receipts[0]
			require.True(t, r.Text == tt.want && r.Cut == tt.wantCut, "receipt text %q cut %v, want %q cut %v", r.Text, r.Cut, tt.want, tt.wantCut)
			wantAll := ""
			if tt.want != "" {
				wantAll = Separator + tt.want
			}
			require.Equal(t, wantAll, all, "Assemble")
		})
	}
}

func TestAssembleCutsOnlyTheSectionThatOverranItsCap(t *testing.T) {
	got, receipts := Assemble([]Section{
		sec("notes", "## Memory\n- a\n- b\n", 4), // 16 bytes: the third line does not fit
		sec("decisions", "## Decisions\n- D-1\n", 25),
	})
	require.Equal(t, "\n\n## Memory\n- a\n\n## Decisions\n- D-1\n", got, "Assemble")
	require.True(t, receipts[0].Cut && !receipts[1].Cut, "Cut = %v, %v; want true, false", receipts[0].Cut, receipts[1].Cut)
}

func TestAssembleReceiptsCountWhatWasInjected(t *testing.T) {
	notes := "## Persistent memory\n- Use pnpm\n"   // 32 bytes
	decisions := strings.Repeat("- D-0001 x\n", 10) // 110 bytes, cut to 55 (5 lines) by a cap of 15 tokens (60 bytes)
	_, receipts := Assemble([]Section{
		sec("notes", notes, 250),
		sec("decisions", decisions, 15),
		sec("other", "", 3),
	})
	want := []Receipt{
		{Store: "notes", Bytes: 32, Tokens: 8, Cap: 250, Text: notes},
		{Store: "decisions", Bytes: 55, Tokens: 14, Cap: 15, Cut: true, Text: decisions[:55]},
		{Store: "other", Bytes: 0, Tokens: 0, Cap: 3},
	}
	require.Equal(t, want, receipts, "receipts")
	// The separators are not any store's bytes: receipts add up to the text
	// minus the blank lines between sections.
	got, _ := Assemble([]Section{sec("notes", notes, 250), sec("decisions", decisions, 15)})
	require.Equal(t, receipts[0].Bytes+receipts[1].Bytes+len(Separator)+1, len(got), "assembled")
}

func TestEstimateTokensIsAQuarterOfTheBytesRoundedUp(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"abcd", 1},
		{"abcde", 2},
		{"## Notes\n", 3},
		{strings.Repeat("x", 4096), 1024},
		{strings.Repeat("x", 4097), 1025},
		{"é", 1},   // 2 bytes: bytes, not characters, are counted
		{"ééé", 2}, // 6 bytes
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, EstimateTokens(tt.s), "EstimateTokens(%q)", tt.s)
	}
}

func TestAssembleGivesTheSameBytesForTheSameSections(t *testing.T) {
	sections := []Section{
		sec("notes", "## Memory\n- a\n- b\n- c\n", 3),
		sec("decisions", "## Decisions\n", 25),
	}
	first, r1 := Assemble(sections)
	for i := 0; i < 3; i++ {
		again, r2 := Assemble(sections)
		require.True(t, again == first && reflect.DeepEqual(r1, r2), "run %d gave %q, first gave %q", i, again, first)
	}
	require.Equal(t, "## Memory\n- a\n- b\n- c\n", sections[0].Text, "Assemble changed its input")
}

func sec(store, text string, cap int) Section { return Section{Store: store, Text: text, Cap: cap} }

func TestAssembleLeavesOutAStoreThatMayNotInjectAndSaysWhy(t *testing.T) {
	got, receipts := Assemble([]Section{
		{Store: "notes", Text: "## Memory\n", Cap: 25, Why: "memory is off for this session"},
		sec("decisions", "## Decisions\n", 25),
	})
	if got != "\n\n## Decisions\n" {
		t.Errorf("Assemble = %q", got)
	}
	if receipts[0].Why == "" || receipts[0].Bytes != 0 || receipts[0].Text != "" {
		t.Errorf("receipt of a store that may not inject: %+v", receipts[0])
	}
}

func TestTokenBytesIsTheInverseOfEstimateTokens(t *testing.T) {
	for _, n := range []int{0, 1, 512, 4096} {
		if got := EstimateTokens(strings.Repeat("x", TokenBytes(n))); got != n {
			t.Errorf("EstimateTokens(TokenBytes(%d) bytes) = %d", n, got)
		}
	}
}

func TestFitKeepsWholeLinesWithinItsCapInTokens(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int // tokens: 4 bytes each
		want string
		cut  bool
	}{
		{"- a\n- b\n", 1, "- a\n", true},
		{"- a\n- b\n", 2, "- a\n- b\n", false},
		{"- aa\n", 1, "", true},
		{"- a\n", -1, "", true},
	} {
		got, cut := Fit(tc.in, tc.max)
		require.Equal(t, tc.want, got, "Fit(%q, %d)", tc.in, tc.max)
		require.Equal(t, tc.cut, cut, "Fit(%q, %d) cut", tc.in, tc.max)
	}
}

// Every block has one place, and the system prompt's order is Blocks'.
func TestEveryBlockHasOnePlaceAndTheSystemPromptFollowsBlocks(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range Blocks {
		require.False(t, seen[b.Store], "%s listed twice", b.Store)
		seen[b.Store] = true
	}
	require.Equal(t, []string{"notes", "decisions"}, Order)
	require.Equal(t, []string{"observations"}, placed(Context))
	require.Equal(t, []string{"hindsight"}, placed(UserMessage))
}
