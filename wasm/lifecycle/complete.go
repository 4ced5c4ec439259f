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
	out.Exact() // JSON: each string cleaned (marker.DataJSON), none reworded
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
		var list []completion
		for _, s := range cmd.Starting(cur) {
			list = append(list, completion{s.Name + " ", s.Name, s.Help})
		}
		return list
	}
	sub, ok := cmd.Sub(words[0])
	if !ok || e.s == nil {
		return nil
	}
	placeholder := sub.Next(words[1:])
	if placeholder == "" {
		return nil
	}
	var offered []store.Completion
	for _, w := range registry.Choices(placeholder, cur) {
		offered = append(offered, store.Completion{Value: w})
	}
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
