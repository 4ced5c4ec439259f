package redact

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Secrets in prose: "my password is hunter2", "pw: hunter2", "the password
// for staging is hunter2", "my passphrase is correct horse battery staple",
// "aws secret wJalr…". Their matchers find only the word that introduces
// them (a regular language, proven like the others); the span functions
// here read the words after it, which no regular expression of ours could
// weigh: whether a word is prose about a password ("is hashed", "is
// required") or the password itself.
//
// How far a secret in prose extends (and a label's bare value followed by a
// blank, "passphrase: correct horse battery staple"): a quoted value is the
// quoted text, whole; an unquoted one is the rest of its clause, ending at
// the end of the line, at a comma or semicolon, after a word that ends a
// sentence (.!?:) or before a new label ("user:"), a comment (# or //), a
// bracket, a table bar, a dash or an existing mark, or after 64 words. A redaction may
// take more words than the secret held ("hunter2 and the user is ada"):
// losing a few words of prose is the price of never keeping the tail of a
// passphrase. Trailing ".,;:)" of the last word stay readable. Every read
// stops at the end of the line, so the prefilter's lines see what the whole
// text does.

// findPasswordWord: \bPASS[ \t]PHRASE\b|\b(?:[A-Za-z0-9_]*_)?(?:PASSWORDS?|PASSWD|PASSPHRASE|PASSCODE|PWD?|PASS)\b
// in any ASCII case, or an identifier ending in one capitalised
// (dbPassword), or the wifi key: a word that names a password, alone or as
// the last part of an identifier (DB_PASSWORD is …, **db_pass:** …).
func findPasswordWord(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if !isWord(s[i]) || !wordStart(s, i) {
			continue
		}
		e := runEnd(s, i, isWord)
		if passwordPart(s[i:e]) > 0 {
			// An identifier that ends in one (DB_PASSWORD, db_pass,
			// dbPassword): the whole identifier; the word is its last part.
			return whole(i, e)
		}
		if s[i]|0x20 != 'p' && s[i]|0x20 != 'w' {
			i = e - 1
			continue
		}
		if s[i]|0x20 == 'w' {
			// The wifi key, the wi-fi key: a network's password.
			if w := e - i; w == 2 && text.HasFoldPrefix(s[i:], "wi") && hasAt(s, e, "-") && runEnd(s, e+1, isWord) == e+3 && text.HasFoldPrefix(s[e+1:], "fi") {
				e += 3
			} else if w != 4 || !text.HasFoldPrefix(s[i:], "wifi") {
				i = e - 1
				continue
			}
			if k := runEnd(s, e, isBlank); k > e && runEnd(s, k, isWord) == k+3 && text.HasFoldPrefix(s[k:], "key") {
				return whole(i, k+3)
			}
			i = e - 1
			continue
		}
		switch w := e - i; {
		case w == 2 && text.HasFoldPrefix(s[i:], "pw"),
			w == 3 && text.HasFoldPrefix(s[i:], "pwd"),
			w == 6 && text.HasFoldPrefix(s[i:], "passwd"),
			w == 8 && (text.HasFoldPrefix(s[i:], "password") || text.HasFoldPrefix(s[i:], "passcode")),
			w == 9 && text.HasFoldPrefix(s[i:], "passwords"),
			w == 10 && text.HasFoldPrefix(s[i:], "passphrase"):
			return whole(i, e)
		case w == 4 && text.HasFoldPrefix(s[i:], "pass"):
			if e < len(s) && isBlank(s[e]) && runEnd(s, e+1, isWord) == e+7 && text.HasFoldPrefix(s[e+1:], "phrase") {
				return whole(i, e+7)
			}
			return whole(i, e)
		}
		i = e - 1
	}
	return nil
}

// findSecretWord: \b(?:AWS[_.\-]?)?SECRET(?:[_.\-]?ACCESS)?(?:[_.\-]?KEY)?\b
// in any ASCII case: the word "secret", or an identifier of AWS's secret
// key written as a word (aws_secret, SECRET_ACCESS_KEY) with no operator
// after it.
//
// Each optional part is there or not by the byte after what came before
// (a separator can only be followed by the word it separates), so the
// tries that regexp makes are: with "access" and "key", with "access"
// alone, with "key" alone, with neither, each ended by \b.
func findSecretWord(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if c := s[i] | 0x20; c != 's' && c != 'a' || !wordStart(s, i) {
			continue
		}
		j := i
		if text.HasFoldPrefix(s[j:], "aws") {
			j = optSep(s, j+3)
		}
		if text.HasFoldPrefix(s[j:], "secret") {
			k := j + 6
			bases := [2]int{-1, k}
			if a := optSep(s, k); text.HasFoldPrefix(s[a:], "access") {
				bases[0] = a + 6
			}
			for _, b := range bases {
				if b < 0 {
					continue
				}
				if e := optSep(s, b); text.HasFoldPrefix(s[e:], "key") && wordEnd(s, e+3) {
					return whole(i, e+3)
				}
				if wordEnd(s, b) {
					return whole(i, b)
				}
			}
		}
		i = runEnd(s, i, isWord) - 1
	}
	return nil
}

// passwordPart is where the password word that ends the identifier id
// starts, after a '_' (DB_PASSWORD, db_pass) or, capitalised, after a small
// letter or digit (dbPassword, adminPwd); 0 when there is none or the word
// is the whole identifier.
func passwordPart(id string) int {
	k := strings.LastIndexByte(id, '_') + 1
	if k > 0 && k < len(id) && isPasswordWord(id[k:]) {
		return k
	}
	for _, w := range [...]string{"Password", "Passwords", "Passwd", "Passphrase", "Passcode", "Pwd"} {
		if k = len(id) - len(w); k > 0 && id[k:] == w && (id[k-1] >= 'a' && id[k-1] <= 'z' || id[k-1] >= '0' && id[k-1] <= '9') {
			return k
		}
	}
	return 0
}

// isPasswordWord: w is one of the words findPasswordWord finds alone, in
// any case (not "pass phrase", which is two).
func isPasswordWord(w string) bool {
	switch strings.ToLower(w) {
	case "pw", "pwd", "pass", "passwd", "password", "passcode", "passwords", "passphrase":
		return true
	}
	return false
}

// optSep skips one [_.\-] at s[i].
func optSep(s string, i int) int {
	if i < len(s) && (s[i] == '_' || s[i] == '.' || s[i] == '-') {
		return i + 1
	}
	return i
}

// wordEnd reports \b after s[:i], which ends in a word byte.
func wordEnd(s string, i int) bool { return i == len(s) || !isWord(s[i]) }

// findTokenWord: \b(?:TOKEN|(?:KEYNAME)[ \t_.\-]?KEY|SECRET|KEY)\b in any
// ASCII case, KEYNAME one of keyNames: a word that names a token or a key in
// prose ("my token is …", "the secret is …", "the api key for staging is
// …", "Private Key: …", "my key is …").
func findTokenWord(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if !isLetter(s[i]) || !wordStart(s, i) {
			continue
		}
		if text.HasFoldPrefix(s[i:], "token") && wordEnd(s, i+5) {
			return whole(i, i+5)
		}
		for _, w := range keyNames {
			if !text.HasFoldPrefix(s[i:], w) {
				continue
			}
			k := i + len(w)
			if k < len(s) && (isBlank(s[k]) || s[k] == '_' || s[k] == '.' || s[k] == '-') {
				k++
			}
			if text.HasFoldPrefix(s[k:], "key") && wordEnd(s, k+3) {
				return whole(i, k+3)
			}
		}
		if text.HasFoldPrefix(s[i:], "secret") && wordEnd(s, i+6) {
			return whole(i, i+6)
		}
		for _, w := range foreignKeys {
			if text.HasFoldPrefix(s[i:], w) && wordEnd(s, i+len(w)) {
				return whole(i, i+len(w))
			}
		}
		if text.HasFoldPrefix(s[i:], "key") && wordEnd(s, i+3) {
			return whole(i, i+3)
		}
		i = runEnd(s, i, isWord) - 1
	}
	return nil
}

// foreignKeys are "key" and "secret" in other languages, as a sentence
// names an API's with them ("Mi clave de API es …", "Mijn API-sleutel is
// …", "il segreto è …"): the first ones, a key, read as "key" alone is
// (keyProse); the last three as "secret".
var foreignKeys = [...]string{"clave", "chiave", "chave", "sleutel", "nyckeln", "nyckel", "klucz", "schlüssel", "schluessel", "secreto", "segreto", "geheimnis"}

// keyNames are the words before "key" that name a secret one in prose
// ("API key", "Private Key: …", "the master key is …").
var keyNames = [...]string{"api", "private", "access", "secret", "master", "encryption", "signing", "deploy", "hmac", "license"}

// passphraseWords: w is three words or more, each of letters alone, as a
// passphrase is made ("correct horse battery staple").
func passphraseWords(w string) bool {
	n := 0
	for _, f := range strings.Fields(w) {
		if !isWordOfLetters(f) {
			return false
		}
		n++
	}
	return n >= 3
}

// quotedAlone: whether w, quoted right after a password word with no verb
// between ("password "Tr0ub4dor&3"", "Passwort "Tr0ub4dor&3"", "密码
// 「Tr0ub4dor&3」"), is its value: one word that looks like a password, or
// after a passphrase word three words or more of letters.
func quotedAlone(w string, passphrase bool) bool {
	if passphrase && passphraseWords(w) {
		return true
	}
	return looksLikePassword(w) && !isPath(w) && !isReference(w) && !strings.ContainsAny(w, " \t")
}

