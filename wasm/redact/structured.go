package redact

import (
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Secrets that a file format names rather than an assignment: an XML
// element or a key/value attribute pair (Maven's settings.xml, .NET's
// appSettings), a Kubernetes env entry whose value is on the line below its
// name, a Dockerfile's or a shell's variable set with a blank, and a typed
// declaration (var dbPassword string = "…"). The name is one identifier
// that ends like a label (secretLabel), so <passwordPolicy> and
// name: DB_PASSWORD_FILE are not secrets.

// structuredValue keeps a format's value unless a command's would not be
// kept (commandValue: a reference, $(…), `…`), it is a word that says
// what the value is like rather than being it (labelProse:
// <password>required</password>, value: none) or it is code (a call:
// "password:\n  getPassword(),").
func structuredValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve, ws, we, ok := commandValue(s, m)
	if !ok || labelProse(s[vs:ve], "") || callText(s, vs, ve) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, ws, we, true
}

// callText: s[vs:ve] is code, a call or a bracket's: bare, it holds a
// bracket; quoted, a bracket inside the literal makes no call
// ('Ya1x(Kp6', 'a(b)c'), only a literal that is one ("getPassword()",
// "(none)").
func callText(s string, vs, ve int) bool {
	v := s[vs:ve]
	if vs == 0 || ve == len(s) || !isQuote(s[vs-1]) || s[ve] != s[vs-1] {
		return strings.ContainsAny(v, "()")
	}
	i := runEnd(v, 0, func(c byte) bool { return isIdent(c) || c == '.' || c == ':' || c == '$' })
	return strings.HasPrefix(v, "(") || i > 0 && hasAt(v, i, "(") && strings.HasSuffix(v, ")")
}

// literalNamesThing is namesThing for the quoted literal s[vs:ve], where a
// bracket makes no call unless the literal is one (callText): 'Sx5(aB)9kLm'.
func literalNamesThing(s string, vs, ve int) bool {
	v := s[vs:ve]
	if !callText(s, vs, ve) {
		v = strings.NewReplacer("(", "", ")", "").Replace(v)
	}
	return namesThing(v)
}

// fieldName: s starts with a struct's field name and its ':' (ValueFrom:).
func fieldName(s string) bool {
	k := runEnd(s, 0, isIdent)
	return k > 0 && isLetter(s[0]) && hasAt(s, k, ":")
}

// redisValue is structuredValue for Redis's directives, which a sentence
// names as a flag or an option ("the --requirepass flag is deprecated").
func redisValue(s string, m []int) (int, int, int, int, bool) {
	if s[m[0]] == '`' && m[1]-m[0] > 2 && s[m[1]-1] == '`' {
		// In code: `pre-shared-key PW` ends at its backtick.
		m = append([]int(nil), m...)
		m[1]--
		for g := 2; g+1 < len(m); g += 2 {
			if m[g+1] > m[1] {
				if m[g+1] = m[1]; m[g+1] <= m[g] {
					return 0, 0, 0, 0, false // `key-string ``
				}
			}
		}
	}
	vs, ve, ws, we, ok := structuredValue(s, m)
	switch strings.ToLower(s[vs:ve]) {
	case "flag", "option", "argument", "parameter", "setting", "directive", "clause":
		return 0, 0, 0, 0, false
	}
	// In a sentence (not a line of redis.conf, a flag or CONFIG SET), the
	// value must look chosen: "use requirepass and masterauth together",
	// "grep requirepass /etc/redis/redis.conf" are the sentence's words.
	if m[0] > 0 && s[m[0]-1] != '\n' && (text.HasFoldPrefix(s[m[0]:], "requirepass") || text.HasFoldPrefix(s[m[0]:], "masterauth") || text.HasFoldPrefix(s[m[0]:], "auth_pass")) &&
		(!chosenPassword(s[vs:ve]) || namesThing(s[vs:ve])) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, ws, we, ok
}

// lineValue is structuredValue for a format whose bare value is the rest
// of its line (YAML's plain scalar, ENV's old form): "value: tiger horse
// battery staple" is one passphrase, not its first word; a YAML comment
// (" #") after it is not part of it. At most maxLineValue bytes are read
// for it, cut at a blank (a line of a thousand such entries read its rest
// for each); a YAML tag (!Ref, !vault) or a template ({{ … }}) is no
// value; an entry joined onto one line gives the clause of its value, as a
// label does.
func lineValue(s string, m []int) (int, int, int, int, bool) {
	if vs, _ := firstGroup(m); vs < len(s) {
		if ds, de, ok := codeDefault(s, vs); ok {
			return ds, de, m[0], max(m[1], de), true // {{ .Values.pw | default "x" }}
		}
	}
	if m[6] < 0 {
		return structuredValue(s, m)
	}
	// nginx's directive ends at its ';': proxy_set_header X-Api-Key $var;
	_, directive := serverDirective(s, m[0])
	if k := strings.IndexByte(s[m[6]:m[7]], ';'); directive && k > 0 {
		m = append([]int(nil), m...)
		m[7] = m[6] + k
	}
	vs, ve, ws, we, ok := commandValue(s, m)
	v := s[vs:ve]
	if ok && s[vs-1] == ':' {
		// Glued to its colon it is no YAML but a struct's print, one word
		// to its field's end: EnvVar{Name:DB_PASSWORD,Value:x,ValueFrom:nil}
		// and Go's {Name:DB_PASSWORD Value:x ValueFrom:nil}; Value:, is none.
		// A ',' ends it before the next field's name or a closer, and the
		// closers that end the word are the struct's: "p@ss,w0rd]X9" is
		// one value.
		for k := 0; k < len(v); k++ {
			if r := v[k+1:]; v[k] == ',' && (r == "" || r[0] == '}' || r[0] == ']' || r[0] == ',' || fieldName(r)) {
				v, ve = v[:k], vs+k
				break
			}
		}
		for len(v) > 0 && (v[len(v)-1] == '}' && strings.Count(v, "{") < strings.Count(v, "}") || v[len(v)-1] == ']' && strings.Count(v, "[") < strings.Count(v, "]")) {
			v, ve = v[:len(v)-1], ve-1 // the struct's, not a reference's: Value:${PW}}
		}
		if v == "" || isReference(v) || strings.ContainsAny(v, "()") {
			return 0, 0, 0, 0, false
		}
		return vs, ve, ws, max(we, ve), true
	}
	if !ok || strings.ContainsAny(v, "()") || strings.HasPrefix(v, "{{") {
		return 0, 0, 0, 0, false
	}
	end := max(ve, min(len(s), vs+maxLineValue))
	if k := strings.IndexByte(s[ve:end], '\n'); k >= 0 {
		end = ve + k
	} else if end < len(s) && end > ve {
		// Cut at the cap: at the last blank before it, never in a word.
		end = max(ve, strings.LastIndexAny(s[:end+1], " \t"))
	}
	if k := strings.Index(s[vs:end], " #"); k >= 0 {
		end = vs + k
	}
	if directive {
		if k := strings.IndexByte(s[vs:end], ';'); k >= 0 {
			end = vs + k
		}
		if end <= vs {
			return 0, 0, 0, 0, false // the directive ends where its value would start: proxy_set_header ApiKey ; (fuzz: it cut the value before its start)
		}
		v, ve = s[vs:min(ve, end)], min(ve, end)
	}
	for end > ve && isSpace(s[end-1]) {
		end--
	}
	// A Kubernetes entry's "value:" that does not start its line is one
	// joined onto the line of its name, and of more after it.
	joined := false
	if p := runEndBack(s, vs, isBlank); p >= len("value:") && s[p-1] == ':' {
		q := runEndBack(s, p-len("value:"), isBlank)
		joined = q > 0 && s[q-1] != '\n'
	}
	if joined {
		// What follows is the rest of the line the entries were joined
		// onto: the value is its clause, as a label's is.
		if w := trimClause(v); len(w) < len(v) && w != "" {
			v, ve, end = w, vs+len(w), vs+len(w) // its clause ends with its word
		} else {
			end = max(ve, clauseEnd(s, vs, ve))
		}
	}
	if labelProse(v, s[ve:end]) {
		return 0, 0, 0, 0, false
	}
	return vs, end, ws, max(we, end), true
}

// maxLineValue is how much of its line a value of words is read to.
const maxLineValue = 256

// labelRun is the identifier at s[i:] ([A-Za-z0-9_.\-]*) and whether it
// ends like a label.
func labelRun(s string, i int) (end int, ok bool) {
	end = runEnd(s, i, isIdent)
	return end, end > i && secretLabel(s, i, end)
}

// closedValue reads (?:"([^"\n]{4,})"|'([^'\n]{4,})') at s[v:]: its group
// (0 or 1; -1 none), the value and the match's end.
func closedValue(s string, v int) (g, vs, ve, end int) {
	if v >= len(s) || !isQuote(s[v]) {
		return -1, 0, 0, 0
	}
	e, n := runes(s, v+1, func(c byte) bool { return c == s[v] || c == '\n' })
	if n < 4 || e == len(s) || s[e] != s[v] {
		return -1, 0, 0, 0
	}
	return boolInt(s[v] == '\''), v + 1, e, e + 1
}

// elementValue reads >(?:<!\[CDATA\[([^\n]{4,1000}?)\]\]>|([^<\n]{4,}))</ at
// s[k:]: the group that took part (0 CDATA, 1 text; -1 none), the value and
// the match's end. A CDATA section's value may hold ']' and '<'; it ends at
// the first "]]></" within 1,000 characters. *open is where a read of text
// that found no "</" stopped (a '<' of something else, a newline, the
// end): a read from before it stops there too, and fails at once, so a line
// of "key="password">x " reads its rest once, not once for each.
func elementValue(s string, k int, open *int) (g, vs, ve, end int) {
	if !hasAt(s, k, ">") {
		return -1, 0, 0, 0
	}
	if c := k + 1 + len("<![CDATA["); hasAt(s, k+1, "<![CDATA[") {
		for p, n := c, 0; p < len(s) && s[p] != '\n' && n <= 1000; p, n = p+runeLen(s, p), n+1 {
			if n >= 4 && hasAt(s, p, "]]></") {
				return 0, c, p, p + len("]]></")
			}
		}
	}
	if k+1 < *open {
		return -1, 0, 0, 0
	}
	e, n := runes(s, k+1, func(b byte) bool { return b == '<' || b == '\n' })
	if !hasAt(s, e, "</") {
		*open = e
		return -1, 0, 0, 0
	}
	if n < 4 {
		return -1, 0, 0, 0
	}
	return 1, k + 1, e, e + 2
}

// findXMLSecret, with ATTRS for (?:[ \t](?:[^<>"'/\n]|"[^"\n]*"|'[^'\n]*')*)?
// (attributes, a quoted value skipped whole):
// <(?:[A-Za-z_][A-Za-z0-9_.\-]*:)?[A-Za-z0-9_.\-]*LABEL ATTRS>VALUE</, VALUE
// elementValue's (a CDATA section or text), a namespace's prefix allowed
//
// or a property list's <key>LABEL</key>\s*<string>VALUE</ (an Apple .plist's
// pair, the key's element naming the string's)
//
//	<password>hunter2x</password>, <db.password>…, <apiKey>…, <password type="text">…, <wsse:Password>…
//	<key>API_SECRET</key>\n\t<string>…</string>
func findXMLSecret(s string, pos int) []int {
	open := 0
	for i := pos; ; i++ {
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			return nil
		}
		i += k
		if hasAt(s, i+1, "key>") {
			if e, ok := labelRun(s, i+5); ok && hasAt(s, e, "</key>") {
				if v := runEnd(s, e+len("</key>"), isSpace); hasAt(s, v, "<string") {
					if g, vs, ve, end := elementValue(s, v+len("<string"), &open); g >= 0 {
						return groupOf(i, end, 2, g, vs, ve)
					}
				}
			}
		}
		n := i + 1
		if r := runEnd(s, n, isIdent); r > n && r < len(s) && s[r] == ':' && (isLetter(s[n]) || s[n] == '_') {
			n = r + 1
		}
		if e, ok := labelRun(s, n); ok {
			if e < len(s) && isBlank(s[e]) {
				e = attrsEnd(s, e)
			}
			if g, vs, ve, end := elementValue(s, e, &open); g >= 0 {
				return groupOf(i, end, 2, g, vs, ve)
			}
		}
	}
}

