package decision

import "testing"

func TestNamesID(t *testing.T) {
	for p, want := range map[string]bool{"<id>": true, "<oldId>": true, "<id1>": true, "<id2>": true, "<text>": false, "<newText>": false, "<words>": false, "[note]": false} {
		if got := namesID(p); got != want {
			t.Errorf("namesID(%q) = %v, want %v", p, got, want)
		}
	}
}