// psqlVariable: after the word at s[:k] stands psql's variable, a blank
// and :'name' or :"name" (CREATE USER app WITH PASSWORD :'app_password').
func psqlVariable(s string, k int) bool {
	b := runEnd(s, k, isBlank)
	if b == k || !hasAt(s, b, ":") || b+1 == len(s) || !isQuote(s[b+1]) {
		return false
	}
	e := strings.IndexByte(s[b+2:], s[b+1])
	return e > 0 && isName(s[b+2:b+2+e])
}

// prosePassword is the span of the value a password word introduces:
//
//	my password is hunter2                     => hunter2
//	the password for the staging db is hunter2 => hunter2
//	pw: hunter2, user: ada                     => hunter2
//	my passphrase is correct horse battery staple. Thanks => correct horse battery staple
//	passwd hunter2                             => hunter2 (without a verb, only a word that looks like one: a letter and a digit or symbol, 6+ bytes)
//	the wifi password is blessing              => blessing (a word ending in -ed or -ing: see ownValue)
//	la password è mela                         => mela (see foreignValue)
//	the password is hashed with bcrypt         => (none)
//	reset your password in settings            => (none)
func prosePassword(s string, m []int) (int, int, int, int, bool) {
	kw := s[m[0]:m[1]]
	if inPath(s, m[0]) || psqlVariable(s, m[1]) {
		return 0, 0, 0, 0, false
	}
	if k := passwordPart(kw); k > 0 {
		return identProse(s, m, k)
	}
	if len(kw) == 4 {
		return passProse(s, m)
	}
	if vs, ve, ok := apposition(s, m[1]); ok {
		return vs, ve, m[0], ve, true
	}
	v := afterVerb(s, m[1])
	if v < 0 {
		v = afterAside(s, m[1])
	}
	if v >= 0 && v < len(s) && closesLabel(s, m[0], v+1, s[m[0]:v+1]) {
		return 0, 0, 0, 0, false // a prompt: read -p "Password: " PW
	}
	if v < 0 {
		v = afterParens(s, m[1])
	}
	if v < 0 {
		v = afterIntro(s, m[1])
	}
	// A word of time around the verb ("is now X", "now is X", "is
	// still X") says what a password became as often as its value ("is now
	// read from the env", "is still base64"): only a quoted value, what it
	// was set or changed to, one word that looks like a password or a
	// passphrase.
	timed := false
	if j := spaceEnd(s, m[1]); v < 0 && j > m[1] {
		if k := timeWords(s, j); k > j {
			v, timed = afterVerb(s, k), true
		}
	}
	if v < 0 {
		if k := modalBe(s, m[1]); k >= 0 {
			v, timed = k, true // "should be X": as a word of time
		}
	}
	if k := timeWords(s, max(v, 0)); v >= 0 && (k > v || timed) {
		if v = spaceEnd(s, k); v == len(s) {
			return 0, 0, 0, 0, false
		}
		return firmValue(s, m[0], v)
	}
	if v < 0 {
		// Another language's "is" after the English word, as Italian (and
		// often Spanish and Portuguese) write it: "la password è mela".
		if fv, ok := foreignIntro(s, m[1], borrowedIs[:], false); ok {
			return foreignValue(s, m[0], fv, true, romance)
		}
	}
	if v < 0 {
		// No verb: "passwd hunter2", "set the password to hunter2", one word
		// that looks like a password; the word in code or bold too ("set
		// `password` to X": h-v99 b7).
		v = runEnd(s, labelClosers(s, m[1]), isBlank)
		for _, d := range [...]string{"- ", "-- ", "– ", "— "} {
			if v > m[1] && hasAt(s, v, d) {
				v = runEnd(s, v+len(d), isBlank) // a dash between blanks: "root password - X", "password -- X", "password — X"
			}
		}
		if v == m[1] || v == len(s) || m[0] > 0 && s[m[0]-1] == '<' && s[v] == '>' {
			return 0, 0, 0, 0, false
		}
		if k := strings.IndexByte(s[v:proseWordEnd(s, v)], '='); k > 0 && v+k+1 < len(s) && (isQuote(s[v+k+1]) || s[v+k+1] == '{') {
			return 0, 0, 0, 0, false // a tag's attribute: <password type="text">
		}
		// What happened to it and what it became: "password changed to
		// Hunter2x!", "password has been reset to …".
		// A password without "is" or "was" becomes one more strictly than
		// one with them ("password changed to x86_64" is a platform): a
		// word that looks chosen or a number, no passphrase.
		p, strict := v, false
		if t := runEnd(s, p, isLetter); isPreposition(strings.ToLower(s[p:t])) {
			// "for prod has been changed to X": past up to ten words of
			// the intro to its verb; "I changed the password for prod to
			// X": to its "to", after a verb of change before the password.
			for q, n := p, 0; n < 10; n++ {
				q = runEnd(s, min(len(s), max(proseWordEnd(s, q), q+1)), isBlank)
				if w := strings.ToLower(s[q:runEnd(s, q, isLetter)]); inList(" has have had got ", w) {
					p = q
					break
				} else if w == "to" && changedBefore(s, m[0]) {
					v, strict = q, true // a word that looks chosen: not x86_64
					break
				}
			}
		}
		for _, aux := range [...]string{"has", "have", "had", "now", "just", "been", "got"} {
			if k := runEnd(s, p+len(aux), isBlank); proseWordIs(s, p, aux) && k > p+len(aux) {
				p = k
			}
		}
		if vs, ve, end, ok, read := became(s, p, true); read {
			return vs, ve, m[0], end, ok
		}
		if proseWordIs(s, v, "from") {
			vs, ve, end, ok := becameFrom(s, v, true)
			return vs, ve, m[0], end, ok
		}
		if t := runEnd(s, v, isLetter); proseWordIs(s, v, "to") && t < len(s) {
			if k := runEnd(s, t, isBlank); k > t && k < len(s) {
				v = k
			}
		}
		// Quoted ("password "hunter2"", in any quotes): the quoted
		// text, when it is one word that looks like a password, or after
		// "passphrase", three words or more of letters ("passphrase
		// "correct horse battery staple"": what a passphrase is made of).
		if vs, ve, end, ok := quoted(s, v); ok {
			if !quotedAlone(s[vs:ve], text.HasFoldPrefix(kw, "passphrase")) {
				return 0, 0, 0, 0, false
			}
			return vs, ve, m[0], end, true
		}
		e := proseWordEnd(s, v)
		w := trimClause(s[v:e])
		// An element or a redirect glued to the value ends it ("X<br>",
		// "--password X<dump.sql", "X<<EOF"); a "<" no ">" closes in a word
		// that looks like a password before it is the password's (Q1wEr<Kq7Zp2).
		lt := false
		if k := strings.IndexByte(w, '<'); k > 0 {
			lt = !strings.Contains(s[v+k:runEnd(s, v+k, func(c byte) bool { return !isSpace(c) })], ">")
			if tagCut(s, v, v+len(w)) == v+k || lt && looksLikePassword(w[:k]) {
				w, lt = w[:k], false
			}
		}
		if !looksLikePassword(w) || namesThing(w) || strict && !chosenPassword(w) || strings.Contains(w, "<") && !lt || strings.Contains(w, "%>") || strings.Contains(w, "?>") {
			return 0, 0, 0, 0, false // not a tag's end: <%= @password %>
		}
		return v, v + len(w), m[0], v + len(w), true
	}
	return verbValue(s, m, kw, v)
}

// firmValue is the span of a value at s[v:] that what introduces it
// (the word at s[m0:]) gives less surely than "is" does: after a word of
// time ("is now X", "is still base64"), a modal verb ("should be X",
// "must be at least 12 characters") or a verb of change before an
// identifier ("set DB_PASSWORD to X"): only a quoted value, what it was
// set or changed to, one word that looks like a password or a number, or
// a passphrase.
func firmValue(s string, m0, v int) (int, int, int, int, bool) {
	if vs, ve, end, ok := quoted(s, v); ok && quotedAlone(s[vs:ve], false) {
		return vs, ve, m0, end, true
	}
	if vs, ve, end, ok, read := became(s, v, false); read {
		return vs, ve, m0, end, ok // "is now set to X"
	}
	e := proseWordEnd(s, v)
	w := trimClause(s[v:e])
	if (looksLikePassword(w) && !namesThing(w) && !schemeName(strings.Trim(w, "_*")) || isNumber(w)) && !isQuote(s[v]) {
		return v, v + len(w), m0, v + len(w), true
	}
	// A passphrase: "is now correct horse battery staple" (becomes
	// reads it after the word before it).
	if p := runEndBack(s, runEndBack(s, v, isBlank), func(c byte) bool { return !isBlank(c) }); isWordOfLetters(w) && becomes(s[p:min(len(s), p+maxQuoted)], false) {
		ce := clauseEnd(s, v, e)
		return v, ce, m0, ce, true
	}
	return 0, 0, 0, 0, false
}

// modalBe: where the value starts after blanks, a modal verb, up to two
// words of time and "be" at s[i:] ("should be X", "must now be X", "needs
// to be X", "has to be X"); -1 when there is none.
func modalBe(s string, i int) int {
	j := runEnd(s, i, isBlank)
	if j == i {
		return -1
	}
	t := runEnd(s, j, isLetter)
	switch w := strings.ToLower(s[j:t]); {
	case inList(" should must will would shall can could may might ", w):
	case inList(" needs need has have ought ", w):
		k := runEnd(s, t, isBlank)
		if k == t || !proseWordIs(s, k, "to") {
			return -1
		}
		t = k + 2
	default:
		return -1
	}
	k := runEnd(s, timeWords(s, t), isBlank)
	if !proseWordIs(s, k, "be") {
		return -1
	}
	if v := runEnd(s, k+2, isBlank); v > k+2 && v < len(s) {
		return v
	}
	return -1
}