// attrsEnd is the end of (?:[^<>"'/\n]|"[^"\n]*"|'[^'\n]*')* at s[e:]: a tag's
// attributes, each quoted value whole ('>' and '/' in it too).
func attrsEnd(s string, e int) int {
	for e < len(s) {
		switch c := s[e]; c {
		case '"', '\'':
			q := runEnd(s, e+1, func(b byte) bool { return b != c && b != '\n' })
			if q == len(s) || s[q] != c {
				return e
			}
			e = q + 1
		case '<', '>', '/', '\n':
			return e
		default:
			e++
		}
	}
	return e
}

// attrAt: s[i:] is the attribute w and its "=", blanks around it allowed:
// where its value starts, else -1.
func attrAt(s string, i int, w string) int {
	if !hasAt(s, i, w) {
		return -1
	}
	if j := runEnd(s, i+len(w), isBlank); hasAt(s, j, "=") {
		return runEnd(s, j+1, isBlank)
	}
	return -1
}

// attrName reads (?:"NAME"|'NAME') at s[q:], NAME a label: its end, else -1.
func attrName(s string, q int) int {
	if q < 0 || q >= len(s) || !isQuote(s[q]) {
		return -1
	}
	if e, ok := labelRun(s, q+1); ok && e < len(s) && s[e] == s[q] {
		return e + 1
	}
	return -1
}

// findAttrSecret, with EQ for [ \t]*=[ \t]* and VALUE for
// (?:"([^"\n]{4,})"|'([^'\n]{4,})'):
// \b(?:key|name|type|property)EQ(?:"NAME"|'NAME')(?:[ \t]+ATTR){0,16}?[ \t]+(?:value|content)EQVALUE|\b(?:value|content)EQVALUE[ \t]+(?:key|name|type|property)EQ(?:"NAME"|'NAME')|\bkeyEQ(?:"NAME"|'NAME')>ELEMENT</,
// NAME a label ([A-Za-z0-9_.\-]*LABEL), ATTR another attribute
// ([A-Za-z_:][A-Za-z0-9_:.\-]*EQ(?:"[^"\n]*"|'[^'\n]*'), up to 16 of them:
// each start reads no further), ELEMENT elementValue's. An element's name=
// with text (<string name="password">Password</string>, Android's and
// HTML's) names the element, not a secret.
//
//	<add key="DbPassword" value="hunter2x"/>, <add value="…" key="DbPassword"/>, <property name="password" value="…"/>, <entry key="password">hunter2x</entry>
//	<input type="password" name="pw" value="hunter2x">, <meta name="api-key" content="…">
func findAttrSecret(s string, pos int) []int {
	open := 0
	for i := pos; i < len(s); i++ {
		if !wordStart(s, i) {
			continue
		}
		if q := attrOf(s, i, "value", "content"); q >= 0 {
			if g, vs, ve, end := closedValue(s, q); g >= 0 {
				if e := attrName(s, attrOf(s, blanks(s, end), "key", "name", "type", "property")); e >= 0 {
					return groupOf(i, e, 6, 2+g, vs, ve)
				}
			}
			continue
		}
		q := attrAt(s, i, "key")
		key := q >= 0
		if !key {
			q = attrOf(s, i, "name", "type", "property") // Open Graph's <meta property=…>
		}
		e := attrName(s, q)
		if e < 0 {
			continue
		}
		for a, b := 0, blanks(s, e); a <= maxAttrs && b >= 0; a, b = a+1, blanks(s, attrEnd(s, b)) {
			v := attrOf(s, b, "value", "content")
			if v < 0 {
				continue
			}
			if g, vs, ve, end := closedValue(s, v); g >= 0 {
				return groupOf(i, end, 6, g, vs, ve)
			}
		}
		if key {
			if g, vs, ve, end := elementValue(s, e, &open); g >= 0 {
				return groupOf(i, end, 6, 4+g, vs, ve)
			}
		}
	}
	return nil
}

// attrOf is attrAt of the first of ws at s[i:] (i < 0 too: -1).
func attrOf(s string, i int, ws ...string) int {
	for _, w := range ws {
		if q := attrAt(s, i, w); q >= 0 {
			return q
		}
	}
	return -1
}

// maxAttrs is how many other attributes may stand between a secret's name
// and its value= (findAttrSecret).
const maxAttrs = 16

// attrEnd is the end of an attribute, [A-Za-z_:][A-Za-z0-9_:.\-]*EQ(?:"[^"\n]*"|'[^'\n]*'),
// at s[b:]; -1 for none.
func attrEnd(s string, b int) int {
	if b >= len(s) || !isLetter(s[b]) && s[b] != '_' && s[b] != ':' {
		return -1
	}
	n := runEnd(s, b+1, func(c byte) bool { return isWord(c) || c == ':' || c == '.' || c == '-' })
	q := runEnd(s, n, isBlank)
	if !hasAt(s, q, "=") {
		return -1
	}
	if q = runEnd(s, q+1, isBlank); q >= len(s) || !isQuote(s[q]) {
		return -1
	}
	if e := runEnd(s, q+1, func(c byte) bool { return c != s[q] && c != '\n' }); e < len(s) && s[e] == s[q] {
		return e + 1
	}
	return -1
}

// findEnvEntry: \b(?:[nN]ame|[kK]ey|ParameterKey)"?[ \t]*[:=][ \t]*(?:"NAME"|'NAME'|NAME)[ \t]*,?[ \t]*(?:\r?\n)?[ \t]*(?:(?:[vV]alue|ParameterValue)"?[ \t]*[:=][ \t]*(?:"((?:[^"\\\n]|\\[^\n])+)"|'((?:[^'\n]|'{2})+)'|(?:[>|][-+]?[ \t]*\r?\n +)?([^\s"']+))|"[vV]alue"[ \t]*:[ \t]*"((?:[^"\\\n]|\\[^\n])+)")
//
// A Kubernetes (or compose) env entry: the value on the line below its
// name, or beside it where a text's lines were joined (an earlier session's
// message, as search keeps it); in YAML or in JSON, as kubectl -o json and
// an ECS task definition print it (CloudFormation's Name and Value too, and
// Postman's key and value; its parameters, ParameterKey and
// ParameterValue, in JSON, YAML and the CLI's ParameterKey=K,ParameterValue=V;
// "=" for ":" as logfmt and the CLI write them). A
// JSON value is a string: "value":null is none. As in
//
//	env: [{"name": "DB_PASSWORD", "value": "hunter2x"}]
//	env:
//	  - name: DB_PASSWORD
//	    value: hunter2x
func findEnvEntry(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		k := i + len("name")
		switch {
		case hasAt(s, i, "ParameterKey"):
			k = i + len("ParameterKey") // CloudFormation's parameters (h-v100 b6)
		case s[i]|0x20 == 'k' && hasAt(s, i+1, "ey"):
			k = i + len("key") // Postman's environment: {"key": "apiKey", "value": …}
		case s[i]|0x20 != 'n' || !hasAt(s, i+1, "ame"):
			continue
		}
		if !wordStart(s, i) {
			continue
		}
		if hasAt(s, k, `"`) {
			k++
		}
		if k = runEnd(s, k, isBlank); !hasAt(s, k, ":") && !hasAt(s, k, "=") {
			continue
		}
		k = runEnd(s, k+1, isBlank)
		q := byte(0)
		if k < len(s) && isQuote(s[k]) {
			q, k = s[k], k+1
		}
		e, ok := labelRun(s, k)
		if !ok {
			continue
		}
		if q != 0 {
			if e >= len(s) || s[e] != q {
				continue
			}
			e++
		}
		e = runEnd(s, e, isBlank)
		if hasAt(s, e, ",") {
			e = runEnd(s, e+1, isBlank)
		}
		if hasAt(s, e, "\r\n") {
			e += 2
		} else if hasAt(s, e, "\n") {
			e++
		}
		v := runEnd(s, e, isBlank)
		json := hasAt(s, v, `"`)
		if json {
			v++
		}
		switch {
		case hasAt(s, v, "ParameterValue"):
			v += len("ParameterValue")
		case v < len(s) && s[v]|0x20 == 'v' && hasAt(s, v+1, "alue"):
			v += len("value")
		default:
			continue
		}
		if hasAt(s, v, `"`) {
			v++
		} else if json {
			continue
		}
		if v = runEnd(s, v, isBlank); !hasAt(s, v, ":") && !hasAt(s, v, "=") {
			continue
		}
		v = runEnd(s, v+1, isBlank)
		if hasAt(s, v, `"`) {
			// A JSON or YAML string, its escaped quotes in it: "p@ss\"word9".
			ve := v + 1
			for ve < len(s) && s[ve] != '"' && s[ve] != '\n' {
				ve += 1 + boolInt(s[ve] == '\\' && ve+1 < len(s) && s[ve+1] != '\n')
			}
			if ve > v+1 && ve < len(s) && s[ve] == '"' {
				return groupOf(i, ve+1, 4, 3*boolInt(json), v+1, ve)
			}
			continue
		}
		if json {
			continue
		}
		if hasAt(s, v, "'") {
			// YAML's doubled quote inside: 'p@ss''word9'; where none
			// closes after it, the quote before closes.
			k, close := v+1, -1
			for {
				for k < len(s) && s[k] != '\'' && s[k] != '\n' {
					k++
				}
				if k < len(s) && s[k] == '\'' && k > v+1 {
					close = k
				}
				if !hasAt(s, k, "''") {
					break
				}
				k += 2
			}
			if close > 0 {
				return groupOf(i, close+1, 4, 1, v+1, close)
			}
			continue
		}
		if k := blockStart(s, v); k > v {
			// A block scalar: the value is on the next line (value: >-).
			if b := nextIndented(s, k); b >= 0 {
				if e := runEnd(s, b, isBareShell); e > b {
					return groupOf(i, e, 4, 2, b, e)
				}
			}
		}
		if g, vs, ve, end := shellValue(s, v, 0); g >= 0 {
			return groupOf(i, end, 4, g, vs, ve)
		}
	}
	return nil
}

// blockStart is k after a YAML block scalar's indicator at s[k:]
// ([>|][-+]?[ \t]*), k when none is there.
func blockStart(s string, k int) int {
	if !hasAt(s, k, ">") && !hasAt(s, k, "|") {
		return k
	}
	if k++; hasAt(s, k, "-") || hasAt(s, k, "+") {
		k++
	}
	return runEnd(s, k, isBlank)
}

// nextIndented is where the next line's text starts when s[k:] is a line's
// end and the next line is indented with spaces (\r?\n +), else -1.
func nextIndented(s string, k int) int {
	if hasAt(s, k, "\r") {
		k++
	}
	if v := runEnd(s, k+1, func(c byte) bool { return c == ' ' }); hasAt(s, k, "\n") && v > k+1 {
		return v
	}
	return -1
}

// findFencedValue: NAME:(?:\*\*)?[ \t]*(?:BR(?:[ \t]*BR)?[ \t]*(?:```|~~~)[A-Za-z0-9_+\-]*[ \t]*BR[ \t]*(LINE)[ \t]*BR[ \t]*(?:```|~~~)|```[ \t]*(LINE)[ \t]*```)
// with LINE [^\s`\\](?:[^\n`\\]*[^\s`\\])? and BR a line break, \r?\n, or one
// a quoted string spells, \\r?\\n (lineBreak)
//
// A secret on the one line of a Markdown code block under its label, as
// a note or a chat shows it, or in three backticks beside it (a block's
// lines joined, as an earlier session's message keeps them):
//
//	**Password:**
//	```
//	Hunter2x!
//	```
func findFencedValue(s string, pos int) []int {
	return findLabel(s, pos, secretLabel, func(s string, start, at int) []int {
		if !hasAt(s, at, ":") {
			return nil
		}
		k := at + 1
		if hasAt(s, k, "**") {
			k += 2
		}
		if b := runEnd(s, k, isBlank); hasAt(s, b, "```") {
			vs := runEnd(s, b+3, isBlank)
			ve := fenceLine(s, vs)
			if e := runEnd(s, ve, isBlank); ve > vs && hasAt(s, e, "```") {
				return groupOf(start, e+3, 2, 1, vs, ve)
			}
			return nil
		}
		if k = lineBreak(s, runEnd(s, k, isBlank)); k < 0 {
			return nil
		}
		if b := lineBreak(s, runEnd(s, k, isBlank)); b >= 0 {
			k = b // a blank line before the block
		}
		f := runEnd(s, k, isBlank)
		if !fenceAt(s, f) {
			return nil
		}
		k = lineBreak(s, runEnd(s, runEnd(s, f+3, isFenceLang), isBlank))
		if k < 0 {
			return nil
		}
		vs := runEnd(s, k, isBlank)
		ve := fenceLine(s, vs)
		e := lineBreak(s, runEnd(s, ve, isBlank))
		if ve == vs || e < 0 || !fenceAt(s, runEnd(s, e, isBlank)) {
			return nil
		}
		return groupOf(start, runEnd(s, e, isBlank)+3, 2, 0, vs, ve)
	})
}

