package lifecycle

import (
	"github.com/pi-memory/pi-memory/wasm/cmdline"
	"github.com/tidwall/gjson"
)

// command routes `/decision …` (and pimem's `decision …`) to its store. pi
// sends the arguments as one string (args); pimem sends the words the shell
// already split (argv), so both reach the store as the same words.
func (e *Engine) command(out *Out, in gjson.Result) {
	var words []string
	if argv := in.Get("argv"); argv.IsArray() {
		for _, w := range argv.Array() {
			words = append(words, w.String())
		}
	} else {
		var err error
		words, err = cmdline.Split(in.Get("args").String())
		if err != nil {
			out.Usage("pi-memory: " + err.Error())
			return
		}
	}
	hasUI := e.s.HasUI
	if v := in.Get("hasUI"); v.Exists() {
		hasUI = v.Bool()
	}
	switch name := in.Get("name").String(); name {
	case "decision", "decisions":
		e.s.dec.command(out, words, hasUI)
	case "memory":
		e.s.notes.command(out, words, hasUI)
	default:
		out.Usage("pi-memory: unknown command " + name + " (known: decision, memory)")
	}
}
