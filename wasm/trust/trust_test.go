package trust

import (
	"path"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tidwall/gjson"
)

// Issue 25, item 13: under defaultProjectTrust "never" a repository whose
// only pi files are ours was read and written, because pi counts them as
// needing no trust and says "trusted". Item 14: pi started in a subfolder
// judged that folder, while the root's memory was read.
func TestDecideJudgesTheRootAsPiWouldWithOurFilesOnItsList(t *testing.T) {
	const root, sub = "/src/app", "/src/app/web"
	store := func(s string) Facts { return Facts{Store: s, Default: "ask"} }
	tests := []struct {
		name      string
		f         Facts
		cwd       string
		files, ui bool
		trusted   bool
		ask       bool
		why       string
	}{
		{"never, only our files, pi said trusted", Facts{PiTrusted: true, Default: "never"}, root, true, true, false, false, `defaultProjectTrust is "never" and pi's trust store has no entry for /src/app`},
		{"never, no files yet", Facts{PiTrusted: true, Default: "never"}, root, false, false, false, false, `"never"`},
		{"always", Facts{Default: "always"}, root, true, false, true, false, `"always"`},
		{"ask without a UI", Facts{PiTrusted: true, Default: "ask"}, root, true, false, false, false, "no one to ask"},
		{"ask with a UI", Facts{PiTrusted: true, Default: "ask"}, root, true, true, false, true, `"ask"`},
		{"ask with a UI, nothing to ask about", Facts{PiTrusted: true, Default: "ask"}, root, false, true, true, false, "holds no pi files yet"},
		{"an unknown default is ask", Facts{Default: "sometimes"}, root, true, false, false, false, "no one to ask"},
		{"the store trusts the root", store(`{"/src/app": true}`), root, true, false, true, false, "trust store trusts /src/app"},
		{"the store trusts a folder above", store(`{"/src": true}`), root, true, false, true, false, "trusts /src"},
		{"the store distrusts the root under always", Facts{Store: `{"/src/app": false}`, Default: "always"}, root, true, true, false, false, "does not trust /src/app"},
		{"a null entry is no entry", store(`{"/src/app": null, "/src": false}`), root, true, false, false, false, "does not trust /src"},
		{"the store trusts only the subfolder pi started in", Facts{Store: `{"/src/app/web": true}`, Default: "never", PiTrusted: true}, sub, true, true, false, false, `"never"`},
		{"a store that is not an object", store(`[true]`), root, true, true, false, false, "not a JSON object"},
		{"a store with a value pi refuses", store(`{"/src/app": "yes"}`), root, true, true, false, false, `"yes"`},
		{"a store that could not be read", Facts{StoreError: "EACCES", Default: "always"}, root, true, true, false, false, "EACCES"},
		{"--approve wins over never", Facts{Approve: 1, Default: "never", Store: `{"/src/app": false}`}, root, true, false, true, false, "--approve"},
		{"--no-approve wins over the store", Facts{Approve: -1, Store: `{"/src/app": true}`}, root, true, true, false, false, "--no-approve"},
		{"pi judged the root and trusts it", Facts{Judged: true, PiTrusted: true, Default: "never"}, root, true, false, true, false, "pi trusts /src/app"},
		{"pi judged the root and does not trust it", Facts{Judged: true, Store: `{"/src/app": true}`}, root, true, true, false, false, "pi does not trust /src/app"},
		{"pi judged a subfolder untrusted", Facts{Judged: true, Default: "always"}, sub, true, true, false, false, "where it started"},
		{"pi judged a subfolder trusted: the root is judged on", Facts{Judged: true, PiTrusted: true, Default: "never"}, sub, true, true, false, false, `"never"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Decide(tc.f, tc.cwd, root, tc.files, tc.ui)
			require.Equal(t, tc.trusted, v.Trusted, v.Why)
			require.Equal(t, tc.ask, v.Ask, v.Why)
			require.Contains(t, v.Why, tc.why)
		})
	}
}

func TestEntryFindsTheNearestFolderAsPiDoes(t *testing.T) {
	tests := []struct {
		store, dir, at string
		trusted        bool
		err            string
	}{
		{"", "/a/b", "", false, ""},
		{"\uFEFF{}", "/a/b", "", false, ""},
		{`{"/a": true, "/a/b": false}`, "/a/b/c", "/a/b", false, ""},
		{`{"/a/": true}`, "/a/b", "/a", true, ""},
		// Two keys naming one folder: pi takes the first (h-v46).
		{`{"/a/": false, "/a": true}`, "/a", "/a", false, ""},
		{`{"/a": true, "/a/.": false, "/a/": null}`, "/a", "/a", true, ""},
		// A key written twice: its last value, as JSON.parse keeps it (h-v48).
		{`{"/a": true, "/a": false}`, "/a", "/a", false, ""},
		{`{"/": false, "/a": true, "/a": null}`, "/a", "/", false, ""},
		{`{"/a": 5, "/a": true}`, "/a", "/a", true, ""},
		{`{"/": true}`, "/a/b", "/", true, ""},
		{`{"/a/b/c": true}`, "/a/b", "", false, ""},
		{`{"/a": 1}`, "/a", "", false, "holds 1 for /a"},
		{`{"/a": true`, "/a", "", false, "not a JSON object"},
	}
	for _, tc := range tests {
		at, trusted, err := Entry(tc.store, tc.dir, tc.dir)
		require.Equal(t, tc.at, at, tc.store)
		require.Equal(t, tc.trusted, trusted, tc.store)
		if tc.err == "" {
			require.Equal(t, "", err, tc.store)
		} else {
			require.Contains(t, err, tc.err, tc.store)
		}
	}
}

func TestReadTakesWhatPisAdapterSends(t *testing.T) {
	f, ok := Read(gjson.Parse(`{"approve":false,"judged":true,"store":"{}","default":"never"}`))
	require.True(t, ok)
	require.Equal(t, Facts{Approve: -1, Judged: true, Store: "{}", Default: "never"}, f)
	f, _ = Read(gjson.Parse(`{"approve":null}`))
	require.Equal(t, 0, f.Approve)
	_, ok = Read(gjson.Parse(`{"cwd":"/a"}`).Get("trust"))
	require.False(t, ok, "no facts: the host decided (pimem)")
}

// pi resolves a key of its store from the folder it started in: "", "."
// and ".." name that folder and the one above it (h-v43); "~" is a folder
// named "~" in it.
func TestEntryReadsARelativeKeyAsPiDoes(t *testing.T) {
	for _, tc := range []struct {
		store, at string
		trusted   bool
	}{
		{`{".": false}`, "/src/app", false},
		{`{"": false}`, "/src/app", false},
		{`{"..": true}`, "/src", true},
		{`{"~": false, "/src": true}`, "/src", true},
		{`{"app": false}`, "", false},
	} {
		at, trusted, err := Entry(tc.store, "/src/app", "/src/app")
		require.Equal(t, "", err, tc.store)
		require.Equal(t, tc.at, at, tc.store)
		require.Equal(t, tc.trusted, trusted, tc.store)
	}
	// Started in a subfolder: "." is where pi started, not the root.
	at, _, _ := Entry(`{".": false}`, "/src/app", "/src/app/web")
	require.Equal(t, "", at)
	at, trusted, _ := Entry(`{"..": true}`, "/src/app", "/src/app/web")
	require.Equal(t, "/src/app", at)
	require.True(t, trusted)
}

func FuzzEntryIsDirOrAFolderAboveIt(f *testing.F) {
	f.Add(`{"/a": true}`, "/a/b")
	f.Add(`{"/a": [[[[`, "/")
	f.Fuzz(func(t *testing.T, store, dir string) {
		at, _, err := Entry(store, dir, dir)
		if at == "" {
			return
		}
		d := path.Clean(dir)
		if err != "" || !(at == d || at == "/" || strings.HasPrefix(d, at+"/")) {
			t.Fatalf("Entry(%q, %q) = %q, %q: not dir or a folder above it", store, dir, at, err)
		}
	})
}
