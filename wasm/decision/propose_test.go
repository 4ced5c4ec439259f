package decision

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/cmdline"
	"github.com/pi-memory/pi-memory/wasm/registry"
)

// The command decision_propose hands the model without a UI must record
// exactly what was proposed when the person runs it.
func TestTheProposedCommandReadsBackAsTheProposal(t *testing.T) {
	tests := []struct {
		text, reason, supersedes string
		want                     string
	}{
		{"Use pnpm", "", "", `/decision add Use pnpm`},
		{"Use Yarn", "workspaces", "D-2026-03-01-0002", `/decision supersede D-2026-03-01-0002 Use Yarn --reason workspaces`},
		{"Use Yarn", "needs workspaces, it's faster", "", `/decision add Use Yarn --reason "needs workspaces, it's faster"`},
		{`Say "hi" in logs`, "", "", `/decision add "Say \"hi\" in logs"`},
		{`Don't say "hi"`, "", "", `/decision add "Don't say \"hi\""`},
		{`Use x"y`, "", "", `/decision add Use x"y`},
		{`"Quoted" first`, `'single' too`, "", `/decision add "\"Quoted\" first" --reason "'single' too"`},
		{`Paths use C:\tmp`, "", "", `/decision add "Paths use C:\\tmp"`},
		{"Pass -race to go test", "catch races", "", `/decision add --reason "catch races" -- Pass -race to go test`},
		{"Use two  spaces", "", "", `/decision add "Use two  spaces"`},
		{"Use tabs", `a "b" c`, "", `/decision add Use tabs --reason "a \"b\" c"`},
		{"Use tabs", `x"y z`, "", `/decision add Use tabs --reason "x\"y z"`},
		{"Use tabs", "-- is a dash", "", `/decision add Use tabs "--reason=-- is a dash"`},
	}
	cmd, _ := registry.Lookup("decision")
	for _, tt := range tests {
		got := proposeCommand(tt.text, tt.reason, tt.supersedes)
		require.Equal(t, tt.want, got, "proposeCommand(%q, %q, %q)", tt.text, tt.reason, tt.supersedes)
		words, err := cmdline.Split(strings.TrimPrefix(got, "/decision "))
		require.NoError(t, err, got)
		p, err := registry.Parse(cmd, words)
		require.NoError(t, err, got)
		text := p.Args.Text(0)
		if tt.supersedes != "" {
			require.Equal(t, tt.supersedes, p.Args.Words[0], got)
			text = p.Args.Text(1)
		}
		require.Equal(t, tt.text, text, "text of %s", got)
		require.Equal(t, tt.reason, p.Args.Value("reason"), "reason of %s", got)
	}
}

// Whatever the model proposes, the command it is told to have the person
// run records exactly that text and reason (text and reason as the tool
// keeps them: trimmed, on one line).
func FuzzProposeCommand(f *testing.F) {
	f.Add("Use pnpm", "", false)
	f.Add(`"Quoted" -x C:\tmp`, "-- a \"b\" 'c'", true)
	f.Add("a\\", `x"y`, false)
	cmd, _ := registry.Lookup("decision")
	f.Fuzz(func(t *testing.T, text, reason string, supersede bool) {
		text, reason = strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(reason), " ")
		if text == "" {
			return
		}
		sup := ""
		if supersede {
			sup = "D-2026-03-01-0002"
		}
		got := proposeCommand(text, reason, sup)
		words, err := cmdline.Split(strings.TrimPrefix(got, "/decision "))
		require.NoError(t, err, got)
		p, err := registry.Parse(cmd, words)
		require.NoError(t, err, got)
		back := p.Args.Text(0)
		if sup != "" {
			require.Equal(t, sup, p.Args.Words[0], got)
			back = p.Args.Text(1)
		}
		require.Equal(t, text, back, "text of %s", got)
		require.Equal(t, reason, p.Args.Value("reason"), "reason of %s", got)
	})
}

func TestShellCommandIsOneShellWordPerValue(t *testing.T) {
	tests := []struct{ text, reason, supersedes, want string }{
		{"Use pnpm", "", "", `pimem decision add -- 'Use pnpm'`},
		{"pnpm", "", "", `pimem decision add -- pnpm`},
		{"Use Yarn", "it's faster", "D-2026-03-01-0002", `pimem decision supersede D-2026-03-01-0002 --reason 'it'\''s faster' -- 'Use Yarn'`},
		{"-race always", "", "", `pimem decision add -- '-race always'`},
		{"Cost is $5; rm -rf / `x`", "", "", "pimem decision add -- 'Cost is $5; rm -rf / `x`'"},
		{"-x", "-y", "", `pimem decision add --reason '-y' -- '-x'`},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, shellCommand(tt.text, tt.reason, tt.supersedes), tt.text)
	}
}
