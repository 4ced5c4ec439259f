// Package cmdline owns the grammar shared by the slash commands and pimem:
// shell-like words, --flags with values, and the usage errors they produce.
// pi hands a command its arguments as one string (Split tokenizes it); pimem
// hands over the argv the shell already split. Both reach Parse as the same
// words, so `/decision add X --tag db` and `pimem decision add X --tag db`
// mean exactly the same thing.
package cmdline

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"strings"
)

// Split breaks a command line into words much as a POSIX shell would for
// plain text: whitespace separates, '…' and "…" group (quotes removed), and a
// backslash escapes the next character outside single quotes. Unlike a
// shell, a quote inside a word is an ordinary character, so prose splits as
// it reads.
//
//	Split(`add "Use PostgreSQL" --tag db`) => ["add", "Use PostgreSQL", "--tag", "db"]
//	Split(`add don't panic`)                 => ["add", "don't", "panic"]
//	Split(`add 'open`)                       => error: unterminated ' quote
func Split(s string) ([]string, error) {
	var words []string
	var cur text.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'' && !inWord:
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("unterminated ' quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"' && !inWord:
			i++
			closed := false
			for ; i < len(s); i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
					cur.WriteByte(s[i])
					continue
				}
				if s[i] == '"' {
					closed = true
					break
				}
				cur.WriteByte(s[i])
			}
			if !closed {
				return nil, errors.New(`unterminated " quote`)
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		default:
			// A quote inside a word (don't) is an ordinary character.
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// Spec declares a subcommand's flags: the names that take a value and the
// names that are switches. A flag may be given as --name value or --name=value.
type Spec struct {
	Values   []string
	Switches []string
}

// Args is a parsed command: positional words in order and flag values.
type Args struct {
	Words []string
	flags map[string][]string
	// Inside is the first flag given with positional words both before and
	// after it ("add Run tests with --force so they pass"), and Before how
	// many came before it; "" when none was. A command whose last argument
	// is free text decides whether that flag was meant as a flag.
	Inside string
	Before int
}

// Has reports whether a flag was given.
func (a Args) Has(name string) bool {
	_, ok := a.flags[name]
	return ok
}

// Value returns the last value of a flag ("" when absent).
func (a Args) Value(name string) string {
	v := a.flags[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// Values returns every value of a repeatable flag, in order.
func (a Args) Values(name string) []string { return a.flags[name] }

// Text joins the positional words from index i on with single spaces.
func (a Args) Text(i int) string {
	if i >= len(a.Words) {
		return ""
	}
	return strings.Join(a.Words[i:], " ")
}

// UsageError is a malformed command line; hosts exit with code 2 for it.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Parse separates flags from positional words. Words after a bare "--" are
// always positional. An unknown flag or a missing value is a UsageError.
//
//	Parse(["D-1", "new", "text", "--reason", "cheaper"], Spec{Values: ["reason"]})
//	=> Words ["D-1", "new", "text"], Value("reason") == "cheaper"
func Parse(words []string, spec Spec) (Args, error) {
	a := Args{flags: map[string][]string{}}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--" {
			a.Words = append(a.Words, words[i+1:]...)
			break
		}
		if len(w) < 3 || w[0] != '-' || w[1] != '-' {
			a.Words = append(a.Words, w)
			continue
		}
		name, val, hasVal := strings.Cut(w[2:], "=")
		if a.Inside == "" && len(a.Words) > 0 && hasWordAfter(words[i+1:], spec, contains(spec.Values, name) && !hasVal) {
			a.Inside, a.Before = name, len(a.Words)
		}
		switch {
		case contains(spec.Values, name):
			if !hasVal {
				if i+1 >= len(words) {
					return a, &UsageError{"--" + name + " needs a value"}
				}
				i++
				val = words[i]
			}
			a.flags[name] = append(a.flags[name], val)
		case contains(spec.Switches, name):
			if hasVal {
				return a, &UsageError{"--" + name + " takes no value"}
			}
			a.flags[name] = append(a.flags[name], "")
		default:
			return a, &UsageError{"unknown flag --" + name + known(spec)}
		}
	}
	return a, nil
}

// hasWordAfter reports whether rest, what follows a flag, holds a
// positional word: one that is neither a flag nor the value after a flag
// that takes one (value: the first word is the flag's own).
func hasWordAfter(rest []string, spec Spec, value bool) bool {
	for _, w := range rest {
		switch {
		case w == "--":
			return false
		case value:
			value = false
		case len(w) >= 3 && w[0] == '-' && w[1] == '-':
			name, _, inline := strings.Cut(w[2:], "=")
			value = !inline && contains(spec.Values, name)
		default:
			return true
		}
	}
	return false
}

func known(spec Spec) string {
	var all []string
	for _, v := range spec.Values {
		all = append(all, "--"+v+" X")
	}
	for _, s := range spec.Switches {
		all = append(all, "--"+s)
	}
	if len(all) == 0 {
		return " (this command takes no flags)"
	}
	return " (expected " + strings.Join(all, ", ") + ")"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
