package decision

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// A secret someone wrote into the log by hand (or a merge brought in) stays in
// the log as written, and goes nowhere else: not into what is injected, not
// into what a command prints, not into a snapshot.
func TestAHandWrittenSecretReachesNoExit(t *testing.T) {
	const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	log := ev("2026-02-27T06:00:00.000Z", "a", "D-2026-02-27-0001", `{"ti":"Deploy with `+token+`","tx":"Deploy with `+token+` on Fridays","tg":["`+token+`","ops"],"r":"password=hunter2hunter2"}`) +
		ev("2026-02-27T07:00:00.000Z", "a", "D-2026-02-27-0002", `{"tx":"Use Go"}`) +
		ev("2026-02-27T08:00:00.000Z", "ed", "D-2026-02-27-0002", `{"c":["D-2026-02-27-0001"],"cn":"see `+token+`"}`)
	st, cur := replay(t, log)
	x := st.Get("D-2026-02-27-0001")
	exits := map[string]string{
		"injected section": st.Section(20),
		"list line":        listLine(x),
		"show":             showText(x) + showText(st.Get("D-2026-02-27-0002")),
		"json":             string(appendJSON(nil, x)) + string(appendJSON(nil, st.Get("D-2026-02-27-0002"))),
	}
	var snap bytes.Buffer
	require.NoError(t, st.WriteSnapshot(cur, logGuard{Sum: 1}, 2, func(b []byte) error { snap.Write(b); return nil }))
	exits["snapshot"] = snap.String()
	for what, text := range exits {
		for _, secret := range []string{token, "hunter2hunter2"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds the secret %q:\n%s", what, secret, text)
			}
		}
	}
	if !strings.Contains(exits["injected section"], "D-2026-02-27-0001 | Deploy with [REDACTED") {
		t.Errorf("the decision is still injected, redacted: %q", exits["injected section"])
	}
}
