package registry

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/cmdline"
)

// The synopsis of a subcommand (Sub.Args: "<id> active|draft|rejected|superseded",
// "<id>...", "[<text>]") read word by word: what completion offers next
// and what a usage error says is missing (missing, in registry.go).

// Starting are the subcommands whose name, or one of whose aliases, begins
// with word (case-insensitively), in the registry's order.
//
//	decision.Starting("s") => search, show, supersede, status
func (c *Command) Starting(word string) []*Sub {
	word = strings.ToLower(word)
	var subs []*Sub
	for i := range c.Subs {
		s := &c.Subs[i]
		match := strings.HasPrefix(s.Name, word)
		for _, a := range s.Aliases {
			match = match || strings.HasPrefix(a, word)
		}
		if match {
			subs = append(subs, s)
		}
	}
	return subs
}

// Next is the synopsis placeholder of the positional word that follows the
// words typed after the subcommand (flags and their values parsed as Parse
// parses them): "" past the last, or when the words do not parse. A last
// placeholder ending in "..." takes any number of words.
//
//	resolve.Next([]) => "<id>"; resolve.Next(["D-1"]) => "active|draft|rejected|superseded"
//	edit.Next(["--title", "T"]) => "<id>"; remove.Next(["D-1", "D-2"]) => "<id>"
func (s *Sub) Next(typed []string) string {
	args, err := cmdline.Parse(typed, s.Spec())
	if err != nil {
		return ""
	}
	n := len(args.Words)
	fields := strings.Fields(s.Args)
	if len(fields) == 0 {
		return ""
	}
	if n >= len(fields) {
		if last := fields[len(fields)-1]; strings.HasSuffix(last, "...") {
			return strings.TrimSuffix(last, "...")
		}
		return ""
	}
	return strings.TrimSuffix(strings.Trim(fields[n], "[]"), "...")
}

// Choices are the words a placeholder like "active|draft" allows that begin
// with prefix; nil for a placeholder that is not a choice ("<id>").
//
//	Choices("active|draft|rejected", "dr") => ["draft"]
func Choices(placeholder, prefix string) []string {
	if !strings.Contains(placeholder, "|") || strings.ContainsAny(placeholder, "<>") {
		return nil
	}
	prefix = strings.ToLower(prefix)
	var list []string
	for _, w := range strings.Split(placeholder, "|") {
		if strings.HasPrefix(w, prefix) {
			list = append(list, w)
		}
	}
	return list
}
