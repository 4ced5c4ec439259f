// Package registry is the one list of what pi-memory offers a person: its
// commands (one per store, with their aliases), each command's subcommands
// with their arguments and flags, the session flags pi registers, and the
// one-line descriptions every surface shows. pi's registered commands,
// `pimem --help` and `/… help` are all read from here, so they cannot
// disagree. It holds data and the help text made from it; it never runs a
// command (the lifecycle binds a handler to every subcommand listed here).
package registry

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/cmdline"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Kind says what a subcommand may do, which decides when it may run: the
// lifecycle's gate reads it, not the handler.
type Kind uint8

const (
	// Help only prints this registry's text; it always runs.
	Help Kind = iota
	// Info reports state and runs whatever the store's state, saying why
	// the store is off when it is (status, the last receipt).
	Info
	// Read looks at memory; it runs when the store may be read.
	Read
	// Write changes memory; it runs only when the store is on for this
	// session (not disabled, not untrusted, not switched off).
	Write
	// Config edits a configuration file (enable, disable): it must run when
	// the store is off, since it is how a store is turned back on.
	Config
	// Session changes this session only and writes nothing (/memory off).
	Session
)

var kindNames = [...]string{"help", "info", "read", "write", "config", "session"}

func (k Kind) String() string { return kindNames[k] }

// Flag is one --flag a subcommand takes.
type Flag struct {
	Name   string
	Value  string // placeholder of its value ("T"); "" for a switch
	Repeat bool   // may be given more than once
	Help   string
}

// Sub is one subcommand: `add` of `/decision add`.
type Sub struct {
	Name    string
	Aliases []string
	Args    string // the positional words, as help shows them: "<id> [<text>]"
	Help    string // one line
	Kind    Kind
	Flags   []Flag
	// MinArgs and MaxArgs bound the positional words (MaxArgs -1: no
	// bound). Extra words are a usage error, never silently ignored.
	MinArgs, MaxArgs int
}

// Command is one slash command, owned by one store: /decision, /memory.
type Command struct {
	Name        string
	Store       string // the store that runs it (its budget section's name)
	Aliases     []string
	Description string // one line, shown in pi's command list and pimem --help
	Default     string // the subcommand run with no words
	Subs        []Sub
	// Implied are aliases that also name a subcommand: /om-status runs
	// /om status. They are names of the command like Aliases (pi registers
	// each), resolved by Resolve.
	Implied []Implied
}

// Implied is an alias of a command that stands for its first words.
type Implied struct {
	Name  string
	Words []string // put before the words typed after the alias
}

// SessionFlag is a flag of the pi command line itself (--no-memory).
type SessionFlag struct {
	Name        string
	Type        string // "boolean" or "string", as pi's registerFlag takes it
	Description string
}

// Global switches every subcommand accepts.
var Global = []Flag{
	{Name: "json", Help: "machine-readable output: what a command shows, or what it wrote"},
}

// Flags are the session flags pi registers for pi-memory.
var Flags = []SessionFlag{
	{Name: "no-memory", Type: "boolean", Description: "Turn pi-memory off for this session: nothing is injected, captured or written (/memory on turns it back on)"},
}

// Commands are every command, in the order help lists them.
var Commands = []Command{decisionCommand, memoryCommand, omCommand, hindsightCommand}

// Lookup finds a command by its name or an alias, case-insensitively.
//
//	Lookup("decisions") => the /decision command
func Lookup(name string) (*Command, bool) {
	c, _, ok := Resolve(name)
	return c, ok
}

// Resolve finds a command by its name or an alias, case-insensitively, and
// the words an implied alias stands for (nil for a name or a plain alias).
//
//	Resolve("obs-auto-compact") => the /om command, ["auto-compact"]
func Resolve(name string) (*Command, []string, bool) {
	name = strings.ToLower(name)
	for i := range Commands {
		c := &Commands[i]
		if c.Name == name || has(c.Aliases, name) {
			return c, nil, true
		}
		for k := range c.Implied {
			if c.Implied[k].Name == name {
				return c, c.Implied[k].Words, true
			}
		}
	}
	return nil, nil, false
}

