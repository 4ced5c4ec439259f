package redact

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// The matchers: one function per pattern, each written for one regular
// language (the expression in its doc comment) instead of compiling the
// expression with regexp, which cost the module ~157 KB and the first
// injection ~10 ms of compiling on pi's main thread (decision 009).
//
// Each find(s, pos) returns what regexp's leftmost-first search from s[pos]
// would: the match that starts first, and among the matches that start
// there the one a backtracking matcher tries first (greedy repeats longest
// first, lazy ones shortest first, alternatives in order), as
// [start, end, group1 start, group1 end, …] with -1 for a group that took no
// part; nil for no match. s[:pos] is context, as for regexp: \b looks at the
// byte before pos. Counted repeats count runes the way regexp decodes them
// (a byte that is not UTF-8 is one rune). matchers_test.go proves each one
// against its expression, kept in expressions_test.go.
//
// Most of them need no backtracking: their repeats are followed by a byte the
// repeated class cannot hold, so the longest repeat is the only one that can
// go on. Where the choice matters, the comment says why the matcher's order
// is the expression's.

// isWord is \w, regexp's word byte for \b. A byte of a multi-byte rune is
// never one, as the rune is not.
func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// wordStart reports \b before s[i], a word byte.
func wordStart(s string, i int) bool { return i == 0 || !isWord(s[i-1]) }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isToken is [A-Za-z0-9_\-], the alphabet of most vendors' tokens.
func isToken(c byte) bool { return isWord(c) || c == '-' }

func isUpperOrDigit(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' }

// isBlank is [ \t]; isSpace is regexp's \s, [\t\n\f\r ] (not \v).
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isTokenValue is [A-Za-z0-9._~+/=\-], a bearer token's alphabet.
func isTokenValue(c byte) bool {
	return isAlnum(c) || c == '.' || c == '_' || c == '~' || c == '+' || c == '/' || c == '=' || c == '-'
}

// runEnd is the end of the run of class bytes at s[i:].
//
//go:noinline
func runEnd(s string, i int, class func(byte) bool) int {
	for i < len(s) && class(s[i]) {
		i++
	}
	return i
}

// atLeast: the run of class bytes at s[i:] is min or more bytes long (its
// end, else -1). Only for ASCII classes, where a byte is a rune.
func atLeast(s string, i int, class func(byte) bool, min int) int {
	if e := runEnd(s, i, class); e-i >= min {
		return e
	}
	return -1
}

// exactly: the n bytes at s[i:] are all of class (their end, else -1).
func exactly(s string, i int, class func(byte) bool, n int) int {
	if i+n > len(s) {
		return -1
	}
	for k := i; k < i+n; k++ {
		if !class(s[k]) {
			return -1
		}
	}
	return i + n
}

// runes is the end of the run at s[i:] of runes outside stop (ASCII bytes)
// and how many runes it holds, counted as regexp decodes them.
//
//go:noinline
func runes(s string, i int, stop func(byte) bool) (end, n int) {
	for i < len(s) && !stop(s[i]) {
		i += runeLen(s, i)
		n++
	}
	return i, n
}

func runeLen(s string, i int) int {
	if s[i] < utf8.RuneSelf {
		return 1
	}
	_, w := utf8.DecodeRuneInString(s[i:])
	return w
}

// hasAt: s[i:] starts with lit (exact case).
//
//go:noinline
func hasAt(s string, i int, lit string) bool {
	return i >= 0 && i <= len(s) && strings.HasPrefix(s[i:], lit)
}

// endsFold: s[lo:e] ends with word, lowercase ASCII, in any ASCII case.
//
//go:noinline
func endsFold(s string, lo, e int, word string) bool {
	return e-len(word) >= lo && text.HasFoldPrefix(s[e-len(word):e], word)
}

// whole is a match without groups.
func whole(start, end int) []int { return []int{start, end} }

// group1 is a match whose one group is s[gs:ge].
func group1(start, end, gs, ge int) []int { return []int{start, end, gs, ge} }

// groupOf is a match of n groups whose group g is s[gs:ge], the others -1:
// which spelling of a value took part ("…", '…' or bare).
func groupOf(start, end, n, g, gs, ge int) []int {
	m := make([]int, 2+2*n)
	for k := range m {
		m[k] = -1
	}
	m[0], m[1], m[2+2*g], m[3+2*g] = start, end, gs, ge
	return m
}

// literalToken finds \b lit class{min,}: lit at a word boundary followed by
// min or more class bytes (a vendor's token prefix and its body). A try that
// fails read fewer than min bytes after lit, so the search stays linear.
func literalToken(s string, pos int, lit string, class func(byte) bool, min int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], lit)
		if k < 0 {
			return nil
		}
		i += k
		if !wordStart(s, i) {
			continue
		}
		if e := atLeast(s, i+len(lit), class, min); e >= 0 {
			return whole(i, e)
		}
	}
}

// findPrivateKey: -{4,5} ?BEGIN[ A-Z0-9]*PRIVATE KEY[ A-Z]*-{4,5}(?:[\s\S]*?-{4,5} ?END[ A-Z0-9]*PRIVATE KEY[ A-Z]*-{4,5}|(?:\\[nr][^\n]*)?)
//
// A match starts at the dashes before a BEGIN (the leftmost start: later
// BEGINs start later), and once its header matches it always matches: the
// lazy body ends at the first END line that matches, else the match is the
// header, and the rest of its line when a literal \n or \r follows it (a
// key in a JSON string); keySpan takes a key cut short on.
func findPrivateKey(s string, pos int) []int {
	if pos == 0 {
		keyMemo.data = nil // a new text: the FindAll loop starts at 0
	}
	for b := pos; ; {
		k := strings.Index(s[b:], "BEGIN")
		if k < 0 {
			return nil
		}
		i := b + k
		b = i + 1
		start := dashesBefore(s, pos, i)
		if start < 0 {
			continue
		}
		h := keyLine(s, i+len("BEGIN"))
		if h < 0 {
			continue
		}
		if e := endAfter(s, h); e >= 0 {
			return whole(start, e)
		}
		if hasAt(s, h, `\n`) || hasAt(s, h, `\r`) {
			if e := strings.IndexByte(s[h:], '\n'); e >= 0 {
				return whole(start, h+e)
			}
			return whole(start, len(s))
		}
		return whole(start, h)
	}
}

// endAfter is the end of the first END line at or after s[h:], -1 for
// none. keyMemo keeps the last answer for the text of one FindAll loop (a
// text of many BEGIN lines and no END read its rest once for each).
func endAfter(s string, h int) int {
	m := &keyMemo
	if m.data != unsafe.StringData(s) || m.n != len(s) || h < m.from || m.at >= 0 && h > m.at {
		m.data, m.n, m.from, m.at, m.end = unsafe.StringData(s), len(s), h, -1, -1
		for j := h; j < len(s); j++ {
			if s[j] == '-' {
				if e := endLine(s, j); e >= 0 {
					m.at, m.end = j, e
					break
				}
			}
		}
	}
	return m.end
}

var keyMemo struct {
	data             *byte
	n, from, at, end int
}

// keySpan is a private key's match, and for a key without its END line
// (findPrivateKey's header alone) all that may be the key after it: the
// rest of its line, and the lines after it up to the last one before a
// heading or an item of a list that is not key text, or another BEGIN.
// Whatever a paste puts before a key's lines (line numbers, a file's name,
// a log's time, a diff's '+', quotes) they are taken; a key cut short in a
// note takes the rest of its entry, not the notes after it. A header that a
// quote closes at once is a string that names it, not a key
// ("-----BEGIN RSA PRIVATE KEY-----").
func keySpan(s string, m []int) (int, int, int, int, bool) {
	end := m[1]
	if e := endAfter(s, m[0]); e >= 0 && e <= end {
		return m[0], end, m[0], end, true // to its END line
	}
	if end < len(s) && (isQuote(s[end]) || s[end] == '`') {
		// A header a quote closes at once names a key, unless key text
		// follows on the next line ("-----BEGIN …-----",\n "MIIEow…",).
		if le := lineEndAt(s, end); le == len(s) || s[le] != '\n' || !keyish(s[le+1:lineEndAt(s, le+1)]) {
			return m[0], end, m[0], end, true
		}
	}
	// Up to another BEGIN, another key's own match (found once: a line of
	// many BEGINs had each read the rest of the text).
	stop := len(s)
	if k := strings.Index(s[end:], "BEGIN"); k >= 0 {
		stop = end + k
	}
	for i := end; i < stop; {
		e := strings.IndexByte(s[i:stop], '\n')
		if e < 0 {
			e = stop - i
		}
		line := s[i : i+e]
		if i > end && listOrHeading(line) {
			break
		}
		if t := strings.TrimRight(line, " \t\r"); t != "" {
			end = i + len(t)
		}
		i += e + 1
	}
	return m[0], end, m[0], end, true
}

// listOrHeading: line is a Markdown heading or an item of a list whose text
// is not a key's ("- The billing cron…", "## Notes"; not "- MIIEow…").
func listOrHeading(line string) bool {
	t := strings.TrimLeft(line, " \t>") // in a quote too
	n := runEnd(t, 0, func(c byte) bool { return c >= '0' && c <= '9' })
	switch {
	case n > 0 && n < len(t) && (t[n] == '.' || t[n] == ')'):
		t = t[n+1:]
	case strings.HasPrefix(t, "#"):
		t = strings.TrimLeft(t, "#")
	case t != "" && strings.IndexByte("-*+", t[0]) >= 0:
		t = t[1:]
	default:
		return false
	}
	if t == "" || t[0] != ' ' && t[0] != '\t' {
		return false
	}
	return !keyish(t)
}

