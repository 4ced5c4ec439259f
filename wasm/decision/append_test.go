package decision

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestStampGivesEveryEventTheVersionTimeProjectAndActor(t *testing.T) {
	const now = 1772172000000 // 2026-02-27T06:00:00.000Z
	tests := []struct {
		name string
		in   Event
		want Event
	}{
		{"an add by the person",
			Event{Code: Add, ID: "D-2026-02-27-0001"},
			Event{V: 1, Time: "2026-02-27T06:00:00.000Z", TimeMs: now, Project: "ab", Code: Add, ID: "D-2026-02-27-0001", Actor: "user"}},
		{"an actor the transition named stays",
			Event{Code: Edit, ID: "D-2026-02-27-0001", Actor: "auto-capture"},
			Event{V: 1, Time: "2026-02-27T06:00:00.000Z", TimeMs: now, Project: "ab", Code: Edit, ID: "D-2026-02-27-0001", Actor: "auto-capture"}},
		{"what a transition set is replaced",
			Event{V: 7, Time: "1999-01-01T00:00:00.000Z", TimeMs: 1, Project: "zz", Code: Remove, ID: "D-2026-02-27-0002"},
			Event{V: 1, Time: "2026-02-27T06:00:00.000Z", TimeMs: now, Project: "ab", Code: Remove, ID: "D-2026-02-27-0002", Actor: "user"}},
	}
	for _, tt := range tests {
		events := []Event{tt.in}
		stamp(events, now, "ab")
		require.Equal(t, tt.want, events[0], tt.name)
	}
}

func TestAppendLinesWritesOneLineAnEventAfterWhatIsThere(t *testing.T) {
	add := Event{V: 1, Time: "2026-02-27T06:00:00.000Z", Project: "ab", Code: Add, ID: "D-2026-02-27-0001",
		Data: Data{Has: HasText, Text: "Use Go"}, Actor: "user"}
	rm := Event{V: 1, Time: "2026-02-27T06:00:00.000Z", Project: "ab", Code: Remove, ID: "D-2026-02-27-0001", Actor: "user"}
	addLine := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use Go","tg":[],"s":"active","sp":null,"c":[]},"u":"user"}` + "\n"
	rmLine := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"rm","i":"D-2026-02-27-0001","d":{},"u":"user"}` + "\n"
	tests := []struct {
		name   string
		dst    string
		events []Event
		want   string
	}{
		{"nothing", "", nil, ""},
		{"one event", "", []Event{add}, addLine},
		{"two events", "", []Event{add, rm}, addLine + rmLine},
		{"after the newline that seals a torn line", "\n", []Event{rm}, "\n" + rmLine},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, string(appendLines([]byte(tt.dst), tt.events)), tt.name)
	}
}
