package redact

import "strings"

// Passwords given to a command on its command line, as a person pastes the
// line into a note or a chat: mysql's -pPW glued to its flag, curl's
// -u user:PW, sshpass -p PW, docker login -p PW. The flag alone is not a
// secret (mysql -p prompts, curl -u user asks for the password, ssh -p 22 is
// a port, docker run -p 8080:80 publishes one), nor is a value that names
// where the password lives ($MYSQL_PWD, "$(cat pw.txt)").
//
// Each matcher finds CMD[^\n;|&]*?[ \t]FLAG VALUE: a flag anywhere on the
// rest of the command (up to a newline, ';', '|' or '&'), the first one whose
// value reads; the value is (?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+)), a
// quoted or a bare word (its group is the secret).

// findMySQLPassword: \b(?:mysql(?:dump|admin|import|show|check|sh)?|mariadb)\b[^\n;|&]*?[ \t]-p(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))
func findMySQLPassword(s string, pos int) []int {
	return findCommandFlag(s, pos, mysqlCommand, func(s string, j int) []int {
		if !hasAt(s, j, "-p") {
			return nil
		}
		return shellWord(s, j+2)
	})
}

// mysqlCommand is the end of a MySQL client's name at s[i] (a whole word),
// -1 when there is none.
func mysqlCommand(s string, i int) int {
	e := runEnd(s, i, isWord)
	switch s[i:e] {
	case "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlsh", "mariadb":
		return e
	}
	return -1
}

// findSSHPassPassword: \bsshpass\b[^\n;|&]*?[ \t]-p[ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))
func findSSHPassPassword(s string, pos int) []int {
	return findCommandFlag(s, pos, wordCommand("sshpass"), func(s string, j int) []int {
		if !hasAt(s, j, "-p") {
			return nil
		}
		return shellWord(s, runEnd(s, j+2, isBlank))
	})
}

// findCurlPassword: \bcurl\b[^\n;|&]*?[ \t](?:-u[ \t]*|--user[ \t]+)(?:"[^"\n:]*:([^"\n]+)"|'[^'\n:]*:([^'\n]+)'|[^\s:"']*:([^\s"']+))
//
// The password is what follows the first ':' of user:password.
func findCurlPassword(s string, pos int) []int {
	return findCommandFlag(s, pos, wordCommand("curl"), func(s string, j int) []int {
		v := -1
		switch {
		case hasAt(s, j, "-u"):
			v = runEnd(s, j+2, isBlank)
		case hasAt(s, j, "--user"):
			if v = runEnd(s, j+6, isBlank); v == j+6 {
				return nil
			}
		default:
			return nil
		}
		if v < len(s) && isQuote(s[v]) {
			q := s[v]
			colon := v + 1 + strings.IndexFunc(s[v+1:], func(r rune) bool { return r == ':' || r == rune(q) || r == '\n' })
			if colon <= v || s[colon] != ':' {
				return nil
			}
			e := colon + 1
			for e < len(s) && s[e] != q && s[e] != '\n' {
				e++
			}
			if e == colon+1 || e == len(s) || s[e] != q {
				return nil
			}
			g := []int{-1, e + 1, -1, -1, -1, -1, -1, -1}
			g[2+2*quoteGroup(q)], g[3+2*quoteGroup(q)] = colon+1, e
			return g
		}
		colon := runEnd(s, v, func(c byte) bool { return !isSpace(c) && c != ':' && !isQuote(c) })
		if !hasAt(s, colon, ":") {
			return nil
		}
		e := runEnd(s, colon+1, isBareShell)
		if e == colon+1 {
			return nil
		}
		return []int{-1, e, -1, -1, -1, -1, colon + 1, e}
	})
}

// findLoginPassword: \b(?:docker|podman|nerdctl|buildah|skopeo|oras)[ \t]+login\b[^\n;|&]*?[ \t](?:-p[ \t]*|--password(?:[ \t]+|=))(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))
func findLoginPassword(s string, pos int) []int {
	return findCommandFlag(s, pos, registryLogin, func(s string, j int) []int {
		switch {
		case hasAt(s, j, "-p"):
			return shellWord(s, runEnd(s, j+2, isBlank))
		case hasAt(s, j, "--password="):
			return shellWord(s, j+len("--password="))
		case hasAt(s, j, "--password"):
			if v := runEnd(s, j+len("--password"), isBlank); v > j+len("--password") {
				return shellWord(s, v)
			}
		}
		return nil
	})
}

