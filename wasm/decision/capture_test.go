package decision

import (
	"testing"

	"strings"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/store"
)

func TestCandidatesComeFromWhatThePersonTyped(t *testing.T) {
	prompt := "Please refactor the auth module.\n" +
		"Decision: Use pnpm for package management\n" +
		"  - decision : Never commit generated files\n" +
		"From now on we squash-merge every PR. Can you check CI?\n" +
		"> Decision: quoted text is not mine\n" +
		"```\nDecision: inside a code fence\n```\n" +
		"D-2026-02-27-0001 | Use PostgreSQL | #db\n" +
		"Decision: x\n"
	got := candidates(prompt)
	var texts []string
	for _, c := range got {
		texts = append(texts, c.Text)
	}
	require.Equal(t, []string{"Use pnpm for package management", "Never commit generated files", "From now on we squash-merge every PR."}, texts, "candidates")
	require.Equal(t, true, got[0].Explicit, "explicit")
	require.Equal(t, 0.8, got[2].Score, "rule score")
}

func TestScoreSeparatesDecisionsFromTasksAndQuestions(t *testing.T) {
	tests := []struct {
		s    string
		want float64
	}{
		{"From now on we squash-merge every PR.", 0.8},
		{"Always run go vet before committing", 0.7},
		{"Let's use Vitest instead of Jest", 0.7},
		{"Use zod for validation", 0.4},
		{"Can you always run the tests?", 0},
		{"Can you fix the login bug?", 0},
		{"Fix the login bug", 0},
		{"Users never see this page", 0},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, score(tt.s), tt.s)
	}
}

func TestUnsavedNoticeQuotesEveryCandidateAndSaysHowToKeepThem(t *testing.T) {
	tests := []struct {
		cands []candidate
		want  string
	}{
		{[]candidate{{Text: "Use pnpm"}},
			`1 decision candidate was not saved, because confirming needs a UI: "Use pnpm". Add it with /decision add, or set autoCapture.confirm to false.`},
		{[]candidate{{Text: "Use pnpm"}, {Text: `Say "hi" first`}},
			`2 decision candidates were not saved, because confirming needs a UI: "Use pnpm", "Say \"hi\" first". Add it with /decision add, or set autoCapture.confirm to false.`},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, unsavedNotice(tt.cands))
	}
}

func TestCandidatesScoreExplicitLinesOneAndOtherSentencesByRule(t *testing.T) {
	tests := []struct {
		prompt string
		want   []candidate
	}{
		{"Decision: Use pnpm\nFrom now on we run tests before pushing.",
			[]candidate{{Text: "Use pnpm", Score: 1, Explicit: true}, {Text: "From now on we run tests before pushing.", Score: 0.8}}},
		{"Can you fix the login bug?", nil},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, candidates(tt.prompt), tt.prompt)
	}
}

// h-v94 d1: a prompt over store.MaxRead is read as whole lines of its ends:
// no line the cut went through is a candidate, and its end's lines are read
// only when no code block could be open there.
func TestALongPromptIsCapturedFromWholeLines(t *testing.T) {
	pad := func(n int) string { return strings.Repeat("2026-11-20 INFO request status=200\n", n/35+1) }
	quoteJSON := func(s string) string { return string(jsonw.String(nil, s)) }
	texts := func(cs []candidate) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Text)
		}
		return out
	}
	cut := store.MaxRead * 2 / 3
	for k := -60; k <= 0; k += 7 {
		p := pad(cut + 200)[:cut+k] + "\nDecision: use postgres for the main storage layer and nothing else\n" + pad(200000) + "the vendor said that the Decision: drop the users table every night\nDecision: Use pnpm for package management\n"
		got := texts(candidates(promptLines(quoteJSON(p))))
		require.Equal(t, []string{"Use pnpm for package management"}, got, "cut at %d", k)
	}
	// A code block open at the head's end, or opened or closed in the
	// middle: the end's lines are not read.
	p := pad(1000) + "```\n" + pad(200000) + "```\nDecision: Use pnpm for package management\n"
	require.Equal(t, 0, len(candidates(promptLines(quoteJSON(p)))))
	p = pad(100000) + "```\nx\n```\n" + pad(100000) + "Decision: Use pnpm for package management\n"
	require.Equal(t, 0, len(candidates(promptLines(quoteJSON(p)))))
}