// keyish: line (its marks put aside) starts with key text: 40 characters
// of base64 in both cases, or 16 holding a digit, '+' or '/' that end the
// line ("MIIEow…", not "Internationalization is…" nor
// "UploadTheCertificate2 to…").
func keyish(line string) bool {
	t := strings.TrimLeft(line, " \t\"'`+(")
	b := runEnd(t, 0, func(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '=' })
	var digit, upper, lower bool
	for _, c := range []byte(t[:b]) {
		digit = digit || c >= '0' && c <= '9' || c == '+' || c == '/'
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
	}
	return upper && lower && (b >= 40 || b >= 16 && digit && strings.TrimRight(t[b:], " \t\r\"'`,;") == "")
}

// lineEndAt is where the line that starts at s[i] ends, read no further
// than 8 KiB (a key's line is shorter).
func lineEndAt(s string, i int) int {
	j := min(len(s), i+8<<10)
	if k := strings.IndexByte(s[i:j], '\n'); k >= 0 {
		return i + k
	}
	return j
}

// dashesBefore: where "-{4,5} ?" ending at s[i] starts, at or after pos (-1:
// nowhere). The dashes run up to the optional space, so the start is fixed
// by their count: 4 or 5 of them, from the leftmost start that leaves at
// most 5 (6 dashes match from the second).
func dashesBefore(s string, pos, i int) int {
	if i > pos && s[i-1] == ' ' {
		i--
	}
	n := 0
	for n < 5 && i-n > pos && s[i-n-1] == '-' {
		n++
	}
	if n < 4 {
		return -1
	}
	return i - n
}

// endLine: the end of -{4,5} ?END[ A-Z0-9]*PRIVATE KEY[ A-Z]*-{4,5} at
// s[k:], or -1. The dashes at k must be 4 or 5 and end at the space or E.
func endLine(s string, k int) int {
	n := 0
	for n < 6 && k+n < len(s) && s[k+n] == '-' {
		n++
	}
	if n < 4 || n > 5 {
		return -1
	}
	i := k + n
	if i < len(s) && s[i] == ' ' {
		i++
	}
	if !hasAt(s, i, "END") {
		return -1
	}
	return keyLine(s, i+len("END"))
}

// keyLine: the end of [ A-Z0-9]*PRIVATE KEY[ A-Z]*-{4,5} at s[i:], or -1.
// The dashes can follow only the end of the run of [ A-Z0-9], so the run
// must hold "PRIVATE KEY" after its last digit; the greedy -{4,5} takes 5
// dashes when there are.
func keyLine(s string, i int) int {
	e, lo := i, i
	for e < len(s) && (s[e] == ' ' || isUpperOrDigit(s[e])) {
		if s[e] <= '9' && s[e] >= '0' {
			lo = e + 1
		}
		e++
	}
	if !strings.Contains(s[lo:e], "PRIVATE KEY") {
		return -1
	}
	n := 0
	for n < 5 && e+n < len(s) && s[e+n] == '-' {
		n++
	}
	if n < 4 {
		return -1
	}
	return e + n
}

// findAWSKey: \b((?:AKIA|ASIA)[0-9A-Z]{16})(?:\b|GITHUB), GITHUB being
// findGitHubToken's expression.
func findAWSKey(s string, pos int) []int {
	for i := pos; i+20 <= len(s); i++ {
		if s[i] != 'A' || !wordStart(s, i) || !hasAt(s, i, "AKIA") && !hasAt(s, i, "ASIA") {
			continue
		}
		if exactly(s, i+4, isUpperOrDigit, 16) >= 0 {
			if e := tokenEnd(s, i+20); e >= 0 {
				return group1(i, e, i, i+20)
			}
		}
	}
	return nil
}

// tokenEnd is where a vendor's token that ends at s[e] ends its match:
// at e when \b holds there, or after a GitHub token glued on
// ("AKIA…EXAMPLEghp_…"), which needs no \b before it. Without that the
// key would pass the first redaction and be redacted by the second, once
// the token beside it is its mark: String(String(s)) != String(s). -1 when
// neither.
func tokenEnd(s string, e int) int {
	if e == len(s) || !isWord(s[e]) {
		return e
	}
	return gitHubEnd(s, e)
}

// findGitHubToken: (?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})
//
// No word boundary before it, unlike the other vendors: the prefix and its
// 30 letters and digits are GitHub's alone, and a token glued to a word
// ("oldghp_…", where a removed block or a shell variable joined them) is
// still a token.
func findGitHubToken(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if s[i] != 'g' {
			continue
		}
		if e := gitHubEnd(s, i); e >= 0 {
			return whole(i, e)
		}
	}
	return nil
}

// gitHubEnd is the end of the GitHub token at s[i], -1 when none starts
// there.
func gitHubEnd(s string, i int) int {
	switch {
	case i+3 < len(s) && s[i] == 'g' && s[i+1] == 'h' && strings.IndexByte("pousr", s[i+2]) >= 0 && s[i+3] == '_':
		return atLeast(s, i+4, isAlnum, 30)
	case hasAt(s, i, "github_pat_"):
		return atLeast(s, i+len("github_pat_"), isWord, 22)
	}
	return -1
}

// gitlabPrefixes are the words after "gl"; none is a prefix of another, so
// at most one matches.
var gitlabPrefixes = [...]string{"pat-", "dt-", "rt-", "ptt-", "cbt-", "soat-", "ffct-", "imt-", "agent-", "oas-"}

// findGitLabToken: \b(?:gl(?:pat|dt|rt|ptt|cbt|soat|ffct|imt|agent|oas)-|GR1348941)[0-9A-Za-z_\-]{20,}
func findGitLabToken(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if s[i] != 'g' && s[i] != 'G' || !wordStart(s, i) {
			continue
		}
		body := -1
		if hasAt(s, i, "gl") {
			for _, p := range gitlabPrefixes {
				if hasAt(s, i+2, p) {
					body = i + 2 + len(p)
					break
				}
			}
		} else if hasAt(s, i, "GR1348941") {
			body = i + len("GR1348941")
		}
		if body < 0 {
			continue
		}
		if e := atLeast(s, body, isToken, 20); e >= 0 {
			return whole(i, e)
		}
	}
	return nil
}

// findPuTTYKey: Private-Lines:[ \t]*[0-9]+(?:\r?\n|[ \t]+)((?:[ \t>]*[A-Za-z0-9+/=]+(?:\r?\n|[ \t]+|$))+)
//
// A PuTTY key file's private part (.ppk, versions 2 and 3): the base64
// lines after its Private-Lines: header, indented or quoted in a note too,
// up to the first that is not one (Private-MAC:).
func findPuTTYKey(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "Private-Lines:")
		if k < 0 {
			return nil
		}
		i += k
		d := runEnd(s, i+len("Private-Lines:"), isBlank)
		e := runEnd(s, d, func(c byte) bool { return c >= '0' && c <= '9' })
		if e == d {
			continue
		}
		gs := keyLineEnd(s, e)
		if gs < 0 || gs == len(s) {
			continue
		}
		ge := gs
		for {
			p := runEnd(s, ge, isQuotePrefix)
			l := runEnd(s, p, func(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '=' })
			if l == p {
				break
			}
			if l = keyLineEnd(s, l); l < 0 {
				break
			}
			ge = l
		}
		if ge > gs {
			return group1(i, ge, gs, ge)
		}
	}
}

// keyLineEnd is where the separator of a key's lines at s[i:] ends
// (?:\r?\n|[ \t]+|$): a line's end, or blanks where a note joined its
// lines; -1 when there is none.
func keyLineEnd(s string, i int) int {
	switch {
	case hasAt(s, i, "\r\n"):
		return i + 2
	case hasAt(s, i, "\n"):
		return i + 1
	case i == len(s):
		return i
	}
	return blanks(s, i)
}

// puttySpan is the private lines without the first line's indentation or
// quote and the last line's end.
func puttySpan(s string, m []int) (int, int, int, int, bool) {
	ge := m[3]
	for ge > m[2] && (s[ge-1] == '\n' || s[ge-1] == '\r' || isBlank(s[ge-1])) {
		ge--
	}
	return runEnd(s, m[2], isQuotePrefix), ge, m[0], m[1], true
}

// isQuotePrefix: c may stand before a line of a key in a note: indentation
// or a Markdown quote's ">".
func isQuotePrefix(c byte) bool { return c == ' ' || c == '\t' || c == '>' }

// findAPIKey: \b(?:sk-[A-Za-z0-9_\-]{20,}|dckr_pat_…|…), each of apiKeys: a
// vendor's prefix and at least its count of bytes of its alphabet (written
// out in expressions_test.go). One pass: at each word start, the keys in
// their order; no two prefixes start a match at the same byte.
func findAPIKey(s string, pos int) []int {
	if apiKeyFirst[0] == 0 {
		apiKeyFirst[0] = 1 // filled: no prefix starts with NUL
		for _, k := range apiKeys {
			apiKeyFirst[k.prefix[0]/64] |= 1 << (k.prefix[0] % 64)
		}
	}
	for i := pos; i < len(s); i++ {
		if apiKeyFirst[s[i]/64]&(1<<(s[i]%64)) == 0 || !wordStart(s, i) {
			continue
		}
		for _, k := range apiKeys {
			if hasAt(s, i, k.prefix) {
				if e := atLeast(s, i+len(k.prefix), k.class, k.min); e >= 0 {
					return whole(i, e)
				}
			}
		}
	}
	return nil
}

// apiKeyFirst is the set of the apiKeys' first bytes (bit 0 of word 0 once
// filled): a word that starts with another byte starts none of them.
var apiKeyFirst [4]uint64

