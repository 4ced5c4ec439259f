package config

import "testing"

func TestSetTopLevelEditsInPlace(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"replace", `{"a": 1, "enabled": true}`, `{"a": 1, "enabled": false}`},
		{"replace keeps formatting", "{\n  \"enabled\":   true ,\n  \"a\": 1\n}\n", "{\n  \"enabled\":   false ,\n  \"a\": 1\n}\n"},
		{"replace any value", `{"enabled": "true", "a": 1}`, `{"enabled": false, "a": 1}`},
		{"insert first, spaced like the next key", "{\n  \"a\": 1\n}\n", "{\n  \"enabled\": false,\n  \"a\": 1\n}\n"},
		{"insert into a compact object", `{"a":1}`, `{"enabled": false, "a":1}`},
		{"insert into an empty object", "{ }\n", "{\n  \"enabled\": false\n}\n"},
		{"a nested key of the same name is not it", `{"autoCapture": {"enabled": true}}`, `{"enabled": false, "autoCapture": {"enabled": true}}`},
		{"a missing file", "", "{\n  \"enabled\": false\n}\n"},
		{"a blank file", " \n", "{\n  \"enabled\": false\n}\n"},
		{"byte-order mark kept", "\xEF\xBB\xBF{\"enabled\": true}", "\xEF\xBB\xBF{\"enabled\": false}"},
		{"byte-order mark only", "\xEF\xBB\xBF", "\xEF\xBB\xBF{\n  \"enabled\": false\n}\n"},
		// Duplicates: the occurrence that counts (the last) is set, the others go.
		{"duplicate: last set, earlier removed",
			"{\n  \"enabled\": false,\n  \"a\": 1,\n  \"enabled\": true\n}\n",
			"{\n  \"a\": 1,\n  \"enabled\": false\n}\n"},
		{"duplicate: three, compact", `{"enabled":true,"enabled":true,"b":2,"enabled":true}`, `{"b":2,"enabled":false}`},
		{"duplicate: escaped spelling", `{"en\u0061bled": false, "enabled": true}`, `{"enabled": false}`},
		{"duplicates of other keys are left alone", `{"a":1,"a":2,"enabled":true}`, `{"a":1,"a":2,"enabled":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in []byte
			if tt.in != "" {
				in = []byte(tt.in)
			}
			got, err := SetTopLevel(file, in, "enabled", "false")
			if err != nil || string(got) != tt.want {
				t.Fatalf("SetTopLevel(%q) = %q, %v\nwant %q", tt.in, got, err, tt.want)
			}
			if on, set, unclear := Parse(file, got).Switch("enabled"); on || !set || unclear != "" {
				t.Errorf("the edited file reads as %v, %v, %q; want false", on, set, unclear)
			}
		})
	}
}

// Only a person can tell what a broken file meant: it is refused, named,
// with the line and column.
func TestSetTopLevelRefusesAFileItCannotRead(t *testing.T) {
	tests := []struct{ name, in, err string }{
		{"trailing comma", "{\n  \"enabled\": true,\n}\n", file + ` is not valid JSON: line 2, column 18: trailing comma; delete the ',' before '}'`},
		{"comment", "// settings\n{}", file + ` is not valid JSON: line 1, column 1: comments are not JSON; delete the comment`},
		{"truncated", `{"enabled": tr`, file + ` is not valid JSON: line 1, column 13: unknown word "tr"; JSON has true, false and null (lower case) and strings in double quotes`},
		{"an array", `[1]`, file + ` must hold a JSON object such as {"enabled": true} (it holds an array)`},
		{"a string holding braces", `"{}"`, file + ` must hold a JSON object such as {"enabled": true} (it holds a string)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetTopLevel(file, []byte(tt.in), "enabled", "true")
			if err == nil || err.Error() != tt.err || got != nil {
				t.Errorf("SetTopLevel(%q) = %q, %v\nwant the error %q", tt.in, got, err, tt.err)
			}
		})
	}
}