// verbValue is prosePassword's span of the value at s[v:], after the verb
// or the colon that introduces it, of the password word kw (of the
// identifier at s[m[0]:m[1]]).
func verbValue(s string, m []int, kw string, v int) (int, int, int, int, bool) {
	if v == len(s) || s[v] == '\n' || printrValue(s, m[0], v) > 0 {
		return 0, 0, 0, 0, false // print_r's label: the label's pattern reads its value
	}
	if e := runEnd(s, v, isIdent); e > v {
		if ts, te, ok := ternary(s, e); ok {
			return ts, te, m[0], te, true // password = isProd ? "X" : "dev"
		}
	}
	if vs, ve, end, ok, _ := became(s, v, false); ok && (end > ve || strings.IndexByte(s[v:vs], ':') >= 0) {
		return vs, ve, m[0], end, true // quoted: was changed to "Hunter2x!"; was changed: X
	}
	if vs, ve, end, ok := quoted(s, v); ok {
		if isReference(s[vs:ve]) {
			return 0, 0, 0, 0, false
		}
		return vs, ve, m[0], end, true
	}
	if ds, de, ok := codeDefault(s, v); ok {
		return ds, de, m[0], de, true
	}
	e := elementWordEnd(s, v)
	w := trimClause(s[v:e])
	if n := len(w) - 1; n > 0 && isQuote(w[n]) && strings.IndexByte(w[:n], w[n]) < 0 {
		w = w[:n] // a quote it did not open closes something else: x=000A' y='00A' (idempotence)
	}
	if w == "" || notValue(w) || isReference(w) || strings.EqualFold(kw, "pwd") && isPath(w) || strings.HasPrefix(w, markOpen) || codeAt(s, s[m[0]:m[1]], m[0], v, e) || strings.EqualFold(kw, "passwd") && inList(nssSources, w) || fieldFromVariable(s, m[0], v, v+len(w)) {
		return 0, 0, 0, 0, false
	}
	ce, rest := clauseEnd(s, v, e), ""
	if ce > e {
		rest = s[e:ce]
	}
	if !proseValue(judged(w), rest) && !((owned(s, m[0]) || aloneInClause(s, v, e, w) && givesValue(s, m[0], v)) && ownValue(w)) {
		return 0, 0, 0, 0, false
	}
	// A value glued to its "=" or ":" is one word, as in a flag or an
	// environment line ("--password=x -u root"); after a blank, a clause.
	end := v + len(w)
	if isBlank(s[v-1]) || s[v-1] == '>' {
		end = tagCut(s, v, ce) // after a blank or a tag, a clause: <br>correct horse battery staple
	}
	return v, end, m[0], end, true
}

// changedBefore: one of the three words before s[i:] is a verb of change
// ("I changed the password for prod to X", "set the admin password for
// staging to X").
func changedBefore(s string, i int) bool {
	f := strings.Fields(s[max(0, strings.LastIndexByte(s[max(0, i-64):i], '\n')+1+max(0, i-64)):i])
	for k := len(f) - 1; k >= 0 && k >= len(f)-3; k-- {
		if inList(" changed change changing set setting reset resetting updated update rotated rotate ", strings.ToLower(f[k])) {
			return true
		}
	}
	return false
}