// apiKeys are the keys and tokens of vendors that need no label: OpenAI's and
// Anthropic's sk-, Docker Hub's personal and organisation access tokens,
// Linear's API and OAuth keys, Groq, xAI, Perplexity, Replicate, Grafana's
// service accounts, Sentry's organisation tokens, Atlassian's API tokens,
// Tailscale's keys, Doppler's service tokens, 1Password's service accounts;
// Grafana Cloud's, Doppler's personal, CLI, service-account, SCIM and audit
// tokens, Figma's, Postman's, Mailgun's, New Relic's, Pulumi's,
// Databricks', Supabase's, PlanetScale's, Netlify's, Notion's, Fly.io's,
// Render's, Square's, Contentful's and Dropbox's; Sentry's user tokens,
// GitLab's feed tokens, RubyGems', PostHog's, Buildkite's, CircleCI's,
// Mapbox's secret tokens, Google's OAuth refresh tokens, Grafana's legacy
// keys, Facebook's tokens, Nostr's private keys, BIP32's extended private
// keys and Docker's config.json base64'd whole ({"auths": …, a pull
// secret's .dockerconfigjson); JFrog's API keys, HubSpot's private-app
// tokens, Dynatrace's, Sourcegraph's and Fly.io's tokens, Facebook's
// page and app tokens, Alibaba Cloud's and Tencent Cloud's access key ids;
// Bitbucket's app passwords, Adafruit IO's keys, Flutterwave's secret keys,
// Typeform's, Shippo's, Clojars' and Frame.io's tokens, Square's access
// tokens, Notion's integration secrets, Lob's live keys and Braintree's
// access tokens.
var apiKeys = [...]struct {
	prefix string
	class  func(byte) bool
	min    int
}{
	{"sk-", isToken, 20}, {"dckr_pat_", isToken, 27}, {"dckr_oat_", isToken, 27}, {"lin_api_", isAlnum, 40}, {"lin_oauth_", isAlnum, 40},
	{"gsk_", isAlnum, 40}, {"xai-", isAlnum, 40}, {"pplx-", isAlnum, 40}, {"r8_", isAlnum, 30}, {"glsa_", isToken, 30},
	{"sntrys_", isTokenValue, 40}, {"ATATT", isTokenValue, 60}, {"tskey-", isToken, 20}, {"dp.st.", isTokenValue, 40}, {"ops_", isTokenValue, 100},
	{"glc_", isTokenValue, 32}, {"dp.pt.", isTokenValue, 40}, {"dp.ct.", isTokenValue, 40}, {"dp.sa.", isTokenValue, 40}, {"dp.scim.", isTokenValue, 40},
	{"dp.audit.", isTokenValue, 40}, {"figd_", isToken, 40}, {"PMAK-", isToken, 50}, {"key-", isLowerHex, 32}, {"NRAK-", isAlnum, 27},
	{"pul-", isLowerHex, 40}, {"dapi", isLowerHex, 32}, {"sbp_", isLowerHex, 40}, {"pscale_tkn_", isToken, 32}, {"pscale_pw_", isToken, 32},
	{"nfp_", isAlnum, 36}, {"ntn_", isAlnum, 40}, {"fo1_", isToken, 40}, {"rnd_", isAlnum, 30}, {"sq0atp-", isToken, 22}, {"sq0csp-", isToken, 40},
	{"CFPAT-", isToken, 40}, {"sl.", isTokenValue, 100},
	{"sntryu_", isLowerHex, 64}, {"glft-", isToken, 20}, {"rubygems_", isLowerHex, 48}, {"phx_", isAlnum, 40}, {"bkua_", isAlnum, 40},
	{"CCIPAT_", isToken, 40}, {"sk.eyJ", isTokenValue, 60}, {"1//0", isToken, 40}, {"eyJrIjoi", isTokenValue, 40}, {"EAACEdEose0cBA", isAlnum, 20},
	{"nsec1", isAlnum, 58}, {"xprv", isAlnum, 100}, {"tprv", isAlnum, 100}, {"eyJhdXRocyI6", isTokenValue, 20},
	{"AKCp", isAlnum, 60}, {"pat-na1-", isToken, 36}, {"pat-eu1-", isToken, 36}, {"dt0c01.", isTokenValue, 80}, {"sgp_", isToken, 40},
	{"fm2_", isTokenValue, 60}, {"EAAG", isAlnum, 100}, {"EAAB", isAlnum, 100}, {"LTAI", isAlnum, 12}, {"AKID", isAlnum, 32},
	{"squ_", isLowerHex, 40}, {"sqp_", isLowerHex, 40}, {"sqa_", isLowerHex, 40}, {"oauth:", isAlnum, 30},
	{"syt_", isToken, 30}, {"xkeysib-", isToken, 64}, {"oy2", isAlnum, 43}, {"lsv2_", isToken, 40}, {"pcsk_", isToken, 40},
	{"tvly-", isToken, 30}, {"nvapi-", isToken, 40}, {"pnu_", isAlnum, 36}, {"SWMTKN-1-", isToken, 50},
	{"ATBB", isAlnum, 28}, {"aio_", isAlnum, 28}, {"FLWSECK-", isToken, 32}, {"FLWSECK_TEST-", isToken, 32}, {"tfp_", isToken, 40},
	{"shippo_live_", isLowerHex, 40}, {"shippo_test_", isLowerHex, 40}, {"CLOJARS_", isLowerHex, 60}, {"fio-u-", isToken, 64},
	{"EAAA", isToken, 60}, {"secret_", isAlnum, 43}, {"live_", isLowerHex, 30}, {"access_token$production$", isAlnumOrDollar, 40},
	{"access_token$sandbox$", isAlnumOrDollar, 40},
}

func isAlnumOrDollar(c byte) bool { return isAlnum(c) || c == '$' }

// findSlackToken: \b(?:xox[abposre]-|xapp-[0-9]-)[A-Za-z0-9\-]{10,}
func findSlackToken(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if s[i] != 'x' || !wordStart(s, i) {
			continue
		}
		body := -1
		switch {
		case hasAt(s, i, "xox") && i+4 < len(s) && strings.IndexByte("abposre", s[i+3]) >= 0 && s[i+4] == '-':
			body = i + 5
		case hasAt(s, i, "xapp-") && i+6 < len(s) && s[i+5] >= '0' && s[i+5] <= '9' && s[i+6] == '-':
			body = i + 7
		}
		if body < 0 {
			continue
		}
		if e := atLeast(s, body, isAlnumOrDash, 10); e >= 0 {
			return whole(i, e)
		}
	}
	return nil
}

func isAlnumOrDash(c byte) bool { return isAlnum(c) || c == '-' }

// findDiscordWebhook: discord(?:app)?\.com/api/(?:v[0-9]+/)?webhooks/([A-Za-z0-9_/\-]{20,})
//
// The host stays readable; the id and token after it are the credential.
func findDiscordWebhook(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "discord")
		if k < 0 {
			return nil
		}
		i += k
		j := i + len("discord")
		if hasAt(s, j, "app") {
			j += 3
		}
		if !hasAt(s, j, ".com/api/") {
			continue
		}
		j += len(".com/api/")
		if hasAt(s, j, "v") {
			if d := runEnd(s, j+1, func(c byte) bool { return c >= '0' && c <= '9' }); d > j+1 && hasAt(s, d, "/webhooks/") {
				j = d + 1
			}
		}
		if !hasAt(s, j, "webhooks/") {
			continue
		}
		j += len("webhooks/")
		if e := atLeast(s, j, isWebhookPath, 20); e >= 0 {
			return group1(i, e, j, e)
		}
	}
}

// findSlackWebhook: hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/\-]{20,})
func findSlackWebhook(s string, pos int) []int {
	const host = "hooks.slack.com/"
	for i := pos; ; i++ {
		k := strings.Index(s[i:], host)
		if k < 0 {
			return nil
		}
		i += k
		j := i + len(host)
		switch {
		case hasAt(s, j, "services/"):
			j += len("services/")
		case hasAt(s, j, "workflows/"):
			j += len("workflows/")
		case hasAt(s, j, "triggers/"):
			j += len("triggers/")
		default:
			continue
		}
		if e := atLeast(s, j, isWebhookPath, 20); e >= 0 {
			return group1(i, e, j, e)
		}
	}
}

func isWebhookPath(c byte) bool { return isToken(c) || c == '/' }

// findGoogleKey: \b(?:AIza[0-9A-Za-z_\-]{35}|GOCSPX-[0-9A-Za-z_\-]{20,}|ya29\.[0-9A-Za-z_\-]{20,})
func findGoogleKey(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		c := s[i]
		if c != 'A' && c != 'G' && c != 'y' || !wordStart(s, i) {
			continue
		}
		e := -1
		switch {
		case hasAt(s, i, "AIza"):
			e = exactly(s, i+4, isToken, 35)
		case hasAt(s, i, "GOCSPX-"):
			e = atLeast(s, i+7, isToken, 20)
		case hasAt(s, i, "ya29."):
			e = atLeast(s, i+5, isToken, 20)
		}
		if e >= 0 {
			return whole(i, e)
		}
	}
	return nil
}

// findStripeKey: \b(?:(?:sk|rk|pk)_(?:live|test)_[0-9a-zA-Z]{16,}|whsec_[0-9a-zA-Z]{24,})
func findStripeKey(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		c := s[i]
		if c != 's' && c != 'r' && c != 'p' && c != 'w' || !wordStart(s, i) {
			continue
		}
		e := -1
		switch {
		case c != 'w' && hasAt(s, i+1, "k_") && (hasAt(s, i+3, "live_") || hasAt(s, i+3, "test_")):
			e = atLeast(s, i+8, isAlnum, 16)
		case hasAt(s, i, "whsec_"):
			e = atLeast(s, i+6, isAlnum, 24)
		}
		if e >= 0 {
			return whole(i, e)
		}
	}
	return nil
}

// findNPMToken: \bnpm_[A-Za-z0-9]{36}
func findNPMToken(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "npm_")
		if k < 0 {
			return nil
		}
		i += k
		if wordStart(s, i) && exactly(s, i+4, isAlnum, 36) >= 0 {
			return whole(i, i+40)
		}
	}
}

