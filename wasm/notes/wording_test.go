package notes

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestScopeTitleAndNounNameEachScope(t *testing.T) {
	tests := []struct {
		scope, title, noun string
	}{
		{scopeGlobal, "Global", "global memory"},
		{scopeProject, "Project", "project memory"},
		{scopeLocal, "Personal notes", "your personal project notes"},
	}
	for _, tt := range tests {
		t.Run(tt.scope, func(t *testing.T) {
			require.Equal(t, tt.title, scopeTitle(tt.scope))
			require.Equal(t, tt.noun, scopeNoun(tt.scope))
		})
	}
}

func TestFaultReasonNamesTheCapThatForcedAPageOut(t *testing.T) {
	tests := []struct{ reason, want string }{
		{"scope_lines", "over the scope's maxInjectLines"},
		{"scope_bytes", "over the scope's maxInjectBytes"},
		{"tokens", "over maxMemoryTokens"},
		{"something_new", "something_new"}, // a reason from a later version, as written
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, faultReason(tt.reason), "faultReason(%q)", tt.reason)
	}
}

func TestTraceLineSaysWhatWasInjectedOrWritten(t *testing.T) {
	tests := []struct {
		name string
		t    Trace
		want string
	}{
		{"an injection, store by store", Trace{Kind: "inject", Stores: []storeReceipt{{Store: "notes", Bytes: 1521, Tokens: 381}, {Store: "decisions", Bytes: 0, Tokens: 0}}},
			"inject  notes 1521 B ≈ 381 tok, decisions 0 B ≈ 0 tok"},
		{"an injection with faults", Trace{Kind: "inject", Stores: []storeReceipt{{Store: "notes", Bytes: 10, Tokens: 3}}, Faults: []fault{{}, {}}},
			"inject  notes 10 B ≈ 3 tok; 2 faults"},
		{"one fault", Trace{Kind: "inject", Faults: []fault{{}}}, "inject  ; 1 fault"},
		{"a flush counts what it wrote and refused", Trace{Kind: "flush", Ops: []Op{{Op: "commit"}, {Op: "reject"}, {Op: "commit"}}},
			"flush   2 written, 1 refused"},
		{"another kind is named as it is", Trace{Kind: "compact"}, "compact"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, traceLine(&tt.t))
		})
	}
}

func TestPadRightPadsToAColumnAndNeverCuts(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"fact", 7, "fact   "},
		{"pointer", 7, "pointer"},
		{"heading", 4, "heading"},
		{"", 2, "  "},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, padRight(tt.s, tt.n), "padRight(%q, %d)", tt.s, tt.n)
	}
}