// fenceLine is the end of a code block's line starting at s[vs:], LINE of
// findFencedValue: up to a line break, a backtick or a backslash (a line
// break spelled \n), blanks at its end left out; vs for none.
// fenceAt: a code block's fence, ``` or ~~~, stands at s[i:].
func fenceAt(s string, i int) bool { return hasAt(s, i, "```") || hasAt(s, i, "~~~") }

func fenceLine(s string, vs int) int {
	ve := vs
	if ve < len(s) && isSpace(s[ve]) {
		return ve // [^\s`\\] first: a lone "\r" starts no value
	}
	for ve < len(s) && s[ve] != '\n' && s[ve] != '`' && s[ve] != '\\' {
		ve++
	}
	for ve > vs && isSpace(s[ve-1]) {
		ve--
	}
	return ve
}

// isFenceLang is [A-Za-z0-9_+\-], a code block's language after its fence.
func isFenceLang(c byte) bool { return isWord(c) || c == '+' || c == '-' }

// fencedValue keeps findFencedValue's line unless the block is code (a
// language other than text, plain or txt; a reference, "$(…)") or, for a
// line of more than one word, the label is the end of a sentence ("Run
// this to reset the password:" and a command below it) or a word of the
// line is a flag, a path or an assignment: such a line is a password only
// under a label of its own (a list's bullet, a heading's or a quote's
// marks, bold and two words before it: "**DB password:**", "- password:").
func fencedValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	lang, v := "", s[vs:ve]
	if m[2] >= 0 { // a block: its opening fence's language
		f := strings.IndexAny(s[m[0]:vs], "`~") + m[0] + 3
		lang = s[f:runEnd(s, f, isFenceLang)]
	}
	if lang != "" && !inList(" text plain plaintext txt ", strings.ToLower(lang)) || strings.Contains(v, "$(") {
		return 0, 0, 0, 0, false
	}
	if words := strings.Fields(v); len(words) > 1 {
		b := runEndBack(s, m[0], func(c byte) bool { return c != '\n' })
		pre := strings.Fields(strings.Trim(s[b:m[0]], " \t>-*#_"))
		if len(pre) > 2 {
			return 0, 0, 0, 0, false
		}
		for _, w := range words {
			if w[0] == '-' || strings.ContainsAny(w, "/=$") {
				return 0, 0, 0, 0, false
			}
		}
	}
	return commandValue(s, m)
}

// lineBreak is the end of a line break at s[k:], \r?\n or, as a quoted
// string spells it, \\r?\\n; -1 for none (k < 0 too).
func lineBreak(s string, k int) int {
	if k < 0 {
		return -1
	}
	if hasAt(s, k, "\\") {
		if hasAt(s, k, `\r`) {
			k += 2
		}
		if hasAt(s, k, `\n`) {
			return k + 2
		}
		return -1
	}
	if hasAt(s, k, "\r") {
		k++
	}
	if !hasAt(s, k, "\n") {
		return -1
	}
	return k + 1
}

// findEnvCommand: (?:(?:^|\n)[ \t]*ENV|\bsetx|\bsetenv|\bset[ \t]+-[A-Za-z]*x[A-Za-z]*|\b(?:proxy_set_header|grpc_set_header|add_header|fastcgi_param|uwsgi_param|SetEnv|php_value|php_admin_value|(?:Request)?Header(?:[ \t]+(?:always|onsuccess))?[ \t]+(?:set|add|append)|scgi_param))[ \t]+NAME[ \t]+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))|(?:^|[ \t\n{;])[A-Za-z0-9_.\-]+LABEL[ \t]+(?:"([^"\n]+)"|'([^'\n]+)')
//
// A variable set with a blank between its name and its value: a
// Dockerfile's ENV (its old form), Windows' setx, csh's setenv, fish's set -x,
// Apache's SetEnv, nginx's proxy_set_header, add_header and fastcgi_param
// (a header or a parameter and its value, which ends at its ";"); and a
// label of more than its keyword (storePassword, not password: prose reads
// that) and a quoted value after a blank, a line's start, "{" or ";", a
// call without parentheses (Gradle's signing block, Groovy's and Ruby's
// settings, csh's setenv), where a bare word would be a variable's name.
//
//	ENV DB_PASSWORD hunter2x, setx API_TOKEN abc123def, set -gx DB_PASSWORD hunter2x, storePassword 'hunter2x'
//	proxy_set_header X-Api-Key abc123def;
func findEnvCommand(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		n := -1
		if i == 0 || s[i] == '\n' {
			if j := runEnd(s, i+boolInt(s[i] == '\n'), isBlank); hasAt(s, j, "ENV") {
				n = j + len("ENV")
			}
		}
		switch {
		case n >= 0:
		case !isLetter(s[i]) || !wordStart(s, i):
		case hasAt(s, i, "setx"):
			n = i + len("setx")
		case hasAt(s, i, "setenv"):
			n = i + len("setenv") // csh's
		case s[i] != 's' || hasAt(s, i, "scgi_param"):
			n, _ = serverDirective(s, i)
		case hasAt(s, i, "set"):
			if f := runEnd(s, i+3, isBlank); f > i+3 && hasAt(s, f, "-") {
				if l := runEnd(s, f+1, isLetter); strings.IndexByte(s[f+1:l], 'x') >= 0 {
					n = l
				}
			}
		}
		if k := blanks(s, n); k >= 0 {
			if e, ok := labelRun(s, k); ok {
				if v := blanks(s, e); v >= 0 {
					if g, vs, ve, end := shellValue(s, v, 0); g >= 0 {
						return groupOf(i, end, 5, g, vs, ve)
					}
				}
			}
		}
		// A label and a quoted value: storePassword 'x', { keyPassword "x" }.
		k := i + 1
		if i == 0 && isIdent(s[0]) {
			k = 0
		} else if strings.IndexByte(" \t\n{;", s[i]) < 0 {
			continue
		}
		// The blanks after a label are walked only after one: at each
		// blank of a run, a walk to its end made a run of blanks cost its
		// square (h-v101 a1: 64 KiB of blanks after "monkey", 8 s).
		if e := runEnd(s, k, isIdent); e > k+1 && secretLabel(s, k+1, e) {
			if v := blanks(s, e); v >= 0 {
				if g, vs, ve, end := shellValue(s, v, 0); g == 0 || g == 1 {
					return groupOf(i, end, 5, 3+g, vs, ve)
				}
			}
		}
	}
	return nil
}

// serverDirective is the end of a web server's directive that sets a
// header, a parameter or a variable at s[i:], -1 for none, and whether it
// is nginx's, which ends at a ";": nginx's proxy_set_header,
// grpc_set_header, add_header, fastcgi_param, uwsgi_param, scgi_param;
// Apache's SetEnv, php_value,
// php_admin_value and Header or RequestHeader [always|onsuccess]
// set|add|append.
func serverDirective(s string, i int) (int, bool) {
	for _, d := range [...]string{"proxy_set_header", "grpc_set_header", "add_header", "fastcgi_param", "uwsgi_param", "scgi_param"} {
		if hasAt(s, i, d) {
			return i + len(d), true
		}
	}
	for _, d := range [...]string{"SetEnv", "php_value", "php_admin_value"} {
		if hasAt(s, i, d) {
			return i + len(d), false
		}
	}
	k := i
	if hasAt(s, k, "Request") {
		k += len("Request")
	}
	if !hasAt(s, k, "Header") {
		return -1, false
	}
	k += len("Header")
	if w := blanks(s, k); w >= 0 {
		for _, c := range [...]string{"always", "onsuccess"} {
			if e := headerAction(s, w+len(c)); hasAt(s, w, c) && e >= 0 {
				return e, false
			}
		}
	}
	return headerAction(s, k), false
}

// headerAction is the end of [ \t]+(?:set|add|append) at s[k:], -1 for
// none.
func headerAction(s string, k int) int {
	if k = blanks(s, k); k < 0 {
		return -1
	}
	for _, a := range [...]string{"set", "add", "append"} {
		if hasAt(s, k, a) {
			return k + len(a)
		}
	}
	return -1
}

// findQuotedPair: ["']NAME["'][ \t]*,[ \t]*(?:default[ \t]*=[ \t]*)?(?:"([^"\s]+)"|'([^'\s]+)')[ \t]*[),]
//
// A secret's name and a one-word literal after it among a call's arguments
// (a JSON object's next key is none); pairValue keeps it only for a call
// that reads a setting with its default or defines one
// (os.getenv("DB_PASSWORD", "x"), ENV.fetch('API_TOKEN', 'x'),
// getOrDefault("DB_PASSWORD","x"), config('DB_PASSWORD', default='x'),
// PHP's define('DB_PASSWORD', 'x', true)).
func findQuotedPair(s string, pos int) []int {
	return findLabel(s, pos, secretLabel, func(s string, start, at int) []int {
		if start-1 < pos || !isQuote(s[start-1]) || at == len(s) || !isQuote(s[at]) {
			return nil
		}
		c := runEnd(s, at+1, isBlank)
		if !hasAt(s, c, ",") {
			return nil
		}
		v := runEnd(s, c+1, isBlank)
		if hasAt(s, v, "default") {
			if d := runEnd(s, v+len("default"), isBlank); hasAt(s, d, "=") {
				v = runEnd(s, d+1, isBlank) // config('DB_PASSWORD', default='x')
			}
		}
		g, e := wordLiteral(s, v)
		if p := runEnd(s, e+1, isBlank); g >= 0 && (hasAt(s, p, ")") || hasAt(s, p, ",")) {
			return groupOf(start-1, p+1, 2, g, v+1, e)
		}
		return nil
	})
}

// findReadDefault: NAME(?:['"]?[)\]]*[ \t]*(?:\|\||\?\?|\?:|[ \t]or[ \t]|\|[ \t]*default[ \t])|['"]?[)\]]+\.unwrap_or\(|['"]?[)\]]+[ \t]*\{)[ \t]*(?:"([^"\s]+)"|'([^'\s]+)')
//
// A one-word literal given as the default of a read of a secret's name,
// with no label before it: process.env.DB_PASSWORD || "x",
// getenv("DB_PASSWORD") ?: "x", GetEnvironmentVariable("DB_PASSWORD") ?? "x",
// os.environ['DB_PASSWORD'] or 'x', env::var("DB_PASSWORD").unwrap_or("x"),
// {{ .Values.db.password | default "x" }}, ENV.fetch("DB_PASSWORD") { "x" }.
func findReadDefault(s string, pos int) []int {
	return findLabel(s, pos, secretLabel, func(s string, start, at int) []int {
		q0 := at
		if q0 < len(s) && isQuote(s[q0]) {
			q0++
		}
		c := runEnd(s, q0, func(b byte) bool { return b == ')' || b == ']' })
		b := runEnd(s, c, isBlank)
		k := -1
		switch {
		case hasAt(s, b, "||"), hasAt(s, b, "??"), hasAt(s, b, "?:"):
			k = b + 2
		case b > c && hasAt(s, b, "or") && b+2 < len(s) && isBlank(s[b+2]):
			k = b + 3
		case hasAt(s, b, "|"): // a template's pipe: {{ .Values.db.password | default "x" }}
			if d := runEnd(s, b+1, isBlank); hasAt(s, d, "default") && d+7 < len(s) && isBlank(s[d+7]) {
				k = d + 8
			}
		case b == c && c > q0 && hasAt(s, b, ".unwrap_or("): // after a closer: a name's run would go on
			k = b + len(".unwrap_or(")
		case c > q0 && hasAt(s, b, "{"): // Ruby's block: ENV.fetch("DB_PASSWORD") { "x" }
			k = b + 1
		}
		if k < 0 {
			return nil
		}
		v := runEnd(s, k, isBlank)
		if g, e := wordLiteral(s, v); g >= 0 {
			return groupOf(start, e+1, 2, g, v+1, e)
		}
		return nil
	})
}

