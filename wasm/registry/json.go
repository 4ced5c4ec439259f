package registry

import "github.com/pi-memory/pi-memory/wasm/internal/jsonw"

// Version of the JSON shape below; hosts refuse a shape they do not know.
const Version = 1

// JSON is the registry as hosts read it: the `registry` export returns it,
// the build writes it to ts/registry.json for pi to register commands from
// without starting the core, and pimem prints its --help and --version from it.
//
//	{"v":1,"version":"0.1.0","commands":[{"name":"decision","aliases":["decisions"],…}],"flags":[…],"global":[…],"tools":[…],"mcpTools":[…]}
//
// "tools" are those pi's model is offered (pi's adapter registers them),
// "mcpTools" those `pimem mcp` serves.
func JSON() []byte {
	w := jsonw.Open(nil)
	w.Int("v", Version)
	w.Str("version", Release)
	w.Raw("commands", jsonw.Array(nil, len(Commands), func(b []byte, i int) []byte {
		return append(b, CommandJSON(&Commands[i])...)
	}))
	w.Raw("flags", jsonw.Array(nil, len(Flags), func(b []byte, i int) []byte {
		f := &Flags[i]
		o := jsonw.Open(b)
		o.Str("name", f.Name)
		o.Str("type", f.Type)
		o.Str("description", f.Description)
		return o.Close()
	}))
	w.Raw("global", flagsJSON(Global))
	w.Raw("tools", toolsJSON(ToolsFor(Pi), false))
	w.Raw("mcpTools", toolsJSON(ToolsFor(MCP), true))
	return w.Close()
}

// CommandJSON is one command as JSON() lists it (what `/name help --json` prints).
func CommandJSON(c *Command) []byte {
	o := jsonw.Open(nil)
	o.Str("name", c.Name)
	o.Str("store", c.Store)
	// Implied aliases are listed with the others, so a host registers every
	// name the same way and sends the one typed; "implied" says what each
	// stands for.
	names := c.Names()[1:]
	o.Strs("aliases", names)
	o.Raw("implied", jsonw.Array(nil, len(c.Implied), func(b []byte, i int) []byte {
		io := jsonw.Open(b)
		io.Str("name", c.Implied[i].Name)
		io.Strs("words", c.Implied[i].Words)
		return io.Close()
	}))
	o.Str("description", c.Description)
	o.Str("default", c.Default)
	o.Raw("subcommands", jsonw.Array(nil, len(c.Subs), func(b []byte, k int) []byte {
		s := &c.Subs[k]
		so := jsonw.Open(b)
		so.Str("name", s.Name)
		so.Strs("aliases", s.Aliases)
		so.Str("args", s.Args)
		so.Str("help", s.Help)
		so.Str("kind", s.Kind.String())
		so.Str("usage", c.Usage(s))
		so.Raw("flags", flagsJSON(s.Flags))
		return so.Close()
	}))
	return o.Close()
}

func flagsJSON(fs []Flag) []byte {
	return jsonw.Array(nil, len(fs), func(b []byte, i int) []byte {
		f := &fs[i]
		o := jsonw.Open(b)
		o.Str("name", f.Name)
		o.Str("value", f.Value)
		o.Bool("repeat", f.Repeat)
		o.Str("help", f.Help)
		return o.Close()
	})
}

// toolsJSON lists tools; annotated, each with its MCP annotations:
//
//	"annotations":{"title":"Memory search","readOnlyHint":true,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}
func toolsJSON(tools []Tool, annotated bool) []byte {
	return jsonw.Array(nil, len(tools), func(b []byte, i int) []byte {
		t := &tools[i]
		o := jsonw.Open(b)
		o.Str("name", t.Name)
		o.Str("label", t.Label)
		o.Str("description", t.Description)
		o.Raw("parameters", []byte(t.Parameters))
		if annotated {
			a := jsonw.Open(nil)
			a.Str("title", t.Label)
			a.Bool("readOnlyHint", t.Has(ReadOnly))
			a.Bool("destructiveHint", !t.Has(ReadOnly) && !t.Has(Additive))
			a.Bool("idempotentHint", t.Has(ReadOnly) || t.Has(Idempotent))
			a.Bool("openWorldHint", !t.Has(Local))
			o.Raw("annotations", a.Close())
		}
		return o.Close()
	})
}
