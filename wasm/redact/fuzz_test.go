package redact

import (
	"strings"
	"testing"
)

// FuzzString: on any text String never panics, is idempotent, changes exactly
// the bytes Find names, agrees with Contains, and the prefilter hides nothing.
func FuzzString(f *testing.F) {
	for _, s := range corpusTexts(f) {
		f.Add(s)
	}
	for _, o := range loadOrdinary(f) {
		for _, line := range strings.Split(o.text, "\n") {
			f.Add(line)
		}
	}
	f.Add("password=hunter22x")
	f.Add("my passphrase is correct horse battery staple. Thanks!")
	// Past the 8 KiB a line's start is looked for in (h-v99 a1).
	f.Add(strings.Repeat("x", 8193) + " --password -")
	f.Add("the password for the staging db is 'hunter2' and pw: abc123")
	f.Add("aws secret key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
	f.Add("AKIAIOSFODNN7EXAMPLEghp_abcdefghijklmnopqrstuvwxyz0123")
	f.Add("")
	f.Add("ｐａｓｓｗｏｒｄ：ｈｕｎｔｅｒ２ｘ ghp%5Fabcdefghijklmnopqrstuvwxyz0123456789 \\u0041KIAIOSFODNN7EXAMPLE")
	f.Fuzz(func(t *testing.T, s string) {
		found := Find(s)
		out, kinds := String(s)
		if again := Find(out); again != nil {
			t.Fatalf("not idempotent: %q -> %q still holds %v", s, out, again)
		}
		want := len(s)
		last := 0
		for _, f := range found {
			if f.Start < last || f.End <= f.Start || f.End > len(s) {
				t.Fatalf("%q: findings out of order or bounds: %v", s, found)
			}
			last = f.End
			want += len(mark(f.Kind)) - (f.End - f.Start)
		}
		if len(out) != want {
			t.Fatalf("%q -> %q: %d bytes, want %d", s, out, len(out), want)
		}
		if (out == s) != (found == nil) || (kinds == nil) != (found == nil) {
			t.Fatalf("%q -> %q %v, but Find = %v", s, out, kinds, found)
		}
		if Contains(s) != (found != nil) {
			t.Fatalf("Contains(%q) = %v, Find = %v", s, Contains(s), found)
		}
		checkPrefilter(t, s)
	})
}

// FuzzEmbeddedSecret: a corpus line among any other text still loses its
// secret. The surrounding text is fair: any text on lines of its own, or
// prose (letters, digits, spaces, .,!?) on the same line, a space apart.
// Other text on the same line can change its meaning: "token= " before
// "password: hunter2" makes "password:" the token's value, and an open quote
// can swallow the line's label. After a secret that is one only alone in its
// clause (alone: "Passwort: geheim", not "Passwort: geheim halten"), the
// text goes on a line of its own.
func FuzzEmbeddedSecret(f *testing.F) {
	secrets := loadSecrets(f)
	for i := range secrets {
		f.Add("", "", uint16(i), false)
		f.Add("See the note below.", "Rotate it!", uint16(i), true)
		f.Add("token: x", "password: y", uint16(i), false)
	}
	f.Fuzz(func(t *testing.T, before, after string, pick uint16, sameLine bool) {
		c := secrets[int(pick)%len(secrets)]
		sep := "\n"
		if sameLine && isProse(before) && isProse(after) {
			sep = " "
		}
		sepAfter := sep
		if c.Alone {
			sepAfter = "\n"
		}
		s := before + sep + c.Text + sepAfter + after
		start := len(before) + len(sep) + strings.Index(c.Text, c.Secret)
		end := start + len(c.Secret)
		for _, f := range Find(s) {
			if f.Start <= start && end <= f.End {
				return
			}
		}
		t.Fatalf("secrets.jsonl:%d: %q survives in %q: %v", c.line, c.Secret, s, Find(s))
	})
}

func isProse(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isLetter(c) || c >= '0' && c <= '9' || strings.IndexByte(" .,!?", c) >= 0) {
			return false
		}
	}
	return true
}

// Heads reads any text above a cut without panicking, gives only lines of
// it (or of its JSON's text), each ended by a newline, and reads a JSON
// string's text as it reads the text.
func FuzzHeads(f *testing.F) {
	for _, s := range []string{"# A\n## Passwords\n- a: x\n- b", "| user | password |\n|---|---|\n| a | P", "#\n# \n#x\n|-|\n|", "\n\n|---|\n| a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, above string) {
		got := Heads(above, "\n", nil)
		if got != "" && !strings.HasSuffix(got, "\n") {
			t.Fatalf("Heads(%q) = %q: a line not ended", above, got)
		}
		for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
			if got != "" && !strings.Contains(above, strings.TrimLeft(line, " ")[:min(len(strings.TrimLeft(line, " ")), maxHead)]) {
				t.Fatalf("Heads(%q) = %q: %q is not above's", above, got, line)
			}
		}
	})
}

// ReadsSecret reads any command without panicking, and a command it says
// reads a secret still does after "sudo " or inside sh -c '…'.
func FuzzReadsSecret(f *testing.F) {
	for _, s := range []string{"op read op://x/y/z", `bash -c "ssh db \"op read x\""`, "docker exec -u root c printenv X", "sudo -u", "timeout", `"\`, "k get secret/db"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if ReadsSecret(cmd) && !strings.ContainsAny(cmd, "'|;&()`\n") && !ReadsSecret("sh -c '"+cmd+"'") {
			t.Fatalf("ReadsSecret(%q) but not inside sh -c", cmd)
		}
	})
}
