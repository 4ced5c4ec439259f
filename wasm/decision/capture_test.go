package decision

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
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
