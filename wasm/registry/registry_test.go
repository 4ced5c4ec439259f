package registry

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/cmdline"
	"github.com/tidwall/gjson"
)

func TestParseResolvesNamesAliasesAndTheDefault(t *testing.T) {
	tests := []struct {
		name    string
		command string
		words   []string
		sub     string
		args    []string
	}{
		{"no words run the default", "decision", nil, "status", nil},
		{"a subcommand alias", "decision", []string{"ls"}, "list", nil},
		{"a command alias", "decisions", []string{"rm", "D-1", "D-2"}, "remove", []string{"D-1", "D-2"}},
		{"case does not matter", "Memory", []string{"STATUS"}, "status", nil},
		{"--json is global", "decision", []string{"remove", "D-1", "--json"}, "remove", []string{"D-1"}},
		{"--json before the subcommand is its", "decision", []string{"--json", "list", "--limit", "3"}, "list", nil},
		{"--json alone runs the default", "decision", []string{"--json"}, "status", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := Lookup(tt.command)
			if !ok {
				t.Fatalf("Lookup(%q) failed", tt.command)
			}
			p, err := Parse(c, tt.words)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if p.Sub.Name != tt.sub || strings.Join(p.Args.Words, "|") != strings.Join(tt.args, "|") {
				t.Errorf("Parse = %s %q, want %s %q", p.Sub.Name, p.Args.Words, tt.sub, tt.args)
			}
		})
	}
}

func TestParseRefusesWhatItWouldOtherwiseIgnore(t *testing.T) {
	tests := []struct {
		name  string
		words []string
		want  string
	}{
		{"unknown subcommand", []string{"frobnicate"}, `Unknown /decision command "frobnicate"`},
		{"unknown flag", []string{"list", "--verbose"}, "unknown flag --verbose"},
		{"extra words after status", []string{"status", "now"}, `takes no arguments; unexpected "now"`},
		{"extra words after show", []string{"show", "D-1", "D-2"}, `takes one argument; unexpected "D-2"`},
		{"extra words after resolve", []string{"resolve", "D-1", "draft", "please"}, `takes 2 arguments; unexpected "please"`},
		{"a missing id", []string{"show"}, "Usage: /decision show <id>"},
		{"a value flag without its value", []string{"list", "--status"}, "--status needs a value"},
	}
	c, _ := Lookup("decision")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(c, tt.words)
			var ue *cmdline.UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("Parse(%q) = %v, want a usage error", tt.words, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%q) = %q, want it to say %q", tt.words, err, tt.want)
			}
		})
	}
}

func TestNamesAreUniqueWithinTheRegistry(t *testing.T) {
	commands := map[string]bool{}
	for _, c := range Commands {
		for _, n := range c.Names() {
			if commands[n] {
				t.Errorf("command name %q is used twice", n)
			}
			commands[n] = true
		}
		subs := map[string]bool{}
		for _, s := range c.Subs {
			for _, n := range append([]string{s.Name}, s.Aliases...) {
				if subs[n] {
					t.Errorf("/%s: subcommand name %q is used twice", c.Name, n)
				}
				subs[n] = true
			}
			if s.Help == "" {
				t.Errorf("/%s %s has no help line", c.Name, s.Name)
			}
			if s.MaxArgs >= 0 && s.MaxArgs < s.MinArgs {
				t.Errorf("/%s %s: MaxArgs %d < MinArgs %d", c.Name, s.Name, s.MaxArgs, s.MinArgs)
			}
			for _, f := range s.Flags {
				for _, g := range Global {
					if f.Name == g.Name {
						t.Errorf("/%s %s declares the global flag --%s again", c.Name, s.Name, f.Name)
					}
				}
			}
		}
		if _, ok := c.Sub(c.Default); !ok {
			t.Errorf("/%s: the default %q is not a subcommand", c.Name, c.Default)
		}
	}
}