// findHuggingFaceToken: \bhf_[A-Za-z0-9]{30,}
func findHuggingFaceToken(s string, pos int) []int {
	return literalToken(s, pos, "hf_", isAlnum, 30)
}

// findPyPIToken: \bpypi-AgE[A-Za-z0-9_\-]{50,}
func findPyPIToken(s string, pos int) []int {
	return literalToken(s, pos, "pypi-AgE", isToken, 50)
}

// findHerokuKey: \bHRKU-[A-Za-z0-9_\-]{30,}
func findHerokuKey(s string, pos int) []int {
	return literalToken(s, pos, "HRKU-", isToken, 30)
}

// findSendGridKey: \bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}
//
// The dots end the runs, so a try that fails at one "SG." fails there only.
func findSendGridKey(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "SG.")
		if k < 0 {
			return nil
		}
		i += k
		if !wordStart(s, i) {
			continue
		}
		if d := exactly(s, i+3, isToken, 22); d >= 0 && hasAt(s, d, ".") {
			if e := exactly(s, d+1, isToken, 43); e >= 0 {
				return whole(i, e)
			}
		}
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func isLowerHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

// findTwilioKey: \b(SK[0-9a-fA-F]{32})(?:\b|GITHUB), as findAWSKey.
func findTwilioKey(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "SK")
		if k < 0 {
			return nil
		}
		i += k
		if e := exactly(s, i+2, isHex, 32); wordStart(s, i) && e >= 0 {
			if end := tokenEnd(s, e); end >= 0 {
				return group1(i, end, i, e)
			}
		}
	}
}

// findShopifyToken: \bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}
func findShopifyToken(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "shp")
		if k < 0 {
			return nil
		}
		i += k
		if !wordStart(s, i) || !hasAt(s, i+5, "_") {
			continue
		}
		switch s[i+3 : i+5] {
		case "at", "ss", "ca", "pa":
			if e := exactly(s, i+6, isHex, 32); e >= 0 {
				return whole(i, e)
			}
		}
	}
}

// findDigitalOceanToken: \bdo[opr]_v1_[a-f0-9]{64}
//
// A match starts three bytes before its "_v1_", so the matches come in the
// order of their "_v1_".
func findDigitalOceanToken(s string, pos int) []int {
	for b := pos; ; {
		k := strings.Index(s[b:], "_v1_")
		if k < 0 {
			return nil
		}
		i := b + k - 3
		b += k + 1
		if i < pos || !hasAt(s, i, "do") || strings.IndexByte("opr", s[i+2]) < 0 || !wordStart(s, i) {
			continue
		}
		if e := exactly(s, i+7, isLowerHex, 64); e >= 0 {
			return whole(i, e)
		}
	}
}

// findVaultToken: \bhv[sb]\.[A-Za-z0-9_\-]{24,}
func findVaultToken(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "hv")
		if k < 0 {
			return nil
		}
		i += k
		if !wordStart(s, i) || i+3 >= len(s) || s[i+2] != 's' && s[i+2] != 'b' || s[i+3] != '.' {
			continue
		}
		if e := atLeast(s, i+4, isToken, 24); e >= 0 {
			return whole(i, e)
		}
	}
}

// findAgeKey: \bAGE-SECRET-KEY-1[0-9A-Z]{58}
func findAgeKey(s string, pos int) []int {
	const lit = "AGE-SECRET-KEY-1"
	for i := pos; ; i++ {
		k := strings.Index(s[i:], lit)
		if k < 0 {
			return nil
		}
		i += k
		if e := exactly(s, i+len(lit), isUpperOrDigit, 58); wordStart(s, i) && e >= 0 {
			return whole(i, e)
		}
	}
}

// findAzureSAS: [?&]sig=([A-Za-z0-9%+/=]{20,})
func findAzureSAS(s string, pos int) []int {
	for b := pos; ; {
		k := strings.Index(s[b:], "sig=")
		if k < 0 {
			return nil
		}
		i := b + k - 1
		b += k + 1
		if i < pos || s[i] != '?' && s[i] != '&' && s[i] != ';' && !isSpace(s[i]) {
			continue
		}
		if e := atLeast(s, i+5, isSignature, 20); e >= 0 {
			return group1(i, e, i+5, e)
		}
	}
}

func isSignature(c byte) bool { return isAlnum(c) || c == '%' || c == '+' || c == '/' || c == '=' }

// findJWT: \beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}
//
// The dots end each run, so each run is taken whole. When a try fails, every
// "eyJ" inside its first run would be followed by a shorter first run and the
// same rest: the search goes on after that run, which keeps it linear.
func findJWT(s string, pos int) []int {
	for i := pos; ; {
		k := strings.Index(s[i:], "eyJ")
		if k < 0 {
			return nil
		}
		i += k
		if !wordStart(s, i) {
			i++
			continue
		}
		e1 := runEnd(s, i+3, isToken)
		if e1-(i+3) >= 8 && hasAt(s, e1, ".") {
			e2 := runEnd(s, e1+1, isToken)
			if e2-(e1+1) >= 8 && hasAt(s, e2, ".") {
				if e3 := atLeast(s, e2+1, isToken, 8); e3 >= 0 {
					return whole(i, e3)
				}
			}
		}
		i = e1
	}
}

// findBearer: \b[Bb][Ee][Aa][Rr][Ee][Rr][ \t]+([A-Za-z0-9._~+/=\-]{16,})
func findBearer(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if s[i]|0x20 != 'b' || !wordStart(s, i) || !text.HasFoldPrefix(s[i:], "bearer") {
			continue
		}
		v := runEnd(s, i+6, isBlank)
		if v == i+6 {
			continue
		}
		if e := atLeast(s, v, isTokenValue, 16); e >= 0 {
			return group1(i, e, v, e)
		}
	}
	return nil
}

// findAuthHeader: \b(?:PROXY-)?AUTHORIZATION["']?(?:[ \t]*[:=][ \t]*["']?|[ \t]+["'])[A-Za-z][A-Za-z0-9_\-]*[ \t]+([A-Za-z0-9._~+/=\-]{8,})
// with every word in any ASCII case.
//
// With "proxy-" the match starts at its p; without, at the a of
// "authorization", after a non-word byte. The optional quotes are taken when
// present (the byte after them could not be a quote).
func findAuthHeader(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if !wordStart(s, i) {
			continue
		}
		j := i
		if text.HasFoldPrefix(s[j:], "proxy-") {
			j += len("proxy-")
		}
		if !text.HasFoldPrefix(s[j:], "authorization") {
			continue
		}
		j += len("authorization")
		if j < len(s) && isQuote(s[j]) {
			j++
		}
		switch a := runEnd(s, j, isBlank); {
		case a < len(s) && (s[a] == ':' || s[a] == '='):
			j = runEnd(s, a+1, isBlank)
			if j < len(s) && isQuote(s[j]) {
				j++
			}
		case a > j && a < len(s) && isQuote(s[a]):
			j = a + 1 // nginx's proxy_set_header Authorization "Basic …";
		default:
			continue
		}
		// The scheme: any word (Basic, Token, Bot, Okta's SSWS…); authValue
		// weighs the value by it.
		if j == len(s) || !isLetter(s[j]) {
			continue
		}
		j = runEnd(s, j, func(c byte) bool { return isWord(c) || c == '-' })
		v := runEnd(s, j, isBlank)
		if v == j {
			continue
		}
		if e := atLeast(s, v, isTokenValue, 8); e >= 0 {
			return group1(i, e, v, e)
		}
	}
	return nil
}

func isQuote(c byte) bool { return c == '"' || c == '\'' }

// authValue keeps an Authorization header's credential: after Basic,
// Token, Bot or Bearer one of 8 bytes or more; after another scheme (Okta's
// SSWS, a vendor's own) one of 16 or more with a letter and a digit, not a
// Digest's parameters nor prose ("authorization: server configuration").
func authValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := m[2], m[3]
	if hasAt(s, ve, ":") {
		ve = runEnd(s, ve+1, isTokenValue) // a key and its secret: GoDaddy's sso-key KEY:SECRET
	}
	k := runEndBack(s, vs, isBlank)
	scheme := strings.ToLower(s[runEndBack(s, k, func(c byte) bool { return isWord(c) || c == '-' }):k])
	switch scheme {
	case "basic", "token", "bot", "bearer":
		return vs, ve, m[0], max(m[1], ve), true
	case "digest":
		return 0, 0, 0, 0, false
	}
	// Another scheme's credential holds a digit, and is long: a word is
	// prose ("Authorization: Negotiate with the proxy"); digits and dashes
	// alone are one too (Splunk's HEC token, a UUID).
	v := s[vs:ve]
	letters := strings.ContainsFunc(v, func(r rune) bool { return r < 128 && isLetter(byte(r)) })
	if len(v) < 16 || !strings.ContainsAny(v, "0123456789") || !letters && strings.Trim(v, "0123456789-") != "" {
		return 0, 0, 0, 0, false // without letters, digits and dashes alone: no version, build or address
	}
	return vs, ve, m[0], max(m[1], ve), true
}

// findURLUser: [A-Za-z][A-Za-z0-9+.\-]*://[^\s/:"'<>`]*:
//
// Neither run can hold the byte after it, so each "://" has one possible
// match, starting at the first letter of the scheme run before it; a later
// "://" has its scheme after this one's.
func findURLUser(s string, pos int) []int {
	for b := pos; ; {
		k := strings.Index(s[b:], "://")
		if k < 0 {
			return nil
		}
		r := b + k
		b = r + 1
		a := r
		for a > pos && isSchemeChar(s[a-1]) {
			a--
		}
		for a < r && !isLetter(s[a]) {
			a++
		}
		if a == r {
			continue
		}
		e := r + 3
		for e < len(s) && (!isUserStop(s[e]) || s[e] == '@') { // a user may hold an unencoded '@' (ada@acme.io)
			e++
		}
		if e < len(s) && s[e] == ':' {
			return whole(a, e+1)
		}
	}
}