// schemeName: w, after a word of time, names how a password is kept or
// what it is like rather than being one: words of letters and digits whose
// last, after a hyphen, is a participle or a word of kind ("Base64-encoded",
// "6-digit", "2FA-only") or a hasher's name (pbkdf2_sha256, unsalted_md5); not
// "Summer-2024!", "Tr0ub4dor-3!".
func schemeName(w string) bool {
	if k := strings.LastIndexByte(w, '-'); k > 0 && k+2 < len(w) && strings.Trim(w[k+1:], "abcdefghijklmnopqrstuvwxyz") == "" && strings.Trim(w[:k], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-") == "" &&
		(strings.HasSuffix(w, "ed") || inList(" only free ready compatible digit digits char chars character characters step factor bit byte bytes long length based backed managed secret safe proof friendly sensitive insensitive specific wide like style ", w[k+1:])) {
		return true // Base64-encoded, bcrypt-hashed; what it is like: 6-digit, 2FA-only, i18n-ready (not Blue42-sky)
	}
	for _, part := range strings.Split(w, "_") {
		if len(part) < len(w) && inList(schemes, strings.ToLower(part)) {
			return true
		}
	}
	return false
}

// timeWords: the end of up to two words of time at s[i:] ("now", "still
// also"), past a colon after them ("is now: X"); i when there is none.
func timeWords(s string, i int) int {
	e := i
	for n := 0; n < 2; n++ {
		j := spaceEnd(s, e)
		t := runEnd(s, j, isLetter)
		if t == j || !inList(" now still also again currently just ", strings.ToLower(s[j:t])) {
			break
		}
		if e = t; t < len(s) && s[t] == ':' {
			return t + 1
		}
	}
	return e
}

// became: at s[p:], what happened to a password and what it became
// ("changed to Hunter2x!", "reset to: 48392017", "changed from Hunter2x! to
// Wombat9$zz", quoted too): the span of the value, from an old one to the
// new one when either is a password. read is whether s[p:] says so (a
// participle and "to", "as", "into" or "from"); strict asks a word that
// looks chosen (without "is" or "was": "password changed to x86_64" is a
// platform). One word: words after it name a place as often as a
// passphrase ("password moved to shared team vault folder").
func became(s string, p int, strict bool) (vs, ve, end int, ok, read bool) {
	k := runEnd(s, p, isLetter)
	if k == p || k == len(s) || !isBlank(s[k]) && s[k] != ':' {
		return
	}
	if lw := strings.ToLower(s[p:k]); lw != "set" && !isParticiple(lw) {
		return
	}
	if s[k] == ':' {
		// "password changed: Hunter2x!", quoted too; not a format's
		// field nor a date ("password changed: %{date}", "… 2024-05-01").
		v := afterColon(s, k+1)
		if vs, ve, end, q := quoted(s, v); q {
			return vs, ve, end, chosenPassword(s[vs:ve]), true
		}
		w := trimClause(s[v:elementWordEnd(s, v)])
		return v, v + len(w), v + len(w), chosenPassword(w) && !namesThing(w) && !strings.ContainsAny(w, "%{<"), true
	}
	j := runEnd(s, timeWords(s, k), isBlank) // changed again to X
	if proseWordIs(s, j, "back") {
		j = runEnd(s, j+4, isBlank) // changed back to X
	}
	if !proseWordIs(s, j, "to") && !proseWordIs(s, j, "as") && !proseWordIs(s, j, "into") && !proseWordIs(s, j, "from") {
		return
	}
	vs, ve, end, ok = becameFrom(s, j, strict)
	return vs, ve, end, ok, true
}

// becameFrom is became's value after its preposition at s[j:]; also after
// the password word itself ("I changed my password from X to Y").
func becameFrom(s string, j int, strict bool) (vs, ve, end int, ok bool) {
	from, oe, old := -1, -1, false
	if proseWordIs(s, j, "from") {
		from = runEnd(s, j+4, isBlank)
		old = becomes(s[j:min(len(s), j+maxQuoted)], strict)
		oe = from + len(trimClause(s[from:proseWordEnd(s, from)]))
		j = runEnd(s, oe, isBlank)
		if qs, qve, qe, q := quoted(s, from); q {
			from, oe, j = qs, qve, runEnd(s, qe, isBlank) // from "Hunter2x!" to "Wombat9$zz"
		}
		if !proseWordIs(s, j, "to") && arrowEnd(s, j) == j {
			return from, oe, oe, old // "changed from Hunter2x!"
		}
	}
	t := arrowEnd(s, j) // "from X -> Y"
	if t == j {
		t = proseWordEnd(s, j) // "changed to: Hunter2x!"
	}
	v := runEnd(s, t, isBlank)
	if v == t || v == len(s) || !old && !becomes(s[j:min(len(s), j+maxQuoted)], strict) {
		if old {
			return from, oe, oe, true // "changed from Hunter2x! to" and a line end
		}
		return
	}
	vs, ve, end, q := quoted(s, v)
	if !q {
		vs, ve = v, v+len(trimClause(s[v:proseWordEnd(s, v)]))
		end = ve
	}
	// After an old password, a new one need only look like one.
	if w := s[vs:ve]; !chosenPassword(w) && !isNumber(w) && !((old || !strict) && looksLikePassword(w) && !namesThing(w)) {
		if !old {
			return
		}
		ve, end = oe, oe // the old one alone
	}
	if from >= 0 {
		vs = from
	}
	return vs, ve, end, true
}

// passProse is the span of the value that the word "pass" introduces, a
// word that names a compiler's or a test's pass, a ticket or a move as
// often as a password: only after "is" or "was", or after "user NAME"
// (see afterUser), and only a value that looks chosen (chosenPassword),
// quoted or not, and not a path, a call or a version. A label's "pass:"
// and "pass =" are labelledValue's.
//
//	the db pass is "hunter2-Xy9"  => hunter2-Xy9
//	user admin pass S3cr3t!x      => S3cr3t!x
//	the first pass is O(n^2)      => (none)
//	PASS src/App2.test.tsx        => (none)
func passProse(s string, m []int) (int, int, int, int, bool) {
	v := afterIsWas(s, m[1])
	if j := runEnd(s, m[1], isBlank); v < 0 && j > m[1] && !isWasAt(s, j) && afterUser(s, m[0]) {
		v = j
	}
	if v < 0 || v == len(s) {
		return 0, 0, 0, 0, false
	}
	vs, ve, end := valueSpan(s, v)
	w := s[vs:ve]
	if !chosenPassword(w) || w[0] == '-' || strings.ContainsAny(w, "([{<./:") || isReference(w) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, m[0], end, true
}

// identProse is prosePassword for an identifier that ends in a password
// word (DB_PASSWORD, db_pass, adminPwd): only after what introduces a value
// in prose ("is", an arrow, a colon its markup or element closes, words
// set off by commas or a preposition's words before "is"); its ':' and '='
// in code and configuration are labelledValue's, and an identifier
// followed by a word is code (ValueFrom: …). A pass is passProse's.
//
//	DB_PASSWORD is hunter2xyz          => hunter2xyz
//	**DB_PASSWORD:** hunter2xyz        => hunter2xyz
//	<b>db_password</b>: hunter2xyz     => hunter2xyz
//	DB_PASSWORD -> hunter2xyz          => hunter2xyz
//	DB_PASSWORD is required            => (none)
//	DB_PASSWORD=${DB_PASSWORD:?unset}  => (none here)
func identProse(s string, m []int, k int) (int, int, int, int, bool) {
	if m[1]-m[0]-k == 4 {
		return passProse(s, m)
	}
	// The closers a label's pattern reads: `DB_PASSWORD`: x.
	if j := spaceEnd(s, labelClosers(s, m[1])); j < len(s) && (s[j] == ':' || s[j] == '=') && (j+1 == len(s) || s[j+1] != '*') {
		return 0, 0, 0, 0, false
	}
	v := afterVerb(s, m[1])
	if v < 0 {
		v = afterAside(s, m[1])
	}
	if v < 0 {
		v = afterIntro(s, m[1])
	}
	if v < 0 {
		// Less surely: "DB_PASSWORD should be X", "set DB_PASSWORD to X",
		// the identifier in code or bold too ("set `DB_PASSWORD` to X").
		e := labelClosers(s, m[1])
		if j := modalBe(s, e); j >= 0 {
			return firmValue(s, m[0], j)
		}
		if j := spaceEnd(s, e); j > e && proseWordIs(s, j, "to") && changedBefore(s, m[0]) {
			if v := spaceEnd(s, j+2); v > j+2 && v < len(s) {
				return firmValue(s, m[0], v)
			}
		}
	}
	if v < 0 || v == len(s) || closesLabel(s, m[0], v+1, s[m[0]:v+1]) {
		return 0, 0, 0, 0, false
	}
	return verbValue(s, m, s[m[0]+k:m[1]], v)
}

// afterUser: the word at s[i:] follows "user NAME" ("user admin pass …",
// "login: ada, pass …"): user, username, login or usr, an optional ':',
// blanks, a name and an optional ','.
func afterUser(s string, i int) bool {
	e := runEndBack(s, i, isBlank)
	if e == i || e == 0 {
		return false
	}
	b := runEndBack(s, e, func(c byte) bool { return !isSpace(c) })
	if b == e || s[b:e] == "," {
		return false
	}
	e = runEndBack(s, b, isBlank)
	if e == b || e == 0 {
		return false
	}
	if s[e-1] == ':' {
		e--
	}
	w := s[runEndBack(s, e, isWord):e]
	if !wordStart(s, e-len(w)) || len(w) < 3 {
		return false
	}
	switch strings.ToLower(w) {
	case "user", "username", "login", "usr":
		return true
	}
	return false
}

// apposition: the value set off by commas right after a password word,
// before a verb: "the admin password, hunter2, is weak". Only a quoted
// value or a word that looks like a password (see looksLikePassword): "the
// password, however, is weak" is prose. vs, ve: the value's bytes.
func apposition(s string, i int) (vs, ve int, ok bool) {
	if i == len(s) || s[i] != ',' {
		return 0, 0, false
	}
	v := runEnd(s, i+1, isBlank)
	if v == i+1 || v == len(s) {
		return 0, 0, false
	}
	end := 0
	if qs, qe, qend, quoted := quoted(s, v); quoted {
		vs, ve, end = qs, qe, qend
	} else {
		vs, ve = v, proseWordEnd(s, v)
		end = ve
		if w := s[vs:ve]; !looksLikePassword(w) || isReference(w) || isPath(w) {
			return 0, 0, false
		}
	}
	if isReference(s[vs:ve]) || end == len(s) || s[end] != ',' {
		return 0, 0, false
	}
	j := runEnd(s, end+1, isBlank)
	if j == end+1 {
		return 0, 0, false
	}
	for _, verb := range [...]string{"is", "was", "has", "had", "will", "must", "should", "expires", "works"} {
		if proseWordIs(s, j, verb) {
			return vs, ve, true
		}
	}
	return 0, 0, false
}

// afterParens: where the value starts after a short parenthesis between
// the password word and its ":" or "=": "password (staging): hunter2". -1
// when there is none.
func afterParens(s string, i int) int {
	j := runEnd(s, i, isBlank)
	if j == len(s) || s[j] != '(' {
		return -1
	}
	for k := j + 1; k < len(s) && k <= j+maxParens; k++ {
		switch s[k] {
		case ')':
			return afterVerb(s, k+1)
		case '(', '\n':
			return -1
		}
	}
	return -1
}

// maxParens bounds the parenthesis afterParens reads past, so that a line
// of many "password (" costs linear time.
const maxParens = 40

// owned: the password word at s[i:] follows "my" or "our", at most one word
// before it ("my wifi password"): a person telling their own password.
func owned(s string, i int) bool {
	for range 2 {
		e := runEndBack(s, i, isBlank)
		if e == i || e == 0 {
			return false
		}
		b := runEndBack(s, e, isLetter)
		if b == e {
			return false
		}
		if w := s[b:e]; len(w) == 2 && text.HasFoldPrefix(w, "my") || len(w) == 3 && text.HasFoldPrefix(w, "our") {
			return b == 0 || !isWord(s[b-1])
		}
		i = b
	}
	return false
}

// givesValue: the sentence gives the value (at s[v:]) of the password word
// at s[i:], rather than saying something of passwords in general: it
// follows ":" or "=" ("pw: blessing"), or a word that says which password
// it is ("the wifi password is blessing", "Ada's password is …"; not "the
// password is salted", "if password is missing").
func givesValue(s string, i, v int) bool {
	if k := runEndBack(s, runEndBack(s, v, isBlank), isMarkup); k > 0 && (s[k-1] == ':' || s[k-1] == '=') {
		return true
	}
	e := runEndBack(s, i, isBlank)
	if e == i {
		return false
	}
	b := runEndBack(s, e, isWord)
	w := strings.ToLower(s[b:e])
	if w == "s" && (hasAt(s, b-1, "'") || hasAt(s, b-3, "’")) {
		return true
	}
	return len(w) >= 2 && !isFunctionWord(w) && !isPredicate(w)
}

// ownValue: a word of letters ending in -ed or -ing that is a password when
// a person gives their own ("my password is blessing") or the sentence
// gives one (see givesValue: "the wifi password is blessing"), unless it
// says what happened to a password or how it is kept ("my password is
// expired", "the admin password is salted"; see states). Elsewhere such a
// word stays prose ("the password is salted").
func ownValue(w string) bool {
	lw := strings.ToLower(w)
	for i := 0; i < len(lw); i++ {
		if !isLetter(lw[i]) {
			return false
		}
	}
	return (strings.HasSuffix(lw, "ed") || strings.HasSuffix(lw, "ing")) &&
		!inList(predicates, lw) && !inList(states, lw) && !isFunctionWord(lw)
}

// tokenProse is the span of a token or an API key that a sentence names:
// after "is", "was", ":" or "=" (or a preposition and up to three words),
// a quoted value or one word that looks like a token (see looksLikeToken).
//
//	my token is 4f1c2e9ab7d3         => 4f1c2e9ab7d3
//	the api key for staging is k3y…  => k3y…
//	the token is expired             => (none)
func tokenProse(s string, m []int) (int, int, int, int, bool) {
	if w := strings.ToLower(s[m[0]:m[1]]); w == "key" || slices.Contains(foreignKeys[:9], w) {
		return keyProse(s, m)
	}
	if inARN(s, m[0]) {
		return 0, 0, 0, 0, false
	}
	v := verbOrCopula(s, m[1])
	if v < 0 {
		v = afterIntroWith(s, m[1], verbOrCopula)
	}
	if v < 0 || v == len(s) {
		return 0, 0, 0, 0, false
	}
	vs, ve, end := valueSpan(s, v)
	if !looksLikeToken(s[vs:ve]) || typedArray(s[vs:ve]) {
		return 0, 0, 0, 0, false // a type: secret: Uint8Array
	}
	return vs, ve, m[0], end, true
}

// keyProse is the span of a key that a sentence names with the word alone,
// which names a map's, a table's or a keyboard's key as often as a
// secret: only after "is" or "was" (or another language's, its word's
// qualifier between: "Mi clave de API es …"), a quoted value or one word
// that looks made at random (randomKey). "key:" in YAML names anything.
//
//	my key is 9f8e7d6c5b4a39281706f5e4d3c2b1a0 => 9f8e…a0
//	the key is in the README                    => (none)
//	the primary key is user_id                  => (none)
func keyProse(s string, m []int) (int, int, int, int, bool) {
	v := afterCopula(s, m[1])
	if v < 0 && m[1]-m[0] > 3 {
		// Another language's: "Mi clave de API es …", "La clave API es …".
		if v = verbOrCopula(s, m[1]); v < 0 {
			v = afterIntroWith(s, m[1], afterCopula)
		}
	}
	if v < 0 || v == len(s) {
		return 0, 0, 0, 0, false
	}
	vs, ve, end := valueSpan(s, v)
	if !randomKey(s[vs:ve]) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, m[0], end, true
}

// looksLikeToken: 10+ bytes of a token's alphabet holding a letter and a
// digit, and not a path, a reference or a word that says what the token is
// like ("sha256-encoded").
func looksLikeToken(w string) bool {
	if len(w) < 10 || isPath(w) || isReference(w) {
		return false
	}
	var letter, digit bool
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case isLetter(c):
			letter = true
		case c >= '0' && c <= '9':
			digit = true
		case !isTokenValue(c):
			return false
		}
	}
	return letter && digit && !isPredicate(strings.ToLower(w))
}

