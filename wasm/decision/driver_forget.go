package decision

import (
	"errors"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/errs"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/store"
)

// The decision store's part of memory_forget and memory_restore (the
// orchestrator's tools and /memory forget|restore): a decision is removed
// with the rm event /decision remove appends, and brought back with an add
// under the same id (state.Restore). A reference that is not a decision id
// or the end of one belongs to another store.

// saidChars bounds the decision text quoted in what Forget and Restore say.
const saidChars = 80

// Forget removes the live decision ref names: an id, or its unambiguous
// end when a person typed it (store.Ref).
func (d *driver) Forget(out *store.Out, ref store.Ref) (store.Forgot, bool, error) {
	if !mine(ref) {
		return store.Forgot{}, false, nil
	}
	x, err := d.named(ref.ID, false)
	if err != nil {
		if g := d.gone(ref.ID); g != nil {
			return forgottenAlready(g), true, nil
		}
		if re, ok := err.(*refError); ok && re.none && !validID(normRef(ref.ID)) {
			// No id ends so: a number typed to /memory forget is a word
			// to look for then ("8080": h-v100 d2).
			return store.Forgot{}, false, nil
		}
		return store.Forgot{}, true, err
	}
	id, said := x.ID, quoted(x)
	if _, err := d.write(func(st *state, now int64) ([]Event, error) { return st.Remove([]string{id}) }); err != nil {
		// Removed under the lock by another process a moment ago: what was
		// asked holds, as a note's forget says of a note gone already.
		if g := d.gone(id); g != nil {
			return forgottenAlready(g), true, nil
		}
		return store.Forgot{}, true, notWritten("Not removed", err)
	}
	return store.Forgot{Said: "Removed decision " + id + " " + said + " (the log keeps its history).", Restore: id}, true, nil
}

// gone is the removed decision ref names, nil when it names none (or a live
// one).
func (d *driver) gone(ref string) *decision {
	if d.st == nil {
		return nil
	}
	id, err := d.st.find(ref, true)
	if err != nil {
		return nil
	}
	if h := d.st.lookup(id); h >= 0 && d.st.recs.at(h).removed {
		return d.st.view(h)
	}
	return nil
}

// forgottenAlready is a forget's answer for a decision removed before it.
func forgottenAlready(x *decision) store.Forgot {
	return store.Forgot{Said: "Decision " + x.ID + " " + quoted(x) + " was forgotten already; nothing else was removed.", Restore: x.ID}
}

// Restore brings back the removed decision ref names (as for Forget).
func (d *driver) Restore(out *store.Out, ref store.Ref) (string, bool, error) {
	if !mine(ref) {
		return "", false, nil
	}
	x, err := d.named(ref.ID, true)
	if err != nil {
		return "", true, err
	}
	id := x.ID
	if _, err := d.restore(func(st *state, now int64) ([]Event, error) { return st.Restore(id) }); err != nil {
		return "", true, notWritten("Not restored", err)
	}
	status := ""
	if y := d.st.Get(id); y != nil && y.Status != Active {
		status = " as " + y.Status.String()
	}
	return "Restored decision " + id + " " + quoted(x) + status + ".", true, nil
}

// Forgotten are the removed decisions, newest removal first: each restores
// by its id. The orchestrator has let the store read and caught it up.
func (d *driver) Forgotten(_ *store.Out, limit int) []store.Forgot {
	if !d.loaded || d.st == nil {
		return nil
	}
	var fs []store.Forgot
	for _, x := range d.st.removedNewest(limit) {
		fs = append(fs, store.Forgot{Said: "decision " + quoted(x), Restore: x.ID, At: d.st.recs.at(x.h).removedAt})
	}
	return fs
}

// Claims is store.Claimer's: a decision's id, whole or its end typed.
func (d *driver) Claims(ref store.Ref) bool { return mine(ref) }

// mine reports whether ref is the decision store's: a whole decision id, or
// the end of one a person typed.
func mine(ref store.Ref) bool {
	id := normRef(ref.ID)
	if ref.Typed {
		// An end of an id is its number at least ("0001"): "1" or "22"
		// typed to /memory forget is a list's number or a word to look
		// for (h-v100 d1: "1" after a forget's candidates removed …-0001).
		return validID(id) || isRef(id) && len(strings.TrimPrefix(id, "D-")) >= 4
	}
	return validID(id)
}

// named is the decision ref names, among the removed ones when removed is
// set, after catching up with the log; the error says why there is none.
func (d *driver) named(ref string, removed bool) (*decision, error) {
	if why := d.env.May(d, store.Write); why != "" {
		return nil, errors.New("Decision memory is not written now: " + why)
	}
	if err := d.usable(); err != nil {
		return nil, errors.New("Could not read " + d.log + ": " + err.Error())
	}
	id, err := d.st.find(ref, removed)
	if err != nil {
		return nil, err
	}
	h := d.st.lookup(id)
	switch {
	case h < 0:
		return nil, errors.New("No decision " + id + " in " + d.log + ".")
	case d.st.recs.at(h).removed != removed && removed:
		return nil, errors.New(id + " is not removed; there is nothing to restore.")
	case d.st.recs.at(h).removed != removed:
		return nil, errors.New(id + " was already removed.")
	}
	return d.st.view(h), nil
}

// quoted is a decision's short text as Forget and Restore quote it: one
// line, redacted, cut.
func quoted(x *decision) string {
	return strconv.Quote(text.Runes(oneLine(x.Short()), saidChars))
}

// notWritten is a write's refusal in words for the person or the model.
func notWritten(what string, err error) error {
	if in, ok := errs.As[*errInert](err); ok {
		return errors.New(what + ": " + in.msg)
	}
	return errors.New(what + ": " + err.Error())
}