// findUserPassword: (?:^|[^A-Za-z0-9_.\-/:@])([A-Za-z0-9_.\-]+)[:/]([^\s/:@"'<>`]+)@((?://)?[A-Za-z0-9.\-]+)
//
// user:password@host without a scheme (root:pw@10.0.0.1), or Oracle's
// user/password@db (sqlplus system/pw@localhost:1521/XE; @//host, its Easy
// Connect). Neither the
// password nor the user can hold '@' or ':', nor the byte before the user a
// user's byte, so each '@' has one possible match, and a later '@' a later
// one.
func findUserPassword(s string, pos int) []int {
	for b := pos; ; {
		k := strings.IndexByte(s[b:], '@')
		if k < 0 {
			return nil
		}
		k += b
		b = k + 1
		p := runEndBack(s, k, func(c byte) bool { return !isUserStop(c) })
		if p == k || p == 0 || s[p-1] != ':' && s[p-1] != '/' {
			continue
		}
		u := runEndBack(s, p-1, isIdent)
		if u == p-1 {
			continue
		}
		start := 0
		if u > 0 {
			switch c := s[u-1]; {
			case c == ':' && u >= 5 && text.HasFoldPrefix(s[u-5:], "thin:"):
				start = u - 5 // JDBC's jdbc:oracle:thin:user/password@//host
			case c == '/' || c == ':' || c == '@':
				continue
			default:
				_, w := utf8.DecodeLastRuneInString(s[:u])
				start = u - w
			}
		}
		h := runEnd(s, k+1, isHostByte)
		if hasAt(s, k+1, "//") {
			if e := runEnd(s, k+3, isHostByte); e > k+3 {
				h = e
			}
		}
		if start < pos || h == k+1 {
			continue
		}
		return []int{start, h, u, p - 1, p, k, k + 1, h}
	}
}

// isHostByte is [A-Za-z0-9.\-].
func isHostByte(c byte) bool { return isAlnum(c) || c == '.' || c == '-' }