// wordLiteral reads (?:"([^"\s]+)"|'([^'\s]+)') at s[v:]: its group (0
// double-quoted, 1 single; -1 none) and where its closing quote stands.
func wordLiteral(s string, v int) (g, e int) { return quotedLiteral(s, v, isSpace) }

// findLabelCall: NAME["'\]`*]{0,2}[ \t]*(?::=|=>|[?+]=|[:=]|%3[dD]|\\[uU]003[dD])[ \t]*([A-Za-z_$][A-Za-z0-9_.:$]{0,127}\()
//
// A label given a call's result ('password' => env('PW', 'x'),
// pw: config("db.pw", "x")): callDefault reads the default the call gives.
// The label's own pattern reads a call of six bytes or more as its bare
// value; this one reads the shorter too, and nothing but a default.
func findLabelCall(s string, pos int) []int {
	return findLabel(s, pos, secretLabel, func(s string, start, at int) []int {
		return assignment(s, at, func(v int) []int {
			if v == len(s) || !isLetter(s[v]) && s[v] != '_' && s[v] != '$' {
				return nil
			}
			// A name of 128 bytes at most: "password:password:…" is no call's, and read whole at each label took time quadratic in its length.
			e := runEnd(s[:min(len(s), v+128)], v, func(c byte) bool { return isIdent(c) && c != '-' || c == ':' || c == '$' })
			if !hasAt(s, e, "(") {
				return nil
			}
			return group1(start, e+1, v, e+1)
		})
	})
}

// callDefault is the literal default of findLabelCall's call, if it gives
// one (codeDefault).
func callDefault(s string, m []int) (int, int, int, int, bool) {
	ds, de, ok := codeDefault(s, m[2])
	return ds, de, m[0], max(de, m[1]), ok
}

// pairValue is structuredValue for findQuotedPair's literal, given to a
// call that reads a setting and takes its default next (readerName:
// getenv, fetch, get, getOrDefault, config, …) or to PHP's define; another
// call's second argument is a translation, a column's type or a rule
// (t('password', 'Passwort'), addColumn("password", "varchar"),
// field("password", "min:8")).
func pairValue(s string, m []int) (int, int, int, int, bool) {
	open := runEndBack(s, m[0], isBlank) - 1
	if open > 0 && s[open] == ',' {
		// getattr(settings, "DB_PASSWORD", "x"): past one argument, a name.
		open = runEndBack(s, runEndBack(s, runEndBack(s, open, isBlank), isIdent), isBlank) - 1
	}
	if open < 0 || s[open] != '(' {
		return 0, 0, 0, 0, false
	}
	name := strings.ReplaceAll(s[runEndBack(s, open, func(c byte) bool { return isIdent(c) || c == ':' }):open], "::", ".")
	if name == "" || name != "define" && !readerName(name, s[open:]) && !inList(settingWriters, name[strings.LastIndexByte(name, '.')+1:]) {
		return 0, 0, 0, 0, false
	}
	return structuredValue(s, m)
}

// settingWriters are the calls that set a header, a variable, a property
// or a map's entry by its name: the literal after a secret's name is its
// value (req.Header.Set("X-Api-Key", "x"), os.Setenv("DB_PASSWORD", "x"),
// props.setProperty("password", "x"), headers.put("Authorization", "x")).
const settingWriters = " Set Add set add append put Put store cookie setCookie set_cookie SetCookie setHeader SetHeader addHeader AddHeader setRequestHeader setRequestProperty addRequestProperty header setProperty SetProperty Setenv setenv putenv SetEnvironmentVariable "

// stringTypes are the string types a typed declaration names, in the
// expression's order.
var stringTypes = [...]string{"string", "String", "str", "&str", "&'static str", "Final[str]", "Optional[str]", "[]byte", "bytes", "SecretStr", "SecretString", "Final", "ClassVar[str]"}

// typedConversions are the calls a typed declaration may make its literal
// with: let db_password: String = String::from("x").
var typedConversions = [...]string{"[]byte", "bytes", "String::from", "String", "string", "SecretStr", "SecretString::new", "SecretString", "str"}

// findTypedSecret: [A-Za-z0-9_.\-]*LABEL(?:[ \t]*:[ \t]*|[ \t]+)(?:string|String|str|&str|&'static str|Final\[str\]|Optional\[str\]|\[\]byte|bytes|SecretStr|SecretString|Final|ClassVar\[str\])[ \t]*=[ \t]*(?:CONVERSION\()?(?:"([^"\n]{4,})"|'([^'\n]{4,})'),
// CONVERSION one of typedConversions
//
// A declaration that names the string type between a label and its value
// (Go, TypeScript, Kotlin, Python, Rust).
//
//	var dbPassword string = "hunter2x", password: str = 'hunter2x'
func findTypedSecret(s string, pos int) []int {
	return findLabel(s, pos, secretLabel, func(s string, start, at int) []int {
		t := runEnd(s, at, isBlank)
		if hasAt(s, t, ":") {
			t = runEnd(s, t+1, isBlank)
		} else if t == at {
			return nil
		}
		for _, typ := range stringTypes {
			if !hasAt(s, t, typ) {
				continue
			}
			if eq := runEnd(s, t+len(typ), isBlank); hasAt(s, eq, "=") {
				v := runEnd(s, eq+1, isBlank)
				for _, c := range typedConversions {
					if hasAt(s, v, c) && hasAt(s, v+len(c), "(") {
						if g, vs, ve, end := closedValue(s, v+len(c)+1); g >= 0 {
							return groupOf(start, end, 2, g, vs, ve)
						}
					}
				}
				if g, vs, ve, end := closedValue(s, v); g >= 0 {
					return groupOf(start, end, 2, g, vs, ve)
				}
			}
		}
		return nil
	})
}

// nextOperator is where what follows a label's operator at s[at:] starts,
// for a value on a line below: ":" and markup that closes around it
// ("**Password:**"), or prose's " is" or " was" (":" after it too) at the
// line's end ("its password is" and the value below: h-v98 b4); -1 for
// none. nextLineValue reads the value after prose strictly.
func nextOperator(s string, at int) int {
	at = labelClosers(s, at) // **Password**:, "password": (h-v99 b1)
	if hasAt(s, at, ":") {
		if hasAt(s, at+1, "**") || hasAt(s, at+1, "__") {
			return at + 3
		}
		return at + 1
	}
	if b := runEnd(s, at, isBlank); b > at && (proseWordIs(s, b, "is") || proseWordIs(s, b, "was")) {
		k := b + 2 + boolInt(s[b] == 'w')
		if hasAt(s, k, ":") {
			k++
		}
		return k
	}
	return -1
}

// nextLineValue is lineValue for findYAMLNext's value, which YAML indents
// deeper than the line of its key: a line indented no deeper is the next
// item of a list or a report, not a value (h-v78 B13: "- Staging needs a
// password:" above a hit's citation in search's report).
func nextLineValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	ks := lineStart(s, m[0])
	vl := lineStart(s, vs)
	if runEnd(s, vl, isBlank)-vl <= runEnd(s, ks, isBlank)-ks || !strings.Contains(s[m[0]:lineEnd(s, m[0])], ":") {
		// Not indented under its label: a line of its own that is one
		// word chosen as a password is, as a person writes a label and
		// its value ("The new admin password:" and the next line,
		// h-v97 b5); anything else is a key or prose of its own.
		if vl != runEnd(s, vl, isBlank) || m[2] >= 0 || m[4] >= 0 || strings.TrimRight(s[ve:lineEnd(s, ve)], " \t\r") != "" || !chosenPassword(s[vs:ve]) || isReference(s[vs:ve]) {
			return 0, 0, 0, 0, false
		}
		return vs, ve, m[0], ve, true
	}
	return lineValue(s, m)
}

// findYAMLNext: [A-Za-z0-9_.\-]*LABEL["'\]`*]{0,2}(?::(?:\*\*|__)?|[ \t]+(?:is|was):?)[ \t]*(?:[>|][-+]?[ \t]*)?\r?\n(?:[ \t]*\r?\n)? *(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'#\-](?:\S*[^\s:])?))(?:[ \t][^\n]*)?(?:\r?\n|$)
//
// A YAML value on the line below its key, indented, as a plain, quoted or
// block scalar (password: >-): the whole of that line, which is not a key
// of its own (type: string) nor a list; or not indented, one word alone
// that looks chosen (nextLineValue). YAML indents with spaces: a line
// indented with a tab is a Makefile's recipe ("token:\n\t./gen-token.sh").
//
//	password:
//	  hunter2x
func findYAMLNext(s string, pos int) []int {
	return findLabel(s, pos, secretLabel, func(s string, start, at int) []int {
		k := nextOperator(s, at)
		if k < 0 {
			return nil
		}
		k = blockStart(s, runEnd(s, k, isBlank))
		if hasAt(s, k, "\r") {
			k++
		}
		if !hasAt(s, k, "\n") {
			return nil
		}
		// One blank line between, as two message blocks join ("my
		// password is", "", "X": h-v98 b5).
		if b := runEnd(s, k+1, isBlank); hasAt(s, b, "\n") {
			k = b
		} else if hasAt(s, b, "\r\n") {
			k = b + 1
		}
		v := runEnd(s, k+1, func(c byte) bool { return c == ' ' }) // unindented too: nextLineValue weighs it
		if v == len(s) {
			return nil
		}
		g, vs, ve, end := -1, v, v, v
		if isQuote(s[v]) {
			g, vs, ve, end = shellValue(s, v, 0)
		} else if strings.IndexByte("#-", s[v]) < 0 && !isSpace(s[v]) {
			ve = runEnd(s, v, func(c byte) bool { return !isSpace(c) })
			for ve > v+1 && s[ve-1] == ':' {
				ve-- // (?:\S*[^\s:])? gives back the colons at its end
			}
			g, end = 2, ve
		}
		if g < 0 {
			return nil
		}
		// The rest of the line after a blank: more words, a comment.
		e := end
		switch {
		case e < len(s) && isBlank(s[e]):
			if k := strings.IndexByte(s[e:], '\n'); k >= 0 {
				e += k
			} else {
				e = len(s)
			}
		case hasAt(s, e, "\r\n"):
			e++
		}
		if e < len(s) && s[e] != '\n' {
			return nil
		}
		if e < len(s) {
			e++ // the line end is the match's
		}
		return groupOf(start, e, 3, g, vs, ve)
	})
}

// findTableCell: \|((?:[^|\n\\]|\\.)+), a cell of a row of a table: its text
// up to the next "|" that is not escaped ("\|") or its line's end.
func findTableCell(s string, pos int) []int {
	if pos == 0 {
		tableMemo.data = nil // a new text: the FindAll loop starts at 0
	}
	i := strings.IndexByte(s[pos:], '|')
	if i < 0 {
		return nil
	}
	for i += pos; ; {
		e := i + 1
		for e < len(s) && s[e] != '|' && s[e] != '\n' {
			if s[e] == '\\' {
				if e+1 == len(s) || s[e+1] == '\n' {
					break
				}
				e += runeLen(s, e+1)
			}
			e++
		}
		if e > i+1 {
			return group1(i, e, i+1, e)
		}
		if e == len(s) || s[e] != '|' {
			k := strings.IndexByte(s[e:], '|')
			if k < 0 {
				return nil
			}
			e += k
		}
		i = e
	}
}

