package hsimport

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestProgressText(t *testing.T) {
	tests := []struct {
		p    Progress
		want string
	}{
		{Progress{Total: 1000, Sent: 120, Messages: 4210}, "imported 120/1000 sessions, 4,210 messages"},
		{Progress{Total: 1, Sent: 1, Messages: 1}, "imported 1/1 sessions, 1 message"},
		{Progress{Total: 5}, "imported 0/5 sessions, 0 messages"},
		{Progress{Total: 3, Sent: 1, Skipped: 2, Messages: 7}, "imported 1/3 sessions, 7 messages (2 skipped)"},
		{Progress{Total: 3, Sent: 1, Failed: 1, Messages: 7}, "imported 1/3 sessions, 7 messages (1 failed)"},
		{Progress{Total: 3, Sent: 1, Skipped: 1, Failed: 1, Messages: 1}, "imported 1/3 sessions, 1 message (1 skipped, 1 failed)"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, tc.p.Text())
	}
}

func TestProgressAddCountsASentSession(t *testing.T) {
	s := mustParse(t, fixture(t, "0195f3a2"))
	it := NewItem(s, "k")
	p := Progress{Total: 2}
	p.Add(s, it)
	p.Add(s, it)
	require.Equal(t, Progress{Total: 2, Sent: 2, Messages: 12, Chars: int64(2 * len(it.Content))}, p)
}

func TestGroupedPutsACommaBetweenThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 4210: "4,210", 123456: "123,456", 1234567: "1,234,567", -4210: "-4,210"} {
		require.Equal(t, want, grouped(n))
	}
}

func TestDryRunLineSaysWhatWouldBeSentAndWhatWasNoticed(t *testing.T) {
	f := File{Path: "/s/x.jsonl", Size: 10, Mtime: 1}
	s := mustParse(t, fixture(t, "0195f3ec"))
	it := NewItem(s, "github.com/ada/lib")
	require.Equal(t, "would send /s/x.jsonl: 2 messages, 96 characters, to bank pimem-lib-0 as pimem-import:0195f3ec-4444-7000-8111-000000000005",
		DryRunLine(f, s, it, "pimem-lib-0"))

	s = mustParse(t, fixture(t, "0195f3c4"))
	s.Broken, s.Cut = true, 2
	line := DryRunLine(f, s, NewItem(s, "k"), "b")
	require.Contains(t, line, "(4 secrets redacted, 2 middle parts over the size limit left out, its branch names a missing entry; sent from there)")
	s = mustParse(t, fixture(t, "0195f3d8"))
	require.Contains(t, DryRunLine(f, s, NewItem(s, "k"), "b"), "(2 corrupt lines skipped)")
	require.Equal(t, "skipped /s/x.jsonl: is empty", SkipLine(f, "is empty"))
}

func TestSummary(t *testing.T) {
	tests := []struct {
		name   string
		todo   Todo
		p      Progress
		dryRun bool
		want   string
	}{
		{"a dry run", Todo{New: 2, Done: 1}, Progress{Total: 2, Sent: 2, Messages: 9, Chars: 2048}, true,
			"dry run: 3 session files; 2 would be sent (9 messages, 2,048 characters), 1 already imported. Nothing was sent."},
		{"a run with everything", Todo{New: 3, Changed: 2, Done: 4, Skipped: 1}, Progress{Total: 5, Sent: 3, Skipped: 1, Failed: 1, Messages: 1200, Chars: 1}, false,
			"10 session files; 3 sent (1,200 messages, 1 character), 2 of them changed since they were imported, 4 already imported, 2 skipped, 1 failed (run the import again to retry them)."},
		{"a second run", Todo{Done: 1000}, Progress{}, false,
			"1,000 session files; 0 sent (0 messages, 0 characters), 1,000 already imported."},
		{"nothing found", Todo{}, Progress{}, false,
			"0 session files; 0 sent (0 messages, 0 characters)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Summary(tc.todo, tc.p, tc.dryRun))
		})
	}
}