// isUserStop is what [^\s/:@"'<>`] does not match.
func isUserStop(c byte) bool {
	return isSpace(c) || c == '/' || c == ':' || c == '@' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`'
}

func isSchemeChar(c byte) bool {
	return isLetter(c) || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// findLabel finds [A-Za-z0-9_.\-]*LABEL TAIL, where LABEL is made of the
// same bytes and TAIL starts with none of them (a quote, ], a blank, : or =).
// So LABEL must end where the run of identifier bytes ends, the match
// starts where the run starts (at or after pos), and which LABEL the
// greedy prefix leaves does not change the match: label says whether one
// does, tail matches the rest (its match and groups, or nil).
func findLabel(s string, pos int, label func(s string, lo, end int) bool, tail func(s string, start, at int) []int) []int {
	for i := pos; i < len(s); {
		if !isIdent(s[i]) {
			i++
			continue
		}
		start := i
		i = runEnd(s, i, isIdent)
		if label(s, start, i) {
			if m := tail(s, start, i); m != nil {
				return m
			}
		}
	}
	return nil
}

// sep skips one optional [_.\-] before s[e] (words end in letters, so a
// separator there is the optional one).
func sep(s string, lo, e int) int {
	if e > lo && (s[e-1] == '_' || s[e-1] == '.' || s[e-1] == '-') {
		return e - 1
	}
	return e
}

// awsSecretLabel: s[lo:end] ends with
// AWS[_.\-]?SECRET[_.\-]?(?:ACCESS[_.\-]?)?KEY|SECRET[_.\-]?ACCESS[_.\-]?KEY
// in any ASCII case (AWS SECRET ACCESS KEY ends with the second).
func awsSecretLabel(s string, lo, end int) bool {
	if !endsFold(s, lo, end, "key") {
		return false
	}
	e := sep(s, lo, end-3)
	switch {
	case endsFold(s, lo, e, "access"):
		return endsFold(s, lo, sep(s, lo, e-6), "secret")
	case endsFold(s, lo, e, "secret"):
		return endsFold(s, lo, sep(s, lo, e-6), "aws")
	}
	return false
}

// findAWSSecretKey: [A-Za-z0-9_.\-]*(?:AWS[_.\-]?SECRET[_.\-]?(?:ACCESS[_.\-]?)?|SECRET[_.\-]?ACCESS[_.\-]?)KEY
// ["'\]`*]{0,2}[ \t]*(?::=|=>|[:=]|%3[dD]|\\[uU]003[dD])[ \t]*["']?([A-Za-z0-9/+]{40}), words in any ASCII case.
func findAWSSecretKey(s string, pos int) []int {
	return findLabel(s, pos, awsSecretLabel, func(s string, start, at int) []int {
		return assignment(s, at, func(v int) []int {
			if v < len(s) && isQuote(s[v]) {
				v++
			}
			if e := exactly(s, v, isBase64, 40); e >= 0 {
				return group1(start, e, v, e)
			}
			return nil
		})
	})
}

func isBase64(c byte) bool { return isAlnum(c) || c == '/' || c == '+' }

// assignment matches ["'\]`*]{0,2}[ \t]*(?::=|=>|[?+]=|[:=]|%3[dD]|\\[uU]003[dD])[ \t]* at s[i:]
// (a label's closing quote, bracket, code or emphasis: `DB_PASSWORD`:, **DB_PASSWORD**:) and
// returns what value returns for the text after it, trying the operators in
// the expression's order: "password:=abcde" has no 6-byte value after ":=",
// but has "=abcde" after ":". The other repeats have one choice: fewer
// quotes or blanks would leave a quote or a blank where the next part
// cannot take it.
func assignment(s string, i int, value func(v int) []int) []int {
	i = runEnd(s, labelClosers(s, i), isBlank)
	if i == len(s) {
		return nil
	}
	if hasAt(s, i, ":=") || hasAt(s, i, "=>") {
		if m := value(runEnd(s, i+2, isBlank)); m != nil {
			return m
		}
	}
	// A Makefile's PASSWORD ?= x and += x; Ruby's, JavaScript's and C#'s
	// password ||= x, ??= x.
	if hasAt(s, i, "?=") || hasAt(s, i, "+=") {
		return value(runEnd(s, i+2, isBlank))
	}
	if hasAt(s, i, "||=") || hasAt(s, i, "??=") {
		return value(runEnd(s, i+3, isBlank))
	}
	if s[i] == ':' || s[i] == '=' {
		return value(runEnd(s, i+1, isBlank))
	}
	// "=" as a URL (%3D) or a JSON string (\u003d) writes it.
	for _, eq := range [...]string{"%3d", "\\u003d"} {
		if len(s)-i >= len(eq) && text.HasFoldPrefix(s[i:], eq) {
			return value(runEnd(s, i+len(eq), isBlank))
		}
	}
	return nil
}

// labelClosers is the end of ["'\]`*]{0,2} at s[i:], what closes a label
// before its operator: "password": , `DB_PASSWORD`: , **pw**: .
func labelClosers(s string, i int) int {
	for q := 0; q < 2 && i < len(s) && strings.IndexByte("\"'`*]", s[i]) >= 0; q++ {
		i++
	}
	return i
}

// secretLabel: s[lo:end] ends with KEYWORD SUFFIX?, where KEYWORD is
// PASSWORD|PASSWORDS|PASSWD|PASSPHRASE|PWD|SECRET|TOKEN|CREDENTIALS|CREDENTIAL|CREDS|SESSIONID|SESSID|SALT|PEPPER|PSK|REQUIREPASS|MASTERAUTH|AUTHTOK|ROOTPW|(?:KEYWORDS)[_.\-]?KEY
// with KEYWORDS keyWords (API, ACCESS, PRIVATE, … APP, HMAC, ADMIN …), and SUFFIX is
// [_.\-]?(?:KEY(?:[_.\-]?BASE)?|VALUE|BASE64|B64), in any ASCII case; or
// with PASS as its last word (see passLabel), without a suffix; or it is
// an authLabel.
func secretLabel(s string, lo, end int) bool {
	if end == lo {
		return false
	}
	if labelEnd(s[end-1]) && plainLabel(s, lo, end) {
		return true
	}
	// Where it is used, after it: DB_PASSWORD_PROD, API_KEY_2.
	e := envEnd(s, lo, end)
	if e < end && e > lo && labelEnd(s[e-1]) && plainLabel(s, lo, e) {
		return true
	}
	// A version after it (DB_PASSWORD_V2), or one or two digits glued on
	// (password1: h-v99 b3).
	for k := 1; k <= 2 && end-k > lo && s[end-k] >= '0' && s[end-k] <= '9'; k++ {
		e := end - k
		if labelEnd(s[e-1]) && plainLabel(s, lo, e) {
			return true
		}
		if e-1 > lo && s[e-1]|0x20 == 'v' {
			if p := sep(s, lo, e-1); p < e-1 && p > lo && labelEnd(s[p-1]) && plainLabel(s, lo, p) {
				return true
			}
		}
	}
	return false
}

// envWords say where a secret is used, after its label or before its KEY:
// DB_PASSWORD_PROD, STRIPE_LIVE_KEY.
var envWords = [...]string{"production", "prod", "development", "dev", "staging", "stage", "test", "live", "sandbox", "local", "qa", "uat", "old", "new", "backup", "primary", "secondary"}

// envEnd is where s[lo:end] ends without a last [_.\-]ENV word (envWords,
// in any ASCII case) or [_.\-][0-9]{1,2}; end for neither.
func envEnd(s string, lo, end int) int {
	if c := s[end-1]; c >= '0' && c <= '9' {
		d := end - 1
		if d > lo && s[d-1] >= '0' && s[d-1] <= '9' {
			d--
		}
		if p := sep(s, lo, d); p < d && p > lo {
			return p
		}
		return end
	}
	return envWordEnd(s, lo, end)
}

// envWordEnd is where s[lo:end] ends without a last [_.\-]ENV word; end for
// none. Every identifier of a text is asked: only its last word, after its
// last separator, is compared.
func envWordEnd(s string, lo, end int) int {
	k := end - 1
	for k > lo && s[k] != '_' && s[k] != '.' && s[k] != '-' {
		k--
	}
	if k <= lo || end-k-1 < 2 || end-k-1 > len("development") {
		return end
	}
	for _, w := range envWords {
		if len(w) == end-k-1 && text.HasFoldPrefix(s[k+1:end], w) {
			return k
		}
	}
	return end
}

// plainLabel is secretLabel without a word of where it is used after it.
func plainLabel(s string, lo, end int) bool {
	if s[end-1]|0x20 == 'h' {
		return authLabel(s, lo, end) || endsFold(s, lo, end, "masterauth") // no other label ends so
	}
	if secretKeyword(s, lo, end) || passLabel(s, lo, end) || authLabel(s, lo, end) {
		return true
	}
	e := end
	switch {
	case endsFold(s, lo, e, "value"):
		e -= len("value")
	case endsFold(s, lo, e, "base64"):
		e -= len("base64") // password_base64: the password, encoded
	case endsFold(s, lo, e, "b64"):
		e -= len("b64")
	case endsFold(s, lo, e, "base"):
		e = sep(s, lo, e-len("base"))
		if !endsFold(s, lo, e, "key") {
			return false
		}
		e -= len("key")
	case endsFold(s, lo, e, "key"):
		e -= len("key")
	default:
		return false
	}
	return secretKeyword(s, lo, sep(s, lo, e))
}

// authLabel: s[lo:end] ends with [A-Za-z0-9][_.\-]AUTH or \b_AUTH in any
// ASCII case, or with _PAT: REDIS_AUTH, npm's _auth, GITHUB_PAT, ADO_PAT
// (url_pat, a pattern's name, is lowercase). What they hold is a setting as often as a secret
// (SMTP_AUTH=starttls), so their values must look chosen (chosenAuth).
func authLabel(s string, lo, end int) bool {
	if e := end - 5; e >= lo && endsFold(s, lo, end, "auth") {
		// A word before the separator, or npm's _auth at a word's start
		// (--auth is an option, which the shell's finder reads).
		return strings.IndexByte("_.-", s[e]) >= 0 && (e > lo && isAlnum(s[e-1]) || s[e] == '_' && (e == 0 || !isWord(s[e-1])))
	}
	return end-4 >= lo && s[end-4] == '_' && s[end-3:end] == "PAT"
}

// labelEnd: c may end a label, the last letter of a secretWords' word,
// of KEY, VALUE, BASE, B64 or PASS, in any ASCII case.
func labelEnd(c byte) bool {
	switch c | 0x20 {
	case 'd', 's', 'e', 't', 'n', 'l', 'r', 'k', 'y', '4', 'h', 'w':
		return true
	}
	return false
}

// passLabel: s[lo:end] ends with (?:\b|_)PASS or (?:\b|_)PW in any ASCII
// case, or with [a-z0-9]Pass or [a-z0-9]P[wW]: "pass" or "pw" as an
// identifier's last word (pass, DB_PASS, smtp.pass, dbPass, DB_PW,
// adminPw), never the end of a longer word (bypass, compass).
// Without a suffix: a passkey is public, not a password.
func passLabel(s string, lo, end int) bool {
	return lastWord(s, lo, end, "pass") || lastWord(s, lo, end, "pw")
}

// lastWord is passLabel for the word w (lowercase).
func lastWord(s string, lo, end int, w string) bool {
	p := end - len(w)
	if p < lo || !text.HasFoldPrefix(s[p:end], w) {
		return false
	}
	if p == 0 || !isWord(s[p-1]) || s[p-1] == '_' && p > lo {
		return true
	}
	return p > lo && s[p] == 'P' && (s[p-1] >= 'a' && s[p-1] <= 'z' || s[p-1] >= '0' && s[p-1] <= '9')
}

var (
	secretWords = [...]string{"password", "passwords", "passwd", "passphrase", "pass_phrase", "pwd", "secret", "token", "credentials", "credential", "creds", "sessionid", "sessid", "salt", "pepper", "psk", "requirepass", "masterauth", "authtok", "rootpw"}
	keyWords    = [...]string{"api", "access", "private", "signing", "encryption", "master", "auth", "license", "account", "session",
		"app", "application", "hmac", "admin", "client", "server", "webhook", "jwt", "shared", "preshared", "root", "subscription", "functions",
		// A vendor's key, as its documentation names the variable
		// (STRIPE_KEY, OPENAI_KEY, MAILGUN_KEY): a word that names no key
		// of the vendor's would be too wide (PRIMARY_KEY, SORT_KEY).
		"stripe", "openai", "anthropic", "gemini", "mistral", "cohere", "groq", "openrouter", "replicate", "perplexity", "deepseek", "huggingface", "mailgun", "sendgrid", "postmark", "resend", "brevo", "mailchimp", "mandrill", "sparkpost", "pusher", "algolia", "datadog", "twilio", "google", "maps", "mapbox", "firebase", "supabase", "pinecone", "elevenlabs", "deepgram", "assemblyai", "youtube", "openweather", "aws"}
)

// secretLast has bit c-'a' set for each letter c a secret word ends in.
var secretLast = lastLetters(secretWords[:])

func lastLetters(words []string) uint32 {
	var m uint32
	for _, w := range words {
		m |= 1 << (w[len(w)-1] - 'a')
	}
	return m
}

func secretKeyword(s string, lo, end int) bool {
	if end-lo < 3 {
		return false // shorter than any word here
	}
	// Only the words that end in the label's last letter: a text of
	// "key=key=…" is a label at every fourth byte (h-v93 a1).
	if c := s[end-1] | 0x20; c >= 'a' && c <= 'z' && secretLast&(1<<(c-'a')) != 0 {
		for _, w := range secretWords {
			if endsFold(s, lo, end, w) {
				return true
			}
		}
	}
	if !endsFold(s, lo, end, "key") {
		return false
	}
	e := sep(s, lo, end-3)
	e = envWordEnd(s, lo, e) // STRIPE_LIVE_KEY: where it is used, before KEY
	if e-lo < 3 {
		return false // a bare KEY; every word below is longer
	}
	for _, w := range keyWords {
		if endsFold(s, lo, e, w) {
			return true
		}
	}
	return false
}

// findSecret: [A-Za-z0-9_.\-]*(?:(?:KEYWORD)(?:SUFFIX)?|[A-Z0-9]_KEY)["'\]`*]{0,2}[ \t]*(?::=|=>|[:=]|%3[dD]|\\[uU]003[dD])[ \t]*
// (?:[bBrRuU]{1,2}|@|u8|L|r#+)?(?:(?:"{2})?"((?:[^"\\\r\n]|\\.){4,})"(?:"{2})?|\$?'((?:[^'\r\n]|'{2}|'\\'{2}|'"'"'){4,})')|([^\s"'`,;]{6,})|`([^`\r\n]{4,})`, see secretLabel.
func findSecret(s string, pos int) []int {
	return findLabel(s, pos, func(s string, lo, end int) bool { return secretLabel(s, lo, end) || upperKey(s, lo, end) }, func(s string, start, at int) []int {
		return assignment(s, at, func(v int) []int {
			return secretValue(s, start, v)
		})
	})
}

// upperKey: s[lo:end] ends with [A-Z0-9]_KEY: an environment variable named
// for a service's key (SPEECH_KEY, AZURE_STORAGE_KEY, FERNET_KEY) whose first
// words name no key keyWords knows; labelledValue keeps only a value that
// looks like a token (SORT_KEY=created_at is none: h-v100 b2).
func upperKey(s string, lo, end int) bool {
	return end-lo >= 5 && s[end-4:end] == "_KEY" && isUpperOrDigit(s[end-5])
}

// openKey: the identifier w, an upperKey, names a key no one keeps secret:
// a public or a site key, a search-only key, a fingerprint, a database's or
// a cache's key (h-v101 b9).
func openKey(w string) bool {
	w = strings.TrimSuffix(w, "_KEY")
	return inList(" SITE PUBLIC PUBLISHABLE SEARCH GPG PGP IDEMPOTENCY CACHE PARTITION SORT OBJECT PRIMARY FOREIGN ROUTING SHARD HASH RANGE LOOKUP MAP KMS S3 ", w[strings.LastIndexByte(w, '_')+1:])
}

// secretValue matches the three forms of a value at s[v:], in order. In the
// first, an escape consumes the byte a quote would end on, and the repeated
// item cannot start with a quote, so only the longest repeat can be followed
// by the closing quote; the others stop at a byte their class excludes.
func secretValue(s string, start, v int) []int {
	if v == len(s) {
		return nil
	}
	// Python's string prefixes: b"…", r'…', rb"…", u'…' (an f-string
	// computes); the shell's $'…'.
	if p := runEnd(s[:min(len(s), v+2)], v, func(c byte) bool { return strings.IndexByte("bBrRuU", c) >= 0 }); p > v && p < len(s) && (s[p] == '"' || s[p] == '\'') {
		if m := quotedSecret(s, start, p); m != nil {
			return m
		}
	}
	// C#'s verbatim @"…", C++'s u8"…" and L"…", Rust's raw r#"…"#.
	p := -1
	switch {
	case hasAt(s, v, "@"), hasAt(s, v, "L"):
		p = v + 1
	case hasAt(s, v, "u8"):
		p = v + 2
	case hasAt(s, v, "r#"):
		p = runEnd(s, v+1, func(c byte) bool { return c == '#' })
	}
	if p > 0 && p < len(s) && (s[p] == '"' || s[p] == '\'' || hasAt(s, p, "$'")) {
		if m := quotedSecret(s, start, p); m != nil {
			return m
		}
	}
	if m := quotedSecret(s, start, v); m != nil {
		return m
	}
	if e, n := runes(s, v, isBareStop); n >= 6 {
		e = bareEnd(s, v, e)
		return groupOf(start, e, 4, 2, v, e)
	}
	// Markdown's code: DB_PASSWORD: `x` (its own group: labelledValue reads
	// it as a bare word, not as a quote's text).
	if s[v] == '`' {
		e, n := runes(s, v+1, func(c byte) bool { return c == '`' || c == '\r' || c == '\n' })
		if n >= 4 && hasAt(s, e, "`") {
			return groupOf(start, e+1, 4, 3, v+1, e)
		}
	}
	return nil
}

// bareEnd is where a bare value at s[v:e] (six characters or more, none
// of them a stop) ends: after its first six characters, at a backslash
// that starts "\n", "\r" or "\t" or that a stop follows, a backslash and
// any other character being one character of it (a quoted string printed
// with its escapes, as Go's %q and JSON write one): "hunter2x\npassword:
// hunter3x" is a value and the next line, whose label the value would
// otherwise take, and whose own value it would leave (h-v93 a6). It is
// the expression's [^\s"'`,;]{6}(?:[^\s"'`,;\\]|\\[^\s"'`,;nrt]|\\$)*.
func bareEnd(s string, v, e int) int {
	i := v
	for k := 0; k < 6; k++ {
		i += runeLen(s, i)
	}
	for i < e {
		switch {
		case s[i] != '\\':
			i += runeLen(s, i)
		case i+1 == len(s):
			return i + 1
		case i+1 == e || s[i+1] == 'n' || s[i+1] == 'r' || s[i+1] == 't':
			return i
		default:
			i += 1 + runeLen(s, i+1)
		}
	}
	return e
}

// quotedSecret is secretValue's quoted forms at s[v:].
func quotedSecret(s string, start, v int) []int {
	if hasAt(s, v, "$'") {
		v++ // the shell's $'…' (C#'s $"…" interpolates: code)
	}
	if hasAt(s, v, `"""`) {
		// Python's triple quotes: """Xk9mQ2Lp7""", a quoted value in "" "".
		// Once, as the expression's (?:"{2})? is: a call for each further
		// pair of 2,000 quotes overflowed the core's stack (h-v98 a1).
		if m := quotedOnce(s, start, v+2); m != nil {
			return m
		}
	}
	return quotedOnce(s, start, v)
}

// quotedOnce is quotedSecret's value quoted at s[v:], without a prefix.
func quotedOnce(s string, start, v int) []int {
	switch s[v] {
	case '"':
		i, n := v+1, 0
		for i < len(s) {
			c := s[i]
			if c == '"' || c == '\r' || c == '\n' {
				break
			}
			if c == '\\' {
				if i+1 == len(s) || s[i+1] == '\n' {
					break
				}
				i++
			}
			i += runeLen(s, i)
			n++
		}
		if n >= 4 && hasAt(s, i, `"`) {
			return groupOf(start, i+1+2*boolInt(hasAt(s, i+1, `""`)), 4, 0, v+1, i)
		}
	case '\'':
		// A quote inside: YAML's doubled one ('a''b') or the shell's
		// ('a'\''b'); where no quote closes after it, the one before closes.
		i, n, close, cn := v+1, 0, -1, 0
		for {
			e, k := runes(s, i, isSingleQuotedStop)
			if i, n = e, n+k; !hasAt(s, i, "'") {
				break
			}
			if close, cn = i, n; hasAt(s, i, "''") {
				i += 2
			} else if hasAt(s, i, `'\''`) || hasAt(s, i, `'"'"'`) {
				i += 4 + boolInt(s[i+1] == '"')
			} else {
				break
			}
			n++
		}
		if cn >= 4 {
			return groupOf(start, close+1, 4, 1, v+1, close)
		}
	}
	return nil
}

func isSingleQuotedStop(c byte) bool { return c == '\'' || c == '\r' || c == '\n' }

// isBareStop is what [^\s"'`,;] does not match.
func isBareStop(c byte) bool {
	return isSpace(c) || c == '"' || c == '\'' || c == '`' || c == ',' || c == ';'
}

// findNPMAuth: (?:^|[^A-Za-z0-9_])_auth[ \t]*=[ \t]*([^\s"']{4,})
//
// The match starts at the rune before "_auth", or at the text's start.
func findNPMAuth(s string, pos int) []int {
	for b := pos; ; {
		k := strings.Index(s[b:], "_auth")
		if k < 0 {
			return nil
		}
		i := b + k
		b = i + 1
		start := 0
		if i > 0 {
			if isWord(s[i-1]) {
				continue
			}
			_, w := utf8.DecodeLastRuneInString(s[:i])
			start = i - w
			if start < pos {
				continue
			}
		}
		j := runEnd(s, i+len("_auth"), isBlank)
		if !hasAt(s, j, "=") {
			continue
		}
		v := runEnd(s, j+1, isBlank)
		if e, n := runes(s, v, isUnquotedStop); n >= 4 {
			return group1(start, e, v, e)
		}
	}
}

// isUnquotedStop is what [^\s"'] does not match.
func isUnquotedStop(c byte) bool { return isSpace(c) || c == '"' || c == '\'' }

// findNetrc: \b(?:MACHINE[ \t]+[^\s]+|DEFAULT)[ \t]+LOGIN[ \t]+[^\s]+[ \t]+PASSWORD[ \t]+([^\s]+),
// words in any ASCII case. Each [ \t]+ is followed by a byte that is not
// blank and each [^\s]+ by one that is, so every repeat is taken whole.
func findNetrc(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if c := s[i] | 0x20; c != 'm' && c != 'd' || !wordStart(s, i) {
			continue
		}
		j := -1
		if text.HasFoldPrefix(s[i:], "machine") {
			j = field(s, blanks(s, i+len("machine")))
		} else if text.HasFoldPrefix(s[i:], "default") {
			j = i + len("default")
		}
		j = blanks(s, j)
		if j < 0 || !text.HasFoldPrefix(s[j:], "login") {
			continue
		}
		j = blanks(s, field(s, blanks(s, j+len("login"))))
		if j < 0 || !text.HasFoldPrefix(s[j:], "password") {
			continue
		}
		v := blanks(s, j+len("password"))
		if e := field(s, v); e >= 0 {
			return group1(i, e, v, e)
		}
	}
	return nil
}

