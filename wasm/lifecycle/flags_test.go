package lifecycle

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestNoMemoryFlag(t *testing.T) {
	tests := []struct {
		json    string
		off     bool
		misread string
	}{
		{`{}`, false, ""},
		{`{"f":false,"argv":["-p","--no-memory","hi"]}`, false, ""},
		{`{"f":true}`, true, ""},
		{`{"f":"true"}`, true, ""},
		{`{"f":true,"argv":["--no-memory","-p","hi"]}`, true, ""},
		{`{"f":true,"argv":["-p","hi","--no-memory"]}`, true, ""},
		{`{"f":true,"argv":["-p","--no-memory","what do we use?"]}`, true, `pi took "what do we use?" as the value of --no-memory`},
		{`{"f":true,"argv":["--no-memory","fix\nit"]}`, true, `pi --no-memory -p "fix it"`},
		{`{"f":true,"argv":["--","--no-memory","x"]}`, true, ""},
	}
	for _, tt := range tests {
		off, misread := noMemoryFlag(gjson.Get(tt.json, "f"), gjson.Get(tt.json, "argv"))
		if off != tt.off || (tt.misread == "") != (misread == "") || !strings.Contains(misread, tt.misread) {
			t.Errorf("noMemoryFlag(%s) = %v, %q; want %v, %q", tt.json, off, misread, tt.off, tt.misread)
		}
	}
}
