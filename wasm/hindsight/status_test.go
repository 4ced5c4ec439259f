package hindsight

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/hsimport"
)

func TestTheFooterNamesWaitingJobsThenTheModeThenTheBanks(t *testing.T) {
	tests := []struct {
		pending int
		mode    string
		banks   []Bank
		want    string
	}{
		{0, ModeNormal, twoBanks, "hindsight: project+user"},
		{0, ModeNormal, twoBanks[:1], "hindsight: project"},
		{0, ModeNormal, nil, "hindsight: "},
		{0, ModeReadOnly, twoBanks, "hindsight: read-only"},
		{0, ModeIgnored, twoBanks, "hindsight: ignored"},
		{1, ModeIgnored, twoBanks, "hindsight: 1 waiting"},
		{12, ModeNormal, twoBanks, "hindsight: 12 waiting"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, footerText(tc.pending, tc.mode, tc.banks), tc.want)
	}
}

func TestTheFooterAfterARecallNamesEveryBankThatFailed(t *testing.T) {
	tests := []struct {
		name string
		rs   []Recalled
		want string
	}{
		{"every bank answered", []Recalled{{Bank: twoBanks[0], Memories: []Memory{{Text: "m"}}}, {Bank: twoBanks[1]}}, ""},
		{"no bank asked", nil, ""},
		{"one failed", []Recalled{{Bank: twoBanks[0]}, {Bank: twoBanks[1], Problem: "timed out after 1500 ms"}}, "hindsight: user bank timed out after 1500 ms"},
		{"both failed", []Recalled{{Bank: twoBanks[0], Problem: "HTTP 500"}, {Bank: twoBanks[1], Problem: "the host gave no answer"}}, "hindsight: project bank HTTP 500; user bank the host gave no answer"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, recallFooter(tc.rs), tc.name)
	}
}

func TestTheFooterOfAnImportIsItsProgress(t *testing.T) {
	p := hsimport.Progress{Total: 3}
	require.Equal(t, "hindsight: "+p.Text(), importFooter(p))
}