// findPgpass: (?:^|[\s"'`])[A-Za-z0-9.*\-]+:(?:[0-9]{1,5}|\*):[^\s:"']+:[^\s:"']+:([^\s"']{4,})
//
// A line of PostgreSQL's password file, ~/.pgpass:
// hostname:port:database:username:password, the password its last field
// (which may hold an escaped "\:"); pgpassValue keeps only one that looks
// like a password, not a fifth field of a tool's colon-separated output.
func findPgpass(s string, pos int) []int {
	notColon := func(c byte) bool { return c != ':' && !isSpace(c) && !isQuote(c) }
	for i := pos; i < len(s); i++ {
		// The host starts the text, or follows a space or a quote the
		// match takes (echo "host:…" >> ~/.pgpass).
		start := i - 1
		if i == 0 {
			start = 0
		} else if start < pos || !isSpace(s[start]) && !isQuote(s[start]) && s[start] != '`' {
			continue
		}
		h := runEnd(s, i, func(c byte) bool { return isHostByte(c) || c == '*' })
		p := h + 1
		if h == i || !hasAt(s, h, ":") {
			i = max(i, h-1)
			continue
		}
		if hasAt(s, p, "*") {
			p++
		} else if d := runEnd(s, p, func(c byte) bool { return c >= '0' && c <= '9' }); d > p && d-p <= 5 {
			p = d
		} else {
			continue
		}
		db := runEnd(s, p+1, notColon)
		u := runEnd(s, db+1, notColon)
		if !hasAt(s, p, ":") || db == p+1 || !hasAt(s, db, ":") || u == db+1 || !hasAt(s, u, ":") {
			continue
		}
		if ve := runEnd(s, u+1, isBareShell); ve-u-1 >= 4 {
			return group1(start, ve, u+1, ve)
		}
	}
	return nil
}

// pgpassValue keeps a .pgpass line's password when it looks like one, its
// user holds a letter (not a time's fields, 2024-11-20:10:15:30:ERROR1)
// and it is no path (node1:8080:api:GET:/v1/users2). No field holds a
// quote: a JSON line's time ("t":"2026-02-27T06:04:23.000Z","p":…) is
// none.
func pgpassValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := m[2], m[3]
	user := s[strings.LastIndexByte(s[:vs-1], ':')+1 : vs-1]
	if !looksLikePassword(s[vs:ve]) || s[vs] == '/' || user != "*" && !strings.ContainsFunc(user, func(r rune) bool { return r < 128 && isLetter(byte(r)) }) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, m[0], m[1], true
}