func TestHelpTextListsEverySubcommandWithItsUsage(t *testing.T) {
	for i := range Commands {
		c := &Commands[i]
		for _, sf := range []Surface{Slash, Shell} {
			h := fold(HelpText(c, sf))
			for k := range c.Subs {
				s := &c.Subs[k]
				if !strings.Contains(h, fold(strings.TrimPrefix(c.Usage(s), "/"+c.Name+" "))) || !strings.Contains(h, fold(sf.say(s.Help))) {
					t.Errorf("/%s help lacks %s:\n%s", c.Name, s.Name, h)
				}
			}
		}
	}
}

// fold is s with every run of white space one space: what help says, however
// it is wrapped.
func fold(s string) string { return strings.Join(strings.Fields(s), " ") }

// At 80 columns `pimem --help`'s and `/om help`'s long lines wrapped in the
// middle of words: every line of every help fits.
func TestHelpFitsEightyColumns(t *testing.T) {
	for i := range Commands {
		c := &Commands[i]
		for _, sf := range []Surface{Slash, Shell} {
			texts := []string{HelpText(c, sf)}
			for k := range c.Subs {
				texts = append(texts, SubHelpText(c, &c.Subs[k], sf))
			}
			for _, h := range texts {
				if sf == Shell {
					h = ForShell(h) // what the shell's Out sends: nothing left to rename
				}
				for _, l := range strings.Split(h, "\n") {
					if n := utf8.RuneCountInString(l); n > 80 {
						t.Errorf("/%s help (surface %d): a line of %d columns: %q", c.Name, sf, n, l)
					}
				}
			}
		}
	}
}

func TestHelpNamesTheCommandsAsTheSurfaceTakesThem(t *testing.T) {
	c, _ := Lookup("decision")
	slash, shell := HelpText(c, Slash), HelpText(c, Shell)
	require.True(t, strings.HasPrefix(slash, "Usage: /decision <command> (pimem decision <command> outside pi); also"), slash)
	require.True(t, strings.HasPrefix(shell, "Usage: pimem decision <command>; also pimem decisions\n"), shell)
	require.False(t, strings.Contains(shell, "/decision"), shell)
	list, _ := c.Sub("list")
	require.True(t, strings.HasPrefix(SubHelpText(c, list, Shell), "Usage: pimem decision list [--status S]"), SubHelpText(c, list, Shell))
	require.True(t, strings.HasSuffix(SubHelpText(c, list, Shell), "pimem decision help lists the others."), SubHelpText(c, list, Shell))
}

// In a shell, `pimem memory serch` answered "Did you mean /memory search?".
func TestForShellNamesTheCommandsPimemTakes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`Unknown /memory command "serch". Did you mean /memory search? /memory help lists them.`,
			`Unknown pimem memory command "serch". Did you mean pimem memory search? pimem memory help lists them.`},
		{"/decision resolve: missing active|draft|rejected|superseded.\nUsage: /decision resolve <id> active|draft|rejected|superseded",
			"pimem decision resolve: missing active|draft|rejected|superseded.\nUsage: pimem decision resolve <id> active|draft|rejected|superseded"},
		{"Staged facts waiting: 2 (/memory flush writes them)", "Staged facts waiting: 2 (pimem memory flush writes them)"},
		{"run /om-status, or /obs-view.", "run pimem om-status, or pimem obs-view."},
		{"see `/decisions list`", "see `pimem decisions list`"},
		{"/om", "pimem om"},
		// Paths, other tools' commands and words that only begin like a command stay.
		{"read .pi/memory/MEMORY.md and ~/.pi/agent/memory/", "read .pi/memory/MEMORY.md and ~/.pi/agent/memory/"},
		{"choose one with /model, or /login", "choose one with /model, or /login"},
		{"/memoryx /omelette /decision-log /om/x", "/memoryx /omelette /decision-log /om/x"},
		// Inside a path whose folder is a word of another script.
		{"/projekte/ü/decision and /home/Åsa/memory", "/projekte/ü/decision and /home/Åsa/memory"},
		{"“/memory search” — /om", "“pimem memory search” — pimem om"},
		{"", ""},
	} {
		require.Equal(t, tc.want, ForShell(tc.in))
	}
	c, _ := Lookup("memory")
	_, err := Parse(c, []string{"serch", "postgres"})
	require.Equal(t, `Unknown pimem memory command "serch". Did you mean pimem memory search? pimem memory help lists them.`, ForShell(err.Error()))
}