// awsProseSecret is the span of an AWS secret access key named by the words
// before it: "secret", "secret key", "secret access key" (or one identifier:
// aws_secret, AWS_SECRET_ACCESS_KEY), then "is"/"was", ":", "=", a table's
// "|" or nothing and an optional quote, then 40 characters of base64 holding an
// upper- and a lowercase letter and a digit (a git SHA or a word is not one),
// ending there.
//
//	aws creds: key AKIA…, secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY => wJalr…KEY
//	AWS secret key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"           => wJalr…KEY
func awsProseSecret(s string, m []int) (int, int, int, int, bool) {
	i := m[1]
	for _, w := range [...]string{"access", "key"} {
		if j := runEnd(s, i, isBlank); j > i && proseWordIs(s, j, w) {
			i = j + len(w)
		}
	}
	if j := runEnd(s, i, isBlank); j > i && (proseWordIs(s, j, "is") || proseWordIs(s, j, "was")) {
		i = runEnd(s, j, isLetter)
	}
	v := runEnd(s, i, isBlank)
	if v < len(s) && (s[v] == ':' || s[v] == '=' || s[v] == '|') {
		v = runEnd(s, v+1, isBlank)
	}
	if v < len(s) && (isQuote(s[v]) || s[v] == '`') {
		v++
	}
	if v == i || exactly(s, v, isBase64, 40) < 0 {
		return 0, 0, 0, 0, false
	}
	e := v + 40
	if e < len(s) && (isBase64(s[e]) || s[e] == '=' || s[e] == '_' || s[e] == '-') {
		return 0, 0, 0, 0, false
	}
	var upper, lower, digit bool
	for k := v; k < e; k++ {
		c := s[k]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		digit = digit || c >= '0' && c <= '9'
	}
	if !upper || !lower || !digit {
		return 0, 0, 0, 0, false
	}
	return v, e, m[0], e, true
}

// valueSpan is the span of the value that starts at s[v:]: a quoted one
// (end past its closing quote), else one word without a clause's trailing
// punctuation.
func valueSpan(s string, v int) (vs, ve, end int) {
	if vs, ve, end, ok := quoted(s, v); ok {
		return vs, ve, end
	}
	ve = v + len(trimClause(s[v:proseWordEnd(s, v)]))
	return v, ve, ve
}

// afterIsWas: where the value starts after blanks, "is" or "was" and
// blanks at s[i:] (a word alone that says what follows it: "pass", "key");
// -1 when there is none.
func afterIsWas(s string, i int) int {
	j := runEnd(s, i, isBlank)
	if j == i || !isWasAt(s, j) {
		return -1
	}
	k := runEnd(s, j, isLetter)
	if v := runEnd(s, k, isBlank); v > k {
		return v
	}
	return -1
}

// isWasAt: the word at s[j:] is "is" or "was".
func isWasAt(s string, j int) bool { return proseWordIs(s, j, "is") || proseWordIs(s, j, "was") }

// afterCopula is afterIsWas for a token or a key, which another language
// names with the English word or its own (foreignKeys): "is" and "was" in
// it too (copulas).
func afterCopula(s string, i int) int {
	j := runEnd(s, i, isBlank)
	if j == i || j == len(s) {
		return -1
	}
	if !isWasAt(s, j) && !inList(copulaList, strings.ToLower(s[j:runEnd(s, j, isWordByte)])) {
		return -1
	}
	k := runEnd(s, j, isWordByte) // "är", "é" too
	if c := runEnd(s, k, isBlank); hasAt(s, c, ":") {
		k = c + 1 // "est : X", "es: X" (h-v101 b4)
	}
	if v := runEnd(s, k, isBlank); v > k {
		return v
	}
	return -1
}

// verbOrCopula is afterVerb, else afterCopula, also after one word that
// qualifies the token or the key ("La clave API es X", "Le secret client
// est X", "the token value is X": h-v101 b4).
func verbOrCopula(s string, i int) int {
	if v := afterVerb(s, i); v >= 0 {
		return v
	}
	if v := afterCopula(s, i); v >= 0 {
		return v
	}
	if j := runEnd(s, i, isBlank); j > i {
		if e := runEnd(s[:min(len(s), j+24)], j, isWordByte); e > j && (e == len(s) || !isWord(s[e])) {
			return afterCopula(s, e) // a word of letters, up to 24 bytes
		}
	}
	return -1
}

// isWordByte: c is an ASCII letter or a byte of a character past ASCII.
func isWordByte(c byte) bool { return isLetter(c) || c >= 0x80 }

// copulaList is "is" and "was" in the languages that name a token or a key
// with the English word or their own (foreignKeys), for inList: "le token
// est …", "Der API-Key lautet …", "El token es …", "O token é …",
// "API-nyckeln är …" (h-v100 b4).
const copulaList = " est es ist lautet war era fue foi é è är var er jest "

// proseWordIs: the word at s[i:] is w (lowercase), in any ASCII case.
func proseWordIs(s string, i int, w string) bool {
	return text.HasFoldPrefix(s[i:], w) && (i+len(w) == len(s) || !isWord(s[i+len(w)]))
}

// afterVerb: where the value starts after what introduces it at s[i:]:
// blanks and "is", "was" (or "is:"), or ":", "=", ":=", an arrow ("=>",
// "->", "-->", "→", "⇒", "➜", any of Unicode's), a full-width or small colon
// or equals sign ("：" as CJK keyboards type it), also
// inside markdown's emphasis or code ("**Password:** x", "`pw`: x"). -1
// when there is none (and for "==", a comparison). A no-break or
// ideographic space is a blank here.
func afterVerb(s string, i int) int {
	j := spaceEnd(s, tagsEnd(s, runEnd(s, i, isMarkup))) // <b>Password</b>: x
	if k := arrowEnd(s, j); k > j {
		return spaceEnd(s, runEnd(s, k, isMarkup))
	}
	if hasAt(s, j, "==") || hasAt(s, j, "!=") {
		return compared(s, j+2) // a comparison in code: if password == input
	}
	for _, c := range [...]string{".equals(", ".equalsIgnoreCase(", ").toBe(", ").toEqual(", ").to.equal("} {
		if hasAt(s, j, c) {
			return compared(s, j+len(c)) // password.equals("…"), expect(password).toBe("…")
		}
	}
	if j < len(s) && (s[j] == ':' || s[j] == '=') {
		j++
		if j < len(s) && (s[j] == '=' || s[j] == '>') {
			j++
		}
		return afterColon(s, j)
	}
	for _, sep := range [...]string{"：", "＝", "﹕", "﹦", "∶", "꞉", "︓", "ː"} {
		if hasAt(s, j, sep) {
			return spaceEnd(s, runEnd(s, j+len(sep), isMarkup))
		}
	}
	if cellThenValue(s[i:j]) && j < len(s) && looksLikePassword(s[j:runEnd(s, j, func(c byte) bool { return c != '<' && !isSpace(c) })]) {
		// A label's cell, then its value's (<th>Password</th><td>x,
		// <dt>pw</dt><dd>x): a value shaped like a password, as a table's
		// cells say what a field is as often (<td>body</td>, <td>string</td>).
		return j
	}
	if j == i || !isBlank(s[j-1]) {
		return -1
	}
	for _, w := range [...]string{"is", "was", "are", "were"} {
		if proseWordIs(s, j, w) {
			k := j + len(w)
			if k < len(s) && s[k] == ':' {
				k++
			}
			if v := spaceEnd(s, k); v > k {
				return v
			}
		}
	}
	return -1
}

// compared is where a literal compared with a password starts, after
// "==", "===" or "!=" at s[:k]: a quoted one that looks like a password
// is one written into the code ("if password == \"Xk9m…\"", h-v97 b7);
// -1 for anything else (a variable, an empty string, a word).
func compared(s string, k int) int {
	if hasAt(s, k, "=") {
		k++
	}
	v := spaceEnd(s, k)
	if vs, ve, _, ok := quoted(s, v); ok && looksLikePassword(s[vs:ve]) {
		return v
	}
	return -1
}

// cellThenValue: tags, the text between a label and its value, close a
// label's cell or term (</th>, </td>, </dt>) and then open a value's (<td>,
// <dd>).
func cellThenValue(tags string) bool {
	t := strings.ToLower(tags)
	c := max(strings.Index(t, "</th>"), strings.Index(t, "</td>"), strings.Index(t, "</dt>"))
	return c >= 0 && (strings.LastIndex(t, "<td") > c || strings.LastIndex(t, "<dd") > c)
}

// spaceEnd: past the blanks at s[i:], a no-break (U+00A0, U+202F) or
// ideographic (U+3000) space among them.
func spaceEnd(s string, i int) int {
	for i < len(s) {
		switch {
		case isBlank(s[i]):
			i++
		case hasAt(s, i, "\u00a0"):
			i += 2
		case hasAt(s, i, "&nbsp;"), hasAt(s, i, "&#160;"), text.HasFoldPrefix(s[i:], "&#xa0;"):
			i += 6
		case hasAt(s, i, "\u202f"), hasAt(s, i, "\u3000"):
			i += 3
		default:
			return i
		}
	}
	return i
}

