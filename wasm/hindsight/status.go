package hindsight

import (
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hsimport"
)

// The footer: pi's status line for Hindsight, kept short. Each moment that
// may change it renders it again from what it knows; the driver sends it
// only when it changed.

// footerText is the footer between recalls: the jobs waiting in the outbox,
// else a mode other than normal, else the scopes of the selected banks.
//
//	footerText(2, ModeNormal, banks) => "hindsight: 2 waiting"
//	footerText(0, ModeReadOnly, banks) => "hindsight: read-only"
//	footerText(0, ModeNormal, []Bank{{BankProject, "p"}, {BankUser, "u"}}) => "hindsight: project+user"
func footerText(pending int, mode string, banks []Bank) string {
	switch {
	case pending > 0:
		return "hindsight: " + strconv.Itoa(pending) + " waiting"
	case mode != ModeNormal:
		return "hindsight: " + mode
	}
	scopes := make([]string, len(banks))
	for i, b := range banks {
		scopes[i] = b.Scope
	}
	return "hindsight: " + strings.Join(scopes, "+")
}

// recallFooter is the footer after a recall in which a bank failed, naming
// each that did and why; "" when every bank answered (the footer is then
// footerText's).
//
//	recallFooter([]Recalled{{Bank: Bank{BankUser, "u"}, Problem: "HTTP 500"}}) => "hindsight: user bank HTTP 500"
func recallFooter(rs []Recalled) string {
	var failed []string
	for _, r := range rs {
		if r.Problem != "" {
			failed = append(failed, r.Bank.Scope+" bank "+r.Problem)
		}
	}
	if len(failed) == 0 {
		return ""
	}
	return "hindsight: " + strings.Join(failed, "; ")
}

// importFooter is the footer while an import runs in pi: how far it is.
func importFooter(p hsimport.Progress) string { return "hindsight: " + p.Text() }