func TestJSONIsValidAndCarriesEveryCommand(t *testing.T) {
	var got struct {
		V        int `json:"v"`
		Commands []struct {
			Name        string   `json:"name"`
			Aliases     []string `json:"aliases"`
			Description string   `json:"description"`
			Subs        []struct {
				Name  string `json:"name"`
				Kind  string `json:"kind"`
				Usage string `json:"usage"`
			} `json:"subcommands"`
		} `json:"commands"`
		Flags []struct {
			Name string `json:"name"`
			Type string `json:"type"`
		} `json:"flags"`
	}
	if err := json.Unmarshal(JSON(), &got); err != nil {
		t.Fatalf("JSON() is not JSON: %v", err)
	}
	if got.V != Version || len(got.Commands) != len(Commands) || len(got.Flags) != len(Flags) {
		t.Fatalf("JSON() = %+v", got)
	}
	for i, c := range got.Commands {
		if c.Name != Commands[i].Name || c.Description == "" || len(c.Subs) != len(Commands[i].Subs) {
			t.Errorf("command %d = %+v", i, c)
		}
	}
}

func ExampleParse() {
	c, _ := Lookup("decisions")
	p, err := Parse(c, []string{"rm", "D-2026-03-01-0001", "--json"})
	fmt.Println(p.Command.Name, p.Sub.Name, p.Args.Words, p.Args.Has("json"), err)
	_, err = Parse(c, []string{"status", "now"})
	fmt.Println(strings.SplitN(err.Error(), "\n", 2)[0])
	// Output:
	// decision remove [D-2026-03-01-0001] true <nil>
	// /decision status takes no arguments; unexpected "now" (quote text that has spaces).
}

func TestImpliedAliasesRunTheirSubcommand(t *testing.T) {
	tests := []struct {
		typed string
		words []string
		sub   string
		args  []string
	}{
		{"om-status", nil, "status", nil},
		{"obs-memory-status", nil, "status", nil},
		{"OM-Config", []string{"reload"}, "config", []string{"reload"}},
		{"om-observe", []string{"--no-compact"}, "observe", nil},
		{"obs-reflect", []string{"keep", "paths"}, "reflect", []string{"keep", "paths"}},
		{"obs-auto-compact", []string{"on", "buffered", "20000"}, "auto-compact", []string{"on", "buffered", "20000"}},
		{"obs-view", []string{"raw", "40"}, "view", []string{"raw", "40"}},
		{"obs-dump", nil, "dump", nil},
		{"om", nil, "status", nil},
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			c, words, ok := Resolve(tt.typed)
			if !ok || c.Name != "om" {
				t.Fatalf("Resolve(%q) = %v, %v", tt.typed, c, ok)
			}
			p, err := Parse(c, append(append([]string(nil), words...), tt.words...))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if p.Sub.Name != tt.sub || strings.Join(p.Args.Words, "|") != strings.Join(tt.args, "|") {
				t.Errorf("%s %q = %s %q, want %s %q", tt.typed, tt.words, p.Sub.Name, p.Args.Words, tt.sub, tt.args)
			}
		})
	}
}