// findRedisAuth: (?:(?:(?:^|\n)[ \t]*|\bCONFIG[ \t]+SET[ \t]+|--|\b)(?:REQUIREPASS|MASTERAUTH|AUTH_PASS)|\bIDENTIFIED[ \t]+(?:WITH[ \t]+\w+[ \t]+)?BY(?:[ \t]+PASSWORD)?|-(?:src|dest)?(?:store|key)pass)[ \t]+VALUE,
// words in any ASCII case, VALUE a quoted or bare word (its group is the
// secret): Redis's password directives, at the start of a line of
// redis.conf (keepalived's auth_pass too), given to CONFIG SET ("redis-cli CONFIG SET requirepass
// PW") or as a flag ("redis-server --requirepass PW", a compose file's
// command); SQL's "CREATE USER ada IDENTIFIED BY 'PW'" (MySQL, Oracle);
// keytool's and jarsigner's every password flag (the command's pattern
// reads its first).
// Their value follows a blank, as no label's does.
func findRedisAuth(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		k, flag := -1, -1
		if c := s[i] | 0x20; c == 'r' && text.HasFoldPrefix(s[i:], "requirepass") {
			k = i + len("requirepass")
		} else if c == 'm' && text.HasFoldPrefix(s[i:], "masterauth") {
			k = i + len("masterauth")
		} else if c == 'a' && text.HasFoldPrefix(s[i:], "auth_pass") {
			k = i + len("auth_pass") // keepalived's
		} else if by := blanks(s, i+len("identified")); c == 'i' && text.HasFoldPrefix(s[i:], "identified") && wordStart(s, i) && by > 0 {
			if text.HasFoldPrefix(s[by:], "with") {
				// MySQL 8's IDENTIFIED WITH caching_sha2_password BY 'PW'
				if w := blanks(s, by+len("with")); w > 0 {
					by = blanks(s, runEnd(s, w, isWord))
				}
			}
			if by > 0 && text.HasFoldPrefix(s[by:], "by") {
				k, flag = by+len("by"), i
			}
		} else if f := keytoolFlag(s, i); f > 0 && !hasAt(s, i, "-new") {
			k, flag = f, i // keytool's and jarsigner's flags, each of them: -storepass A -keypass B
		} else if e, line := deviceDirective(s, i); e > 0 {
			k, flag = e, line
			// A type digit may come first: enable secret 0 PW, key 7 0822…
			if d := blanks(s, e); d > 0 && d < len(s) && s[d] >= '0' && s[d] <= '9' {
				if v := blanks(s, d+1); v > 0 {
					if g, vs, ve, end := shellValue(s, v, 0); g >= 0 && line >= pos {
						return groupOf(line, end, 3, g, vs, ve)
					}
				}
			}
		}
		v := blanks(s, k)
		if v < 0 {
			continue
		}
		start := -1
		b := i
		for b > 0 && isBlank(s[b-1]) {
			b--
		}
		switch {
		case flag >= 0:
			start = flag
		case i >= 2 && s[i-2] == '-' && s[i-1] == '-':
			start = i - 2
		case b == 0:
			start = 0
		case s[b-1] == '\n':
			start = b - 1
		case b < i && b >= 3 && text.HasFoldPrefix(s[b-3:b], "set"):
			c := b - 3
			for c > 0 && isBlank(s[c-1]) {
				c--
			}
			if c < b-3 && c >= 6 && text.HasFoldPrefix(s[c-6:c], "config") && wordStart(s, c-6) {
				start = c - 6
			}
		}
		if start < 0 && flag < 0 && wordStart(s, i) {
			start = i // in a sentence: "redis.conf has requirepass PW set"
		}
		if start < pos {
			continue
		}
		if flag == i && s[i]|0x20 == 'i' && text.HasFoldPrefix(s[v:], "password") {
			// MySQL 5's IDENTIFIED BY PASSWORD '*6C89…': the word is SQL's,
			// the hash after it the value.
			if w := blanks(s, v+len("password")); w > 0 {
				if g, vs, ve, end := shellValue(s, w, 0); g >= 0 {
					return groupOf(start, end, 3, g, vs, ve)
				}
			}
		}
		if g, vs, ve, end := shellValue(s, v, 0); g >= 0 {
			return groupOf(start, end, 3, g, vs, ve)
		}
	}
	return nil
}

// deviceDirectives are the secret directives of network devices' and
// daemons' configurations, each a line's first words (their words are
// blank-separated): Cisco's enable secret, snmp-server community,
// tacacs-server key, radius-server key and key-string, a VPN's
// pre-shared-key.
var deviceDirectives = [...][]string{{"enable", "secret"}, {"snmp-server", "community"}, {"tacacs-server", "key"}, {"radius-server", "key"},
	{"key-string"}, {"pre-shared-key"}}

// deviceDirective: (?:(?:^|\n)[ \t]*(?:[-*+>][ \t]+)?|[:`][ \t]*)(?:DIRECTIVE|USERNAME[ \t]+[^\s]+(?:[ \t]+PRIVILEGE[ \t]+[0-9]+)?[ \t]+(?:SECRET|PASSWORD))
// at s[i:], its words in any ASCII case (a bullet's or a quote's marker
// may come first, or a colon or a backtick before it on its line): the end
// of its words and where its match starts (the newline before it, 0, the
// colon or the backtick), or -1, -1. Cisco's username NAME [privilege
// N] secret|password is one too.
func deviceDirective(s string, i int) (int, int) {
	b := i
	for b > 0 && isBlank(s[b-1]) {
		b--
	}
	if b > 0 && (s[b-1] == ':' || s[b-1] == '`') {
		return deviceWords(s, i, b-1) // after a label or in code: "core switch: enable secret 0 PW"
	}
	if b > 0 && strings.IndexByte("-*+>", s[b-1]) >= 0 && b < i {
		b--
		for b > 0 && isBlank(s[b-1]) {
			b--
		}
	}
	if b > 0 && s[b-1] != '\n' {
		return -1, -1
	}
	return deviceWords(s, i, max(b-1, 0))
}

// deviceWords is deviceDirective's words at s[i:], for a directive whose
// line starts at line.
func deviceWords(s string, i, line int) (int, int) {
	for _, d := range deviceDirectives {
		if e := foldWords(s, i, d...); e > 0 {
			return e, line
		}
	}
	e := foldWords(s, i, "username")
	if e = blanks(s, e); e < 0 {
		return -1, -1
	}
	e = field(s, e)
	if p := foldWords(s, blanks(s, e), "privilege"); p > 0 {
		if d := blanks(s, p); d > 0 {
			if n := runEnd(s, d, func(c byte) bool { return c >= '0' && c <= '9' }); n > d {
				if w := foldWords(s, blanks(s, n), "secret"); w > 0 {
					return w, line
				}
				if w := foldWords(s, blanks(s, n), "password"); w > 0 {
					return w, line
				}
			}
		}
	}
	if w := foldWords(s, blanks(s, e), "secret"); w > 0 {
		return w, line
	}
	if w := foldWords(s, blanks(s, e), "password"); w > 0 {
		return w, line
	}
	return -1, -1
}

// foldWords is the end of words w, in any ASCII case and blank-separated,
// at s[i:] (-1: none, or i < 0).
func foldWords(s string, i int, w ...string) int {
	for k, word := range w {
		if k > 0 {
			i = blanks(s, i)
		}
		if i < 0 || !text.HasFoldPrefix(s[i:], word) {
			return -1
		}
		i += len(word)
	}
	return i
}

// blanks is the end of [ \t]+ at s[i:] (-1: none, or i < 0).
//
//go:noinline
func blanks(s string, i int) int {
	if i < 0 {
		return -1
	}
	if e := runEnd(s, i, isBlank); e > i {
		return e
	}
	return -1
}

// field is the end of [^\s]+ at s[i:] (-1: none, or i < 0).
func field(s string, i int) int {
	if i < 0 {
		return -1
	}
	e := i
	for e < len(s) && !isSpace(s[e]) {
		e++
	}
	if e > i {
		return e
	}
	return -1
}

// keyBodies are the other first bytes in base64 of a key's DER (EC,
// PKCS#8's EC and Ed25519) and of a PEM key base64'd whole (a Kubernetes
// Secret's data: "-----BEGIN … PRIVATE").
var keyBodies = [...]string{"MHcCAQEEI", "MIGkAgEBBD", "MIGHAgEAMBMGByqGSM49AgEG", "MC4CAQAwBQYDK2VwBCIEI",
	"LS0tLS1CRUdJTiBQUklWQVRF", "LS0tLS1CRUdJTiBSU0EgUFJJVkFURS", "LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEU", "LS0tLS1CRUdJTiBFQyBQUklWQVRF",
	"LS0tLS1CRUdJTiBFTkNSWVBURUQgUFJJVkFURS", "LS0tLS1CRUdJTiBEU0EgUFJJVkFURS", "LS0tLS1CRUdJTiBQR1AgUFJJVkFURS"}

// findKeyBody: \b(?:MII[A-Za-z0-9+/]{3}(?:IBADANBgkqhkiG9w0BAQEFAASC|IBAAKC)|KEYBODY)[A-Za-z0-9+/=]{20,}, KEYBODY one of keyBodies
//
// A private key's DER in base64 without its BEGIN and END lines, as a
// label's value or alone: its first bytes say what it is, a PKCS#8 key
// (RSA, EC, Ed25519), a PKCS#1 RSA key or an EC key (a public key's say
// otherwise: MIIBIjANBgkqhkiG9w0BAQEFAAOC).
func findKeyBody(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if s[i] != 'M' && s[i] != 'L' || !wordStart(s, i) {
			continue
		}
		b := -1
		if hasAt(s, i, "MII") && exactly(s, i+3, isBase64, 3) >= 0 {
			for _, p := range [...]string{"IBADANBgkqhkiG9w0BAQEFAASC", "IBAAKC"} {
				if hasAt(s, i+6, p) {
					b = i + 6 + len(p)
				}
			}
		}
		for _, p := range keyBodies {
			if b < 0 && hasAt(s, i, p) {
				b = i + len(p)
			}
		}
		if b < 0 {
			continue
		}
		if e := atLeast(s, b, func(c byte) bool { return isBase64(c) || c == '=' }, 20); e >= 0 {
			return whole(i, e)
		}
	}
	return nil
}
