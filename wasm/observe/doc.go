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
//   - what makes outside text data, never orders or terminal control
//     (data.go): reasoning stripped, escape sequences removed, our markers
//     neutralised, the current task and suggested response kept short and
//     free of commands; applied to answers and to records read back;
//   - the observation state, how an answer merges into it, its caps and its
//     rendering;
//   - scheduling: whether to observe (and which chunk), reflect or compact,
//     with backoff after failures;
//   - the compaction and branch summaries, and the injected block;
//   - the ledger that records every change, and the fold that rebuilds the
//     state from it;
//   - where the configuration files are and which is read, what /om config
//     edit accepts, and where the observations live (thread or resource
//     scope);
//   - the /om commands' argument grammars, what the commands say, the
//     status page and the footer, and how far a chain of model calls goes.
//
// These rules never do I/O, never read a clock (the time is always a
// parameter, clock) and never call a model. The driver (driver*.go, Open) is
// the only code here that talks to the host, and only through the guarded
// host of the store.Env it is handed: it reads the config files and the
// branches pi gives, performs the model calls the rules plan (complete
// effects), persists the records they return (session entries, or the
// resource ledger) and feeds the answers back. The orchestrator
// (wasm/lifecycle) knows the store only as the store.Store Open returns.
// The other exported names (DecodeLedger and its Record, Problem and Mark,
// the custom types, SchemaVersion, DefaultConfigJSON) are what lifecycle's
// tests read of what the store leaves in a session or a file; everything
// else is the package's own.
//
// Everything here must link into the TinyGo module: no fmt, no
// encoding/json, no regexp, no reflection-based sort, no time zones.
package observe
