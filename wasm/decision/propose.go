package decision

import (
	"strings"
)

// decision_propose's rules: what the person is asked, and the command a
// session without a UI tells the model to have the person run.

// quoteArg is s as it reads back from a command line (cmdline.Split):
// as it is when it splits back to the same words, else in double quotes.
//
//	quoteArg("Use pnpm")      => `Use pnpm`
//	quoteArg(`Say "hi"`)      => `"Say \"hi\""`
//	quoteArg(`C:\tmp`)        => `"C:\\tmp"`
func quoteArg(s string) string {
	plain := s != "" && strings.Join(strings.Fields(s), " ") == s
	for _, w := range strings.Fields(s) {
		if w[0] == '\'' || w[0] == '"' || strings.Contains(w, `\`) {
			plain = false
		}
	}
	if plain {
		return s
	}
	return dquote(s)
}

// dquote is s in double quotes, its backslashes and quotes escaped: a loop
// rather than strings.NewReplacer, whose machinery is large under TinyGo
// for this one use.
func dquote(s string) string {
	b := make([]byte, 0, len(s)+8)
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == '"' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(append(b, '"'))
}

// proposeCommand is the /decision command that records what the model
// proposed, for the person to run. A text with a word that starts with "-"
// goes after "--", so it is never read as a flag.
//
//	proposeCommand("Use pnpm", "", "")                 => `/decision add Use pnpm`
//	proposeCommand("Use Yarn", "workspaces", "D-…-2")  => `/decision supersede D-…-2 Use Yarn --reason workspaces`
//	proposeCommand("Use Yarn", "it's faster", "")      => `/decision add Use Yarn --reason "it's faster"`
//	proposeCommand("Pass -race to go test", "", "")    => `/decision add -- Pass -race to go test`
func proposeCommand(text, reason, supersedes string) string {
	cmd := "/decision add"
	if supersedes != "" {
		cmd = "/decision supersede " + supersedes
	}
	flags := ""
	if reason != "" {
		// A flag's value is one word: quoted unless it is one already.
		v := quoteArg(reason)
		if len(strings.Fields(reason)) > 1 {
			v = dquote(reason)
		}
		flags = " --reason " + v
		if strings.HasPrefix(reason, "-") {
			// Not a flag of its own: the value goes inside the flag's word.
			flags = " " + dquote("--reason="+reason)
		}
	}
	for _, w := range strings.Fields(text) {
		if w[0] == '-' {
			return cmd + flags + " -- " + quoteArg(text)
		}
	}
	return cmd + " " + quoteArg(text) + flags
}

// shellCommand is proposeCommand for a person at a shell, for a session
// outside pi (an MCP client's, mode "mcp"): pimem's words, each value one
// POSIX shell word, the text after "--".
//
//	shellCommand("Use pnpm", "", "")                => `pimem decision add -- 'Use pnpm'`
//	shellCommand("Use Yarn", "it's faster", "D-…-2") => `pimem decision supersede D-…-2 --reason 'it'\''s faster' -- 'Use Yarn'`
func shellCommand(text, reason, supersedes string) string {
	cmd := "pimem decision add"
	if supersedes != "" {
		cmd = "pimem decision supersede " + shellWord(supersedes)
	}
	if reason != "" {
		cmd += " --reason " + shellWord(reason)
	}
	return cmd + " -- " + shellWord(text)
}

// shellWord quotes s as one POSIX shell word: as it is when every byte is
// one a shell leaves alone, else in single quotes (a quote inside as '\”).
func shellWord(s string) string {
	plain := s != ""
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-./:@%+=,", c) >= 0
	}
	if plain && s[0] != '-' {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// proposalMessage is the confirm dialog's text: the proposal, and the
// decision it replaces when it replaces one.
func proposalMessage(p proposal, old *decision) string {
	msg := "The model proposes recording this decision:\n  " + oneLine(p.Text)
	if p.Reason != "" {
		msg += "\nReason: " + oneLine(p.Reason)
	}
	if old != nil {
		msg += "\nIt supersedes " + old.ID + ": " + oneLine(old.Short())
	}
	return msg + "\nRecord it?"
}