// arrowEnd: the end of an arrow at s[j:] (an ASCII one of dashes, tildes or
// equals signs and ">", "—>", or a character of Unicode's arrow blocks), j
// when there is none.
func arrowEnd(s string, j int) int {
	k := j
	for k < len(s) && (s[k] == '-' || s[k] == '~' || s[k] == '=') || hasAt(s, k, "—") || hasAt(s, k, "–") {
		if s[k] < 0x80 {
			k++
		} else {
			k += len("—")
		}
	}
	if k > j && k < len(s) && s[k] == '>' {
		return k + 1
	}
	if r, n := utf8.DecodeRuneInString(s[j:]); r >= 0x2190 && r <= 0x21FF || r >= 0x27F0 && r <= 0x27FF ||
		r >= 0x2794 && r <= 0x27BF || r >= 0x2900 && r <= 0x297F || r >= 0x2B00 && r <= 0x2B11 {
		return j + n
	}
	return j
}

// afterColon: where a value starts after a label's ":" or "=" at s[:i]:
// past markdown's emphasis, blanks and the tags around it ("**Password:**
// x", "<b>Password:</b>&nbsp;x").
func afterColon(s string, i int) int {
	return tagsEnd(s, spaceEnd(s, runEnd(s, i, isMarkup)))
}

// elementWordEnd: the end of the word at s[v:], cut where its element
// closes (<td>Hunter2x!</td>).
func elementWordEnd(s string, v int) int {
	e := proseWordEnd(s, v)
	if k := strings.Index(s[v:e], "</"); k > 0 {
		e = v + k
	}
	return e
}

// tagsEnd: past the HTML tags that close a label's element and open its
// value's, from a closing tag on ("<b>Password:</b> x", "<td>pw:</td><td>x"),
// and the blanks between; i when there is none.
func tagsEnd(s string, i int) int {
	for i+1 < len(s) && s[i] == '<' && (s[i+1] == '/' || isLetter(s[i+1])) {
		k := strings.IndexByte(s[i+1:min(len(s), i+256)], '>')
		if k < 0 || strings.ContainsAny(s[i+1:i+1+k], "<\n") {
			return i
		}
		// Any tag ("<td><code>x", "<br>"), but a row's end, a form's
		// control (which takes the value) or a placeholder
		// ("<your-password>": a reference, judged as the value).
		tag := strings.TrimLeft(s[i+1:i+1+k], "/")
		n := runEnd(tag, 0, isAlnum)
		if name := strings.ToLower(tag[:n]); inList(" tr input button a select textarea form ", name) || n < len(tag) && !isBlank(tag[n]) && tag[n] != '/' {
			return i
		}
		i = spaceEnd(s, i+k+2)
	}
	return i
}

// notValue: w, where a value goes, is a tag or a word in parentheses: a
// form's control or a template's tag ("<input", "<%= @pw %>"), "(none)",
// "(not set)"; not "<Pw44x!Kq9" nor "(xK9#mQ2!".
func notValue(w string) bool {
	if w == "await" || w == "yield" {
		return true // code reads it: password = await rl.question("Password: ")
	}
	for _, e := range [...]string{`\033[`, `\x1b[`, `\u001b[`, `\e[`, `\E[`} {
		if strings.HasPrefix(w, e) {
			return true // a terminal's code spelled in a string: "Password:\033[0m "
		}
	}
	if w[0] == '<' {
		return strings.IndexByte(w, '>') > 0 || len(w) > 1 && (w[1] == '%' || w[1] == '?' || isLetters(w[1:]))
	}
	if hasAt(w, 0, ".*") || hasAt(w, 0, ".+") {
		return true // a pattern: sed 's/password=.*/password=x/'
	}
	if w[0] == '(' {
		if len(w) > 1 && strings.IndexByte(`\?[.`, w[1]) >= 0 {
			return true // a pattern's group: re.compile(r"password=(\S+)")
		}
		k := strings.IndexByte(w, ')')
		return k < 0 && isLetters(w[1:]) || k > 0 && isLetters(w[1:k])
	}
	return false
}

// tagCut: end, or where a tag starts first in s[v:end] (a clause's value
// ends at its element's end or a line break: …</dd>, …<br>).
func tagCut(s string, v, end int) int {
	k := strings.IndexByte(s[v:end], '<')
	if k <= 0 {
		return end
	}
	// A tag's start: "</", or "<" and an HTML element's name ended by ">", a
	// blank or "/" (<br>, <BR>, <td class=…>, <b>; a one-letter one in small
	// letters): another name is a password's or a type's (Pa55<Word>,
	// Hunter<Two>, Pass<W>ord, QWERTY<ASDF>).
	n := runEnd(s, v+k+1, isAlnum)
	name := s[v+k+1 : n]
	element := n == v+k+2 && name[0] >= 'a' || n > v+k+2 && inList(" br hr td th tr li dd dt em h1 h2 h3 h4 h5 h6 ul ol tt del ins img kbd pre sub sup var wbr abbr code font mark nobr span cite samp small table tbody thead label input button strong center strike option select details summary section ", strings.ToLower(name))
	if hasAt(s, v+k, "</") || element && n < len(s) && (s[n] == '>' || s[n] == '/' || isBlank(s[n])) {
		return v + k
	}
	return end
}

// isMarkup: markdown emphasis or code around a label.
func isMarkup(c byte) bool { return c == '*' || c == '`' }

// afterAside: where the value starts after words set off by commas
// between the password word and its verb ("the admin password, by the way,
// is X"): up to five words of letters, then "is" or "was".
func afterAside(s string, i int) int {
	if i == len(s) || s[i] != ',' {
		return -1
	}
	k := strings.IndexByte(s[i+1:min(len(s), i+48)], ',')
	if k < 0 || strings.IndexByte(s[i+1:i+1+k], '\n') >= 0 {
		return -1 // an aside is on its line, as the prefilter reads it
	}
	k += i + 1
	if words := strings.Fields(s[i+1 : k]); len(words) == 0 || len(words) > 5 || !isLetters(strings.Join(words, "")) {
		return -1
	}
	if j := runEnd(s, k+1, isBlank); j > k+1 && isWasAt(s, j) {
		return afterVerb(s, k+1)
	}
	return -1
}

// afterIntro: where the value starts after "for staging is", "of the admin
// account:", "to the db was": a preposition, then up to ten words before
// the verb.
func afterIntro(s string, i int) int { return afterIntroWith(s, i, afterVerb) }

// afterIntroWith is afterIntro with verb for what starts the value.
func afterIntroWith(s string, i int, verb func(s string, i int) int) int {
	j := runEnd(s, i, isBlank)
	if j == i {
		return -1
	}
	e := proseWordEnd(s, j)
	if !isPreposition(s[j:e]) {
		return -1
	}
	for range 10 {
		j = runEnd(s, e, isBlank)
		if j == e || j == len(s) {
			return -1
		}
		e = proseWordEnd(s, j)
		if e == j {
			return -1
		}
		if s[e-1] == ':' && e-j > 1 {
			return runEnd(s, e, isBlank)
		}
		if v := verb(s, e); v >= 0 {
			return v
		}
	}
	return -1
}

func isPreposition(w string) bool {
	for _, p := range [...]string{"for", "of", "on", "to", "at", "in", "between", "with", "de", "di", "du", "del", "des", "für", "van", "voor", "för", "do", "da", "dla"} {
		if len(w) == len(p) && text.HasFoldPrefix(w, p) {
			return true
		}
	}
	return false
}

// isProseStop ends a word of prose: a space, a comma or semicolon (which end
// a clause) or a double quote or backtick (which close what held the value:
// "set `password=x` here"). An apostrophe does not ("don't").
func isProseStop(c byte) bool { return isSpace(c) || c == ',' || c == ';' || c == '"' || c == '`' }

// proseWordEnd: the end of the word at s[i:], read no further than
// maxProseWord bytes: a value is judged by its start, and a redaction that
// ends where the read stopped is taken on to the word's end (run.add).
// Read whole, a line of one long word holding a password word again and
// again ("password:password:…", "密码是密码是…") had each of them read the
// rest of the line (time quadratic in its length).
func proseWordEnd(s string, i int) int {
	return runEnd(s[:min(len(s), i+maxProseWord)], i, inProseWord)
}

// maxProseWord: how much of a word proseWordEnd reads; no password typed
// in prose is longer.
const maxProseWord = 256

func inProseWord(c byte) bool { return !isProseStop(c) }

// wordCutAt: the end a redaction s[start:end] takes when proseWordEnd cut
// its word at maxProseWord: the word's real end, less the punctuation that
// closes a clause (else end), and where the word was read from. known is
// what it returned before (zeros: nothing): a word read then that holds
// this one's cut ends where it did, and is not read again.
func wordCutAt(s string, start, end int, known [2]int) (int, int) {
	cut := start + maxProseWord
	if cut >= len(s) || end < cut-8 || end > cut || !inProseWord(s[cut]) || runEnd(s[:cut], start, inProseWord) != cut {
		return end, 0
	}
	if known[1] > cut && known[0] <= cut {
		return known[1], known[0]
	}
	return cut + len(trimClause(s[cut:runEnd(s, cut, inProseWord)])), cut
}