// Sub finds a subcommand by its name or an alias, case-insensitively.
func (c *Command) Sub(word string) (*Sub, bool) {
	word = strings.ToLower(word)
	for i := range c.Subs {
		s := &c.Subs[i]
		if s.Name == word || has(s.Aliases, word) {
			return s, true
		}
	}
	return nil, false
}

// Names lists every name a command answers to: its own, then its aliases.
func (c *Command) Names() []string {
	names := append([]string{c.Name}, c.Aliases...)
	for _, im := range c.Implied {
		names = append(names, im.Name)
	}
	return names
}

// Spec is the flag grammar of a subcommand, global switches included.
func (s *Sub) Spec() cmdline.Spec {
	var spec cmdline.Spec
	for _, f := range append(append([]Flag(nil), s.Flags...), Global...) {
		if f.Value != "" {
			spec.Values = append(spec.Values, f.Name)
		} else {
			spec.Switches = append(spec.Switches, f.Name)
		}
	}
	return spec
}

// Usage is the subcommand's one-line synopsis.
//
//	Usage of /decision resolve => "/decision resolve <id> active|draft|rejected|superseded"
func (c *Command) Usage(s *Sub) string {
	u := "/" + c.Name + " " + s.Name
	if s.Args != "" {
		u += " " + s.Args
	}
	for _, f := range s.Flags {
		if f.Value != "" {
			u += " [--" + f.Name + " " + f.Value + "]"
		} else {
			u += " [--" + f.Name + "]"
		}
		if f.Repeat {
			u += "..."
		}
	}
	return u
}

// Parsed is a command line resolved against the registry.
type Parsed struct {
	Command *Command
	Sub     *Sub
	Args    cmdline.Args
	// HelpOf is the subcommand whose help was asked for with --help or -h
	// (/decision add --help): Sub is then the command's help.
	HelpOf *Sub
}

// Parse resolves the words typed after a command's name. No words run the
// command's default subcommand; --help or -h (first, or after a
// subcommand) runs help. Unknown subcommands, unknown flags and a wrong
// number of positional words are usage errors of a line or two naming what
// to type.
//
//	Parse(decision, ["remove", "D-1", "--json"]) => Sub "remove", Words ["D-1"], json set
//	Parse(decision, ["lsit"])                    => error `Unknown /decision command "lsit". Did you mean /decision list? …`
func Parse(c *Command, words []string) (Parsed, error) {
	if len(words) == 0 {
		words = []string{c.Default}
	}
	if isHelpFlag(words[0]) {
		words = []string{"help"}
	}
	// A global switch typed before the subcommand (pimem decision --json
	// list) is the subcommand's: it goes after it.
	lead := 0
	for lead < len(words) && isGlobalSwitch(words[lead]) {
		lead++
	}
	if lead == len(words) {
		words = append([]string{c.Default}, words...)
	} else if lead > 0 {
		words = append(append([]string{words[lead]}, words[lead+1:]...), words[:lead]...)
	}
	s, ok := c.Sub(words[0])
	if !ok {
		msg := "Unknown /" + c.Name + " command " + quote(words[0]) + "."
		if near := c.nearest(words[0]); near != "" {
			msg += " Did you mean /" + c.Name + " " + near + "?"
		}
		return Parsed{Command: c}, &cmdline.UsageError{Msg: msg + " /" + c.Name + " help lists them."}
	}
	if s.Kind != Help && askedHelp(words[1:]) {
		if h, ok := c.Sub("help"); ok {
			return Parsed{Command: c, Sub: h, HelpOf: s}, nil
		}
	}
	args, err := cmdline.Parse(words[1:], s.Spec())
	if err != nil {
		return Parsed{Command: c, Sub: s}, &cmdline.UsageError{Msg: "/" + c.Name + " " + s.Name + ": " + err.Error() + "\nUsage: " + c.Usage(s)}
	}
	if args.Inside != "" && s.MaxArgs < 0 && args.Before > leadingWords(s, args.Words) {
		lead := leadingWords(s, args.Words)
		typed := append(append(slices.Clone(args.Words[lead:args.Before]), "--"+args.Inside), args.Words[args.Before:]...)
		text := strings.Join(typed, " ")
		return Parsed{Command: c, Sub: s}, &cmdline.UsageError{Msg: "/" + c.Name + " " + s.Name + ": --" + args.Inside + " stands inside the text, so it is unclear whether it is a flag or words of the text (" +
			quote(text) + "). Put flags after the text, or quote the text to keep the words.\nUsage: " + c.Usage(s)}
	}
	n := len(args.Words)
	switch {
	case n < s.MinArgs:
		return Parsed{Command: c, Sub: s}, &cmdline.UsageError{Msg: "/" + c.Name + " " + s.Name + ": missing " + missing(s, n) + ".\nUsage: " + c.Usage(s)}
	case s.MaxArgs >= 0 && n > s.MaxArgs:
		extra := args.Words[s.MaxArgs:]
		return Parsed{Command: c, Sub: s}, &cmdline.UsageError{Msg: "/" + c.Name + " " + s.Name + " takes " + count(s.MaxArgs, "argument") +
			"; unexpected " + quoteAll(extra) + " (quote text that has spaces).\nUsage: " + c.Usage(s)}
	}
	return Parsed{Command: c, Sub: s, Args: args}, nil
}

