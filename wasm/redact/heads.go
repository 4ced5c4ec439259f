package redact

import "strings"

// Heads is what heads a tail read alone from the text above it (h-v94 c3):
// the headings that are still open where the tail starts (under "##
// Passwords" an entry "grafana: Gr4fAdm1nPw" is a password; listed) and,
// when a table runs into the tail, its header and separator (tableCell).
// The tail is redacted after them, so an entry more than Window bytes below
// its heading is read as whole-text redaction reads it. above is the text
// before the tail, its lines ended by nl ("\n", or `\n` in a JSON string as
// it stands, whose lines text decodes). The work is bounded: the table and
// the list head end at the first line that is not theirs (the list head
// within maxListLines), a private key's lines at maxKey bytes, a heading of
// level 1 ends the search for headings, and so do 16 headings.
//
//	Heads("## Passwords\n- a: Pw1!x\n- b: P", "\n", nil) => "## Passwords\n"
func Heads(above, nl string, text func(string) string) string {
	if text == nil {
		text = func(s string) string { return s }
	}
	var lines []string
	// lineAt is the line of above that ends at end: where it starts.
	lineAt := func(end int) int {
		if i := strings.LastIndex(above[:end], nl); i >= 0 {
			return i + len(nl)
		}
		return 0
	}
	// A private key the tail starts in, its BEGIN line more than Window
	// above (a PGP key with subkeys is 10–20 KB: h-v97 b1): its lines back
	// to that line are the key's.
	for end := len(above); end > 0 && len(above)-end < maxKey; {
		ls := lineAt(end)
		line := strings.TrimSuffix(strings.TrimSuffix(above[ls:end], `\r`), "\r")
		if k := strings.Index(line, "BEGIN "); k >= 0 && strings.Contains(line, "----") {
			// "-----BEGIN … PRIVATE KEY-----", SSH2's "---- BEGIN SSH2
			// ENCRYPTED PRIVATE KEY ----", glued to text or indented.
			j := k
			for j > 0 && (line[j-1] == '-' || line[j-1] == ' ') {
				j--
			}
			if line = line[j:]; strings.Contains(line, "PRIVATE KEY") && len(line) <= maxHead {
				lines = append(lines, text(line))
			}
			break
		}
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "Private-Lines:") {
			lines = append(lines, text(strings.TrimLeft(line, " \t"))) // PuTTY's
			break
		}
		if !armorLine(line) || ls == 0 {
			break
		}
		end = ls - len(nl)
	}
	// The table the tail starts in: its rows up to above's end (the last
	// one cut by the tail, or ended), then its separator and header.
	for end, rows := len(above), 0; end > 0; rows++ {
		ls := lineAt(end)
		row := strings.TrimSuffix(strings.TrimSuffix(strings.TrimLeft(above[ls:end], " "), `\r`), "\r") // CRLF lines too (h-v98 b2)
		if rows == 0 && row == "" && ls > 0 {
			end = ls - len(nl) // the tail starts a line
			continue
		}
		if !strings.HasPrefix(row, "|") {
			break
		}
		if separatorRow(row) {
			if ls > 0 {
				hs := lineAt(ls - len(nl))
				lines = append(lines, row, text(above[hs:min(ls-len(nl), hs+maxHead)]))
			}
			break
		}
		if ls == 0 {
			break
		}
		end = ls - len(nl)
	}
	// The list head still open above the tail ("- Credentials:",
	// "**Passwords**", YAML's "secrets:"): the nearest one, unless a heading
	// or an unindented line that is no item comes between (it would have
	// ended the list; h-v96 b3). Lines are looked at as they stand and read
	// (text) only when one may be a head.
	for end, n := len(above), 0; end > 0 && n < maxListLines; n++ {
		ls := lineAt(end)
		raw := above[ls:end]
		t := strings.TrimRight(strings.TrimSuffix(strings.TrimRight(raw, " "), `\r`), " \r")
		if strings.HasSuffix(t, ":") || strings.Contains(t, "**") || strings.Contains(t, "__") {
			line := text(raw[:min(len(raw), maxHead)])
			body := strings.TrimLeft(line, " \t")
			if b := bulletEnd(body); b > 0 {
				body = body[b:]
			}
			if body = strings.TrimSpace(body); (strings.HasSuffix(body, ":") || boldLine(body)) && namesSecrets(strings.TrimSuffix(body, ":")) {
				lines = append(lines, line)
				break
			}
		}
		if n > 0 && raw != "" && (raw[0] == '#' || raw[0] != ' ' && raw[0] != '|' && raw[0] != '\t' && bulletEnd(raw) == 0 && !strings.HasPrefix(raw, `\t`)) {
			break
		}
		if ls == 0 {
			break
		}
		end = ls - len(nl)
	}
	// The headings still open: the last above the tail, then the last of
	// each higher level above it.
	level := 7
	for end, n := len(above), 0; end > 0 && level > 1 && n < 16; n++ {
		hs := strings.LastIndex(above[:end], nl+"#") + len(nl)
		if hs < len(nl) {
			if !strings.HasPrefix(above, "#") {
				break
			}
			hs = 0
		}
		he := strings.Index(above[hs:min(len(above), hs+maxHead)], nl)
		if he < 0 {
			he = min(len(above), hs+maxHead) - hs
		}
		line := text(above[hs : hs+he])
		if h := runEnd(line, 0, func(c byte) bool { return c == '#' }); h < level && h < len(line) && isBlank(line[h]) {
			level = h
			lines = append(lines, line)
		}
		end = max(hs-len(nl), 0)
	}
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	for i := len(lines) - 1; i >= 0; i-- {
		b.WriteString(lines[i])
		b.WriteByte('\n')
	}
	return b.String()
}

// maxHead bounds a heading or a table's header read for Heads; maxKey how
// far back it looks for a private key's BEGIN line.
const (
	maxHead = 1024
	maxKey  = 64 << 10
)

// maxListLines bounds how many lines above the tail Heads reads for the
// list head still open: a 20 MB paste of indented lines ending in ":" was
// read whole (h-v97 n1).
const maxListLines = 4096

// armorLine: line may be one of a private key's body in armor: base64 (a
// JSON string's escaped "/" too), an armor header ("Version: x"), blank;
// indented (YAML's "key: |"), quoted ("> "), commented ("# "), numbered
// (cat -n) or with blanks after it (h-v98 b3).
func armorLine(line string) bool {
	line = strings.TrimRight(line, " \t")
	for {
		t := strings.TrimLeft(line, " \t>#")
		if strings.HasPrefix(t, `\t`) {
			t = t[2:] // a JSON string's tab
		} else if d := strings.TrimLeft(t, "0123456789"); len(d) < len(t) && (strings.HasPrefix(d, "\t") || strings.HasPrefix(d, `\t`) || strings.HasPrefix(d, "  ")) {
			t = d // cat -n's number
		}
		if t == line {
			break
		}
		line = t
	}
	if k := strings.Index(line, ": "); k > 0 && k < 32 && isLetter(line[0]) {
		return true
	}
	for i := 0; i < len(line); i++ {
		if c := line[i]; !isAlnum(c) && c != '+' && c != '/' && c != '=' && c != '\\' {
			return false
		}
	}
	return true
}

// separatorRow: line is a Markdown table's separator ("|---|:--:|").
func separatorRow(line string) bool {
	return strings.Contains(line, "-") && strings.Trim(line, "|-: \t") == ""
}