// tableCell keeps a cell of a Markdown table's body whose column's header
// names a secret ("| user | password |", "| Service | API_KEY |") when it
// looks like a password or a token, without its blanks and backticks (not
// "same as staging", "`$DB_PASSWORD`", "—", "<ask ops>"). tableMemo keeps
// the table that the text's last cell was in (its rows are read once) and
// that cell's column (a row's cells come in order).
//
//	| user  | password   |
//	|-------|------------|
//	| admin | Tabl3Pass! |   => Tabl3Pass!
func tableCell(s string, m []int) (int, int, int, int, bool) {
	t := &tableMemo
	if t.data != unsafe.StringData(s) || t.n != len(s) || m[0] < t.start || m[0] >= t.end {
		t.readTable(s, lineStart(s, m[0]))
	}
	col, labelled := -1, false
	if m[0] == t.next {
		col, labelled = t.col+1, t.label
	} else if first := rowStart(s, lineStart(s, m[0])); s[first] == '|' {
		cells := s[min(first+1, m[0]):m[0]]
		col = strings.Count(cells, "|") - strings.Count(cells, "\\|") // after an empty cell
	} else if t.bare && m[0] >= t.body {
		cells := s[first:m[0]]
		col = 1 + strings.Count(cells, "|") - strings.Count(cells, "\\|") // its first cell is before its first "|"
	}
	// A table without outer pipes: its row's first cell, left of the "|"
	// the first cell read follows (h-v101 b3): it names the cells after it
	// (| DB_PASSWORD | x | without its pipes), and is read itself under a
	// header that names a secret, when the cell after it is not.
	c0s, c0e, bareName := 0, 0, false
	if first := rowStart(s, lineStart(s, m[0])); t.bare && col == 1 && m[0] != t.next && s[first] != '|' {
		c0s, c0e = first, m[0]
		for c0s < c0e && (isBlank(s[c0s]) || s[c0s] == '`' || s[c0s] == '*') {
			c0s++
		}
		for c0e > c0s && (isBlank(s[c0e-1]) || s[c0e-1] == '`' || s[c0e-1] == '*' || s[c0e-1] == ':') {
			c0e--
		}
		w0 := s[c0s:c0e]
		bareName = w0 != "" && secretLabel(strings.ReplaceAll(w0, " ", "_"), 0, len(w0))
		labelled = bareName
	}
	first := func() (int, int, int, int, bool) {
		if w0 := s[c0s:c0e]; c0e > c0s && len(t.cols) > 0 && t.cols[0]&secretColumn != 0 && !strings.ContainsAny(w0, " <") &&
			(looksLikePassword(w0) && !namesThing(w0) || looksLikeToken(w0)) && !(t.cols[0]&namesColumn != 0 && secretName(w0)) {
			return c0s, c0e, c0s, m[1], true
		}
		return 0, 0, 0, 0, false
	}
	vs, ve := m[2], m[3]
	for vs < ve && (isBlank(s[vs]) || s[vs] == '`' || s[vs] == '*') {
		vs++
	}
	for ve > vs && (isBlank(s[ve-1]) || s[ve-1] == '`' || s[ve-1] == '*' || s[ve-1] == ':') {
		ve--
	}
	w := s[vs:ve]
	// A key/value table's row names its value in the cell before it, under
	// a header that says so: | Password | Tabl4Pass! | under | Setting |
	// Value | (not | DB_PASSWORD | k8s/db-secret | under | Env var |
	// Source |).
	// A row's name holds across its value columns: | DB_PASSWORD | dev | staging | prod |.
	named := m[0] == t.next && t.label || bareName // the cell before names a secret
	t.next, t.col, t.label = m[1], col, w != "" && secretLabel(strings.ReplaceAll(w, " ", "_"), 0, len(w)) || labelled && col >= 0 && col < len(t.cols) && t.cols[col]&valueColumn != 0
	w = strings.TrimRight(s[vs:m[3]], " \t`")
	if m[0] < t.body || col < 0 || col >= len(t.cols) || t.cols[col]&(secretColumn|valueColumn) == 0 || t.cols[col]&secretColumn == 0 && !labelled {
		// A row no header says this of (a table without one, or whose
		// header names other things): the cell after a secret's name,
		// when it looks chosen, or like a password of 8+ bytes without a
		// name's separators, or a token of 16+ letters and digits: |
		// DB_PASSWORD | hunter2xyz | (not | DB_PASSWORD | k8s/db-secret |,
		// | 1Password/CI |, | base64 |, | aes-256-gcm |, | required |).
		if !named || w == "" || strings.ContainsAny(w, " </") || namesThing(w) || secretName(w) ||
			!(chosenPassword(w) || len(w) >= 8 && looksLikePassword(w) && !strings.ContainsAny(w, "-._") || len(w) >= 16 && looksLikeToken(w) && isAlnumWord(w)) {
			return first()
		}
		return vs, vs + len(w), m[0], m[1], true
	}
	if !(looksLikePassword(w) && !namesThing(w) || looksLikeToken(w) || len(w) >= 6 && isNumber(w)) || strings.ContainsAny(w, " <") || t.cols[col]&namesColumn != 0 && secretName(w) {
		return first()
	}
	return vs, vs + len(w), m[0], m[1], true
}

// What a table's column header says of its cells.
const (
	secretColumn = 1 << iota // a secret: | password |, | API token |
	namesColumn              // a secret or a token, maybe by its name: | Secret |, | Token | (not | password |)
	valueColumn              // a row's value: | Value |, named by the cell before it
)

// isAlnumWord: w is only letters and digits.
func isAlnumWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isAlnum(w[i]) {
			return false
		}
	}
	return true
}

// secretName: w names a secret rather than being one, as a table of them
// lists it: short lowercase words joined by '-', '_' or '.' (deploy-key-v2,
// db-creds-v2, id_ed25519; not sk_abcdefghij0123456789, a token's part).
func secretName(w string) bool {
	if !strings.ContainsAny(w, "-_.") || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != "" {
		return false
	}
	for _, part := range strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		if len(part) >= 12 {
			return false
		}
	}
	return true
}

var tableMemo table

// table is the Markdown table a text's line at s[start:] is in: its rows
// s[start:end], its body from s[body:], which of its columns' headers name a
// secret; and the last cell read: its column and where the next cell's "|"
// is.
type table struct {
	data                *byte
	n, start, body, end int
	cols                []uint8 // what each column header says (secretColumn…)
	col, next           int
	label               bool // the last cell read names a secret
	// bare: its rows have no "|" before their first cell (psql's, GFM's
	// without outer pipes: " 1 | admin | x"); a row's first cell is
	// then column 0 and the cell after its first "|" column 1.
	bare bool
}

// readTable reads the table whose row is the line at s[ls:], or the line
// alone when it is not a table's first row.
func (t *table) readTable(s string, ls int) {
	t.data, t.n, t.start, t.body, t.cols, t.next = unsafe.StringData(s), len(s), ls, len(s), t.cols[:0], -1
	le := lineEndAt(s, ls)
	t.end = min(len(s), le+1)
	ne := lineEndAt(s, t.end)
	// Its header, then a line of dashes: "|---|---|", "--- | ---" (GFM
	// without outer pipes), "----+----" (psql's), "+----+----+" (mysql's,
	// its header boxed too).
	sep := s[t.end:ne]
	if le == len(s) || strings.Trim(sep, "|-:+ \t\r>") != "" || !strings.Contains(sep, "-") || !strings.ContainsAny(sep, "|+") {
		return
	}
	t.bare = !tableRow(s[ls:le])
	if t.bare && (strings.IndexByte(s[ls:le], '|') < 0 || strings.Count(sep, "|")+strings.Count(sep, "+") != strings.Count(s[ls:le], "|")) {
		return // a line of prose above a rule: its pipes are not a table's
	}
	header := strings.TrimSpace(s[rowStart(s, ls):le])
	if !t.bare {
		header = strings.Trim(header, "|")
	}
	for _, cell := range strings.Split(header, "|") {
		name := strings.ReplaceAll(strings.Trim(cell, " \t*`_"), " ", "_")
		var c uint8
		if name != "" && secretLabel(name, 0, len(name)) {
			c = secretColumn
			if lw := strings.ToLower(name); !strings.Contains(lw, "pass") && !strings.Contains(lw, "pw") {
				c |= namesColumn
			}
		}
		lw := strings.ToLower(name)
		if first, _, _ := strings.Cut(strings.Trim(strings.Map(func(r rune) rune {
			if r == '(' || r == '-' || r == '/' {
				return '_'
			}
			return r
		}, lw), "_"), "_"); strings.Contains(lw, "value") || strings.Contains(lw, "default") || strings.Contains(lw, "example") ||
			inList(" val sample setting current dev development prod production staging stage test qa uat local ci docker sandbox preview integration demo ", first) {
			c |= valueColumn // | Value |, | Default |, | Local value |, an environment's: | Dev | Prod (EU) | CI |
		}
		t.cols = append(t.cols, c)
	}
	t.body = min(len(s), ne+1)
	for t.end = t.body; t.end < len(s) && t.row(s[t.end:lineEndAt(s, t.end)]); {
		t.end = min(len(s), lineEndAt(s, t.end)+1)
	}
}

// row: line is a row of the table: it starts with "|", or holds one in a
// table without outer pipes.
func (t *table) row(line string) bool {
	return tableRow(line) || t.bare && strings.IndexByte(line, '|') >= 0
}

// lineStart is where the line holding s[i] starts; i itself when that is
// more than 8 KiB before it (a line that long is read in pieces, as
// lineEndAt ends it).
func lineStart(s string, i int) int {
	lo := max(0, i-8<<10)
	if k := strings.LastIndexByte(s[lo:i], '\n'); k >= 0 || lo == 0 {
		return lo + k + 1
	}
	return i
}

// tableRow: line is a row of a Markdown table (it starts with "|" after its
// indentation, in a quote too).
func tableRow(line string) bool {
	t := line[rowStart(line, 0):]
	return len(t) > 1 && t[0] == '|'
}

// rowStart is where a row that starts at s[i:] has its first "|": past its
// indentation and a quote's "> ".
func rowStart(s string, i int) int {
	return runEnd(s, i, func(c byte) bool { return isBlank(c) || c == '>' })
}

// findTFVariable: \bvariable[ \t]+"([A-Za-z0-9_\-]+)"[ \t]*\{[^}]*?\bdefault[ \t]*=[ \t]*"([^"\n]+)"
//
// A Terraform variable's default, in its block after its name (variable
// "db_password" { default = "x" }, on one line or on the block's lines);
// tfDefault keeps it when the name is a secret's. A block's search ends at
// its first "}": a variable that starts before where the last search ended
// ends at the same "}" with no default either, so the search stays linear.
func findTFVariable(s string, pos int) []int {
	none := -1
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "variable")
		if k < 0 {
			return nil
		}
		i += k
		if !wordStart(s, i) || i < none {
			continue
		}
		q := blanks(s, i+8)
		if !hasAt(s, q, `"`) {
			continue
		}
		ne := runEnd(s, q+1, func(c byte) bool { return isToken(c) })
		if ne == q+1 || !hasAt(s, ne, `"`) {
			continue
		}
		b := runEnd(s, ne+1, isBlank)
		if !hasAt(s, b, "{") {
			continue
		}
		end := strings.IndexByte(s[b+1:], '}')
		if end < 0 {
			end = len(s)
		} else {
			end += b + 1
		}
		for d := b + 1; d < end; d++ {
			if !hasAt(s, d, "default") || !wordStart(s, d) {
				continue
			}
			e := runEnd(s, d+7, isBlank)
			if !hasAt(s, e, "=") {
				continue
			}
			v := runEnd(s, e+1, isBlank)
			if !hasAt(s, v, `"`) {
				continue
			}
			ve := runEnd(s, v+1, func(c byte) bool { return c != '"' && c != '\n' })
			if ve > v+1 && hasAt(s, ve, `"`) {
				m := groupOf(i, ve+1, 2, 0, q+1, ne)
				m[4], m[5] = v+1, ve
				return m
			}
		}
		none = end
	}
}

// tfDefault keeps a Terraform variable's default when its name is a
// secret's (db_password, api_token) and the default is a value, not a
// reference or an interpolation ("${var.x}").
func tfDefault(s string, m []int) (int, int, int, int, bool) {
	vs, ve := m[4], m[5]
	if v := s[vs:ve]; !secretLabel(s, m[2], m[3]) || isReference(v) || strings.Contains(v, "${") || labelProse(v, "") {
		return 0, 0, 0, 0, false
	}
	return vs, ve, m[0], m[1], true
}