func TestImpliedAliasesAreListedForHostsAndHelp(t *testing.T) {
	var got struct {
		Commands []struct {
			Name    string   `json:"name"`
			Aliases []string `json:"aliases"`
			Implied []struct {
				Name  string   `json:"name"`
				Words []string `json:"words"`
			} `json:"implied"`
		} `json:"commands"`
	}
	if err := json.Unmarshal(JSON(), &got); err != nil {
		t.Fatal(err)
	}
	c, _ := Lookup("om")
	for _, jc := range got.Commands {
		if jc.Name != "om" {
			continue
		}
		for _, im := range c.Implied {
			if !has(jc.Aliases, im.Name) {
				t.Errorf("registry.json aliases lack %q: pi would not register it", im.Name)
			}
			if h := fold(HelpText(c, Slash)); !strings.Contains(h, "/"+im.Name+")") && !strings.Contains(h, "/"+im.Name+",") {
				t.Errorf("help does not say what /%s stands for", im.Name)
			}
		}
		if len(jc.Implied) != len(c.Implied) {
			t.Errorf("registry.json implied = %v", jc.Implied)
		}
		return
	}
	t.Fatal("no om command in registry.json")
}

// Every tool's parameters are a JSON schema object a host can register as
// given (TypeBox schemas are JSON schema).
func TestToolParametersAreJSONSchemaObjects(t *testing.T) {
	names := map[string]bool{}
	for _, tool := range Tools {
		require.True(t, gjson.Valid(tool.Parameters), "%s: not JSON", tool.Name)
		p := gjson.Parse(tool.Parameters)
		require.Equal(t, "object", p.Get("type").String(), tool.Name)
		require.True(t, p.Get("properties").IsObject(), tool.Name)
		require.False(t, names[tool.Name], "%s twice", tool.Name)
		names[tool.Name] = true
		require.True(t, tool.Label != "" && tool.Description != "", tool.Name)
		require.True(t, tool.Hosts != 0, "%s is offered nowhere", tool.Name)
	}
	require.Equal(t, int64(len(ToolsFor(Pi))), gjson.GetBytes(JSON(), "tools.#").Int())
	require.Equal(t, int64(len(ToolsFor(MCP))), gjson.GetBytes(JSON(), "mcpTools.#").Int())
	var mcp []string
	for _, tool := range ToolsFor(MCP) {
		mcp = append(mcp, tool.Name)
	}
	// Issue 20: the everyday tools, and two read-only ones for clients that
	// have no injected block; Hindsight serves its own banks over MCP.
	require.Equal(t, []string{"memory_search", "memory_forget", "memory_restore", "memory_status", "decision_propose", "decision_list", "memory_remember"}, mcp)
}

func TestAnUnknownSubcommandIsOneLineNamingTheNearest(t *testing.T) {
	c, _ := Lookup("decision")
	tests := []struct{ typed, want string }{
		{"lsit", `Unknown /decision command "lsit". Did you mean /decision list? /decision help lists them.`},
		{"stat", `Unknown /decision command "stat". Did you mean /decision status? /decision help lists them.`},
		{"lst", `Unknown /decision command "lst". Did you mean /decision list? /decision help lists them.`}, // near "list" and its alias "ls": one subcommand
		{"rmove", `Unknown /decision command "rmove". Did you mean /decision remove? /decision help lists them.`},
		{"LIST", ""}, // a known word in another case is not unknown
		{"frobnicate", `Unknown /decision command "frobnicate". /decision help lists them.`},
	}
	for _, tt := range tests {
		_, err := Parse(c, []string{tt.typed})
		if tt.want == "" {
			if err != nil {
				t.Errorf("Parse(%q) = %v", tt.typed, err)
			}
			continue
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) = %v, want %q", tt.typed, err, tt.want)
		}
	}
}

func TestAMissingArgumentIsNamed(t *testing.T) {
	c, _ := Lookup("decision")
	tests := []struct {
		words []string
		want  string
	}{
		{[]string{"show"}, "/decision show: missing <id>.\nUsage: /decision show <id>"},
		{[]string{"resolve", "D-1"}, "/decision resolve: missing active|draft|rejected|superseded."},
	}
	for _, tt := range tests {
		_, err := Parse(c, tt.words)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want it to start %q", tt.words, err, tt.want)
		}
	}
}

