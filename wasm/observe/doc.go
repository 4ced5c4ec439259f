// Package observe is the observational-memory store: an observer that
// compresses a long pi session into dated, prioritised observations, a
// reflector that consolidates them, and the rules for when each runs, what
// a compaction summary says, and what is injected into each model request.
//
// It owns, as pure functions over values:
//   - the configuration (om-config.json: keys, defaults, clamps, presets);
//   - the transcript the observer reads (serialized from pi's session
//     entries, redacted, without our own injected blocks, without a tool
//     result whose call is missing);
//   - the observer's and the reflector's prompts, and the reading and
//     validation of their answers;
//   - the observation state, how an answer merges into it, its caps and its
//     rendering;
//   - scheduling: whether to observe (and which chunk), reflect or compact,
//     with backoff after failures;
//   - the compaction and branch summaries, and the injected block;
//   - the ledger that records every change, and the fold that rebuilds the
//     state from it.
//
// It never does I/O, never reads a clock (the time is always a parameter,
// Clock) and never calls a model: the lifecycle performs the model calls it
// plans (complete effects), persists the records it returns, and feeds the
// answers back. Everything here must link into the TinyGo module: no fmt,
// no encoding/json, no regexp, no reflection-based sort, no time zones.
package observe
