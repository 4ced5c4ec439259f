package cmdline

import (
	"reflect"
	"testing"
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
		if (err != nil) != tt.err {
			t.Errorf("Split(%q) error = %v, want error %v", tt.in, err, tt.err)
			continue
		}
		if !tt.err && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseSeparatesFlagsFromWords(t *testing.T) {
	spec := Spec{Values: []string{"tag", "reason"}, Switches: []string{"yes", "json"}}
	a, err := Parse([]string{"Use", "X", "--tag", "db", "--tag=api", "--yes", "for", "Y"}, spec)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Text(0); got != "Use X for Y" {
		t.Errorf("Text = %q", got)
	}
	if got := a.Values("tag"); !reflect.DeepEqual(got, []string{"db", "api"}) {
		t.Errorf("tags = %q", got)
	}
	if !a.Has("yes") || a.Has("json") {
		t.Errorf("switches wrong: %v", a.flags)
	}
}

func TestParseDoubleDashEndsFlags(t *testing.T) {
	a, err := Parse([]string{"--", "--tag", "is", "text"}, Spec{Values: []string{"tag"}})
	if err != nil {
		t.Fatal(err)
	}
	if a.Text(0) != "--tag is text" || a.Has("tag") {
		t.Errorf("got %q %v", a.Text(0), a.flags)
	}
}

func TestParseUsageErrors(t *testing.T) {
	spec := Spec{Values: []string{"reason"}, Switches: []string{"yes"}}
	for _, in := range [][]string{{"--reason"}, {"--nope"}, {"--yes=1"}} {
		_, err := Parse(in, spec)
		if _, ok := err.(*UsageError); !ok {
			t.Errorf("Parse(%q) error = %v, want UsageError", in, err)
		}
	}
}

func TestShortDashWordsArePositional(t *testing.T) {
	a, err := Parse([]string{"-", "-x", "--"}, Spec{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Words, []string{"-", "-x"}) {
		t.Errorf("words = %q", a.Words)
	}
}
