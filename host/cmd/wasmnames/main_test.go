package main

import (
	"bytes"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// section is a section of id holding body, its size before it.
func section(id byte, body []byte) []byte { return append(putUleb([]byte{id}, len(body)), body...) }

func str(s string) []byte { return append(putUleb(nil, len(s)), s...) }

func TestShortenRemovesThePrefixFromEveryNameAndKeepsTheRest(t *testing.T) {
	const long = "github.com/pi-memory/pi-memory/wasm/redact.scan"
	iface := "interface:{Append:func:{basic:string,slice:basic:uint8}{named:error},ReadAt:func:{basic:string}{named:" + long[:31] + "wasm/hostio.FileInfo}}.ReadAt$invoke"
	funcs := append(putUleb(nil, 3), append(append(append([]byte{0}, str("(*"+long[:36]+"notes.driver).load")...), append([]byte{5}, str("runtime.alloc")...)...), append([]byte{7}, str(iface)...)...)...)
	locals := append(putUleb(nil, 1), append([]byte{0}, append(putUleb(nil, 1), append([]byte{0}, str(long)...)...)...)...)
	data := append(putUleb(nil, 2), append(append([]byte{0}, str(".rodata")...), append([]byte{1}, str(".rodata.1")...)...)...)
	nameSec := append(str("name"), append(append(append(section(0, str(long)), section(1, funcs)...), section(2, locals)...), section(9, data)...)...)
	code := section(10, []byte{1, 2, 3})
	module := append(append([]byte("\x00asm\x01\x00\x00\x00"), code...), section(0, nameSec)...)

	out, err := shorten(module, []byte("github.com/pi-memory/pi-memory/"))
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(out, append([]byte("\x00asm\x01\x00\x00\x00"), code...)), "the code section is as it was")
	require.True(t, bytes.Contains(out, str("(*wasm/notes.driver).load")))
	require.True(t, bytes.Contains(out, str("runtime.alloc")))
	require.True(t, bytes.Contains(out, str("interface:{…}.ReadAt$invoke")), "an interface's call keeps its method's name")
	require.Equal(t, 2, bytes.Count(out, []byte("wasm/redact.scan")), "the module's name and a local's")
	require.False(t, bytes.Contains(out, []byte("github.com")))
	require.False(t, bytes.Contains(out, []byte(".rodata")), "the data segments' names are dropped")
	again, err := shorten(out, []byte("github.com/pi-memory/pi-memory/"))
	require.NoError(t, err)
	require.Equal(t, out, again, "a second run changes nothing")

	_, err = shorten(module[:len(module)-3], []byte("x"))
	require.Error(t, err, "a module cut short")
	_, err = shorten([]byte("not wasm"), []byte("x"))
	require.Error(t, err)
}
