package redact

import (
	"strconv"
	"strings"
	"testing"
)

// Texts the size of an injected memory block (~4 KB). The prefilter pays off
// on the first (no trigger word at all) and costs little on the others.
var benchTexts = map[string]string{
	"clean": strings.Repeat("## Build\n- Run the unit tests before pushing; the e2e suite needs Node 22\n"+
		"- Use PostgreSQL 16 for the primary database, SQLite for local development\n"+
		"- Squash-merge every pull request and keep the changelog current\n", 20),
	"keywords": strings.Repeat("## Auth\n- Tokens are refreshed every 15 minutes; the signing key rotates monthly\n"+
		"- Passwords need 12 characters; see https://example.com/docs/auth for the flow\n"+
		"- token_count = 12 and password_min_length: 8 are enforced by the API\n", 16),
	"secret": strings.Repeat("## Deploy\n- Run the unit tests before pushing; the e2e suite needs Node 22\n", 40) +
		"- staging: postgres://app:s3cretpw@db:5432/app with DB_PASSWORD=hunter22x\n",
	// Prose that names passwords and secrets without giving one: every line
	// runs the prose matchers and their span functions.
	"prose": strings.Repeat("## Accounts\n- The password is hashed with bcrypt; reset your password in settings\n"+
		"- The secret is stored in the vault and the passphrase is required for exports\n"+
		"- Passwords expire after 90 days and the pass phrase for backups is rotated yearly\n", 16),
	// The same in other languages: every line runs the foreign matcher and
	// weighs a word after its verb.
	"foreign": strings.Repeat("## Konten\n- Das Passwort ist abgelaufen; das neue Passwort muss lang sein\n"+
		"- la contraseña es incorrecta, el mot de passe est oublié, la password è scaduta\n"+
		"- wachtwoord: vergeten; пароль неверный; hasło: wymagane; şifre: yanlış\n", 16),
}

func BenchmarkString(b *testing.B) {
	for _, name := range []string{"clean", "keywords", "secret", "prose", "foreign"} {
		s := benchTexts[name]
		b.Run(name+"/prefilter", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for i := 0; i < b.N; i++ {
				String(s)
			}
		})
		b.Run(name+"/every-pattern", func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for i := 0; i < b.N; i++ {
				apply(s, scanEvery(s))
			}
		})
	}
}

func BenchmarkContains(b *testing.B) {
	for _, name := range []string{"clean", "keywords", "secret", "prose", "foreign"} {
		s := benchTexts[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for i := 0; i < b.N; i++ {
				Contains(s)
			}
		})
	}
}

// Shapes that once cost their square (h-v101 a1, a2): a run of blanks on a
// line that holds a label's trigger, and a substitution's value of many
// "/password=". At 64 and 256 KiB the time per byte stays the same.
func BenchmarkLongRuns(b *testing.B) {
	for _, size := range []int{64 << 10, 256 << 10} {
		for name, s := range map[string]string{
			"blanks":       "monkey" + strings.Repeat(" ", size) + "x",
			"substitution": "DB_PASSWORD=" + strings.Repeat("/password=", size/10) + "$",
		} {
			b.Run(name+"/"+strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				for i := 0; i < b.N; i++ {
					String(s)
				}
			})
		}
	}
}
