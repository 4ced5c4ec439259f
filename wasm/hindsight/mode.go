package hindsight

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/registry"
	"github.com/tidwall/gjson"
)

// What the session's mode and configuration let Hindsight do: recall,
// retain, offer its tools, be read at all.

// optOutWord is the word of /hindsight mode (and the subcommand) that keeps
// the next run from being retained.
const optOutWord = "next-opt-out"

// notRetained says why nothing is retained in mode, with the next-run
// opt-out flag, or "" when it is: the one rule the turn's retain, an import
// and the hindsight_retain tool follow.
//
//	notRetained(c, modeReadOnly, false) => "this session's Hindsight mode is read-only…"
func notRetained(c settings, mode string, optOut bool) string {
	switch {
	case !c.on():
		return "Hindsight is not configured"
	case !c.RetainEnabled:
		return "\"retain.enabled\" is false in the Hindsight config, so nothing is retained"
	case mode != modeNormal:
		return "this session's Hindsight mode is " + mode + ", so nothing is retained (/hindsight mode normal turns retaining back on)"
	case optOut:
		return "this run is opted out of retaining (/hindsight next-opt-out)"
	}
	return ""
}

// recallRuns says whether recall runs in mode.
func recallRuns(c settings, mode string) bool {
	return c.on() && mode != modeIgnored
}

// offWord is offReason in a word or two, for the footer.
//
//	offWord(false, on) => "untrusted"
func offWord(trusted bool, c settings) string {
	switch {
	case !trusted:
		return "untrusted"
	case c.Why != "":
		return "bad config"
	case !c.on():
		return "not configured"
	}
	return ""
}

// offReason says why Hindsight can be neither read nor written this
// session, or "" when it can: an untrusted project, a config that cannot be
// read or a URL refused (whyOff), no server configured (naming globalFile,
// where "url" goes). Each is one sentence that says Hindsight is off once.
func offReason(trusted bool, c settings, globalFile string) string {
	switch {
	case !trusted:
		return "This project is not trusted, so Hindsight neither recalls nor retains here."
	case c.Why != "":
		return whyOff(c)
	case !c.on():
		return "Hindsight is not configured: set \"url\" in " + globalFile + " (or the project's .pi/" + configFile + "), or HINDSIGHT_API_URL."
	}
	return ""
}

// whyOff is the sentence for a configuration that keeps Hindsight off
// (settings.Why): the warning at session start and the status say it.
//
//	whyOff(settings{Why: "HINDSIGHT_API_URL http://***@e:1 holds a user name or password. Put the key in …"})
//	=> "Hindsight is off: HINDSIGHT_API_URL http://***@e:1 holds a user name or password. Put the key in …"
func whyOff(c settings) string { return "Hindsight is off: " + c.Why }

// offeredTools are Hindsight's tools in the registry (those whose Store is
// storeName) the model may call while Hindsight may inject: hindsight_retain only while the
// session retains (the rule a turn's retain follows).
func offeredTools(retains bool) []string {
	var names []string
	for _, t := range registry.Tools {
		if t.Store != storeName || t.Name == retainTool && !retains {
			continue
		}
		names = append(names, t.Name)
	}
	return names
}

// branchMode is the mode the session's branch set last (/hindsight mode
// leaves an entry of entryType), "" when it set none. An entry holding
// anything but a mode is passed over.
//
//	branchMode(`[{"type":"custom","customType":"pi-memory-hindsight","data":{"mode":"read-only"}}]`) => "read-only"
func branchMode(branch gjson.Result) string {
	mode := ""
	branch.ForEach(func(_, e gjson.Result) bool {
		if jsonr.Get(e, "customType").Str == entryType {
			switch m := jsonr.Get(e, "data.mode").Str; m {
			case modeNormal, modeReadOnly, modeIgnored:
				mode = m
			}
		}
		return true
	})
	return mode
}

// modeArg reads /hindsight mode's words: none asks for the mode ("", true);
// a mode (any case) sets it; "next-opt-out" opts the next run out. Anything
// else is not ok: the usage is shown. Words after the first are ignored.
//
//	modeArg([]string{"Read-Only"}) => "read-only", true
func modeArg(words []string) (string, bool) {
	if len(words) == 0 {
		return "", true
	}
	switch m := strings.ToLower(words[0]); m {
	case optOutWord, modeNormal, modeReadOnly, modeIgnored:
		return m, true
	}
	return "", false
}