// findBasicAuth: (?:\bauth[ \t]*=[ \t]*[(\[]|[Bb]asic_?[Aa]uth\()[ \t]*(?:"[^"\n]*"|'[^'\n]*')[ \t]*,[ \t]*(?:"([^"\n]+)"|'([^'\n]+)')
//
// A user and a password given as basic auth, the password second:
// requests' auth=("ada", "x"), HTTPBasicAuth("ada", "x"), aiohttp's
// BasicAuth("ada", "x"), Go's req.SetBasicAuth("ada", "x"), Rust's
// .basic_auth("ada", Some("x")) is not (a call, not a literal).
func findBasicAuth(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		k := -1
		switch c := s[i]; {
		case c == 'a' && wordStart(s, i) && hasAt(s, i, "auth"):
			if e := runEnd(s, i+4, isBlank); hasAt(s, e, "=") {
				if b := runEnd(s, e+1, isBlank); b < len(s) && (s[b] == '(' || s[b] == '[') {
					k = b + 1
				}
			}
		case c == 'B' || c == 'b':
			if hasAt(s, i+1, "asic") {
				a := i + 5
				if hasAt(s, a, "_") {
					a++
				}
				if a < len(s) && (s[a] == 'A' || s[a] == 'a') && hasAt(s, a+1, "uth(") {
					k = a + 5
				}
			}
		}
		if k < 0 {
			continue
		}
		u := runEnd(s, k, isBlank)
		if u == len(s) || !isQuote(s[u]) {
			continue
		}
		ue := runEnd(s, u+1, func(c byte) bool { return c != s[u] && c != '\n' })
		if ue == len(s) || s[ue] != s[u] {
			continue
		}
		p := runEnd(s, ue+1, isBlank)
		if !hasAt(s, p, ",") {
			continue
		}
		v := runEnd(s, p+1, isBlank)
		if g, e := closedLiteral(s, v); g >= 0 {
			return groupOf(i, e+1, 2, g, v+1, e)
		}
	}
	return nil
}

// findLabelArg: NAME\([ \t]*(?:"([^"\n]{4,})"|'([^'\n]{4,})'|`([^`\n]{4,})`)[ \t]*[),]
//
// A call named for a secret given a literal as its first argument:
// set_password("x"), setPassword('x'), a builder's .password("x"),
// withPassword(`x`); argValue keeps it for a password's setter only.
func findLabelArg(s string, pos int) []int {
	return findLabel(s, pos, secretLabel, func(s string, start, at int) []int {
		if !hasAt(s, at, "(") {
			return nil
		}
		v := runEnd(s, at+1, isBlank)
		if v == len(s) || s[v] != '"' && s[v] != '\'' && s[v] != '`' {
			return nil
		}
		q := s[v]
		e, n := runes(s, v+1, func(c byte) bool { return c == q || c == '\n' })
		if n < 4 || !hasAt(s, e, string(q)) {
			return nil
		}
		if c := runEnd(s, e+1, isBlank); c < len(s) && (s[c] == ')' || s[c] == ',') {
			return groupOf(start, c+1, 3, strings.IndexByte("\"'`", q), v+1, e)
		}
		return nil
	})
}

// argValue keeps findLabelArg's literal when the call sets a password: its
// name ends in a password word (not a token's or a key's, whose calls as
// often take a name: api_key("openai")) and does not read one (get, read,
// find, fetch, load, lookup, prompt, ask, require, has, is), and the
// literal is no name, path, reference or prompt (getPassword("db.main"),
// password("Enter it: ")).
func argValue(s string, m []int) (int, int, int, int, bool) {
	name := s[m[0] : m[0]+strings.IndexByte(s[m[0]:], '(')]
	name = name[strings.LastIndexByte(name, '.')+1:]
	if k := passwordPart(name); k == 0 && !isPasswordWord(name) || k > 0 && strings.EqualFold(name[k:], "pass") {
		return 0, 0, 0, 0, false
	}
	lower := strings.ToLower(name)
	for _, r := range [...]string{"get", "read", "find", "fetch", "load", "lookup", "prompt", "ask", "require", "has", "is"} {
		if n := len(r); strings.HasPrefix(lower, r) && (name[n] == '_' || name[n] >= 'A' && name[n] <= 'Z') {
			return 0, 0, 0, 0, false // a word of its own: get_password, getPassword; not hash_password
		}
	}
	vs, ve := firstGroup(m)
	v := s[vs:ve]
	if literalNamesThing(s, vs, ve) || secretName(v) || strings.ContainsAny(v, " \t") || strings.Contains(v, "${") {
		return 0, 0, 0, 0, false
	}
	return structuredValue(s, m)
}

// findCookie: (?:\b(?:SET-)?COOKIES?(?:[ \t]*[:=]|[ \t])[ \t]*["']?|[ \t]-b[ \t]+["']?|;)[ \t]*(?:[^\s;=]+=[^\n;]*;[ \t]*)*?N=([^\s;"',]{8,})
// | COOKIES?[A-Za-z0-9_.]*[ \t]*(?:[({\[]\s*){1,3}(?:["']?(?:NAME|KEY)["']?[ \t]*[:=][ \t]*)?(?:"N"|'N'|:N)\s*(?:,|\]\s*=)\s*(?:["']?VALUE["']?[ \t]*[:=][ \t]*)?(?:"([^"\n]{8,})"|'([^'\n]{8,})'),
// N a session's cookie name, [A-Za-z0-9_.\-]*(?:SESS|SESSION|SESSID|SESSIONID|SESSION_ID|SESSION-ID|SID|TOKEN|AUTH|JWT),
// words in any ASCII case.
//
// A session's cookie in a Cookie or Set-Cookie header, as a request or a
// response is pasted: Cookie: _ga=GA1.2.3; session=…, Set-Cookie:
// JSESSIONID=…; Path=/; given to curl (--cookie "sid=…", -b 'sid=…') or
// to a page (document.cookie = "session=…"); each one after a ";", so a
// header's second session cookie too (Cookie: JSESSIONID=…; _gh_sess=…);
// or set in code by its name and value (cookieCall).
func findCookie(s string, pos int) []int {
	r := cookieReads{chain: -1, seen: -1, name: [2]int{-1, -1}, value: [2]int{-1, -1}}
	for i := pos; i < len(s); i++ {
		if m := r.header(s, pos, i); m != nil {
			return m
		}
		if m := r.call(s, i); m != nil {
			return m
		}
	}
	return nil
}

// cookieReads is what findCookie has read in vain, so that it reads no run
// twice and stays linear: a run of bytes of one class that ended without
// what must follow it ends at the same byte, without it, read from anywhere
// inside it.
type cookieReads struct {
	chain int    // where the last run of pairs read in vain ended
	seen  int    // where the last name read by call ended
	name  [2]int // a pair's name [^\s;=]+ read in vain: where it began and ended (no "=")
	value [2]int // a pair's value [^\n;]* read in vain (no ";")
}

// header is findCookie's first expression at s[i:] (its match may start
// at "Set-" before i). A run of pairs read in vain is not read again: a
// read that reaches a pair after a ";" inside it stops there, as the
// earlier read went on from that pair and found nothing.
func (rd *cookieReads) header(s string, pos, i int) []int {
	start, p := i, -1
	switch {
	case s[i] == ';':
		if i < rd.chain {
			return nil
		}
		p = i + 1
	case s[i]|0x20 == 'c' && text.HasFoldPrefix(s[i:], "cookie") && wordStart(s, i):
		if i-4 >= pos && text.HasFoldPrefix(s[i-4:], "set-") && wordStart(s, i-4) {
			start = i - 4
		}
		j := i + 6
		if j < len(s) && s[j]|0x20 == 's' {
			j++
		}
		if p = runEnd(s, j, isBlank); hasAt(s, p, ":") || hasAt(s, p, "=") {
			p++
		} else if p == j {
			return nil
		}
		p = quoteAfter(s, runEnd(s, p, isBlank))
	case isBlank(s[i]) && hasAt(s, i+1, "-b") && i+3 < len(s) && isBlank(s[i+3]): // curl -b 'sid=…'
		p = quoteAfter(s, runEnd(s, i+3, isBlank))
	default:
		return nil
	}
	for p = runEnd(s, p, isBlank); p < len(s); {
		n := runEnd(s, p, func(c byte) bool { return isWord(c) || c == '.' || c == '-' })
		if hasAt(s, n, "=") && cookieName(s[p:n]) {
			if ve := runEnd(s, n+1, func(c byte) bool { return !isSpace(c) && !isQuote(c) && c != ';' && c != ',' }); ve-n-1 >= 8 {
				return groupOf(start, ve, 3, 0, n+1, ve)
			}
		}
		// Skip the pair: [^\s;=]+=[^\n;]*;[ \t]*
		if p >= rd.name[0] && p < rd.name[1] {
			break
		}
		q := runEnd(s, p, func(c byte) bool { return !isSpace(c) && c != ';' && c != '=' })
		if q == p || !hasAt(s, q, "=") {
			rd.name = [2]int{p, q}
			break
		}
		if q+1 >= rd.value[0] && q+1 <= rd.value[1] {
			break
		}
		r := runEnd(s, q+1, func(c byte) bool { return c != '\n' && c != ';' })
		if !hasAt(s, r, ";") {
			rd.value = [2]int{q + 1, r}
			break
		}
		if p = runEnd(s, r+1, isBlank); p <= rd.chain {
			break // read in vain before
		}
	}
	rd.chain = max(rd.chain, p)
	return nil
}

// quoteAfter is i past the quote at s[i], if one stands there.
func quoteAfter(s string, i int) int {
	if i < len(s) && isQuote(s[i]) {
		return i + 1
	}
	return i
}

// call is findCookie's second expression at s[i:]: a session's
// cookie set in code by its name and value, res.cookie('sid', '…'),
// setcookie('PHPSESSID', '…'), response.set_cookie(key="sessionid",
// value="…"), http.Cookie{Name: "session", Value: "…"} (over lines, as
// gofmt writes it), page.setCookie({name: 'session', value: '…'}). A run
// of name bytes read in vain is not read again from a "cookie" inside it.
func (rd *cookieReads) call(s string, i int) []int {
	if s[i]|0x20 != 'c' || i < rd.seen || !text.HasFoldPrefix(s[i:], "cookie") {
		return nil // inside the last name read: it ends where that one did
	}
	k := runEnd(s, i+6, func(c byte) bool { return isAlnum(c) || c == '_' || c == '.' })
	rd.seen = k
	o := runEnd(s, k, isBlank)
	n := 0
	for ; n < 3 && o < len(s) && strings.IndexByte("({[", s[o]) >= 0; n++ {
		o = runEnd(s, o+1, isSpace)
	}
	if n == 0 {
		return nil
	}
	return cookiePair(s, i, o)
}

// cookiePair reads call's name and value at s[o:], each with or
// without its key (name: 'sid', value: '…'), as the expression backtracks.
func cookiePair(s string, i, o int) []int {
	for _, v := range [2]int{keyed(s, o, "name", "key"), o} {
		if v < 0 {
			continue
		}
		ne := -1 // where the name ends, its quote too
		if g, e := quotedLiteral(s, v, func(c byte) bool { return !isWord(c) && c != '.' && c != '-' }); g >= 0 && cookieName(s[v+1:e]) {
			ne = e + 1
		} else if e := runEnd(s, v+1, func(c byte) bool { return isWord(c) || c == '.' || c == '-' }); hasAt(s, v, ":") && cookieName(s[v+1:e]) {
			ne = e // Ruby's symbol: cookies[:_session_id]
		}
		if ne < 0 {
			continue
		}
		c := runEnd(s, ne, isSpace)
		switch {
		case hasAt(s, c, ","):
			c++
		case hasAt(s, c, "]"): // an assignment: cookies["session_id"] = "…"
			if c = runEnd(s, c+1, isSpace); !hasAt(s, c, "=") {
				continue
			}
			c++
		default:
			continue
		}
		c = runEnd(s, c, isSpace)
		for _, w := range [2]int{keyed(s, c, "value"), c} {
			if w < 0 {
				continue
			}
			if g, e := closedLiteral(s, w); g >= 0 && e-w-1 >= 8 {
				return groupOf(i, e+1, 3, 1+g, w+1, e)
			}
		}
	}
	return nil
}

