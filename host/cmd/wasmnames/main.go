// Command wasmnames shortens the function names of a WebAssembly module's
// "name" section in place: every occurrence of a prefix is removed
// ("github.com/pi-memory/pi-memory/wasm/redact.scan" reads
// "wasm/redact.scan"), and a call through an interface keeps its method's
// name alone ("interface:{…}.ReadAt$invoke"); the data segments' names
// (".rodata.17") are dropped. The functions' names stay for trap reports
// and the host's module tests; the module is some 45 KB smaller
// (docs/decisions/009-module-size.md).
//
//	go run ./host/cmd/wasmnames -strip github.com/pi-memory/pi-memory/ core.wasm
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
)

func main() {
	strip := flag.String("strip", "", "the prefix to remove from every name")
	flag.Parse()
	if flag.NArg() != 1 || *strip == "" {
		fmt.Fprintln(os.Stderr, "usage: wasmnames -strip PREFIX MODULE.wasm")
		os.Exit(2)
	}
	file := flag.Arg(0)
	data, err := os.ReadFile(file)
	if err == nil {
		data, err = shorten(data, []byte(*strip))
	}
	if err == nil {
		err = os.WriteFile(file, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmnames:", err)
		os.Exit(1)
	}
}

var errShort = errors.New("the module is cut short")

// uleb reads an unsigned LEB128 number at b[i:] and returns it and the
// index after it.
func uleb(b []byte, i int) (int, int, error) {
	n, shift := 0, 0
	for {
		if i >= len(b) || shift > 28 {
			return 0, 0, errShort
		}
		c := b[i]
		i++
		n |= int(c&0x7f) << shift
		if c < 0x80 {
			return n, i, nil
		}
		shift += 7
	}
}

func putUleb(out []byte, n int) []byte {
	for {
		c := byte(n & 0x7f)
		n >>= 7
		if n == 0 {
			return append(out, c)
		}
		out = append(out, c|0x80)
	}
}

// shorten returns the module with its name section's names shortened; the
// other sections are copied as they are.
func shorten(b, strip []byte) ([]byte, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, errors.New("not a WebAssembly module")
	}
	return rewrite(append([]byte(nil), b[:8]...), b[8:], func(id byte, sec []byte) ([]byte, error) {
		if n, j, err := uleb(sec, 0); id == 0 && err == nil && j+n <= len(sec) && string(sec[j:j+n]) == "name" {
			names, err := rewrite(nil, sec[j+n:], func(id byte, sub []byte) ([]byte, error) { return subsection(id, sub, strip) })
			if err != nil {
				return nil, err
			}
			return append(append(putUleb(nil, n), "name"...), names...), nil
		}
		return sec, nil
	})
}

// rewrite appends to out each (id, size, body) of b, a module's sections
// or a name section's subsections, its body as each makes it.
func rewrite(out, b []byte, each func(id byte, body []byte) ([]byte, error)) ([]byte, error) {
	for i := 0; i < len(b); {
		id := b[i]
		size, body, err := uleb(b, i+1)
		if err != nil || body+size > len(b) {
			return nil, errShort
		}
		w, err := each(id, b[body:body+size])
		if err != nil {
			return nil, err
		}
		i = body + size
		if w == nil {
			continue // dropped
		}
		out = putUleb(append(out, id), len(w))
		out = append(out, w...)
	}
	return out, nil
}

// subsection rewrites a name section's subsection: the module's name, and
// the maps of functions, types, tables, memories, globals and element
// segments (index, name); the indirect maps of locals and labels. The data
// segments' names go: ".rodata.17" names nothing a trap report needs (2.5 KB
// for TinyGo's 226).
func subsection(id byte, sub, strip []byte) ([]byte, error) {
	switch id {
	case 0:
		w, _, err := name(nil, sub, 0, strip)
		return w, err
	case 2, 3:
		return nameMaps(sub, strip, true)
	case 9:
		return nil, nil
	}
	return nameMaps(sub, strip, false)
}

// nameMaps rewrites a vector of (index, name), or with indirect of (index,
// vector of (index, name)).
func nameMaps(b, strip []byte, indirect bool) ([]byte, error) {
	n, i, err := uleb(b, 0)
	if err != nil {
		return nil, err
	}
	out := putUleb(nil, n)
	for ; n > 0; n-- {
		var idx int
		if idx, i, err = uleb(b, i); err != nil {
			return nil, err
		}
		out = putUleb(out, idx)
		if indirect {
			var inner []byte
			start := i
			m, j, err := uleb(b, i)
			if err != nil {
				return nil, err
			}
			for ; m > 0; m-- {
				if _, j, err = uleb(b, j); err != nil {
					return nil, err
				}
				if _, j, err = name(nil, b, j, nil); err != nil {
					return nil, err
				}
			}
			if inner, err = nameMaps(b[start:j], strip, false); err != nil {
				return nil, err
			}
			out, i = append(out, inner...), j
			continue
		}
		if out, i, err = name(out, b, i, strip); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// name appends the name at b[i:] to out, every strip in it removed, and
// returns the index after it.
func name(out, b []byte, i int, strip []byte) ([]byte, int, error) {
	n, j, err := uleb(b, i)
	if err != nil || j+n > len(b) {
		return nil, 0, errShort
	}
	s := b[j : j+n]
	if len(strip) > 0 {
		s = bytes.ReplaceAll(s, strip, nil)
		// A call through an interface is named for the interface's whole
		// method set (700 bytes for hostio's): its method is what a trap
		// report needs ("interface:{…}.ReadAt$invoke").
		if k := bytes.LastIndex(s, []byte("}.")); bytes.HasPrefix(s, []byte("interface:{")) && k > len("interface:{") {
			s = append([]byte("interface:{…"), s[k:]...)
		}
	}
	return append(putUleb(out, len(s)), s...), j + n, nil
}
