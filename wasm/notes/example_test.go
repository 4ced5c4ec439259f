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

func ExampleParseConfig() {
	c := notes.ParseConfig("g.json", []byte(`{"maxInjectLines": 50}`), "p.json", []byte(`{"maxInjectLines": 80}`))
	fmt.Println(c.MaxInjectLines, c.MaxInjectBytes, c.Warnings)
	// Output: 80 8192 []
}

func ExampleCut() {
	text, cut := notes.Cut("a\nb\nc\n", 2, 100, "MEMORY.md")
	fmt.Printf("%q %v\n", text, cut)
	// Output: "a\n[2 more lines not shown: read MEMORY.md]\n" true
}

func ExampleCheck() {
	src := []byte("# Memory\n\n## Notes\n- Use pnpm, not npm\n")
	pages := notes.Parse("project", src)
	rules := notes.Rules{Strict: true, MaxLines: 200, MaxBytes: 8192, File: ".pi/memory/MEMORY.md"}

	o := notes.Check("Run make test before pushing", "Notes", src, pages, rules)
	fmt.Printf("%v line %d\n%s", o.Commit, o.Line, o.Out)
	again := notes.Check("use pnpm, not npm!", "Notes", src, pages, rules)
	fmt.Println(again.Commit, again.Reason, pages[again.Duplicate].Text)
	// Output:
	// true line 5
	// # Memory
	//
	// ## Notes
	// - Use pnpm, not npm
	// - Run make test before pushing
	// false duplicate Use pnpm, not npm
}

func ExampleOverCaps() {
	fmt.Println(notes.OverCaps(250, 9000, 200, 8192))
	fmt.Printf("%q\n", notes.OverCaps(10, 100, 200, 8192))
	// Output:
	// 250 lines, over maxInjectLines 200, and 9000 bytes, over maxInjectBytes 8192
	// ""
}

func ExampleInsert() {
	out, line := notes.Insert([]byte("## Build\n- make\n\n## Style\n- tabs\n"), "Build", "make test")
	fmt.Printf("%q %d\n", out, line)
	// Output: "## Build\n- make\n- make test\n\n## Style\n- tabs\n" 3
}
