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

// What the release module must not link, and why: each costs tens of
// kilobytes, and most came back once by a change that looked harmless
// (docs/decisions/009-module-size.md).
var unlinked = []struct{ pkg, why string }{
	{"github.com/tidwall/gjson.mod", "gjson's modifiers are linked: some code calls gjson's Get (read fields with jsonr.Get), or a package initializer no longer runs at build time (an import such as crypto/… makes the later ones run at start-up)"},
	{"github.com/tidwall/pretty", "gjson's @pretty modifier is linked (see github.com/tidwall/gjson.mod)"},
	{"encoding/json", "reflection-based JSON is linked: write with jsonw, read with gjson and jsonr.Get"},
	{"fmt", "fmt is linked: build strings with strconv and jsonw"},
	{"reflect", "reflect is linked (encoding/json, fmt or encoding/binary brought it)"},
	{"crypto/", "a crypto package is linked: its FIPS 140 self-tests run at start-up and leave every later package initializer to run there too; hash ids with wasm/internal/sha1"},
	{"time", "the time package is linked: civil.ParseTime and FormatTime (wasm/internal/civil) do without it"},
	{"regexp", "regexp is linked (~157 KB with its parser and Unicode tables): write a matcher in wasm/redact's way, proven against the expression in a test"},
	{"regexp/syntax", "regexp's parser is linked (see regexp)"},
}

func releaseModule(t *testing.T) *moduleFuncs {
	t.Helper()
	data, err := os.ReadFile(testmod.Cores[0].Path(t))
	require.NoError(t, err)
	m, err := readFuncs(data)
	require.NoError(t, err)
	require.True(t, len(m.names) > 100, "the module names only %d functions: was it built with its name section?", len(m.names))
	return m
}

func TestTheReleaseModuleLinksNoneOfWhatItDoesNotNeed(t *testing.T) {
	m := releaseModule(t)
	for _, u := range unlinked {
		for _, name := range m.names {
			if mentions(name, u.pkg) {
				t.Errorf("%s links %s: %s", testmod.Cores[0].Rel, name, u.why)
				break
			}
		}
	}
}

// TinyGo runs package initializers while it builds the module, so a map
// literal becomes data and what only it refers to can be dropped. An
// initializer it cannot run moves to start-up with every later one that builds
// a map; _initialize then grows from about 1 KB to over 10 KB, start-up does
// the work again at every instance, and the module keeps what those maps refer
// to (docs/decisions/009-module-size.md).
func TestPackageInitializersRunWhileTheModuleIsBuilt(t *testing.T) {
	m := releaseModule(t)
	size, ok := m.bodySize("_initialize")
	require.True(t, ok, "the module has no _initialize")
	require.True(t, size < 4096, "_initialize is %d bytes: some package initializer now runs at start-up (tinygo build -internal-dumpssa shows which: look for \"revert because of error\")", size)
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
		{"github.com/pi-memory/pi-memory/wasm/internal/sha1.Sum", "crypto/", false},
		{"github.com/tidwall/gjson.modPretty", "github.com/tidwall/gjson.mod", true},
		{"github.com/tidwall/gjson.Parse", "github.com/tidwall/gjson.mod", false},
		{"(*regexp.Regexp).doExecute", "regexp", true},
		{"regexp/syntax.Parse", "regexp", false},
		{"regexp/syntax.Parse", "regexp/syntax", true},
		{"github.com/pi-memory/pi-memory/wasm/redact.findSecret", "regexp", false},
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

// moduleFuncs is what the tests need of a WebAssembly module: its function
// names (from the "name" custom section, which TinyGo keeps even with
// -no-debug) and the size of each function's body.
type moduleFuncs struct {
	names   []string
	byName  map[string]int // function index
	imports int            // imported functions come first in the index space
	bodies  []int          // body sizes of the defined functions
}

func (m *moduleFuncs) bodySize(name string) (int, bool) {
	i, ok := m.byName[name]
	if !ok || i < m.imports || i-m.imports >= len(m.bodies) {
		return 0, false
	}
	return m.bodies[i-m.imports], true
}

var errShort = errors.New("the module ends inside a section")

func uleb(b []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, nil, errShort
	}
	return v, b[n:], nil
}

// bytesOf reads a length-prefixed byte string.
func bytesOf(b []byte) ([]byte, []byte, error) {
	n, b, err := uleb(b)
	if err != nil || uint64(len(b)) < n {
		return nil, nil, errShort
	}
	return b[:n], b[n:], nil
}

func readFuncs(wasm []byte) (*moduleFuncs, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	m := &moduleFuncs{byName: map[string]int{}}
	for rest := wasm[8:]; len(rest) > 0; {
		id := rest[0]
		section, next, err := bytesOf(rest[1:])
		if err != nil {
			return nil, err
		}
		rest = next
		switch id {
		case 2: // imports: module, name, kind, then what the kind needs
			if m.imports, err = countFuncImports(section); err != nil {
				return nil, err
			}
		case 10: // code: one length-prefixed body per defined function
			n, b, err := uleb(section)
			if err != nil {
				return nil, err
			}
			for k := uint64(0); k < n; k++ {
				var body []byte
				if body, b, err = bytesOf(b); err != nil {
					return nil, err
				}
				m.bodies = append(m.bodies, len(body))
			}
		case 0:
			name, b, err := bytesOf(section)
			if err != nil || string(name) != "name" {
				continue
			}
			for len(b) > 0 {
				sub := b[0]
				var body []byte
				if body, b, err = bytesOf(b[1:]); err != nil {
					return nil, err
				}
				if sub == 1 { // function names: index, name
					if err := m.readNames(body); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	if len(m.names) == 0 {
		return nil, errors.New("the module has no function names")
	}
	return m, nil
}

func (m *moduleFuncs) readNames(b []byte) error {
	count, b, err := uleb(b)
	if err != nil {
		return err
	}
	for k := uint64(0); k < count; k++ {
		var index uint64
		var name []byte
		if index, b, err = uleb(b); err != nil {
			return err
		}
		if name, b, err = bytesOf(b); err != nil {
			return err
		}
		m.names = append(m.names, string(name))
		m.byName[string(name)] = int(index)
	}
	return nil
}

// countFuncImports counts the functions among a module's imports.
func countFuncImports(b []byte) (int, error) {
	count, b, err := uleb(b)
	if err != nil {
		return 0, err
	}
	funcs := 0
	for k := uint64(0); k < count; k++ {
		for range 2 { // module and field names
			if _, b, err = bytesOf(b); err != nil {
				return 0, err
			}
		}
		if len(b) == 0 {
			return 0, errShort
		}
		kind := b[0]
		b = b[1:]
		switch kind {
		case 0: // function: a type index
			funcs++
			_, b, err = uleb(b)
		case 1: // table: element type, limits
			if len(b) == 0 {
				return 0, errShort
			}
			b, err = skipLimits(b[1:])
		case 2: // memory: limits
			b, err = skipLimits(b)
		case 3: // global: value type, mutability
			if len(b) < 2 {
				return 0, errShort
			}
			b = b[2:]
		default:
			return 0, errors.New("unknown import kind")
		}
		if err != nil {
			return 0, err
		}
	}
	return funcs, nil
}

func skipLimits(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, errShort
	}
	flags := b[0]
	_, b, err := uleb(b[1:])
	if err == nil && flags&1 != 0 {
		_, b, err = uleb(b)
	}
	return b, err
}
