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
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/marker"
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
	// Why says what keeps Hindsight off although it is configured (a file
	// that cannot be read as written, a URL refused) and what to do, without
	// saying that it is off: offReason and the warning at session start say
	// that once (a status read "Hindsight is off: …; Hindsight is off.").
	// "" otherwise.
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
	from := "" // where the URL in force was set
	for _, f := range []*config.File{global, project} {
		if f == nil || !f.Present {
			continue
		}
		if why := f.Broken(); why != "" {
			c.Why = why + "."
			continue
		}
		f.Unknown(known)
		if u, ok := f.Str("url", c.URL); ok {
			c.URL, from = u, f.Name+`: "url"`
		}
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
		c.URL, from = env.URL, "HINDSIGHT_API_URL"
	}
	if env.APIKey != "" {
		c.APIKey = env.APIKey
	}
	if why := marker.Check(env.Bank); why != "" {
		c.Warnings = append(c.Warnings, "HINDSIGHT_BANK_ID holds "+marker.Data(why)+", which a terminal or a model would read as something else (ignored)")
	} else if env.Bank != "" {
		c.ProjectBank = env.Bank
	}
	c.URL = strings.TrimRight(strings.TrimSpace(c.URL), "/")
	if why := urlRefusal(c.URL); why != "" && c.Why == "" {
		c.Why = from + " " + why
	}
	if c.Why != "" {
		c.URL = ""
	}
	return c
}

// urlRefusal says why a server URL is refused, "" when it is not: one that
// carries a user name or password (fetch refuses it, and it would be shown
// and stored wherever the URL is) or a query (a ?token= is a secret just the
// same, and the API's paths go after the URL, so a query would not stay one).
// The words show the URL with its secrets hidden.
//
//	urlRefusal("http://me:pw@h:8888") => `http://***@h:8888 holds a user name or password; …`
func urlRefusal(u string) string {
	const fix = `. Put the key in "apiKey" (or HINDSIGHT_API_KEY) and give the URL without it.`
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	host := rest
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	switch {
	case strings.Contains(host, "@"):
		return hideURLSecrets(u) + " holds a user name or password" + fix
	case strings.ContainsAny(rest, "?#"):
		return hideURLSecrets(u) + " holds a query or a fragment, which may carry a secret (?token=…) and which the API's paths cannot follow" + fix
	}
	return ""
}

// hideURLSecrets is text with the secrets of every URL in it hidden: the
// user name and password before a host, and each query value. It runs on
// whatever is shown or stored that could hold a URL (the status, doctor,
// an outbox's fail records, dead letters), so a URL refused at config time
// or echoed by a host's error still leaks nothing.
//
//	hideURLSecrets("GET http://me:pw@h:1/x?token=abc&b=2 failed") => "GET http://***@h:1/x?token=***&b=*** failed"
func hideURLSecrets(s string) string {
	if !strings.Contains(s, "://") {
		return s
	}
	var b text.Builder
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+3])
		s = s[i+3:]
		end := strings.IndexFunc(s, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == '"' || r == '\'' || r == '<' || r == '>' || r == '`'
		})
		if end < 0 {
			end = len(s)
		}
		b.WriteString(hideInURL(s[:end]))
		s = s[end:]
	}
}

// hideInURL hides the user information and the query values of a URL
// without its scheme.
func hideInURL(u string) string {
	hostEnd := strings.IndexAny(u, "/?#")
	if hostEnd < 0 {
		hostEnd = len(u)
	}
	if at := strings.LastIndexByte(u[:hostEnd], '@'); at >= 0 {
		u = "***" + u[at:]
		hostEnd -= at - 3
	}
	q := strings.IndexByte(u[hostEnd:], '?')
	if q < 0 {
		return u
	}
	q += hostEnd
	var b text.Builder
	b.WriteString(u[:q+1])
	query, frag := u[q+1:], ""
	if h := strings.IndexByte(query, '#'); h >= 0 {
		query, frag = query[:h], query[h:]
	}
	for k, kv := range strings.Split(query, "&") {
		if k > 0 {
			b.WriteByte('&')
		}
		if eq := strings.IndexByte(kv, '='); eq >= 0 {
			b.WriteString(kv[:eq+1] + "***")
		} else if kv != "" {
			b.WriteString("***")
		}
	}
	b.WriteString(frag)
	return b.String()
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
