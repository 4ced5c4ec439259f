package registry

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestAboutShowsTwelveHexDigitsOfTheModuleHashOrNone(t *testing.T) {
	tests := []struct {
		name, sha, want string
	}{
		{"a full hash is cut to 12 digits", "6f1e0c4b9a2d7e3f00112233445566778899aabbccddeeff0011223344556677", "pi-memory 0.1.0 (core sha256:6f1e0c4b9a2d)"},
		{"upper case reads as lower case", "6F1E0C4B9A2D", "pi-memory 0.1.0 (core sha256:6f1e0c4b9a2d)"},
		{"no hash: the release alone", "", "pi-memory 0.1.0"},
		{"too short to tell builds apart", "6f1e0c4b9a2", "pi-memory 0.1.0"},
		{"not hex", "6f1e0c4b9a2z7e3f", "pi-memory 0.1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := About("0.1.0", tt.sha); got != tt.want {
				t.Errorf("About(%q) = %q, want %q", tt.sha, got, tt.want)
			}
		})
	}
}

func TestJSONCarriesTheRelease(t *testing.T) {
	var got struct {
		Version string `json:"version"`
	}
	if err := json.Unmarshal(JSON(), &got); err != nil {
		t.Fatalf("JSON() is not JSON: %v", err)
	}
	if got.Version != Release {
		t.Fatalf(`JSON() has "version":%q, want %q`, got.Version, Release)
	}
}

func ExampleAbout() {
	fmt.Println(About("0.1.0", "6f1e0c4b9a2d7e3f00112233445566778899aabbccddeeff0011223344556677"))
	fmt.Println(About("0.1.0", ""))
	// Output:
	// pi-memory 0.1.0 (core sha256:6f1e0c4b9a2d)
	// pi-memory 0.1.0
}