// keyed reads ["']?KEY["']?[ \t]*[:=][ \t]* at s[i:] for one of keys in any
// ASCII case: where what follows it starts, or -1.
func keyed(s string, i int, keys ...string) int {
	j := i
	if j < len(s) && isQuote(s[j]) {
		j++
	}
	for _, k := range keys {
		if text.HasFoldPrefix(s[j:], k) {
			e := j + len(k)
			if e < len(s) && isQuote(s[e]) {
				e++
			}
			if e = runEnd(s, e, isBlank); hasAt(s, e, ":") || hasAt(s, e, "=") {
				return runEnd(s, e+1, isBlank)
			}
		}
	}
	return -1
}

// cookieValue keeps a session's cookie that holds a digit, not a word
// that clears it (deleted, undefined, expired).
func cookieValue(s string, m []int) (int, int, int, int, bool) {
	if vs, ve := firstGroup(m); !strings.ContainsAny(s[vs:ve], "0123456789") {
		return 0, 0, 0, 0, false
	}
	return commandValue(s, m)
}

// cookieName: a cookie's name ends like a session's (findCookie).
func cookieName(n string) bool {
	for _, k := range [...]string{"sess", "session", "sessid", "sessionid", "session_id", "session-id", "sid", "token", "auth", "jwt"} {
		if len(n) >= len(k) && strings.EqualFold(n[len(n)-len(k):], k) {
			return true
		}
	}
	return false
}

// findUserSlashPassword: \b(?:CREDENTIALS|CREDENTIAL|CREDS|LOGIN|USER(?:NAME)?/PASS(?:WORD)?|U/P|ACCOUNT|AUTH)(?:\*\*)?(?:[ \t]*[:=]|[ \t]+(?:ARE|IS)[ \t])(?:\*\*)?[ \t]*(?:"[^"\n]*"|'[^'\n]*'|[^\s/,|"']+)[ \t]*[/,|][ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']{4,})),
// words in any ASCII case.
//
// A user and a password written as a pair after a label, as a note keeps
// them: "credentials: ada / Hunter2x!", "login: admin/S3cret!",
// "**Credentials:** "ada" / "Hunter2x!""; slashValue keeps the second when
// it looks like a password, not a path ("login: src/auth/login2.ts").
func findUserSlashPassword(s string, pos int) []int {
	dead := [2]int{-1, -1} // a bare user read in vain: where it began and ended
	for i := pos; i < len(s); i++ {
		if c := s[i] | 0x20; c != 'c' && c != 'l' && c != 'u' && c != 'a' || !wordStart(s, i) {
			continue
		}
		k := -1
		for _, w := range [...]string{"credentials", "credential", "creds", "login", "username/password", "username/pass", "user/password", "user/pass", "u/p", "account", "auth"} {
			if text.HasFoldPrefix(s[i:], w) {
				k = i + len(w)
				break
			}
		}
		if k < 0 {
			continue
		}
		if hasAt(s, k, "**") {
			k += 2
		}
		if b := runEnd(s, k, isBlank); hasAt(s, b, ":") || hasAt(s, b, "=") {
			k = b + 1
		} else if w := blanks(s, k); w >= 0 && (text.HasFoldPrefix(s[w:], "are") && w+3 < len(s) && isBlank(s[w+3]) || text.HasFoldPrefix(s[w:], "is") && w+2 < len(s) && isBlank(s[w+2])) {
			k = runEnd(s, w, isLetter) + 1 // "credentials are ada / …"
		} else {
			continue
		}
		if hasAt(s, k, "**") {
			k += 2
		}
		u := runEnd(s, k, isBlank)
		ue := u
		if u < len(s) && isQuote(s[u]) {
			if q := strings.IndexAny(s[u+1:], s[u:u+1]+"\n"); q >= 0 && s[u+1+q] == s[u] {
				ue = u + q + 2
			}
		} else {
			if u >= dead[0] && u < dead[1] {
				continue // it ends where that one did, and what follows is the same
			}
			ue = runEnd(s, u, func(c byte) bool { return !isSpace(c) && c != '/' && c != ',' && c != '|' && !isQuote(c) })
			dead = [2]int{u, ue}
		}
		if sl := runEnd(s, ue, isBlank); ue > u && sl < len(s) && (s[sl] == '/' || s[sl] == ',' || s[sl] == '|') {
			v := runEnd(s, sl+1, isBlank)
			if g, vs, ve, end := shellValue(s, v, 0); g >= 0 && (g < 2 || utf8.RuneCountInString(s[vs:ve]) >= 4) { // {4,} counts runes
				return groupOf(i, end, 3, g, vs, ve)
			}
		}
	}
	return nil
}

// slashValue keeps findUserSlashPassword's second word when it looks like
// a password, not a path or a file (login: pages/Login2.vue), nor code's
// next argument (BasicAuth(login="ada", password=…)).
func slashValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	if ve-vs > 2 && s[vs] == '`' && s[ve-1] == '`' {
		vs, ve = vs+1, ve-1 // Markdown's code: `ada` / `…`
	}
	v := s[vs:ve]
	ext := strings.LastIndexByte(v, '.')
	if !looksLikePassword(v) || strings.ContainsAny(v, "/=()`") || ext > 0 && ve-vs-ext <= 5 && isLetters(v[ext+1:]) || v[0] == '$' || isReference(v) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, m[0], m[1], true
}

// findPinOrCodes: \b(?:PIN(?:[ \t]+[Cc]ode)?|PUK|[Pp]in[ \t]+[Cc]ode)(?:[ \t]+(?:is|was)[ \t]+|[ \t]*[:=][ \t]*|[ \t]+)([0-9]{4,8})\b|\b(?:[Rr]ecovery|[Bb]ackup)[ \t]+(?:codes?|keys?)(?:[ \t]+(?:are|were)[ \t]+|[ \t]*[:=][ \t]*)(CODE(?:[ \t,]+CODE)*)
// with CODE [A-Za-z0-9]{4,}(?:-[A-Za-z0-9]{4,})*.
//
// A PIN ("the PIN is 482913", "PIN code: 0451"; a lowercase pin is a
// pin of a chip or a version) and a list of recovery or backup codes
// ("recovery codes: 8f3k-2j9d 7h2k-9d8s"): codesValue keeps the list when
// every code holds a digit.
func findPinOrCodes(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		if !isLetter(s[i]) || !wordStart(s, i) {
			continue
		}
		if k := pinLabel(s, i); k >= 0 {
			v := pinOrCodesSep(s, k, "is", "was")
			if v < 0 {
				v = blanks(s, k) // "PUK 12345678"
			}
			if v >= 0 {
				d := runEnd(s, v, func(c byte) bool { return c >= '0' && c <= '9' })
				if d-v >= 4 && d-v <= 8 && (d == len(s) || !isWord(s[d])) {
					return groupOf(i, d, 2, 0, v, d)
				}
			}
			continue
		}
		k := -1
		if hasAt(s, i, "Recovery") || hasAt(s, i, "recovery") {
			k = i + len("recovery")
		} else if hasAt(s, i, "Backup") || hasAt(s, i, "backup") {
			k = i + len("backup")
		}
		if k = blanks(s, k); k >= 0 && hasAt(s, k, "code") {
			k += len("code")
		} else if k >= 0 && hasAt(s, k, "key") {
			k += len("key") // a recovery key: BitLocker's, a password manager's
		} else {
			continue
		}
		if hasAt(s, k, "s") {
			k++
		}
		if v := pinOrCodesSep(s, k, "are", "were"); v >= 0 {
			if e := codeEnd(s, v); e > v {
				for {
					n := runEnd(s, e, func(c byte) bool { return isBlank(c) || c == ',' })
					ne := codeEnd(s, n)
					if n == e || ne == n {
						break
					}
					e = ne
				}
				return groupOf(i, e, 2, 1, v, e)
			}
		}
	}
	return nil
}

// pinLabel is the end of PIN(?:[ \t]+[Cc]ode)?|PUK|[Pp]in[ \t]+[Cc]ode at
// s[i:], -1 for none.
func pinLabel(s string, i int) int {
	if hasAt(s, i, "PUK") {
		return i + 3
	}
	if !hasAt(s, i, "PIN") && !hasAt(s, i, "Pin") && !hasAt(s, i, "pin") {
		return -1
	}
	if c := blanks(s, i+3); c >= 0 && (hasAt(s, c, "code") || hasAt(s, c, "Code")) {
		return c + 4
	}
	if hasAt(s, i, "PIN") {
		return i + 3
	}
	return -1
}

// pinOrCodesSep is where the value starts after (?:[ \t]+(?:V1|V2)[ \t]+|[ \t]*[:=][ \t]*)
// at s[k:], -1 for none.
func pinOrCodesSep(s string, k int, v1, v2 string) int {
	if b := blanks(s, k); b >= 0 {
		for _, v := range [...]string{v1, v2} {
			if e := blanks(s, b+len(v)); hasAt(s, b, v) && e >= 0 {
				return e
			}
		}
	}
	if c := runEnd(s, k, isBlank); hasAt(s, c, ":") || hasAt(s, c, "=") {
		return runEnd(s, c+1, isBlank)
	}
	return -1
}

// codeEnd is the end of a code, [A-Za-z0-9]{4,}(?:-[A-Za-z0-9]{4,})*, at
// s[v:]; v for none.
func codeEnd(s string, v int) int {
	e := runEnd(s, v, isAlnum)
	if e-v < 4 {
		return v
	}
	for hasAt(s, e, "-") {
		if n := runEnd(s, e+1, isAlnum); n-e-1 >= 4 {
			e = n
		} else {
			break
		}
	}
	return e
}

// codesValue keeps a PIN, and a list of codes when each holds a digit or
// is groups of capitals (ABCD-EFGH-IJKL), not words ("are stored").
func codesValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	for _, c := range strings.FieldsFunc(s[vs:ve], func(r rune) bool { return r == ' ' || r == '\t' || r == ',' }) {
		if !strings.ContainsAny(c, "0123456789") && (!strings.Contains(c, "-") || strings.ToUpper(c) != c) {
			return 0, 0, 0, 0, false
		}
	}
	return vs, ve, m[0], m[1], true
}

