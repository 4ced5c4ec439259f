package store

// Forgetter is a store whose entries memory_forget may remove and
// memory_restore bring back. The lifecycle's memory_forget and
// memory_restore tools ask each Forgetter in list order, so a store answers
// only for its own references and leaves the others (ok false).
type Forgetter interface {
	// Forget removes the entry ref names (a reference the store's search
	// hits carry: a decision id or an unambiguous suffix of one, a note's
	// "file:line"), keeping what brings it back, and says what it removed
	// and how to restore it in one or two lines. ok is false when ref is
	// not one of the store's; err is a refusal, in words for the person or
	// the model (nothing was removed).
	Forget(out *Out, ref string) (said string, ok bool, err error)
	// Restore brings back an entry Forget removed; ref is the reference
	// Forget's answer named. ok and err as for Forget.
	Restore(out *Out, ref string) (said string, ok bool, err error)
}