// registryLogin is the end of "<tool> login" at s[i], where tool is a
// container tool that logs in to a registry, -1 when there is none.
func registryLogin(s string, i int) int {
	e := runEnd(s, i, isWord)
	switch s[i:e] {
	case "docker", "podman", "nerdctl", "buildah", "skopeo", "oras":
	default:
		return -1
	}
	l := runEnd(s, e, isBlank)
	if l == e || !hasAt(s, l, "login") || l+5 < len(s) && isWord(s[l+5]) {
		return -1
	}
	return l + 5
}

// wordCommand is a command's name as a whole word.
func wordCommand(name string) func(s string, i int) int {
	return func(s string, i int) int {
		if e := runEnd(s, i, isWord); s[i:e] == name {
			return e
		}
		return -1
	}
}

// findCommandFlag finds the leftmost command (cmd: its end at s[i], a word
// start, else -1) followed on its command line by a blank and a flag (flag:
// the match's end and groups at s[j], the byte after the blank, with -1 for
// its start; nil when there is none). The rest of the line after a command
// that has no flag holds no flag for a command later on it either, so the
// search goes on after it, which keeps it linear.
func findCommandFlag(s string, pos int, cmd func(s string, i int) int, flag func(s string, j int) []int) []int {
	for i := pos; i < len(s); i++ {
		if !isWord(s[i]) || !wordStart(s, i) {
			continue
		}
		e := cmd(s, i)
		if e < 0 {
			i = runEnd(s, i, isWord) - 1
			continue
		}
		for j := e; j < len(s) && strings.IndexByte("\n;|&", s[j]) < 0; j++ {
			if !isBlank(s[j]) {
				continue
			}
			if m := flag(s, j+1); m != nil {
				m[0] = i
				return m
			}
		}
		i = e - 1
		for i+1 < len(s) && strings.IndexByte("\n;|&", s[i+1]) < 0 {
			i++
		}
	}
	return nil
}

// shellWord reads (?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+)) at s[v:]: the
// match's end and its groups, with -1 for its start; nil when none.
func shellWord(s string, v int) []int {
	if v < len(s) && isQuote(s[v]) {
		q := s[v]
		e := v + 1
		for e < len(s) && s[e] != q && s[e] != '\n' {
			e++
		}
		if e == v+1 || e == len(s) || s[e] != q {
			return nil
		}
		g := []int{-1, e + 1, -1, -1, -1, -1, -1, -1}
		g[2+2*quoteGroup(q)], g[3+2*quoteGroup(q)] = v+1, e
		return g
	}
	e := runEnd(s, v, isBareShell)
	if e == v {
		return nil
	}
	return []int{-1, e, -1, -1, -1, -1, v, e}
}

// quoteGroup is the group of a value in quote q: 0 for ", 1 for '.
func quoteGroup(q byte) int {
	if q == '"' {
		return 0
	}
	return 1
}

// isBareShell is [^\s"'].
func isBareShell(c byte) bool { return !isSpace(c) && !isQuote(c) }

// shellValue keeps a command line's value unless it names where the
// password lives: a reference ($MYSQL_PWD, ${PW}, <password>) or a
// command's output ("$(cat pw.txt)", `pass show db`).
func shellValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	v := s[vs:ve]
	if isReference(v) || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "`") {
		return 0, 0, 0, 0, false
	}
	return vs, ve, m[0], m[1], true
}

// findTelegramToken: \b[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}\b
//
// A bot's id, then its secret: 35 characters that start with AA.
func findTelegramToken(s string, pos int) []int {
	for b := pos; ; {
		k := strings.Index(s[b:], ":AA")
		if k < 0 {
			return nil
		}
		k += b
		b = k + 1
		d := k
		for d > 0 && s[d-1] >= '0' && s[d-1] <= '9' {
			d--
		}
		if k-d < 8 || k-d > 10 || d < pos || !wordStart(s, d) {
			continue
		}
		if e := exactly(s, k+3, isToken, 33); e >= 0 && wordBoundary(s, e) {
			return whole(d, e)
		}
	}
}

// wordBoundary is \b at s[i].
func wordBoundary(s string, i int) bool {
	return (i > 0 && isWord(s[i-1])) != (i < len(s) && isWord(s[i]))
}
