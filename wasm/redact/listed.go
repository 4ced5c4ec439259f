package redact

import (
	"strings"
	"unicode"
)

// Secrets a heading or a list's head names (h-v93 c2, c3): under
// "## Passwords" or "- Credentials:" (YAML's "secrets:" too), an entry
// "grafana: Gr4fAdm1nPw" names whose secret it is and gives it, and under
// "## Grafana admin password" an entry that is one word is the password.
// No label of the entry's own says so, and each entry read alone (a
// search's page, the view's) has no heading: the text is read line by line
// with what heads it.
//
//	## Passwords              ## Passwords
//	- grafana: Gr4fAdm1nPw => - grafana: [REDACTED:secret]
//	- rotate: every 90 days   - rotate: every 90 days
//
// A value counts when it looks chosen (chosenPassword: letters in both
// cases, or a symbol, with a digit or symbol) and names no thing (a path, a
// reference, a call): "owner: @alice", "path: secret/data/app" and a
// sentence stay.

// listed adds to r what the heads of s's lines name as secrets.
func (r *run) listed(s string) {
	kind := secretPattern()
	active, heading, level, indent, headBullet := false, false, 0, 0, false
	fence := "" // the fence of the code block the line is in: a "#" there is a comment, no heading (h-v96 b2)
	for ls := 0; ls < len(s) && !r.done(); {
		le := strings.IndexByte(s[ls:], '\n')
		if le < 0 {
			le = len(s)
		} else {
			le += ls
		}
		line := strings.TrimSuffix(s[ls:le], "\r")
		at := ls
		ls = le + 1
		ind := runEnd(line, 0, isBlank)
		rest := line[ind:]
		if rest == "" {
			continue
		}
		if f := fenceOf(rest); f != "" && (fence == "" || strings.HasPrefix(f, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			continue
		}
		if h := runEnd(rest, 0, func(c byte) bool { return c == '#' }); fence == "" && h > 0 && h <= 6 && h < len(rest) && isBlank(rest[h]) {
			if !active || !heading || h <= level {
				active, heading, level = namesSecrets(rest[h:]), true, h
			}
			continue
		}
		b := bulletEnd(rest)
		if active && !heading && (ind < indent || ind == indent && (headBullet || b == 0)) {
			active = false // past the list its head heads ("Credentials:" heads a list beside it)
		}
		item := ind + b
		body := strings.TrimSpace(line[item:])
		if (strings.HasSuffix(body, ":") || boldLine(body)) && namesSecrets(strings.TrimSuffix(body, ":")) {
			if !active || !heading {
				active, heading, indent, headBullet = true, false, ind, b > 0
			}
			continue
		}
		if !active {
			continue
		}
		if vs, ve := listedValue(line, item); ve > vs {
			r.found = append(r.found, span{kind, at + vs, at + ve})
		}
	}
}

// fenceOf is the fence a line starts with ("```", "~~~~"), "" for none.
func fenceOf(line string) string {
	for _, c := range [...]byte{'`', '~'} {
		if n := runEnd(line, 0, func(b byte) bool { return b == c }); n >= 3 {
			return line[:n]
		}
	}
	return ""
}

// boldLine: body is a line set in bold, as a heading is ("**Passwords**",
// "__Credentials__:").
func boldLine(body string) bool {
	body = strings.TrimSuffix(body, ":")
	return len(body) > 4 && (strings.HasPrefix(body, "**") && strings.HasSuffix(body, "**") || strings.HasPrefix(body, "__") && strings.HasSuffix(body, "__"))
}

// bulletEnd is the end of a list item's marker and its blank at s[0:]
// ("- ", "* ", "+ ", "1. "), 0 for none.
func bulletEnd(s string) int {
	i := 0
	if len(s) > 1 && strings.IndexByte("-*+", s[0]) >= 0 {
		i = 1
	} else if d := runEnd(s, 0, func(c byte) bool { return c >= '0' && c <= '9' }); d > 0 && d < len(s) && (s[d] == '.' || s[d] == ')') {
		i = d + 1
	}
	if i == 0 || i >= len(s) || !isBlank(s[i]) {
		return 0
	}
	return runEnd(s, i, isBlank)
}

// listedValue is where the value of the entry at line[item:] is: after its
// name's ':' or '=' ("grafana: PW", "db = PW"), or the entry whole when it
// is one word; its quotes, backticks or emphasis left out. 0, 0 for none.
func listedValue(line string, item int) (int, int) {
	vs := item
	if k := strings.IndexAny(line[item:], ":="); k >= 0 {
		name := line[item : item+k]
		if k == 0 || len(name) > 40 || strings.Count(name, " ") > 3 || strings.HasPrefix(line[item+k:], "://") {
			return 0, 0
		}
		vs = runEnd(line, item+k+1, isBlank)
	}
	ve := len(line)
	for ve > vs && isSpace(line[ve-1]) {
		ve--
	}
	for ve-vs >= 2 && strings.IndexByte("`\"'*", line[vs]) >= 0 && line[ve-1] == line[vs] {
		vs, ve = vs+1, ve-1
	}
	// A note in parentheses after the value is not the value ("Gr4fAdm1nPw
	// (rotated monthly)": h-v95 b3).
	if k := strings.Index(line[vs:ve], " ("); k > 0 && line[ve-1] == ')' {
		ve = vs + k
	}
	v := line[vs:ve]
	if strings.ContainsAny(v, " \t`\"'") || !chosenPassword(v) || namesThing(v) {
		return 0, 0
	}
	return vs, ve
}

// namesSecrets: heading or label t ends with a word that names secrets
// (Passwords, Credentials, admin password, API keys; Passwörter, mots de
// passe), in any case, its emphasis, a closing "#" run and a note in
// parentheses left out; or it does before a qualifier ("Passwords for
// staging", "Credentials (prod)", "Passwords ##": h-v95 b3).
func namesSecrets(t string) bool {
	t = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t), "#"))
	// Punctuation and symbols after it ("Passwords.", "Credentials 🔐"),
	// then a note in parentheses or brackets ("(prod)", "[prod]") and a
	// year or a number ("Passwords 2024").
	t = strings.TrimRightFunc(t, func(r rune) bool {
		return r != ')' && r != ']' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	for _, p := range [...][2]byte{{'(', ')'}, {'[', ']'}} {
		if strings.HasSuffix(t, string(p[1])) {
			if k := strings.LastIndexByte(t, p[0]); k > 0 {
				t = strings.TrimSpace(t[:k])
			}
		}
	}
	if k := strings.LastIndexByte(t, ' '); k > 0 && strings.Trim(t[k+1:], "0123456789") == "" {
		t = strings.TrimSpace(t[:k])
	}
	t = strings.Trim(t, "*_`: ")
	if endsWithSecretWord(t) {
		return true
	}
	for _, q := range [...]string{" for ", " in ", " on ", " at ", " of ", " to ", " - ", " — ", " – ", " / ", " and ", " & ", ", ", " | "} {
		// In t itself, in any ASCII case: a lowered copy's offsets are not
		// t's where a letter's case changes its length.
		for k := 1; k+len(q) <= len(t); k++ {
			if strings.EqualFold(t[k:k+len(q)], q) {
				if endsWithSecretWord(t[:k]) {
					return true
				}
				break
			}
		}
	}
	return false
}

// endsWithSecretWord: t's last word names secrets (namesSecrets).
func endsWithSecretWord(t string) bool {
	t = strings.Trim(t, "*_`: ")
	k := strings.LastIndexAny(t, " \t/-") // DB-Passwords, Passwords/Tokens (h-v96 b5)
	last := strings.ToLower(t[k+1:])
	for _, w := range [...]string{"密码", "口令", "パスワード"} {
		for _, list := range [...]string{"", "表", "列表", "一覧", "リスト"} {
			if strings.HasSuffix(last, w+list) {
				return true // 数据库密码: a compound ends with its word; 密码表, its list
			}
		}
	}
	switch last {
	case "password", "passwords", "passwd", "passphrase", "passphrases", "pw", "pwd", "secret", "secrets", "credential", "credentials", "creds", "token", "tokens", "logins",
		"passwort", "passwörter", "kennwort", "kennwörter", "zugangsdaten", "contraseña", "contraseñas", "credenciales", "credenziali", "senha", "senhas", "пароль", "пароли",
		"wachtwoord", "wachtwoorden", "lösenord", "hasło", "hasła", "identifiants", "şifre", "şifreler":
		return true
	case "list", "lists", "store", "table", "vault", "sheet", "overview":
		// What holds them: "Password list", "Credential store"; one such
		// word, not a call per word of a line of them.
		return k > 0 && !holderWord(t[:k]) && endsWithSecretWord(t[:k])
	case "passe":
		return strings.HasSuffix(strings.ToLower(t), "de passe") // mot(s) de passe
	case "key", "keys":
		if k > 0 {
			before := strings.ToLower(strings.TrimSpace(t[:k]))
			before = before[strings.LastIndexAny(before, " \t")+1:]
			return before == "api" || before == "access" || before == "secret" || before == "private"
		}
	}
	return false
}

// holderWord: t's last word is one endsWithSecretWord reads past (list,
// store): "Password list list" is no heading of passwords.
func holderWord(t string) bool {
	t = strings.Trim(t, "*_`: ")
	return inList(" list lists store table vault sheet overview ", strings.ToLower(t[strings.LastIndexAny(t, " \t/-")+1:]))
}

// secretPattern is the index of the first pattern of kind "secret", the
// one listed secrets are named for.
func secretPattern() int {
	for i, p := range patterns {
		if p.kind == "secret" {
			return i
		}
	}
	return 0
}