// findPositional: (?:\b(?:getConnection|PDO|mysqli_connect|mysql_connect|mysqli|FTP|FTP_TLS|hash_hmac|openssl_encrypt|openssl_decrypt)\(ARG,ARG,|\b(?:NetworkCredential|…|createHmac|createCipheriv|createDecipheriv|jwt\.(?:sign|encode|decode|verify)|JWT\.(?:encode|decode)|hmac\.New|HMAC\.(?:hexdigest|digest))\(ARG,|\.login\(ARG,|\b(?:Fernet|SecretKeySpec|…|(?:hmac|HMAC|AES|…)\.new|Algorithm\.HMAC256|…)\()[ \t]*BYTES?(?:"([^"\n]+)"|'([^'\n]+)')SUFFIX?[ \t]*(?:[,)]|$)
// (the names in full in the switch below and in expressions_test.go), with
// BYTES (?:key[ \t]*=[ \t]*)?(?:[bB]|\[\]byte\(|Encoding\.(?:UTF8|ASCII)\.GetBytes\(|Buffer\.from\(|Some\(), SUFFIX keySuffix's
// and ARG [ \t]*(?:"[^"\n]*"|'[^'\n]*'|\{[^{}\n]*\})[ \t]*|[^,()"'\n]*
//
// A password given by its place to a call that takes one there: JDBC's
// DriverManager.getConnection(url, "ada", "x"), PHP's new PDO($dsn, 'ada',
// 'x') and mysqli, Python's ftplib.FTP(host, user, "x") and
// smtp.login("ada", "x"), .NET's NetworkCredential("ada", "x"), LDAP's
// simple_bind_s(dn, "x"), pymysql.connect(host, user, "x"), Go's
// smtp.PlainAuth("", user, "x", host), reqwest's .basic_auth(user,
// Some("x")) and .bearer_auth("t"), .NET's AuthenticationHeaderValue("Bearer",
// "t"), Arduino's WiFi.begin(ssid, "x"), pika's PlainCredentials(user,
// "x"), ldap3.Connection(server, dn, "x"), PHP's ftp_login and ldap_bind,
// Azure's ClientSecretCredential(tenant, client, "x"), AWS's
// BasicAWSCredentials(id, "x"), Django's create_superuser(name, mail, "x");
// and a key given to a call that signs or
// encrypts with it: jwt.sign(payload, "k"), crypto.createHmac("sha256",
// "k"), createCipheriv(alg, "k", iv), Python's hmac.new(b"k", …),
// AES.new(b"k", …), Fernet(b"k"), Java's new SecretKeySpec("k".getBytes(),
// …).
func findPositional(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		n := -1
		var k int
		if s[i] == '.' && hasAt(s, i+1, "login(") {
			n, k = 1, i+len(".login(")
		} else if s[i] == '.' && hasAt(s, i+1, "basic_auth(") {
			n, k = 1, i+len(".basic_auth(") // reqwest's .basic_auth("ada", Some("x"))
		} else if s[i] == '.' && hasAt(s, i+1, "bearer_auth(") {
			n, k = 0, i+len(".bearer_auth(")
		} else if isLetter(s[i]) && wordStart(s, i) {
			e := runEnd(s, i, isWord)
			if hasAt(s, e, ".") { // a module's call: jwt.sign(, hmac.new(
				if me := runEnd(s, e+1, isWord); hasAt(s, me, "(") {
					switch s[i:me] {
					case "jwt.sign", "jwt.encode", "jwt.decode", "jwt.verify", "JWT.encode", "JWT.decode", "hmac.New", "HMAC.hexdigest", "HMAC.digest",
						"CryptoJS.HmacSHA256", "CryptoJS.HmacSHA512", "CryptoJS.HmacSHA1", "AES.encrypt", "AES.decrypt", "JWS.sign":
						n, e = 1, me
					case "hmac.new", "hmac.digest", "HMAC.new", "AES.new", "DES3.new", "Blowfish.new", "ChaCha20.new", "ChaCha20_Poly1305.new",
						"Algorithm.HMAC256", "Algorithm.HMAC384", "Algorithm.HMAC512", "algorithms.AES":
						n, e = 0, me
					case "pymysql.connect", "MySQLdb.connect", "smtp.PlainAuth":
						n, e = 2, me
					case "WiFi.begin", "pika.PlainCredentials", "Credentials.basic", "ldap3.Connection":
						n, e = 1, me
						if s[i:me] == "ldap3.Connection" {
							n = 2
						}
					}
				}
			} else if hasAt(s, e, "(") {
				switch s[i:e] {
				case "getConnection", "PDO", "mysqli_connect", "mysql_connect", "mysqli", "FTP", "FTP_TLS", "hash_hmac", "openssl_encrypt", "openssl_decrypt",
					"ftp_login", "ldap_bind", "ClientSecretCredential", "create_superuser":
					n = 2
				case "NetworkCredential", "AuthenticationHeaderValue", "BasicAWSCredentials", "PlainCredentials", "simple_bind_s", "bind_s", "UsernamePasswordCredentials", "PasswordAuthentication", "UsernamePasswordAuthenticationToken",
					"createHmac", "createCipheriv", "createDecipheriv":
					n = 1
				case "Fernet", "SecretKeySpec", "SignedString", "from_secret", "hmacShaKeyFor", "AESGCM", "AESCCM", "AESSIV", "ChaCha20Poly1305", "SymmetricSecurityKey",
					"HMACSHA1", "HMACSHA256", "HMACSHA384", "HMACSHA512":
					n = 0
				}
			}
			k = e + 1
			if n < 0 {
				i = e - 1
				continue
			}
		}
		if n < 0 {
			continue
		}
		for ; n > 0 && k >= 0; n-- {
			k = argEnd(s, k)
		}
		if k < 0 {
			continue
		}
		v := runEnd(s, k, isBlank)
		if hasAt(s, v, "key") { // a keyword argument: hmac.new(key=b"k", …)
			if q := runEnd(s, v+3, isBlank); hasAt(s, q, "=") {
				v = runEnd(s, q+1, isBlank)
			}
		}
		// What makes the literal bytes before it (Python's b"k", Go's
		// []byte("k"), C#'s and Node's), each tried in turn, then none.
		for _, p := range [...]string{"b", "B", "[]byte(", "Encoding.UTF8.GetBytes(", "Encoding.ASCII.GetBytes(", "Buffer.from(", "Some(", ""} {
			if !hasAt(s, v, p) {
				continue
			}
			if m := keyLiteral(s, i, v+len(p)); m != nil {
				return m
			}
		}
	}
	return nil
}

// keyLiteral reads a literal at s[v:], what makes it bytes after it, then
// a ',' or a ')' or the line's or the text's end (a tag, a cut line): the
// match from i, else nil.
func keyLiteral(s string, i, v int) []int {
	g, e := closedLiteral(s, v)
	if g < 0 {
		return nil
	}
	for _, c := range [...]int{keySuffix(s, e+1), e + 1} {
		if c < 0 {
			continue
		}
		// A line's end as the text's: the line is the literal's, as when
		// the text is read line by line (fuzz: "hmac.new(B\"k\"\n0").
		q := runEnd(s, c, isBlank)
		if hasAt(s, q, "\r\n") {
			return groupOf(i, q+2, 2, g, v+1, e)
		}
		if q == len(s) || s[q] == ',' || s[q] == ')' || s[q] == '\n' {
			return groupOf(i, min(q+1, len(s)), 2, g, v+1, e)
		}
	}
	return nil
}

// keySuffix is the end of what makes a key literal bytes at s[c:],
// \.getBytes\([A-Za-z0-9_.]*\)|\.as_(?:ref|bytes)\(\)|\.encode\((?:"[A-Za-z0-9_-]*"|'[A-Za-z0-9_-]*')?\)|\)
// (Java's "k".getBytes(UTF_8), Python's "k".encode(), the ")" of Go's
// []byte("k")); -1 for none.
func keySuffix(s string, c int) int {
	switch {
	case hasAt(s, c, ")"):
		return c + 1
	case hasAt(s, c, ".getBytes("):
		if p := runEnd(s, c+len(".getBytes("), func(c byte) bool { return isWord(c) || c == '.' }); hasAt(s, p, ")") {
			return p + 1
		}
	case hasAt(s, c, ".as_ref()"), hasAt(s, c, ".as_bytes()"):
		return c + strings.IndexByte(s[c:], ')') + 1 // Rust's "k".as_ref()
	case hasAt(s, c, ".encode("):
		p := c + len(".encode(")
		if p < len(s) && isQuote(s[p]) {
			if q := runEnd(s, p+1, func(c byte) bool { return isWord(c) || c == '-' }); hasAt(s, q, s[p:p+1]) {
				p = q + 1
			}
		}
		if hasAt(s, p, ")") {
			return p + 1
		}
	}
	return -1
}

// argEnd is where the argument at s[k:] and its ',' end (ARG, findPositional),
// -1 for none.
func argEnd(s string, k int) int {
	if q := runEnd(s, k, isBlank); q < len(s) && isQuote(s[q]) {
		e := runEnd(s, q+1, func(c byte) bool { return c != s[q] && c != '\n' })
		if e < len(s) && s[e] == s[q] {
			if c := runEnd(s, e+1, isBlank); hasAt(s, c, ",") {
				return c + 1
			}
		}
	} else if q < len(s) && s[q] == '{' { // an object literal: jwt.sign({ sub: "ada" }, "k")
		e := runEnd(s, q+1, func(c byte) bool { return c != '{' && c != '}' && c != '\n' })
		if hasAt(s, e, "}") {
			if c := runEnd(s, e+1, isBlank); hasAt(s, c, ",") {
				return c + 1
			}
		}
	}
	if e := runEnd(s, k, func(c byte) bool { return strings.IndexByte(",()\"'\n", c) < 0 }); hasAt(s, e, ",") {
		return e + 1
	}
	return -1
}

// closedLiteral reads (?:"([^"\n]+)"|'([^'\n]+)') at s[v:]: its group (0
// double-quoted, 1 single; -1 none) and where its closing quote stands.
func closedLiteral(s string, v int) (g, e int) {
	return quotedLiteral(s, v, func(c byte) bool { return c == '\n' })
}

// quotedLiteral reads a literal in double or single quotes at s[v:], of one
// byte or more, none of them its quote or one stop says ends it: its group
// (0 double-quoted, 1 single; -1 none) and where its closing quote stands.
func quotedLiteral(s string, v int, stop func(byte) bool) (g, e int) {
	if v == len(s) || !isQuote(s[v]) {
		return -1, v
	}
	q := s[v]
	e = runEnd(s, v+1, func(c byte) bool { return c != q && !stop(c) })
	if e == v+1 || e == len(s) || s[e] != q {
		return -1, v
	}
	return boolInt(q == '\''), e
}

// positionalValue is structuredValue for findPositional's literal, which is
// no name or path either (getConnection(url, "sa", "db.password")), and
// after .login( looks like a password.
func positionalValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	if v := s[vs:ve]; literalNamesThing(s, vs, ve) || secretName(v) || s[m[0]] == '.' && !looksLikePassword(v) {
		return 0, 0, 0, 0, false // any object's login(…) takes a password's shape: not login("Sign in", "Cancel")
	}
	return structuredValue(s, m)
}

// findDockerAuth: "auth"[ \t]*:[ \t]*"([A-Za-z0-9+/]{12,}={0,2})"|"(?:d|k|p|q|dp|dq|qi)"[ \t]*:[ \t]*"([A-Za-z0-9_\-]{32,})"
//
// Docker's config.json credential, "auth": base64 of user:password
// (dockerAuth keeps it when it is that); a JSON Web Key's private members
// ("d" of an RSA or EC key, its primes and exponents, "k" of a symmetric
// one), base64url.
func findDockerAuth(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.IndexByte(s[i:], '"')
		if k < 0 {
			return nil
		}
		i += k
		n, jwk := 0, false
		if hasAt(s, i, `"auth"`) {
			n = 6
		} else {
			for _, w := range [...]string{`"d"`, `"k"`, `"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"`} {
				if hasAt(s, i, w) {
					n, jwk = len(w), true
					break
				}
			}
		}
		if n == 0 {
			continue
		}
		c := runEnd(s, i+n, isBlank)
		if !hasAt(s, c, ":") {
			continue
		}
		v := runEnd(s, c+1, isBlank)
		if !hasAt(s, v, `"`) {
			continue
		}
		if jwk {
			if e := runEnd(s, v+1, func(c byte) bool { return isToken(c) }); e-v-1 >= 32 && hasAt(s, e, `"`) {
				return groupOf(i, e+1, 2, 1, v+1, e)
			}
			continue
		}
		e := runEnd(s, v+1, isBase64)
		if e-v-1 < 12 {
			continue
		}
		q := e
		for n := 0; n < 2 && hasAt(s, q, "="); n++ {
			q++
		}
		if hasAt(s, q, `"`) {
			return groupOf(i, q+1, 2, 0, v+1, q)
		}
	}
}

// dockerAuth keeps findDockerAuth's value when it is base64 of a user and
// a password: printable ASCII with a ':' in it; a key's member when it
// mixes upper and lower case and digits, as random bytes do.
func dockerAuth(s string, m []int) (int, int, int, int, bool) {
	if m[4] >= 0 {
		v := s[m[4]:m[5]]
		if !strings.ContainsAny(v, "0123456789") || !strings.ContainsAny(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || !strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz") {
			return 0, 0, 0, 0, false
		}
		return m[4], m[5], m[0], m[1], true
	}
	raw, ok := decodeBase64(s[m[2]:m[3]])
	if !ok || strings.IndexByte(raw, ':') <= 0 || strings.ContainsFunc(raw, func(r rune) bool { return r < ' ' || r > '~' }) {
		return 0, 0, 0, 0, false
	}
	return m[2], m[3], m[0], m[1], true
}

// decodeBase64 decodes standard base64, padded or not; ok false when s is
// not that (a few lines of its own: encoding/base64 is not linked into the
// module for this).
func decodeBase64(s string) (string, bool) {
	s = strings.TrimRight(s, "=")
	var out []byte
	var acc, n uint
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d byte
		switch {
		case c >= 'A' && c <= 'Z':
			d = c - 'A'
		case c >= 'a' && c <= 'z':
			d = c - 'a' + 26
		case c >= '0' && c <= '9':
			d = c - '0' + 52
		case c == '+':
			d = 62
		case c == '/':
			d = 63
		default:
			return "", false
		}
		acc, n = acc<<6|uint(d), n+6
		if n >= 8 {
			n -= 8
			out = append(out, byte(acc>>n))
			acc &= 1<<n - 1
		}
	}
	return string(out), len(s)%4 != 1
}
