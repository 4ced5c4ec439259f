package lifecycle

import "github.com/tidwall/gjson"

// decisions drives the decision store for one session (temporary skeleton).
type decisions struct {
	e *Engine
	s *Session
}

func newDecisions(e *Engine, s *Session) *decisions { return &decisions{e: e, s: s} }

func (d *decisions) start(out *Out) {}

func (e *Engine) beforeAgentStart(out *Out, in gjson.Result) {}

func (e *Engine) agentEnd(out *Out, in gjson.Result) {}

func (e *Engine) command(out *Out, in gjson.Result) {
	out.Output("pi-memory: commands are not wired yet")
}
