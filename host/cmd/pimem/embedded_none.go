//go:build !embedcore

package main

// embeddedCore is nil in a build from the repository: pimem finds the
// module beside it or in ts/ (findModule).
var embeddedCore []byte
