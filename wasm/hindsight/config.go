// Package hindsight is pi-memory's Hindsight store (decision 012), read top
// down. First come its rules, as pure functions with their tests: its
// configuration (config.go), identity (repo key, bank ids, tags, document
// ids: identity.go), the requests and the reading of their answers
// (request.go, recall.go), the recalled block (render.go), the turn a retain
// keeps (turn.go), the outbox's records, what they fold to, backoff and the
// flush (outbox.go), the session modes (mode.go), what a person reads
// (status.go) and an import's own rules (import.go). Then its driver
// (driver*.go), the only code that talks to the host, and only through the
// guarded host it is handed (store.Env's FS): it reads the files, appends
// the outbox lines and turns the requests built here into http effects.
// What an import of past sessions sends is wasm/hsimport's.
//
// It exports what other packages use: Open, the store's driver; and the
// outbox's records (Item, Job, JobRecord, DoneRecord, FoldOutbox, Outbox) and
// ProjectBankID, with which the orchestrator's tests write and read the
// files another process would.
package hindsight

import (
	"strings"

	"github.com/pi-memory/pi-memory/wasm/config"
)

// configFile is the name of the configuration file, in the project's .pi
// folder and in the agent folder.
const configFile = "hindsight.json"

// Bank words of the "banks" key.
const (
	bankProject = "project"
	bankUser    = "user"
	bankGlobal  = "global" // legacy alias of user
)

// Modes of a session.
const (
	modeNormal   = "normal"
	modeReadOnly = "read-only"
	modeIgnored  = "ignored"
)

// settings is Hindsight's configuration in force: files then environment.
// The zero URL is "off": the local stores stay the default.
type settings struct {
	URL, APIKey string
	// Banks are the selected scopes, BankProject and/or BankUser, in order
	// (default: project only).
	Banks                 []string
	ProjectBank, UserBank string // ProjectBank "" = derived from the repo key
	RecallTimeoutMs       int    // one bank's recall bound (1500)
	RecallMaxTokens       int    // 1024
	RecallBudget          string // low, mid (default), high
	RetainEnabled         bool
	RetainMaxChars        int // a serialized turn's cap (16000)
	MaxAttempts           int // failures before a job is a dead letter (8)
	ShutdownMs            int // the flush bound at session end (5000)
	Mode                  string
	// Why says why Hindsight is off although configured (a file that
	// cannot be read as written); "" otherwise.
	Why      string
	Warnings []string
}

// envVars is what the host forwarded of its environment (only those set).
type envVars struct {
	URL, APIKey, Bank string
}

// defaultConfig is the configuration without any file or variable: off.
func defaultConfig() settings {
	return settings{
		Banks: []string{bankProject}, UserBank: "pimem-user",
		RecallTimeoutMs: 1500, RecallMaxTokens: 1024, RecallBudget: "mid",
		RetainEnabled: true, RetainMaxChars: 16000, MaxAttempts: 8, ShutdownMs: 5000,
		Mode: modeNormal,
	}
}

var known = map[string][]string{
	"url": nil, "apiKey": nil, "banks": nil, "projectBank": nil, "userBank": nil, "mode": nil,
	"recall": {"timeoutMs", "maxTokens", "budget"}, "retain": {"enabled", "maxChars"},
	"outbox": {"maxAttempts"}, "flush": {"shutdownMs"},
}

// parseConfig reads the project file (nil or absent: none) over the global
// one over the defaults, key by key, then the environment over both. A file
// that cannot be read as written turns Hindsight off, naming it (a server
// must not receive a project's turns because its config has a comma too
// many); every other bad value is a warning and its default.
//
//	parseConfig(config.Parse("g.json", []byte(`{"url":"http://h:8888/","banks":["project","global"]}`)), nil, envVars{})
//	=> URL "http://h:8888", Banks [project user]
func parseConfig(global, project *config.File, env envVars) settings {
	c := defaultConfig()
	for _, f := range []*config.File{global, project} {
		if f == nil || !f.Present {
			continue
		}
		if why := f.Broken(); why != "" {
			c.Why = why + "; Hindsight is off until it is fixed."
			continue
		}
		f.Unknown(known)
		c.URL, _ = f.Str("url", c.URL)
		c.APIKey, _ = f.Str("apiKey", c.APIKey)
		if banks, ok := f.Strs("banks", c.Banks); ok {
			c.Banks = banksOf(f, banks, c.Banks)
		}
		c.ProjectBank, _ = f.Str("projectBank", c.ProjectBank)
		c.UserBank, _ = f.Str("userBank", c.UserBank)
		c.RecallTimeoutMs, _ = f.Int("recall.timeoutMs", c.RecallTimeoutMs, 100, 60000)
		c.RecallMaxTokens, _ = f.Int("recall.maxTokens", c.RecallMaxTokens, 64, 16384)
		c.RecallBudget, _ = f.Enum("recall.budget", c.RecallBudget, "low", "mid", "high")
		c.RetainEnabled, _ = f.Bool("retain.enabled", c.RetainEnabled)
		c.RetainMaxChars, _ = f.Int("retain.maxChars", c.RetainMaxChars, 500, 1000000)
		c.MaxAttempts, _ = f.Int("outbox.maxAttempts", c.MaxAttempts, 1, 100)
		c.ShutdownMs, _ = f.Int("flush.shutdownMs", c.ShutdownMs, 0, 60000)
		c.Mode, _ = f.Enum("mode", c.Mode, modeNormal, modeReadOnly, modeIgnored)
		c.Warnings = append(c.Warnings, f.Warnings...)
	}
	if env.URL != "" {
		c.URL = env.URL
	}
	if env.APIKey != "" {
		c.APIKey = env.APIKey
	}
	if env.Bank != "" {
		c.ProjectBank = env.Bank
	}
	c.URL = strings.TrimRight(strings.TrimSpace(c.URL), "/")
	if c.Why != "" {
		c.URL = ""
	}
	return c
}

// on reports whether Hindsight is configured and readable.
func (c settings) on() bool { return c.URL != "" }

// banksOf reads the bank words: global is user; an unknown word is a
// warning; an empty or all-unknown list keeps def.
func banksOf(f *config.File, words, def []string) []string {
	var out []string
	for _, w := range words {
		switch w {
		case bankGlobal:
			w = bankUser
		case bankProject, bankUser:
		default:
			f.Warnings = append(f.Warnings, f.Name+`: "banks" holds "`+w+`", which is not "project" or "user" (ignored)`)
			continue
		}
		if !contains(out, w) {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return def
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
