package lifecycle

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tidwall/gjson"
)

func (r *rig) complete(name, args string) []gjson.Result {
	r.t.Helper()
	out := r.call("complete", map[string]any{"name": name, "args": args})
	return gjson.Parse(out.Get("effects.0.text").String()).Array()
}

func values(list []gjson.Result) []string {
	var v []string
	for _, x := range list {
		v = append(v, x.Get("value").String())
	}
	return v
}

func TestCompletionOffersSubcommandsChoicesAndIds(t *testing.T) {
	r := newRig(t, false)
	r.cmd(`add Use PostgreSQL for the primary database`)
	r.cmd(`add Keep functions under 60 lines`)
	r.cmd(`resolve 0002 draft`)

	require.Equal(t, []string{"search ", "show ", "supersede ", "status "}, values(r.complete("decision", "s")))
	require.Equal(t, []string{"remove "}, values(r.complete("decision", "rm")), "an alias completes to its subcommand")
	require.Equal(t, []string{"show D-2026-02-27-0001 ", "show D-2026-02-27-0002 "}, values(r.complete("decision", "show ")), "active first, then the others")
	got := r.complete("decision", "show 02")
	require.Equal(t, []string{"show D-2026-02-27-0002 "}, values(got), "an id's end")
	require.Equal(t, "draft · Keep functions under 60 lines", got[0].Get("description").String())
	require.Equal(t, []string{"resolve D-2026-02-27-0001 draft "}, values(r.complete("decision", "resolve D-2026-02-27-0001 dr")))
	require.Equal(t, []string{"remove D-2026-02-27-0001 D-2026-02-27-0001 ", "remove D-2026-02-27-0001 D-2026-02-27-0002 "}, values(r.complete("decision", "remove D-2026-02-27-0001 ")), "<id>... repeats")
	require.Equal(t, 0, len(r.complete("decision", "add Use ")), "free text offers nothing")
	require.Equal(t, 0, len(r.complete("decision", "list --status ")), "flag values offer nothing")
	require.Equal(t, 0, len(r.complete("nothing", "")))

	r.write("proj/.pi/decision-memory.config.json", `{"enabled": false}`)
	r.call("before_agent_start", map[string]any{"prompt": "hi", "messageType": "user"})
	require.Equal(t, 0, len(r.complete("decision", "show ")), "a store that may not be read offers no ids")
	require.Equal(t, []string{"show "}, values(r.complete("decision", "sho")), "subcommands still")
}

func TestEveryExportIsAnsweredAndNoOtherIs(t *testing.T) {
	r := newRig(t, true)
	for _, name := range Exports {
		if name == "session_start" {
			continue
		}
		r.call(name, map[string]any{})
		if strings.Contains(r.text(), "unknown export") {
			t.Errorf("%s is in Exports but the engine answers %q", name, r.text())
		}
	}
	r.call("no_such_export", map[string]any{})
	if !strings.Contains(r.text(), "unknown export") {
		t.Errorf("an export outside Exports is answered: %q", r.text())
	}
}