// trimClause drops the ".,;:)" that close a clause from the end of a word.
func trimClause(w string) string {
	for w != "" && strings.IndexByte(".,;:)", w[len(w)-1]) >= 0 {
		w = w[:len(w)-1]
	}
	return w
}

// judged is a word as proseValue and labelProse judge it: without what
// closes a clause, nor a quote or parenthesis closing the string the
// sentence is in (throw new Error('password is required')). The mark still
// takes the quote: a password may end with one.
func judged(w string) string {
	for {
		switch t := trimClause(w); {
		case t != "" && t[len(t)-1] == '\'':
			w = t[:len(t)-1]
		case strings.HasSuffix(t, "’"), strings.HasSuffix(t, "”"):
			w = t[:len(t)-len("’")]
		case t != "" && strings.IndexByte(")]}", t[len(t)-1]) >= 0 && strings.IndexByte(t, "([{"[strings.IndexByte(")]}", t[len(t)-1])]) < 0:
			w = t[:len(t)-1] // what the word is inside closes: ${PW:?PW is required}
		default:
			return t
		}
	}
}

// quoted: the text inside a quote that opens at s[v] and closes on the same
// line within maxQuoted bytes ('…', "…", `…`, “…”, ‘…’, 「…」, 『…』, ＂…＂,
// «…»), and the end of the closing quote.
func quoted(s string, v int) (vs, ve, end int, ok bool) {
	open, close := "", ""
	for _, q := range [...][2]string{{`"`, `"`}, {"'", "'"}, {"`", "`"}, {"“", "”"}, {"‘", "’"}, {"「", "」"}, {"『", "』"}, {"＂", "＂"}, {"«", "»"}} {
		if strings.HasPrefix(s[v:], q[0]) {
			open, close = q[0], q[1]
			break
		}
	}
	if open == "" {
		return 0, 0, 0, false
	}
	vs = v + len(open)
	// Read no further than maxQuoted: a line of opening quotes had each
	// read the rest of the line.
	line := s[vs:min(len(s), vs+maxQuoted)]
	if n := strings.IndexByte(line, '\n'); n >= 0 {
		line = line[:n]
	}
	k := strings.Index(line, close)
	if k <= 0 {
		return 0, 0, 0, false
	}
	return vs, vs + k, vs + k + len(close), true
}

// maxClauseWords ends a clause that has not ended sooner: no passphrase is
// longer, and a line of "password=x password=x …" would otherwise have each
// of its words read again by every clause before it (time quadratic in the
// line's length).
const maxClauseWords = 64

// maxQuoted: how far quoted looks for a closing quote; a passphrase of
// maxClauseWords words fits.
const maxQuoted = 1024

// clauseEnd: the end of the clause whose first word is s[v:e] (see the top
// of this file), its closing punctuation left out; at most maxClauseWords
// words.
func clauseEnd(s string, v, e int) int {
	for n := 1; ; n++ {
		j := runEnd(s, e, isBlank)
		// A word's "!" ends the clause, unless "to" goes on with it:
		// "changed from Hunter2x! to Wombat9$zz"; "to:" goes on too.
		if w := s[v:e]; n == maxClauseWords || strings.ContainsRune(".!?:", rune(w[len(w)-1])) && !strings.EqualFold(w, "to:") && (w[len(w)-1] != '!' || j == e || !proseWordIs(s, j, "to")) {
			break
		}
		if j == e || j == len(s) || isProseStop(s[j]) {
			break
		}
		k := proseWordEnd(s, j)
		if endsClause(s[j:k]) && !strings.EqualFold(s[j:k], "to:") {
			break
		}
		v, e = j, k
	}
	if w := trimClause(s[v:e]); w != "" {
		return v + len(w)
	}
	return e
}

// endsClause: a word that starts something else rather than going on with
// a value: a label ("user:"), a comment, a bracket or table bar, a dash, a
// mark.
func endsClause(w string) bool {
	switch {
	case len(w) > 1 && w[len(w)-1] == ':' && isName(w[:len(w)-1]),
		strings.HasPrefix(w, "#"), strings.HasPrefix(w, "//"), strings.HasPrefix(w, markOpen),
		strings.IndexByte("([{)]}>|&", w[0]) >= 0,
		w == "-" || w == "--" || w == "—" || w == "–":
		return true
	}
	return false
}

// looksLikePassword: 6+ bytes holding a letter and a digit or a symbol, as a
// password does and a word of prose does not ("hunter2", "p@ssw0rd"). A
// "!" or "?" that ends it ends a sentence ("passwd vergessen?", "pw
// forgotten?"): it counts as part of the word but not as its symbol.
func looksLikePassword(w string) bool {
	if len(w) < 6 {
		return false
	}
	w = strings.TrimRight(w, "!?")
	var letter, other bool
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case isLetter(c):
			letter = true
		case c >= '0' && c <= '9' || strings.IndexByte("!@#$%^&*+=?~", c) >= 0:
			other = true
		}
	}
	return letter && other
}

// proseValue: whether w, the first word after "password is" and the like,
// followed by rest (the clause's other words), is a password rather than
// prose about one. A word with digits or symbols is one (4+ bytes, not only
// digits below 6); a word of letters is one unless it is a function word
// ("the", "not", "in") or says what a password is like or what happens to
// it ("hashed", "required", "too", "case-sensitive") and stands alone or
// before a function word: "the password is correct" is prose, "my
// passphrase is correct horse battery staple" is not.
func proseValue(w, rest string) bool {
	if !isLetters(w) {
		if len(w) < 4 || !strings.ContainsFunc(w, func(r rune) bool { return r < 128 && isLetter(byte(r)) }) && len(w) < 6 {
			return false
		}
		return true
	}
	lw := strings.ToLower(w)
	if lw == "set" {
		lw = "reset" // "was set to Hunter2x!" says what it became, as "was reset to" does
	} else if len(w) < 4 || isFunctionWord(lw) {
		return false
	}
	if !isPredicate(lw) {
		return true
	}
	nw := nextWord(rest)
	if isParticiple(lw) {
		// What happened to it ("the password was rotated yesterday"), unless
		// it says what it became: "was changed (back, again) to Hunter2x!".
		for n := 0; n < 2 && inList(" back again now just also ", nw); n++ {
			rest = rest[runEnd(rest, 0, isBlank):]
			rest = rest[proseWordEnd(rest, 0):]
			nw = nextWord(rest)
		}
		switch nw {
		case "to", "as", "into", "from":
			return becomes(rest, false)
		}
		return false
	}
	if nw == "" {
		return false // alone: the line or its clause ends (", token: none")
	}
	return !isFunctionWord(nw) && !isPredicate(nw)
}

// becomes: rest, after what happened to a password, says what it became:
// "to", "as" or "into" and a word that looks like a password, a number of
// six digits or more, or a passphrase of four words ("changed to
// Hunter2x!", "reset to correct horse battery staple"); not a function
// word ("stored as a secret"), a verb that says why ("changed to meet the
// policy"), a path or a reference ("written to ~/.npmrc").
func becomes(rest string, strict bool) bool {
	next := rest[runEnd(rest, 0, isBlank):]
	from := proseWordIs(next, 0, "from")
	next = next[proseWordEnd(next, 0):]
	next = strings.TrimLeft(next[runEnd(next, 0, isBlank):], "`(\"'“‘")
	e := proseWordEnd(next, 0)
	w := judged(next[:e])
	if from {
		// "changed from Hunter2x! to Wombat9$zz": the new one, or the old
		// one when it looks chosen (not "from 100000 to 600000 rounds").
		if e < len(next) && (isQuote(next[e]) || next[e] == '`') {
			e++ // from "Hunter2x!" to …
		}
		if n := runEnd(next, e, isBlank); (proseWordIs(next, n, "to") || arrowEnd(next, n) > n) && becomes(next[n:], strict) {
			return true
		}
		return w != "" && !namesThing(w) && (chosenPassword(w) || !strict && looksLikePassword(w))
	}
	if w == "" || namesThing(w) {
		return false
	}
	if isNumber(w) {
		// Not a count of something: "reset to 100000 iterations".
		return !inList(counted, nextWord(next[e:]))
	}
	if strict && chosenPassword(w) || !strict && looksLikePassword(w) {
		return true
	}
	// A passphrase: four to eight words of letters ending its line or its
	// clause, none of them a function word nor a verb of purpose ("changed
	// to correct horse battery staple"; not "moved to Vault last week").
	// Nine words are a sentence; no more are read (rest may be the rest of
	// the text, and each "to" of a line read it all: quadratic).
	n := 0
	for i := 0; ; n++ {
		j := runEnd(next, i, isBlank)
		if j == len(next) || isProseStop(next[j]) {
			return n >= 4
		}
		i = proseWordEnd(next, j)
		lx := strings.ToLower(judged(next[j:i]))
		if n == 8 || !isWordOfLetters(lx) || isFunctionWord(lx) || inList(purposes, lx) {
			return false
		}
	}
}

