package lifecycle

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// storeInterfaces are the interfaces of wasm/store a store implements.
var storeInterfaces = []reflect.Type{
	reflect.TypeFor[store.Store](), reflect.TypeFor[store.Starter](), reflect.TypeFor[store.Prompter](),
	reflect.TypeFor[store.Sectioner](), reflect.TypeFor[store.Prompted](), reflect.TypeFor[store.Contexter](),
	reflect.TypeFor[store.Ender](), reflect.TypeFor[store.Settler](), reflect.TypeFor[store.Compacter](),
	reflect.TypeFor[store.Shutdowner](), reflect.TypeFor[store.Tooler](), reflect.TypeFor[store.Footer](),
	reflect.TypeFor[store.Keeper](), reflect.TypeFor[store.Receipter](), reflect.TypeFor[store.Tracer](),
	reflect.TypeFor[store.Completer](), reflect.TypeFor[store.Forgetter](), reflect.TypeFor[store.Claimer](), reflect.TypeFor[store.Resourcer](),
	reflect.TypeFor[store.Searcher](), reflect.TypeFor[store.Ranker](), reflect.TypeFor[store.Bulky](), reflect.TypeFor[store.Follower](),
}

// The orchestrator finds a store's moments by type assertion: a method whose
// signature drifted from its interface would drop the store from that moment
// without a word. Each store package asserts what it implements at compile
// time; this catches a method that looks meant for an interface and is not.
func TestNoStoreHasAMethodOfAnInterfaceItDoesNotImplement(t *testing.T) {
	r := newRig(t, true)
	require.True(t, len(r.e.stores) >= 5, "the rig opened %d stores", len(r.e.stores))
	for _, st := range r.e.stores {
		typ := reflect.TypeOf(st)
		for _, it := range storeInterfaces {
			if typ.Implements(it) {
				continue
			}
			for i := range it.NumMethod() {
				want := it.Method(i)
				if m, ok := typ.MethodByName(want.Name); ok {
					t.Errorf("store %s has %s %s, which is store.%s's %s %s, but does not implement store.%s", st.Name(), m.Name, m.Type, it.Name(), want.Name, want.Type, it.Name())
				}
			}
		}
	}
}

func TestStoreInterfacesListsEveryInterfaceOfTheStorePackage(t *testing.T) {
	files, err := filepath.Glob("../store/*.go")
	require.NoError(t, err)
	var declared []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range regexp.MustCompile(`(?m)^type (\w+) interface`).FindAllSubmatch(src, -1) {
			declared = append(declared, string(m[1]))
		}
	}
	var listed []string
	for _, it := range storeInterfaces {
		listed = append(listed, it.Name())
	}
	slices.Sort(declared)
	slices.Sort(listed)
	require.Equal(t, declared, listed)
}
