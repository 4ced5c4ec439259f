package notes

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// FuzzParse: any bytes parse without panicking into pages that cover the
// file exactly, line for line, with clean texts, unique ids, and forms that
// are single valid UTF-8 lines within summaryMax and never grow as fidelity
// drops (checkPages); a parser reused from one input to the next gives the
// same pages.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"# Memory\n\n## Build\n- Run `make wasm` before testing the extension\n- [Build quirks](build.md) — sccache breaks -Werror\n\n## Style\n- Use tabs in Go files\n  and in Makefiles\n",
		"# Project memory\r\n\r\n## Notes\r\n- Use pnpm, not npm\r\n* [API](docs/api.md#auth) auth flow\r\n1. first\r\n2) second\r\n",
		"<!-- pi-memory: the agent reads this file on every turn -->\n# Memory\n\n```sh\n# not a heading\n- not a bullet\n```\n\n~~~\nunclosed\n",
		"- parent\n  - child\n\n    deeper\nlazy line\n---\n* * *\nTitle\n===\n| a | b |\n|---|---|\n",
		"\n\n   \n- caf\xe9 \xff\xfe\n# \xc3\n[x](a.md)\r",
		"- build:\n  ```\n# inside\n  ```\n<!--\nopen comment\n",
		"-\n+ \n1.\n#\n######\n####### seven\n    # indented code\n",
	} {
		f.Add([]byte(s))
	}
	// One parser for every input, as a session re-parses its index: what it
	// gives must not depend on the file it parsed before.
	var ps parser
	var reused []page
	f.Fuzz(func(t *testing.T, src []byte) {
		pages := parse("project", src)
		checkPages(t, string(src), pages)
		reused = ps.parse(reused, "project", src)
		require.True(t, samePages(pages, reused), "a reused Parser gave\n%+v\nParse gave\n%+v", reused, pages)
	})
}
