package cmdline

import (
	"reflect"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestSplitLikeAShell(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{in: "", want: nil},
		{in: "  list  ", want: []string{"list"}},
		{in: `add "Use PostgreSQL" --tag db`, want: []string{"add", "Use PostgreSQL", "--tag", "db"}},
		{in: `add 'single quoted' x`, want: []string{"add", "single quoted", "x"}},
		{in: `add don't panic`, want: []string{"add", "don't", "panic"}},
		{in: `add "say \"hi\""`, want: []string{"add", `say "hi"`}},
		{in: `a\ b c`, want: []string{"a b", "c"}},
		{in: "tab\tsep\nnl", want: []string{"tab", "sep", "nl"}},
		{in: `add "open`, err: true},
		{in: `add 'open`, err: true},
		{in: `""`, want: []string{""}},
	}
	for _, tt := range tests {
		got, err := Split(tt.in)
		require.Equal(t, tt.err, err != nil, "Split(%q) failed with %v", tt.in, err)
		require.True(t, tt.err || reflect.DeepEqual(got, tt.want), "Split(%q) = %q, want %q", tt.in, got, tt.want)
	}
}

func TestParseSeparatesFlagsFromWords(t *testing.T) {
	spec := Spec{Values: []string{"tag", "reason"}, Switches: []string{"yes", "json"}}
	a, err := Parse([]string{"Use", "X", "--tag", "db", "--tag=api", "--yes", "for", "Y"}, spec)
	require.NoError(t, err)
	require.Equal(t, "Use X for Y", a.Text(0), "Text")
	require.Equal(t, []string{"db", "api"}, a.Values("tag"), "tags")
	require.True(t, a.Has("yes") && !a.Has("json"), "switches wrong: %v", a.flags)
}

func TestParseDoubleDashEndsFlags(t *testing.T) {
	a, err := Parse([]string{"--", "--tag", "is", "text"}, Spec{Values: []string{"tag"}})
	require.NoError(t, err)
	require.True(t, a.Text(0) == "--tag is text" && !a.Has("tag"), "got %q %v", a.Text(0), a.flags)
}

func TestParseUsageErrors(t *testing.T) {
	spec := Spec{Values: []string{"reason"}, Switches: []string{"yes"}}
	for _, in := range [][]string{{"--reason"}, {"--nope"}, {"--yes=1"}} {
		_, err := Parse(in, spec)
		_, ok := err.(*UsageError)
		require.True(t, ok, "Parse(%q) error = %v, want UsageError", in, err)
	}
}

func TestShortDashWordsArePositional(t *testing.T) {
	a, err := Parse([]string{"-", "-x", "--"}, Spec{})
	require.NoError(t, err)
	require.Equal(t, []string{"-", "-x"}, a.Words, "words")
}
