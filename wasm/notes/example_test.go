package notes_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/notes"
)

func ExampleParse() {
	memory := "# Memory\n" +
		"\n" +
		"## Build\n" +
		"- Run `make wasm` before testing the extension,\n" +
		"  or pi loads the stale core from the last build\n" +
		"- [Build quirks](build.md) — sccache breaks -Werror\n" +
		"\n" +
		"```sh\n" +
		"make wasm\n" +
		"pi -e ./dist/extension.js --reload\n" +
		"```\n"
	for _, p := range notes.Parse("project", []byte(memory)) {
		fmt.Printf("%s line %d+%d section %q link %q\n  text:    %q\n", p.Kind, p.Line, p.Lines, p.Section, p.Link, p.Text)
		fmt.Printf("  min:     %s\n", p.Min())
		fmt.Printf("  summary: %q\n", p.Form(notes.Summary, "MEMORY.md"))
		fmt.Printf("  pointer: %q\n", p.Form(notes.PointerForm, "MEMORY.md"))
	}
	// Output:
	// heading line 1+2 section "" link ""
	//   text:    "Memory"
	//   min:     full
	//   summary: "# Memory\n\n"
	//   pointer: "# Memory\n\n"
	// heading line 3+1 section "Build" link ""
	//   text:    "Build"
	//   min:     full
	//   summary: "## Build\n"
	//   pointer: "## Build\n"
	// fact line 4+2 section "Build" link ""
	//   text:    "Run `make wasm` before testing the extension, or pi loads the stale core from the last build"
	//   min:     pointer
	//   summary: "- Run `make wasm` before testing the extension, or pi loads the stale core from the last build\n"
	//   pointer: "- Run `make wasm` before testing the … (MEMORY.md:4)\n"
	// pointer line 6+2 section "Build" link "build.md"
	//   text:    "[Build quirks](build.md) — sccache breaks -Werror"
	//   min:     pointer
	//   summary: "- [Build quirks](build.md) — sccache breaks -Werror\n\n"
	//   pointer: "- [Build quirks](build.md)\n\n"
	// text line 8+4 section "Build" link ""
	//   text:    "make wasm pi -e ./dist/extension.js --reload"
	//   min:     pointer
	//   summary: "[code block, 4 lines at MEMORY.md:8]\n"
	//   pointer: "[… 4 lines at MEMORY.md:8]\n"
}

func ExamplePage_Form() {
	p := notes.Parse("global", []byte("- Squash merge every pull request\n  unless it carries a database migration;\n  those get a merge commit so the migration history stays readable\n\n"))[0]
	for _, f := range []notes.Fidelity{notes.Full, notes.Summary, notes.PointerForm, notes.Dropped} {
		fmt.Printf("%-8s %q\n", f, p.Form(f, "MEMORY.md"))
	}
	// Output:
	// full     "- Squash merge every pull request\n  unless it carries a database migration;\n  those get a merge commit so the migration history stays readable\n\n"
	// summary  "- Squash merge every pull request unless it carries a database migration; those get a merge commit so the migration…\n\n"
	// pointer  "- Squash merge every pull request unless … (MEMORY.md:1)\n\n"
	// dropped  ""
}
