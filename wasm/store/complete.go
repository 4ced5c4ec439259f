package store

// Completer offers the values a command's positional argument may take
// while a person types it (pi's argument completion). The orchestrator
// completes subcommands itself, from the registry.
type Completer interface {
	// Complete lists at most n values for the argument a subcommand's
	// synopsis calls placeholder ("<id>"), those that begin or end with
	// prefix, the most useful first. It reads only what the store holds.
	Complete(sub, placeholder, prefix string, n int) []Completion
}

// Completion is one value offered, with a line saying what it is.
type Completion struct {
	Value, Description string
}