func isHelpFlag(w string) bool { return w == "--help" || w == "-h" }

// isGlobalSwitch reports a global flag that takes no value (--json).
func isGlobalSwitch(w string) bool {
	for _, f := range Global {
		if f.Value == "" && w == "--"+f.Name {
			return true
		}
	}
	return false
}

// Meant is what a word typed where a command's name belongs most likely
// meant, as the words that would follow the program's name: the command it
// nearly names (by the rule of nearest), else each command that has a
// subcommand of that name; nil when nothing is that close.
//
//	Meant("decisons") => ["decision"]
//	Meant("search")   => ["decision search", "memory search"]
//	Meant("zzz")      => nil
func Meant(word string) []string {
	word = strings.ToLower(word)
	all := Command{}
	for i := range Commands {
		all.Subs = append(all.Subs, Sub{Name: Commands[i].Name, Aliases: Commands[i].Names()[1:]})
	}
	if near := all.nearest(word); near != "" && len(word) > 2 {
		return []string{near}
	}
	var out []string
	for i := range Commands {
		if s, ok := Commands[i].Sub(word); ok {
			out = append(out, Commands[i].Name+" "+s.Name)
		}
	}
	return out
}

// leadingWords is how many of words are the single-word arguments that the
// synopsis puts before its free text: "<id>" and "<oldId>" always, an
// optional choice like "[global|project|local]" when the word is one. A
// flag may stand after them; a flag among the text's words is unclear.
//
//	leadingWords(remember "[global|project|local] <text>", ["global", "x"]) => 1
//	leadingWords(remember "[global|project|local] <text>", ["we", "x"])     => 0
//	leadingWords(add "<text>", ["Use", "Go"])                              => 0
func leadingWords(s *Sub, words []string) int {
	fields := strings.Fields(s.Args)
	n := 0
	for _, f := range fields[:max(0, len(fields)-1)] {
		optional := strings.HasPrefix(f, "[")
		choices := strings.Trim(f, "[]")
		if n >= len(words) {
			break
		}
		if strings.Contains(choices, "|") {
			if !slices.Contains(strings.Split(choices, "|"), strings.ToLower(words[n])) {
				if optional {
					continue
				}
				break
			}
		}
		n++
	}
	return n
}

// askedHelp reports --help or -h among the words before a bare "--".
func askedHelp(words []string) bool {
	for _, w := range words {
		if w == "--" {
			return false
		}
		if isHelpFlag(w) {
			return true
		}
	}
	return false
}

