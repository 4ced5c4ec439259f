package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// settingsText writes the overrides set, for comparing them in tables.
func settingsText(s settings) string {
	out := ""
	if s.AutoCompact != nil {
		out += " autoCompact=" + onOff(*s.AutoCompact)
	}
	if s.Mode != nil {
		out += " mode=" + *s.Mode
	}
	for _, n := range []struct {
		key string
		v   *int
	}{{"observer", s.ObserverTokens}, {"reflector", s.ReflectorTokens}, {"retain", s.RetainTokens}} {
		if n.v != nil {
			out += " " + n.key + "=" + itoa(*n.v)
		}
	}
	return out
}

func TestAutoCompactArgumentsSetTheThresholdsInOrder(t *testing.T) {
	refused := func(w string) string {
		return "/om auto-compact: " + quote(w) + " is not on, off, buffered, blocking or a token count from 0 to 1000000 (at most three: observer, reflector, retain)."
	}
	tests := []struct {
		name  string
		words []string
		set   string
		why   string
	}{
		{"no words set nothing", nil, "", ""},
		{"on", []string{"on"}, " autoCompact=on", ""},
		{"off, whatever the case", []string{"OFF"}, " autoCompact=off", ""},
		{"a mode, lower-cased", []string{"Blocking"}, " mode=blocking", ""},
		{"counts in order: observer, reflector, retain", []string{"20000", "50000", "4000"}, " observer=20000 reflector=50000 retain=4000", ""},
		{"words in any order", []string{"12000", "buffered", "on"}, " autoCompact=on mode=buffered observer=12000", ""},
		{"a later switch wins", []string{"on", "off", "blocking", "buffered"}, " autoCompact=off mode=buffered", ""},
		{"0 and the limit are counts", []string{"0", "1000000"}, " observer=0 reflector=1000000", ""},
		{"a count is decimal as Atoi reads it", []string{"+007"}, " observer=7", ""},
		{"a fourth count", []string{"1", "2", "3", "4"}, "", refused("4")},
		{"a count over the limit", []string{"1000001"}, "", refused("1000001")},
		{"a negative count", []string{"-1"}, "", refused("-1")},
		{"a word it does not know", []string{"on", "soon"}, "", refused("soon")},
		{"a count with a unit", []string{"30k"}, "", refused("30k")},
		{"an empty word", []string{""}, "", refused("")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, why := parseAutoCompact(tt.words)
			require.Equal(t, tt.why, why)
			require.Equal(t, tt.set, settingsText(set))
		})
	}
}

func TestModeArgumentIsBufferedOrBlocking(t *testing.T) {
	tests := []struct {
		words []string
		mode  string
		ok    bool
	}{
		{nil, "", false},
		{[]string{"buffered"}, "buffered", true},
		{[]string{"BLOCKING"}, "blocking", true},
		{[]string{"blocking", "whatever"}, "", false}, // it was read as blocking
		{[]string{"eager"}, "", false},
		{[]string{""}, "", false},
	}
	for _, tt := range tests {
		mode, ok := parseMode(tt.words)
		require.Equal(t, tt.mode, mode, "%q", tt.words)
		require.Equal(t, tt.ok, ok, "%q", tt.words)
	}
}

func TestViewArgumentsSelectThePartsAndTheirLines(t *testing.T) {
	both := viewSel{obs: true, raw: true}
	tests := []struct {
		name  string
		words []string
		sel   viewSel
		ok    bool
	}{
		{"nothing shows both in full", nil, both, true},
		{"obs", []string{"obs"}, viewSel{obs: true}, true},
		{"raw, whatever the case", []string{"RAW"}, viewSel{raw: true}, true},
		{"both named", []string{"raw", "obs"}, both, true},
		{"a number of lines", []string{"20"}, viewSel{obs: true, raw: true, limit: 20}, true},
		{"the last number wins", []string{"5", "raw", "8"}, viewSel{raw: true, limit: 8}, true},
		{"0 lines is refused", []string{"0"}, viewSel{}, false},
		{"a negative number is refused", []string{"-3"}, viewSel{}, false},
		{"another word is refused", []string{"obs", "all"}, viewSel{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, ok := parseView(tt.words)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.sel, sel)
		})
	}
}