func TestHelpFlagRunsHelpForTheCommandOrTheSubcommand(t *testing.T) {
	c, _ := Lookup("decision")
	p, err := Parse(c, []string{"--help"})
	if err != nil || p.Sub.Name != "help" || p.HelpOf != nil {
		t.Fatalf("--help = %+v, %v", p, err)
	}
	p, err = Parse(c, []string{"list", "-h"})
	if err != nil || p.Sub.Name != "help" || p.HelpOf == nil || p.HelpOf.Name != "list" {
		t.Fatalf("list -h = %+v, %v", p, err)
	}
	if h := SubHelpText(c, p.HelpOf, Slash); !strings.HasPrefix(h, "Usage: /decision list") || strings.Count(h, "\n") > 12 {
		t.Errorf("SubHelpText = %q", h)
	}
	p, err = Parse(c, []string{"add", "--", "--help"})
	if err != nil || p.Sub.Name != "add" {
		t.Errorf("a --help after -- is text: %+v, %v", p, err)
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"list", "list", 0}, {"lsit", "list", 1}, {"lst", "list", 1}, {"status", "stats", 1}, {"abc", "xyz", 3}, {"", "ab", 2},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSynopsisNextStartingAndChoices(t *testing.T) {
	c, _ := Lookup("decision")
	sub := func(name string) *Sub { s, _ := c.Sub(name); return s }
	tests := []struct {
		sub   *Sub
		typed []string
		want  string
	}{
		{sub("resolve"), nil, "<id>"},
		{sub("resolve"), []string{"D-1"}, "active|draft|rejected|superseded"},
		{sub("resolve"), []string{"D-1", "draft"}, ""},
		{sub("remove"), []string{"D-1", "D-2"}, "<id>"},
		{sub("edit"), []string{"--title", "T"}, "<id>"},
		{sub("edit"), []string{"D-1"}, "<text>"},
		{sub("list"), []string{"--status"}, ""},
	}
	for _, tt := range tests {
		if got := tt.sub.Next(tt.typed); got != tt.want {
			t.Errorf("%s.Next(%q) = %q, want %q", tt.sub.Name, tt.typed, got, tt.want)
		}
	}
	var names []string
	for _, s := range c.Starting("S") {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "search,show,supersede,status" {
		t.Errorf("Starting(S) = %v", names)
	}
	if s := c.Starting("rm"); len(s) != 1 || s[0].Name != "remove" {
		t.Errorf("Starting(rm) = %v: an alias names its subcommand", s)
	}
	if got := Choices("active|draft|rejected|superseded", "DR"); len(got) != 1 || got[0] != "draft" {
		t.Errorf("Choices = %v", got)
	}
	if got := Choices("<id>", ""); got != nil {
		t.Errorf("Choices(<id>) = %v, want nil", got)
	}
}

// ForShell reads every output and notice of a pimem session: whatever the
// text, it does not panic, says it once (a second pass changes nothing),
// and changes nothing but a command's "/" into "pimem ".
func FuzzForShell(f *testing.F) {
	for _, s := range []string{"Did you mean /memory search?", "/om-status", "~/.pi/agent/memory/MEMORY.md", "(/decision doctor)", "/", "//om", "\xff/om"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := ForShell(s)
		if again := ForShell(got); again != got {
			t.Fatalf("ForShell(%q) = %q, and again %q", s, got, again)
		}
		if strings.ReplaceAll(got, "pimem ", "/") != strings.ReplaceAll(s, "pimem ", "/") {
			t.Fatalf("ForShell(%q) = %q changed more than the commands' slashes", s, got)
		}
	})
}

// A flag among the words of a free text was taken as a flag and the text
// kept without it: "/decision add Run tests with --force so snapshots
// update" stored "Run tests with so snapshots update". It is unclear, so
// it is refused; a flag after the text, before it, or after the words the
// synopsis puts first is taken.
func TestAFlagInsideTheTextIsRefusedNotDropped(t *testing.T) {
	for _, tc := range []struct {
		command string
		words   []string
		refused bool
	}{
		{"decision", []string{"add", "Run", "tests", "with", "--force", "so", "snapshots", "update"}, true},
		{"decision", []string{"add", "Always", "pass", "--json", "to", "the", "client"}, true},
		{"decision", []string{"add", "Use", "Go", "--reason", "fast"}, false},
		{"decision", []string{"add", "--tag", "db", "Use", "PostgreSQL"}, false},
		{"decision", []string{"add", "Use", "--reason", "fast"}, false},
		{"decision", []string{"add", "Run tests with --force so snapshots update"}, false},
		{"decision", []string{"edit", "D-1", "--tag", "x", "New", "text"}, false},
		{"decision", []string{"supersede", "D-1", "New", "text", "--reason", "r"}, false},
		{"decision", []string{"supersede", "D-1", "New", "--reason", "r", "text"}, true},
		{"memory", []string{"remember", "global", "--section", "Build", "we", "deploy"}, false},
		{"memory", []string{"remember", "always", "run", "make", "with", "--section", "B", "now"}, true},
		{"memory", []string{"remember", "we", "deploy", "--section", "Build"}, false},
	} {
		c, ok := Lookup(tc.command)
		require.True(t, ok)
		_, err := Parse(c, tc.words)
		require.Equal(t, tc.refused, err != nil && strings.Contains(err.Error(), "stands inside the text"), "%v: %v", tc.words, err)
	}
	c, _ := Lookup("decision")
	_, err := Parse(c, []string{"add", "Run", "tests", "with", "--force", "so", "snapshots", "update"})
	require.Contains(t, err.Error(), `"Run tests with --force so snapshots update"`)
}

// Issue 25: pimem mcp's tools carried no annotations, so a client could not
// tell a search from a forget. Each MCP tool's hints are pinned here: a new
// tool, or a changed one, is a decision to make, not a default to inherit.
func TestEveryMCPToolSaysWhatItDoesToTheWorld(t *testing.T) {
	type hints struct{ readOnly, destructive, idempotent, openWorld bool }
	want := map[string]hints{
		"memory_search":    {readOnly: true, idempotent: true},
		"decision_list":    {readOnly: true, idempotent: true},
		"memory_status":    {readOnly: true, idempotent: true},
		"memory_forget":    {destructive: true},
		"memory_restore":   {idempotent: true},
		"memory_remember":  {idempotent: true},
		"decision_propose": {destructive: true, idempotent: true},
	}
	got := gjson.GetBytes(JSON(), "mcpTools")
	require.Equal(t, int64(len(want)), got.Get("#").Int())
	got.ForEach(func(_, tool gjson.Result) bool {
		name := tool.Get("name").String()
		w, ok := want[name]
		require.True(t, ok, "%s: its hints are not pinned here", name)
		a := tool.Get("annotations")
		require.Equal(t, tool.Get("label").String(), a.Get("title").String(), name)
		require.Equal(t, hints{a.Get("readOnlyHint").Bool(), a.Get("destructiveHint").Bool(), a.Get("idempotentHint").Bool(), a.Get("openWorldHint").Bool()}, w, name)
		for _, k := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
			require.True(t, a.Get(k).IsBool(), "%s: %s is said, not left to a default", name, k)
		}
		return true
	})
	require.False(t, gjson.GetBytes(JSON(), "tools.0.annotations").Exists(), "pi registers tools without them")
}

// A word typed where a command belongs in the shell (pimem search …) is
// answered with what it most likely meant.
func TestMeantNamesTheCommandOrTheSubcommandsAWordNames(t *testing.T) {
	for _, tt := range []struct {
		word string
		want []string
	}{
		{"decisons", []string{"decision"}},
		{"memroy", []string{"memory"}},
		{"Decision", []string{"decision"}},
		{"search", []string{"decision search", "memory search"}},
		{"remember", []string{"memory remember"}},
		{"forget", []string{"memory forget"}},
		{"zzz", nil},
		{"om", nil},
	} {
		t.Run(tt.word, func(t *testing.T) {
			require.Equal(t, tt.want, Meant(tt.word))
		})
	}
}
