package observe

import (
	"errors"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/budget"
	"github.com/pi-memory/pi-memory/wasm/internal/errs"
)

// result is what state.Answer made of a model's answer.
type result struct {
	Record *Record // the record to persist (encode); nil when the answer was refused
	Empty  bool    // the observer found nothing new: the watermark moved all the same
	Err    error   // why the answer was refused (errs.Is: errTooLong, errDegenerate, errFormat, errFailed, errStale); the state is unchanged
	Notice string  // a warning for a person, given once when a kind of call stops; else ""
}

// Answer takes the model's answer to a doObserve or doReflect action and
// applies it: the state changes, and the record to persist is returned. A
// refused answer (degenerate, unreadable, a failure the model reported, or
// an answer to a state that has moved on) changes nothing but the backoff:
// the same span is asked again later, never marked as observed.
//
// Observer: an empty answer is valid and moves the watermark past the chunk.
// Reflector: the reflection replaces the observations it rewrote only when
// it holds observations, is complete (ends its <observations> tag) and is
// not larger than what it rewrote; duplicates are then merged and the
// result pruned below the reflector threshold (to half of it when
// aggressive), lowest priority and oldest first.
func (s *state) Answer(a action, ans modelAnswer, cfg omConfig, c clock) result {
	cfg = cfg.With(s.Settings)
	if a.version != s.version {
		return result{Err: refuse(errStale, "the observations changed while the model was answering; the answer is dropped and the work is planned again")}
	}
	switch a.Do {
	case doObserve:
		return s.observed(a, ans, cfg, c)
	case doReflect:
		return s.reflected(a, ans, cfg, c)
	}
	return result{Err: errors.New("the action " + quote(a.Do) + " asks no model")}
}

func (s *state) observed(a action, ans modelAnswer, cfg omConfig, c clock) result {
	r, err := readAnswer(ans, a.Chunk.day, maxObserverAnswer)
	if err != nil {
		if errs.Is(err, errTooLong) && s.shrink < maxShrink {
			s.shrink++
		}
		return result{Err: err, Notice: s.observer.fail("observer", err.Error(), c.Ms)}
	}
	s.observer.ok()
	rec := Record{
		Op: opObserve, Time: c.Ms, Session: s.session,
		From: a.Chunk.From, Through: a.Chunk.Through, Tokens: a.Chunk.Tokens,
		Obs:  clean(render(r.groups)),
		Read: a.Chunk.Read, Modified: a.Chunk.Modified,
	}
	rec.Task, rec.HasTask = task(r.task, r.hasTask)
	rec.Response, rec.HasResponse = task(r.response, r.hasResponse)
	s.Apply(rec, cfg)
	return result{Record: &rec, Empty: countItems(r.groups) == 0}
}

// task reads a current task or suggested response (taskOf). An empty tag,
// or one that held only commands or orders, leaves the old value
// (given=false).
func task(s string, given bool) (string, bool) {
	if !given {
		return "", false
	}
	s = taskOf(s)
	return s, s != ""
}

// taskOf is a current task or suggested response as the state keeps it:
// redacted, then taskText's rule. Apply uses it on records read back.
//
//go:noinline
func taskOf(s string) string { return taskText(clean(sanitize(s))) }

func (s *state) reflected(a action, ans modelAnswer, cfg omConfig, c clock) result {
	head, tail := splitItems(s.Groups, a.upto)
	headText := render(head)
	day := c.Day()
	if len(head) > 0 {
		day = head[len(head)-1].Day
	}
	maxBytes := 2 * len(headText)
	if maxBytes < 64<<10 {
		maxBytes = 64 << 10
	}
	r, err := readAnswer(ans, day, maxBytes)
	if err == nil {
		newTokens, oldTokens := budget.EstimateTokens(render(r.groups)), budget.EstimateTokens(headText)
		switch {
		case r.empty || countItems(r.groups) == 0:
			err = refuse(errDegenerate, "the reflection holds no observation; the observations are kept as they are")
		case !strings.Contains(r.body, "</observations>"):
			err = refuse(errDegenerate, "the reflection was cut off (it does not end its <observations> tag); the observations are kept as they are")
		case newTokens > oldTokens+oldTokens/10+100:
			err = refuse(errDegenerate, "the reflection (~"+itoa(newTokens)+" tokens) is larger than the observations it rewrites (~"+itoa(oldTokens)+"); they are kept as they are")
		}
	}
	if err != nil {
		return result{Err: err, Notice: s.reflector.fail("reflector", err.Error(), c.Ms)}
	}
	s.reflector.ok()
	target := cfg.ReflectorTokens * 3 / 4
	if a.Aggressive {
		target = cfg.ReflectorTokens / 2
	}
	merged := dedupe(mergeDays(append(append([]group(nil), r.groups...), tail...)))
	merged = prune(merged, cfg.MaxObservationItems, target)
	rec := Record{Op: opReflect, Time: c.Ms, Session: s.session, Obs: clean(render(merged)), Aggressive: a.Aggressive}
	rec.Task, rec.HasTask = task(r.task, r.hasTask)
	rec.Response, rec.HasResponse = task(r.response, r.hasResponse)
	s.Apply(rec, cfg)
	return result{Record: &rec}
}