// missing names the positional words a subcommand needs that were not
// typed, from its synopsis: the required placeholders after the n given.
//
//	missing(resolve "<id> active|draft|rejected|superseded", 1) => "active|draft|rejected|superseded"
func missing(s *Sub, n int) string {
	var required []string
	for _, f := range strings.Fields(s.Args) {
		if !strings.HasPrefix(f, "[") {
			required = append(required, f)
		}
	}
	if n >= len(required) {
		return count(s.MinArgs-n, "more argument")
	}
	return strings.Join(required[n:], " and ")
}

// nearest is the subcommand (or alias) word most likely meant: the one it
// begins, else the closest by edit distance within a third of its length
// (at least one edit), "" when none is that close or two are.
//
//	nearest("lsit") => "list"; nearest("stat") => "status"; nearest("zzz") => ""
func (c *Command) nearest(word string) string {
	word = strings.ToLower(word)
	// A subcommand is near by its name or any alias, and is named by its
	// name: "lst" is one edit from both "list" and its alias "ls", one
	// subcommand, not a tie.
	var prefixed []string
	best, bestD, tie := "", 1<<30, false
	for i := range c.Subs {
		s := &c.Subs[i]
		d, prefix := 1<<30, false
		for _, name := range append([]string{s.Name}, s.Aliases...) {
			d = min(d, editDistance(word, name))
			prefix = prefix || (word != "" && strings.HasPrefix(name, word))
		}
		if prefix {
			prefixed = append(prefixed, s.Name)
		}
		switch {
		case d < bestD:
			best, bestD, tie = s.Name, d, false
		case d == bestD:
			tie = true
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	if limit := max(1, len([]rune(word))/3); bestD <= limit && !tie {
		return best
	}
	return ""
}

// editDistance is the number of single-character insertions, deletions,
// substitutions and swaps of neighbours that turn a into b.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// Surface is where a person types the commands: pi's slash commands, or a
// shell, where pimem takes the same words.
type Surface uint8

const (
	Slash Surface = iota // /decision add, in pi
	Shell                // pimem decision add, in a terminal
)

// named is command c as the surface types it: "/decision" or "pimem decision".
func (sf Surface) named(c *Command) string {
	if sf == Shell {
		return "pimem " + c.Name
	}
	return "/" + c.Name
}

// say is a help line written for pi, as the surface names its commands.
func (sf Surface) say(s string) string {
	if sf == Shell {
		return ForShell(s)
	}
	return s
}

// SubHelpText is what `/name sub --help` prints: the subcommand's synopsis,
// its help and its flags, at text.Width columns.
func SubHelpText(c *Command, s *Sub, sf Surface) string {
	var b text.Builder
	usage := sf.named(c) + strings.TrimPrefix(c.Usage(s), "/"+c.Name)
	if sf == Slash {
		usage += " (pimem " + c.Name + " " + s.Name + " outside pi)"
	}
	b.WriteString(text.Indent("Usage: "+usage, text.Width, "", "    "))
	if s.Help != "" {
		b.WriteString(text.Indent(sf.say(s.Help), text.Width, "  ", "  "))
	}
	if len(s.Aliases) > 0 {
		b.WriteString(text.Indent("Also: "+strings.Join(s.Aliases, ", "), text.Width, "  ", "    "))
	}
	for _, f := range s.Flags {
		if f.Help == "" {
			continue
		}
		line := "--" + f.Name
		if f.Value != "" {
			line += " " + f.Value
		}
		b.WriteString(text.Indent(line+": "+sf.say(f.Help), text.Width, "  ", "    "))
	}
	b.WriteString("Every command takes --json. " + sf.named(c) + " help lists the others.")
	return b.String()
}

// HelpText is what `/name help` prints: every subcommand with its synopsis
// and one-line help, at text.Width columns.
func HelpText(c *Command, sf Surface) string {
	var b text.Builder
	head := "Usage: " + sf.named(c) + " <command>"
	if sf == Slash {
		head += " (pimem " + c.Name + " <command> outside pi)"
	}
	if len(c.Aliases) > 0 {
		var also []string
		for _, a := range c.Aliases {
			also = append(also, sf.named(&Command{Name: a}))
		}
		head += "; also " + strings.Join(also, ", ")
	}
	b.WriteString(text.Indent(head, text.Width, "", "  "))
	// A short form is listed with the subcommand it runs; one that stands
	// for more words than a subcommand's name, on a line of its own.
	var other []string
	for _, im := range c.Implied {
		if len(im.Words) != 1 {
			other = append(other, sf.named(&Command{Name: im.Name})+" ("+sf.named(c)+" "+strings.Join(im.Words, " ")+")")
		}
	}
	if len(other) > 0 {
		b.WriteString(text.Indent("Short forms: "+strings.Join(other, ", "), text.Width, "", "  "))
	}
	for i := range c.Subs {
		s := &c.Subs[i]
		line := strings.TrimPrefix(c.Usage(s), "/"+c.Name+" ")
		if len(s.Aliases) > 0 {
			line += " (alias: " + strings.Join(s.Aliases, ", ") + ")"
		}
		b.WriteString(text.Indent(line, text.Width, "  ", "    "))
		help := sf.say(s.Help)
		var short []string
		for _, im := range c.Implied {
			if len(im.Words) == 1 && im.Words[0] == s.Name {
				short = append(short, sf.named(&Command{Name: im.Name}))
			}
		}
		switch len(short) {
		case 0:
		case 1:
			help += " (short form: " + short[0] + ")"
		default:
			help += " (short forms: " + strings.Join(short, ", ") + ")"
		}
		if help != "" {
			b.WriteString(text.Indent(help, text.Width, "      ", "      "))
		}
	}
	b.WriteString("Every command takes --json. With no command: " + c.Default + ".")
	return b.String()
}

// ForShell is a text a command wrote for pi said for a shell: every slash
// command of the registry it names (a name, an alias or a short form, at the
// start of a word) becomes the pimem command that does the same.
//
//	ForShell(`Did you mean /memory search? /memory help lists them.`) => `Did you mean pimem memory search? pimem memory help lists them.`
//	ForShell("read .pi/memory/MEMORY.md") => unchanged (a path, not a command)
func ForShell(s string) string {
	if strings.IndexByte(s, '/') < 0 {
		return s
	}
	var b text.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '/' || (i > 0 && !opensWord(s[:i])) {
			continue
		}
		name := commandAt(s[i+1:])
		if name == "" {
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString("pimem ")
		last = i + 1
		i += len(name)
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// opensWord reports whether a word starts after before: a command is named
// after a space, an opening mark or a quote, never inside a path or a word
// (a letter of any script, as in /projekte/ü/decision).
func opensWord(before string) bool {
	switch c := before[len(before)-1]; c {
	case ' ', '\t', '\n', '(', '[', '"', '\'', '`':
		return true
	default:
		if c < 0x80 {
			return false
		}
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return strings.ContainsRune("“‘«‹—–\u00a0「『（", r)
}

// commandAt is the name of a command that s starts with (the longest, so
// om-status before om), followed by the end of s or a byte that cannot
// continue a name or a path; "" when there is none.
func commandAt(s string) string {
	best := ""
	for i := range Commands {
		for _, name := range Commands[i].Names() {
			if len(name) > len(best) && strings.HasPrefix(s, name) && (len(s) == len(name) || !inName(s[len(name)])) {
				best = name
			}
		}
	}
	return best
}

// inName reports a byte that continues a command's name or a path.
func inName(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '/'
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quote(s string) string { return `"` + s + `"` }

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = quote(s)
	}
	return strings.Join(q, " ")
}

func count(n int, what string) string {
	switch n {
	case 0:
		return "no " + what + "s"
	case 1:
		return "one " + what
	}
	return itoa(n) + " " + what + "s"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
