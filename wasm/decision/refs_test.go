package decision

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestARefIsAnIdOrTheEndOfOne(t *testing.T) {
	tests := []struct {
		ref  string
		want bool
	}{
		{"D-2026-03-01-0002", true},
		{"0002", true},
		{"01-0002", true},
		{"D-2026", true},
		{"2", true},
		{"", false},
		{"-", false},
		{"D-", false},
		{"abc", false},
		{"/p/.pi/memory/MEMORY.md:3", false},
		{"0002x", false},
		// As typed or pasted (h-v97): small, padded, typographic dashes.
		{"d-2026-03-01-0002", true},
		{" D-2026-03-01-0002 ", true},
		{"D\u20132026\u201303\u201301\u20130002", true},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, isRef(tt.ref), "isRef(%q)", tt.ref)
	}
}

func TestAnUnambiguousSuffixNamesTheDecisionAndAnAmbiguousOneListsTheCandidates(t *testing.T) {
	log := ev("2026-03-01T09:00:00.000Z", "a", "D-2026-03-01-0002", `{"tx":"Use Go"}`) +
		ev("2026-03-02T09:00:00.000Z", "a", "D-2026-03-02-0002", `{"tx":"Use pnpm"}`) +
		ev("2026-03-02T09:01:00.000Z", "a", "D-2026-03-02-0012", `{"tx":"Use tabs"}`) +
		ev("2026-03-02T09:02:00.000Z", "a", "D-2026-03-02-0013", `{"tx":"Use Make"}`) +
		ev("2026-03-02T09:03:00.000Z", "rm", "D-2026-03-02-0013", `{}`)
	st, _ := replay(t, log)
	tests := []struct {
		ref     string
		removed bool
		want    string
		err     string
	}{
		{"D-2026-03-01-0002", false, "D-2026-03-01-0002", ""},
		{"D-2026-09-09-0009", false, "D-2026-09-09-0009", ""}, // an id as it is: need says it does not exist
		{"01-0002", false, "D-2026-03-01-0002", ""},
		{"0012", false, "D-2026-03-02-0012", ""},
		{"d-2026-03-02-0012 ", false, "D-2026-03-02-0012", ""},
		{"02\u20130012", false, "D-2026-03-02-0012", ""},
		{"0013", false, "D-2026-03-02-0013", ""}, // removed: need says so
		{"0099", false, "", `No decision's id ends with "0099".`},
		{"0013", true, "D-2026-03-02-0013", ""},
		{"0012", true, "", `No removed decision's id ends with "0012".`},
		{"0002", false, "", "\"0002\" matches 2 decisions; give more of the id:\n  D-2026-03-02-0002 | Use pnpm\n  D-2026-03-01-0002 | Use Go"},
		{"use", false, "", `"use" is not a decision id (they look like D-2026-02-27-0001; the last digits, 0001, are enough when only one id ends that way).`},
	}
	for _, tt := range tests {
		got, err := st.find(tt.ref, tt.removed)
		if tt.err != "" {
			require.Error(t, err, "find(%q, %v)", tt.ref, tt.removed)
			require.Equal(t, tt.err, err.Error(), "find(%q, %v)", tt.ref, tt.removed)
			continue
		}
		require.NoError(t, err, "find(%q, %v)", tt.ref, tt.removed)
		require.Equal(t, tt.want, got, "find(%q, %v)", tt.ref, tt.removed)
	}
}

func TestRemovedNewestListsRemovalsNewestFirstWithoutIdsAddedAgain(t *testing.T) {
	log := ev("2026-03-01T09:00:00.000Z", "a", "D-2026-03-01-0001", `{"tx":"one"}`) +
		ev("2026-03-01T09:01:00.000Z", "a", "D-2026-03-01-0002", `{"tx":"two"}`) +
		ev("2026-03-01T09:02:00.000Z", "a", "D-2026-03-01-0003", `{"tx":"three"}`) +
		ev("2026-03-01T09:03:00.000Z", "a", "D-2026-03-01-0004", `{"tx":"four"}`) +
		ev("2026-03-02T09:00:00.000Z", "rm", "D-2026-03-01-0002", `{}`) +
		ev("2026-03-02T09:01:00.000Z", "rm", "D-2026-03-01-0001", `{}`) +
		ev("2026-03-02T09:02:00.000Z", "rm", "D-2026-03-01-0003", `{}`) +
		ev("2026-03-02T09:03:00.000Z", "a", "D-2026-03-01-0003", `{"tx":"three again"}`)
	st, _ := replay(t, log)
	ids := func(xs []*decision) []string {
		var out []string
		for _, x := range xs {
			out = append(out, x.ID)
		}
		return out
	}
	require.Equal(t, []string{"D-2026-03-01-0001", "D-2026-03-01-0002"}, ids(st.removedNewest(5)), "0003 was added again")
	require.Equal(t, []string{"D-2026-03-01-0001"}, ids(st.removedNewest(1)))
	require.Equal(t, 0, len(st.removedNewest(0)))
}