// namesThing: w, which may look like a password, names something else: a
// path, a reference (${X}, %X%), a call, a URL, a version (v2.3.1), an
// environment variable (DB_PASS2) or a hash, a cipher, a key type or an
// encoding (argon2id, SHA-256, utf8mb4, base64url, ed25519), what a
// password is stored as, encoded as or migrated to.
func namesThing(w string) bool {
	if isPath(w) || isReference(w) || strings.Contains(w, "(") || strings.Contains(w, "://") || len(w) > 2 && w[0] == '%' && w[len(w)-1] == '%' && strings.Trim(w[1:len(w)-1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == "" {
		return true
	}
	if strings.IndexByte(w, '_') >= 0 && strings.Trim(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == "" {
		return true
	}
	// A relative path of three names or more in small letters: a vault's
	// secret/prod/db-2024 (vault kv get -field=password secret/prod/db).
	if strings.Count(w, "/") >= 2 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-_./") == "" && !strings.Contains(w, "//") && w[0] != '/' && w[len(w)-1] != '/' {
		return true
	}
	// A version, the whole word: 3.12, v2.3.1, py3.12 (up to two small
	// letters before its numbers; "Kim1990.12" is a password).
	if l := runEnd(w, 0, func(c byte) bool { return c >= 'a' && c <= 'z' }); l <= 2 && l < len(w) {
		d := l
		for d < len(w) && (w[d] >= '0' && w[d] <= '9' || w[d] == '.' && d > l && d+1 < len(w) && w[d+1] >= '0' && w[d+1] <= '9') {
			d++
		}
		if d == len(w) && strings.IndexByte(w[l:], '.') > 0 {
			return true
		}
	}
	name := make([]byte, 0, len(w))
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= 'A' && c <= 'Z':
			name = append(name, c+'a'-'A')
		case c != '-' && c != '_':
			name = append(name, c)
		}
	}
	return inList(schemes, string(name))
}

// schemes are the names of hashes, ciphers, key types and encodings that
// hold a digit, and of a password manager (1Password), lower case without
// '-' or '_' (inList).
const schemes = " 1password aes128 aes128gcm aes192 aes256 aes256cbc aes256gcm argon2 argon2d argon2i argon2id " +
	" ascii85 base16 base32 base58 base64 base64url bcrypt2a bcrypt2b bcrypt2y blake2b blake2s " +
	" blake3 chacha20 chacha20poly1305 cp1252 crc32 des3 dsa2048 ecdsap256 ed25519 ed448 " +
	" gb18030 hmacsha1 hmacsha256 hmacsha512 iso88591 koi8r latin1 md4 md5 md5crypt p256 p384 pbkdf2 " +
	" pkcs12 pkcs8 rsa1024 rsa2048 rsa3072 rsa4096 secp256k1 secp256r1 sha1 sha224 sha256 sha256crypt sha3 " +
	" sha3256 sha3512 sha384 sha512 sha512crypt twofish256 utf16 utf32 utf8 utf8mb3 utf8mb4 win1251 x25519 " +
	" xchacha20 "

// counted are what a number after "to" counts rather than being a password
// ("reset to 100000 iterations") (inList).
const counted = " attempts bits bytes characters chars days digits hours iterations letters minutes months " +
	" rounds seconds times tries weeks years "

// adverbs are -ly words of six letters or fewer that say how or how often
// (the longer ones are taken as adverbs as they are) (inList).
const adverbs = " barely daily duly fully hourly newly purely rarely safely simply solely surely truly " +
	" weekly widely yearly "

// purposes are verbs that say why a password was changed, after "to"
// ("changed to meet the policy"), and "part" ("changed as part of …")
// (inList).
const purposes = " address allow avoid be comply disable enable fit fix follow get improve include keep " +
	" make match meet part pass prevent reflect require rotate satisfy support use work "

// isParticiple: a word of letters in lower case that says what happened to
// a password, not what it is like: one of states, one ending in -ed, or a
// participle of predicates' ("reset", "sent"). After "password is" it is
// prose whatever follows ("was rotated yesterday", "is validated
// server-side"), where an adjective may begin a passphrase ("correct horse
// battery staple").
func isParticiple(w string) bool {
	switch w {
	case "given", "hidden", "kept", "known", "reset", "sent", "shown", "written":
		return true
	}
	return len(w) > 3 && strings.HasSuffix(w, "ed") || inList(states, w) // not "ed" itself
}

// nextWord: the first word of rest after blanks, in lower case and without
// the punctuation that closes a clause; "" when the line or the clause
// ends first (a line end, ",", ";", a quote).
func nextWord(rest string) string {
	next := rest[runEnd(rest, 0, isBlank):]
	return strings.ToLower(judged(next[:proseWordEnd(next, 0)]))
}

// labelProse: whether w, a label's bare value after ": " or " = ", and
// rest (what follows it on the line) are prose about the secret rather
// than the secret: a word of the predicate or state lists, or a function
// word, alone in its clause or before a function word ("Password:
// required", "password: optional for local runs", "token: none"). Only the
// lists, not the endings proseValue also reads: in a config file
// "password: testing" is a password.
func labelProse(w, rest string) bool {
	if w == "" {
		return false
	}
	lw := strings.ToLower(judged(w))
	if !isLetters(lw) {
		return false
	}
	nw := nextWord(rest)
	switch nw {
	case "to", "as", "into", "from":
		if becomes(rest, false) {
			return false // "password: changed to Hunter2x!"
		}
		fallthrough // "secret: mounted into the pod"
	case "at", "in", "on", "by", "via", "after", "before", "under", "with", "for":
		if strings.HasSuffix(lw, "ed") {
			return true // "secret: mounted at /run/secrets", not "passphrase: wicked and wild horse"
		}
	}
	if !inList(predicates, lw) && !inList(states, lw) && !isFunctionWord(lw) {
		return false
	}
	if strings.IndexByte(".!?;,:", w[len(w)-1]) >= 0 || hasAt(rest, runEnd(rest, 0, isBlank), "(") {
		return true // its clause ends with it, or a bracket does: "required (see docs/auth.md)"
	}
	// Alone in its clause, before a function word, or a word of the lists
	// before an adverb ("rotated quarterly", "stored securely in Vault"; a
	// short -ly word is as often a noun: "hidden lily pond").
	return nw == "" || isFunctionWord(nw) || strings.HasSuffix(nw, "ly") && (inList(states, lw) || len(nw) >= 7 || inList(adverbs, nw))
}

func isLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isLetter(w[i]) && w[i] != '-' && w[i] != '\'' {
			return false
		}
	}
	return w != ""
}

// isFunctionWord: a word after "password is" that begins a sentence about
// the password, never the password.
func isFunctionWord(w string) bool { return inList(functionWords, w) }

// isPredicate: a word after "password is" that says what it is like or what
// happens to it, a word of the list or one ending in -ed, -ing, -ly, -able,
// -ible, -ive, -al, -ful, -less, -ous, -ent or -ant ("case-sensitive": its
// last part). Alone or before another such word or a function word it is
// prose.
func isPredicate(w string) bool {
	if i := strings.LastIndexByte(w, '-'); i >= 0 {
		w = w[i+1:]
	}
	if inList(predicates, w) {
		return true
	}
	for _, suffix := range [...]string{"ed", "ing", "ly", "able", "ible", "ive", "al", "ful", "less", "ous", "ent", "ant"} {
		if strings.HasSuffix(w, suffix) {
			return true
		}
	}
	return false
}

// functionWords and predicates are word lists for inList.
const functionWords = " a about after again all also always an and any anything are as at be been before being " +
	" blank both but by can case could did does during each either empty enough every " +
	" everything false five for four from had has have her here his how if in into is it its " +
	" just less like may might more much must my neither never nil no none not nothing now " +
	" null of on once one only or our over same set should so some something still such ten " +
	" than that the their them then there these they this those three times to too true twice " +
	" two under unset very via was we were what whatever when where which who why will with " +
	" without would yes you your "

// predicates: see isPredicate.
const predicates = " already cleartext correct currently default easy fine given good hard hidden incorrect " +
	" insecure invalid kept known long longer mandatory new okay old optional plain plaintext random " +
	" read required reset right saved secure sent short shorter shown simple stored strict strong unique " +
	" unknown used usually valid visible weak written wrong "

// states: words ending in -ed or -ing that say what happened to a
// password or how it is kept ("my password is expired", "the admin
// password is salted", "token: expires after an hour"), or that are no
// value ("string"), see ownValue.
const states = " accepted accessed allowed applied asked assigned attached autofilled blocked blocking " +
	" cached changed changing checked cleared compromised configured copied corrupted " +
	" deactivated decoded decrypted defined deleted denied deprecated disabled disallowed " +
	" displayed duplicated echoed embedded enabled encoded encrypted encrypting enforced " +
	" entered escaped excluded existing expected expired expires expiring exported exposed " +
	" failing filtered forced forwarded generated granted handled hardcoded hashed hashing " +
	" ignored imported included incoming inherited injected invalidated issued leading leaked " +
	" limited loaded loading locked logged managed masked matched matching mismatched missing " +
	" needed normalized obfuscated obscured omitted outdated outgoing owned padded parsed " +
	" passed pending peppered pinned populated preferred prefilled printed processed " +
	" processing prompted prompting protected provided provisioned queued quoted randomized " +
	" reading received recommended recorded redacted refreshed rejected remaining remembered " +
	" removed renewed repeated replaced requested reserved resetting restricted retrieved " +
	" reused revoked rotated rotating salted sanitized saving scrambled secured selected " +
	" sending shared showing signed skipped specified storing stretched string stripped " +
	" submitted supplied supported suspended synced synchronized tested trailing transmitted " +
	" trimmed truncated trusted typed unchanged undefined unencrypted unhashed unmasked " +
	" unquoted unspecified unsupported unused updated updating uploaded validated verified " +
	" working wrapped "

// inList: w is one of list's words, each of which has a blank before and
// after it (a string costs the module far less than a slice of strings or
// a switch over a hundred of them).
func inList(list, w string) bool {
	if w == "" || strings.IndexByte(w, ' ') >= 0 {
		return false
	}
	for i := 0; ; {
		k := strings.Index(list[i:], w)
		if k < 0 {
			return false
		}
		if k += i; list[k-1] == ' ' && list[k+len(w)] == ' ' {
			return true
		}
		i = k + 1
	}
}
