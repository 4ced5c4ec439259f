package store

// Claimer is a Forgetter that tells its references by their shape alone
// (a decision's id, a note's): a refusal then names the store the
// reference is for, and a store that does not claim it says nothing.
type Claimer interface {
	Claims(ref Ref) bool
}

// Forgetter is a store whose entries memory_forget may remove and
// memory_restore bring back (the orchestrator's tools, and /memory forget
// and /memory restore). The orchestrator asks each Forgetter in list order,
// so a store answers only for its own references and leaves the others
// (ok false).
type Forgetter interface {
	// Forget removes the entry ref names (a reference the store's search
	// hits carry: a decision id; a note's "<absolute file>:<line>#<page
	// id>"), keeping what brings it back. ok is false when ref is not one
	// of the store's; err is a refusal, in words for the person or the
	// model (nothing was removed).
	Forget(out *Out, ref Ref) (f Forgot, ok bool, err error)
	// Restore brings back an entry Forget removed: ref is a Forgot.Restore
	// this store handed out (in this session or an earlier one). It says
	// what it restored, in one line. ok and err as for Forget.
	Restore(out *Out, ref Ref) (said string, ok bool, err error)
	// Forgotten is what Forget removed, in this session or an earlier one,
	// that Restore may still bring back: newest first, at most limit, each
	// with its Restore reference, when it was removed (At) and a Said of
	// what it was and where (“use pnpm” (.pi/memory/MEMORY.md)). It is how
	// /memory restore without an id helps in a session that forgot nothing.
	// The orchestrator asks it only of a store the gate lets read, after
	// its Ready (as it asks a Searcher).
	Forgotten(out *Out, limit int) []Forgot
}

// Ref is what a forget or a restore was given.
type Ref struct {
	ID string
	// Typed: a person typed it at a command (/memory forget, pimem memory
	// restore), where a store may take a short form it can resolve (the
	// unambiguous end of a decision id). A tool's call (the model's, an MCP
	// client's) names whole ids only, as the results it read cite them: a
	// hit's number is not the end of an id.
	Typed bool
}

// Forgot is what Forget removed.
type Forgot struct {
	// Said is one line for the person or the model: what was removed and
	// from where ("Forgot “use pnpm” (.pi/memory/MEMORY.md).").
	Said string
	// Restore is the reference Restore takes to bring it back.
	Restore string
	// At is when it was removed (Unix ms); Forgotten sets it.
	At int64
}

// NewestFirst orders fs by At, the newest first, keeping the order of
// equal times (an insertion sort: the lists are short, and sort.Slice
// would link reflection into the module).
func NewestFirst(fs []Forgot) {
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].At > fs[j-1].At; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
}
