package decision

import "testing"

func TestCandidatesComeFromWhatThePersonTyped(t *testing.T) {
	prompt := "Please refactor the auth module.\n" +
		"Decision: Use pnpm for package management\n" +
		"  - decision : Never commit generated files\n" +
		"From now on we squash-merge every PR. Can you check CI?\n" +
		"> Decision: quoted text is not mine\n" +
		"```\nDecision: inside a code fence\n```\n" +
		"D-2026-02-27-0001 | Use PostgreSQL | #db\n" +
		"Decision: x\n"
	got := Candidates(prompt)
	var texts []string
	for _, c := range got {
		texts = append(texts, c.Text)
	}
	eq(t, texts, []string{"Use pnpm for package management", "Never commit generated files", "From now on we squash-merge every PR."}, "candidates")
	eq(t, got[0].Explicit, true, "explicit")
	eq(t, got[2].Score, 0.8, "rule score")
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
		{"Fix the login bug", 0},
		{"Users never see this page", 0},
	}
	for _, tt := range tests {
		eq(t, Score(tt.s), tt.want, tt.s)
	}
}
