//go:build embedcore

package main

import _ "embed"

// embeddedCore is the core module built into a release binary (make
// release copies ts/core.wasm here and builds with -tags embedcore), so
// pimem runs with nothing beside it (decision 014).
//
//go:embed core.wasm
var embeddedCore []byte
