// Package embeddings is the store of the vectors of this project's earlier
// pi sessions, as memory_search fuses them with the word ranking
// (decision 019): an embeddings endpoint the person already has (Ollama,
// llama.cpp, vLLM, OpenAI) is asked, between turns and in the background,
// for the vectors of the messages not embedded yet, which are kept in a
// derived cache; at search time it is asked for the query's vector, and the
// cosine over the cached vectors is a second ranking of the same messages.
//
// Read it top-down: its configuration (config.go: one global file, off when
// absent), its pure rules (cache.go: the cache's records, the blend of a
// message with the one before it, the ranking by cosine), then its driver
// (driver.go), the only file that talks to the host, through the guarded
// host it was handed. The request and its answer are wasm/vectors'.
//
// It never sends a message before redaction, never reads a project file for
// its configuration (a repository must not choose where a person's sessions
// are sent), never holds an API key (the host reads the variable the config
// names when it sends a request), and is never required: with no file,
// search is the word ranking alone, and no request is made.
package embeddings

import (
	"encoding/hex"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/config"
	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
)

// configFile is the configuration's name in <agent dir>/pi-memory/.
const configFile = "embeddings.json"

// settings is the configuration in force. The zero URL is "off".
type settings struct {
	// URL is the endpoint a request is posted to: an OpenAI-compatible
	// /v1/embeddings, or Ollama's /api/embed.
	URL   string
	Model string
	// KeyEnv names the environment variable whose value the host sends as
	// a bearer token; "" sends none (a local server).
	KeyEnv string
	// Dims, when set, is asked of the endpoint and cut to: 0 keeps the
	// model's own.
	Dims int
	// TimeoutMs bounds a query's request (1,000): a search waits for
	// it, so it is short; the background requests have their own bound
	// (batchTimeoutMs).
	TimeoutMs int
	// Why says what keeps embeddings off although the file is there, and
	// what to do; "" otherwise.
	Why      string
	Warnings []string
}

// on says the configuration names an endpoint to use.
func (c settings) on() bool { return c.URL != "" && c.Why == "" }

var known = map[string][]string{"url": nil, "model": nil, "apiKeyEnv": nil, "dimensions": nil, "timeoutMs": nil}

// parseConfig reads the configuration file. Absent: off, nothing said. A
// file that cannot be read as written, without a url or a model, with a URL
// that is not http(s) or carries a password, or an apiKeyEnv that is not a
// variable's name (a key pasted there), is off with why; an unknown key or a
// bad optional value is a warning (a number out of range: its nearest bound).
//
//	parseConfig(config.Parse("e.json", []byte(`{"url":"http://localhost:11434/v1/embeddings","model":"all-minilm"}`)))
//	=> URL "http://localhost:11434/v1/embeddings", Model "all-minilm", TimeoutMs 1000
func parseConfig(f *config.File) settings {
	c := settings{TimeoutMs: 1000}
	if f == nil || !f.Present {
		return c
	}
	if why := f.Broken(); why != "" {
		c.Why = why
		return c
	}
	f.Unknown(known)
	c.URL, _ = f.Str("url", "")
	c.Model, _ = f.Str("model", "")
	c.KeyEnv, _ = f.Str("apiKeyEnv", "")
	c.Dims, _ = f.Int("dimensions", 0, 0, maxDims)
	c.TimeoutMs, _ = f.Int("timeoutMs", c.TimeoutMs, 100, 30000)
	c.URL = strings.TrimSpace(c.URL)
	c.Model = strings.TrimSpace(c.Model)
	c.Warnings = f.Warnings
	switch {
	case c.URL == "":
		c.Why = f.Name + ` names no "url": give the endpoint, e.g. "http://localhost:11434/v1/embeddings"`
	case c.Model == "":
		c.Why = f.Name + ` names no "model": give the embedding model's name, e.g. "all-minilm"`
	case !strings.HasPrefix(c.URL, "http://") && !strings.HasPrefix(c.URL, "https://"):
		c.Why = f.Name + `: "url" must start with http:// or https://`
	case strings.Contains(authority(c.URL), "@") || strings.ContainsAny(c.URL, " \t\r\n"):
		c.Why = f.Name + `: "url" must not hold a user or a password; name the variable that holds the key in "apiKeyEnv"`
	case hostWhy(authority(c.URL)) != "":
		c.Why = f.Name + `: "url" ` + hostWhy(authority(c.URL)) + `, e.g. "http://localhost:11434/v1/embeddings"`
	case c.KeyEnv != "" && !envName(c.KeyEnv):
		c.Why = f.Name + `: "apiKeyEnv" is the name of an environment variable (such as OPENAI_API_KEY), never the key itself`
	}
	return c
}

// authority is the host part of an http(s) URL: between "//" and the next
// "/", "?" or "#" (where a user and password would be).
func authority(u string) string {
	u = u[strings.Index(u, "//")+2:]
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	return u
}

// hostWhy says what is wrong with an http(s) URL's authority (no user in
// it), "" when it is a host and an optional port: a name or IPv4 address
// of letters, digits, dots, hyphens and underscores, or an IPv6 address in
// brackets; a port of digits from 1 to 65535.
//
//	hostWhy("localhost:11434") => ""
//	hostWhy("") => "names no host"
//	hostWhy("h:0") => "has a port that is not a number from 1 to 65535"
func hostWhy(a string) string {
	host, port := a, ""
	if i := strings.LastIndexByte(a, ':'); i >= 0 && !strings.HasSuffix(a, "]") {
		host, port = a[:i], a[i+1:]
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || port[0] == '+' {
			return "has a port that is not a number from 1 to 65535"
		}
	}
	if len(host) > 2 && host[0] == '[' && host[len(host)-1] == ']' {
		for _, c := range host[1 : len(host)-1] {
			if !(c == ':' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return "has a host that is not a name or an address"
			}
		}
		return ""
	}
	if host == "" {
		return "names no host"
	}
	for _, c := range host {
		if !(c == '.' || c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return "has a host that is not a name or an address"
		}
	}
	if strings.Trim(host, ".-") == "" {
		return "names no host"
	}
	return ""
}

// envName says s is the name of an environment variable: letters, digits
// and underscores, not starting with a digit, at most 64.
func envName(s string) bool {
	if len(s) == 0 || len(s) > 64 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// modelKey names the cache of one model at one endpoint and dimensions:
// the model's name made safe for a file name, and a hash of all three
// (vectors of another model or size are another space).
//
//	modelKey(settings{URL: "http://localhost:11434/v1/embeddings", Model: "nomic-embed-text:v1.5"}) => "nomic-embed-text-v1.5-" + 8 hex digits
func modelKey(c settings) string {
	var b []byte
	for i := 0; i < len(c.Model) && len(b) < 48; i++ {
		ch := c.Model[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '.' || ch == '_' || ch == '-' {
			b = append(b, ch)
		} else {
			b = append(b, '-')
		}
	}
	if len(b) == 0 || b[0] == '.' {
		b = append([]byte("m"), b...)
	}
	sum := sha1.Sum([]byte(c.URL + "\n" + c.Model + "\n" + numstr.Itoa(c.Dims)))
	return string(b) + "-" + hex.EncodeToString(sum[:4])
}
