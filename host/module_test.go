package host

import (
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
)

// What the release module must not link, and why: each came back once by a
// change that looked harmless, and each costs tens of kilobytes
// (docs/decisions/008-module-size.md).
var unlinked = []struct{ pkg, why string }{
	{"github.com/tidwall/gjson.mod", "gjson's modifiers are linked: some code calls gjson's Get (read fields with jsonr.Get), or a package initializer no longer runs at build time (an import such as crypto/… makes the later ones run at start-up)"},
	{"github.com/tidwall/pretty", "gjson's @pretty modifier is linked (see github.com/tidwall/gjson.mod)"},
	{"encoding/json", "reflection-based JSON is linked: write with jsonw, read with gjson and jsonr.Get"},
	{"fmt", "fmt is linked: build strings with strconv and jsonw"},
	{"reflect", "reflect is linked (encoding/json, fmt or encoding/binary brought it)"},
	{"crypto/", "a crypto package is linked: its FIPS 140 self-tests run at start-up and leave every later package initializer to run there too; hash ids with wasm/sha1"},
	{"time", "the time package is linked: decision.ParseTime and FormatTime do without it"},
}

func TestTheReleaseModuleLinksNoneOfWhatItDoesNotNeed(t *testing.T) {
	data, err := os.ReadFile(testmod.Cores[0].Path(t))
	require.NoError(t, err)
	names, err := functionNames(data)
	require.NoError(t, err)
	require.True(t, len(names) > 100, "the module names only %d functions: was it built with its name section?", len(names))
	for _, u := range unlinked {
		for _, name := range names {
			if mentions(name, u.pkg) {
				t.Errorf("%s links %s: %s", testmod.Cores[0].Rel, name, u.why)
				break
			}
		}
	}
}

func TestMentionsFindsAPackageOnlyWhereItsNameStarts(t *testing.T) {
	tests := []struct {
		name, pkg string
		want      bool
	}{
		{"time.Parse", "time", true},
		{"(*time.Location).lookup", "time", true},
		{"slices.pdqsortCmpFunc[encoding/json.field]", "encoding/json", true},
		{"runtime.clock_time_get", "time", false},
		{"(*internal/reflectlite.RawType).Size", "reflect", false},
		{"crypto/internal/fips140/aes.init", "crypto/", true},
		{"github.com/pi-memory/pi-memory/wasm/sha1.Sum", "crypto/", false},
		{"github.com/tidwall/gjson.modPretty", "github.com/tidwall/gjson.mod", true},
		{"github.com/tidwall/gjson.Parse", "github.com/tidwall/gjson.mod", false},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, mentions(tc.name, tc.pkg), "%s in %s", tc.pkg, tc.name)
	}
}

// mentions reports whether a function name refers to pkg: pkg followed by a
// dot (or pkg ending in / or in a name's prefix), where a package path starts.
func mentions(name, pkg string) bool {
	want := pkg
	if !strings.HasSuffix(pkg, "/") && !strings.Contains(pkg[strings.LastIndexByte(pkg, '/')+1:], ".") {
		want += "."
	}
	for i := 0; ; {
		j := strings.Index(name[i:], want)
		if j < 0 {
			return false
		}
		at := i + j
		if at == 0 || strings.IndexByte("(*[ ,", name[at-1]) >= 0 {
			return true
		}
		i = at + 1
	}
}

// functionNames reads the function names of a WebAssembly module from its
// "name" custom section (TinyGo keeps it even with -no-debug).
func functionNames(wasm []byte) ([]string, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	errShort := errors.New("the module ends inside a section")
	uleb := func(b []byte) (uint64, []byte, error) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, nil, errShort
		}
		return v, b[n:], nil
	}
	rest := wasm[8:]
	for len(rest) > 0 {
		id := rest[0]
		size, body, err := uleb(rest[1:])
		if err != nil || uint64(len(body)) < size {
			return nil, errShort
		}
		section, next := body[:size], body[size:]
		rest = next
		if id != 0 {
			continue
		}
		n, section, err := uleb(section)
		if err != nil || uint64(len(section)) < n || string(section[:n]) != "name" {
			continue
		}
		section = section[n:]
		for len(section) > 0 {
			sub := section[0]
			size, body, err := uleb(section[1:])
			if err != nil || uint64(len(body)) < size {
				return nil, errShort
			}
			section = body[size:]
			if sub != 1 {
				continue
			}
			b := body[:size]
			count, b, err := uleb(b)
			if err != nil {
				return nil, err
			}
			names := make([]string, 0, count)
			for k := uint64(0); k < count; k++ {
				if _, b, err = uleb(b); err != nil { // the function's index
					return nil, err
				}
				var l uint64
				if l, b, err = uleb(b); err != nil || uint64(len(b)) < l {
					return nil, errShort
				}
				names = append(names, string(b[:l]))
				b = b[l:]
			}
			return names, nil
		}
	}
	return nil, errors.New("the module has no function names")
}
