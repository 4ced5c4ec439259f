package lifecycle

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// maxCompletions bounds what one completion offers.
const maxCompletions = 20

// complete answers pi's argument completion ({name, args}: the words typed
// after a command's name so far): an output whose text is a JSON array of
// {value, label, description}, each value the whole argument text with the
// word being typed completed (pi puts it in place of what was typed). The
// first word completes to a subcommand; a positional argument to what its
// store offers for it (store.Completer), when the store may be read.
//
//	complete({"name":"decision","args":"sh"})      => [{"value":"show ","label":"show",…}]
//	complete({"name":"decision","args":"show 00"}) => [{"value":"show D-2026-03-01-0002 ",…}]
func (e *Engine) complete(out *store.Out, in gjson.Result) {
	out.Output(string(completionsJSON(e.completions(jsonr.Get(in, "name").Str, jsonr.Get(in, "args").Str))))
}

type completion struct{ value, label, description string }

func (e *Engine) completions(name, args string) []completion {
	cmd, _, ok := registry.Resolve(name)
	if !ok {
		return nil
	}
	words := strings.Fields(args)
	cur := ""
	if len(words) > 0 && !strings.HasSuffix(args, " ") {
		cur, words = words[len(words)-1], words[:len(words)-1]
	}
	if len(words) == 0 {
		return subCompletions(cmd, cur)
	}
	sub, ok := cmd.Sub(words[0])
	if !ok || e.s == nil {
		return nil
	}
	placeholder := positional(sub, words[1:])
	if placeholder == "" {
		return nil
	}
	offered := choices(placeholder, cur)
	if offered == nil {
		st := e.store(cmd.Store)
		x, ok := st.(store.Completer)
		if !ok || e.may(st, store.Read) != "" {
			return nil
		}
		offered = x.Complete(sub.Name, placeholder, cur, maxCompletions)
	}
	typed := strings.Join(words, " ") + " "
	var list []completion
	for _, c := range offered {
		list = append(list, completion{typed + c.Value + " ", c.Value, c.Description})
	}
	return list
}

// subCompletions are the subcommands that begin with word (or whose alias
// does), with their help.
func subCompletions(cmd *registry.Command, word string) []completion {
	word = strings.ToLower(word)
	var list []completion
	for i := range cmd.Subs {
		s := &cmd.Subs[i]
		match := strings.HasPrefix(s.Name, word)
		for _, a := range s.Aliases {
			match = match || strings.HasPrefix(a, word)
		}
		if match {
			list = append(list, completion{s.Name + " ", s.Name, s.Help})
		}
	}
	return list
}

// positional is the synopsis placeholder of the next positional word after
// those typed (flags and their values skipped), "" past the last.
//
//	positional(resolve "<id> active|…", []) => "<id>"
func positional(s *registry.Sub, typed []string) string {
	spec := s.Spec()
	n := 0
	for i := 0; i < len(typed); i++ {
		w := typed[i]
		if strings.HasPrefix(w, "--") {
			name := strings.TrimPrefix(w, "--")
			for _, v := range spec.Values {
				if v == name && !strings.Contains(w, "=") {
					i++
				}
			}
			continue
		}
		n++
	}
	fields := strings.Fields(s.Args)
	if len(fields) == 0 {
		return ""
	}
	if n >= len(fields) {
		// "<id>..." takes any number.
		if last := fields[len(fields)-1]; strings.HasSuffix(last, "...") {
			return strings.TrimSuffix(last, "...")
		}
		return ""
	}
	return strings.TrimSuffix(strings.Trim(fields[n], "[]"), "...")
}

// choices are the words a placeholder like "active|draft" allows that
// begin with prefix; nil for a placeholder that is not a choice.
func choices(placeholder, prefix string) []store.Completion {
	if !strings.Contains(placeholder, "|") || strings.ContainsAny(placeholder, "<>") {
		return nil
	}
	var list []store.Completion
	for _, w := range strings.Split(placeholder, "|") {
		if strings.HasPrefix(w, strings.ToLower(prefix)) {
			list = append(list, store.Completion{Value: w})
		}
	}
	return list
}

func completionsJSON(list []completion) []byte {
	return jsonw.Array(nil, len(list), func(b []byte, i int) []byte {
		w := jsonw.Open(b)
		w.Str("value", list[i].value)
		w.Str("label", list[i].label)
		if list[i].description != "" {
			w.Str("description", list[i].description)
		}
		return w.Close()
	})
}
