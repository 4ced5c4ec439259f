package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"
)

func TestSecretsAreRedacted(t *testing.T) {
	tests := []struct {
		name, in, kind, keep string
	}{
		{"aws key", "use AKIAABCDEFGHIJKLMNOP for s3", "aws-key", "for s3"},
		{"github token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB here", "github-token", "here"},
		{"github token glued to a word", "oldghp_abcdefghijklmnopqrstuvwxyz0123456789AB here", "github-token", "here"},
		{"openai key", "key sk-proj-abcdefghijklmnopqrstuvwx", "api-key", "key"},
		{"anthropic key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "api-key", ""},
		{"slack", "xoxb-123456789012-abcdefghij", "slack-token", ""},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt", ""},
		{"bearer", "Authorization: Bearer abcdefghijklmnop1234", "bearer", "Authorization: Bearer "},
		{"password label kept", "db password = hunter22x", "secret", "db password = "},
		{"url password", "postgres://app:s3cretpw@db:5432/app", "url-password", "postgres://app:"},
		{"private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "private-key", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, kinds := String(tt.in)
			if !strings.Contains(out, "[REDACTED:"+tt.kind+"]") {
				t.Fatalf("String(%q) = %q, want a %s redaction", tt.in, out, tt.kind)
			}
			if !strings.Contains(out, tt.keep) {
				t.Errorf("String(%q) = %q lost %q", tt.in, out, tt.keep)
			}
			if !has(kinds, tt.kind) {
				t.Errorf("kinds = %v, want %s", kinds, tt.kind)
			}
		})
	}
}

// The gaps a tester reproduced, pinned by their exact output.
func TestRedactClosesTheReportedGaps(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"a label after an underscore (\\b failed after _)",
			"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			"aws_secret_access_key = [REDACTED:aws-secret-key]"},
		{"a label after an underscore, any value",
			"my_api_key=abcdef123456",
			"my_api_key=[REDACTED:secret]"},
		{"a URL with an empty user",
			"redis://:s3cretpw@cache:6379/0",
			"redis://:[REDACTED:url-password]@cache:6379/0"},
		{"a slash in a URL's password",
			"https://user:pa/ss@host/repo.git",
			"https://user:[REDACTED:url-password]@host/repo.git"},
		{"an @ in a URL's password runs to the last @ before the host",
			"mysql://root:p@ss@host/db",
			"mysql://root:[REDACTED:url-password]@host/db"},
		{"an @ after the host belongs to the path",
			"https://u:pw@host/path/@scope",
			"https://u:[REDACTED:url-password]@host/path/@scope"},
		{"two URLs on a line",
			"a=https://u:p1@h1/x b=https://v:p2@h2/y",
			"a=https://u:[REDACTED:url-password]@h1/x b=https://v:[REDACTED:url-password]@h2/y"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRedactNamesOverlappingMatchesForTheSpecificKind(t *testing.T) {
	// password= and the GitHub pattern both see the token: one redaction.
	out, kinds := String("password=ghp_abcdefghijklmnopqrstuvwxyz0123456789AB")
	if out != "password=[REDACTED:github-token]" || len(kinds) != 1 || kinds[0] != "github-token" {
		t.Errorf("got %q %v", out, kinds)
	}
}

func TestRedactReportsKindsSortedOnce(t *testing.T) {
	_, kinds := String("token=abcdef123456 AKIAABCDEFGHIJKLMNOP password: hunter22x")
	if strings.Join(kinds, ",") != "aws-key,secret" {
		t.Errorf("kinds = %v, want [aws-key secret]", kinds)
	}
}

func TestOrdinaryTextIsUnchanged(t *testing.T) {
	for _, in := range []string{
		"",
		"Use PostgreSQL 16 for the primary database",
		"Tokens are refreshed every 15 minutes",
		"The password policy requires 12 characters",
		"See https://example.com/docs for details",
	} {
		if out, kinds := String(in); out != in || kinds != nil {
			t.Errorf("String(%q) = %q %v, want unchanged", in, out, kinds)
		}
	}
}

func TestRedactionIsIdempotent(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"token=abcdef123456 and password: hunter22x", "token=[REDACTED:secret] and password: [REDACTED:secret]"},
		// A GitHub token needs no \b before it; the key glued to it ends
		// there on the first pass, not once the token is its mark.
		{"AKIAIOSFODNN7EXAMPLEghp_abcdefghijklmnopqrstuvwxyz0123", "[REDACTED:aws-key][REDACTED:github-token]"},
		{"SK0123456789abcdef0123456789abcdefgithub_pat_abcdefghijklmnopqrstuvwx", "[REDACTED:twilio-key][REDACTED:github-token]"},
		{"AKIAIOSFODNN7EXAMPLEghost", "AKIAIOSFODNN7EXAMPLEghost"},
	} {
		once, _ := String(tt.in)
		if once != tt.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tt.in, once, tt.want)
		}
		if twice, _ := String(once); once != twice {
			t.Errorf("second pass changed %q to %q", once, twice)
		}
	}
}

// A C1 string left open (U+009D, OSC) runs to the line's end; before each
// mark of a line it was read again to the end from each (plain): the same
// text, cut at every mark as before.
func TestAnOpenC1StringEndsAtEachMark(t *testing.T) {
	in := strings.Repeat("\u009dx[REDACTED:secret] ", 3) + "ghp_abcdefghijklmnopqrstuvwxyz0123"
	if got, _ := String(in); got != in[:len(in)-len("ghp_abcdefghijklmnopqrstuvwxyz0123")]+"[REDACTED:github-token]" {
		t.Errorf("String(%q) = %q", in, got)
	}
}

// A value of words is read at most 256 bytes, cut at a blank: never in a
// word nor a character.
func TestALongValueLineIsCutBetweenWords(t *testing.T) {
	for _, in := range []string{
		"ENV DB_PASSWORD " + strings.Repeat("abc def ", 40) + "tail",
		"password:\n  " + strings.Repeat("éé ", 120),
	} {
		got, _ := String(in)
		k := strings.Index(got, markOpen)
		rest := got[k+len("[REDACTED:secret]"):]
		if k < 0 || rest != "" && rest[0] != ' ' || !utf8.ValidString(got) {
			t.Errorf("String(%q) = %q", in, got)
		}
	}
}

func TestFindReportsByteOffsetsWithoutTheLabel(t *testing.T) {
	s := "line one\nDB_PASSWORD=hunter22x\nurl: redis://:pw123456@cache/0"
	got := Find(s)
	want := []string{"secret hunter22x", "url-password pw123456"}
	if len(got) != len(want) {
		t.Fatalf("Find = %v, want %d findings", got, len(want))
	}
	for i, f := range got {
		if s := f.Kind + " " + s[f.Start:f.End]; s != want[i] {
			t.Errorf("finding %d = %q, want %q", i, s, want[i])
		}
	}
}

func TestExistingMarksAreNotSecrets(t *testing.T) {
	for _, in := range []string{
		"password=[REDACTED:secret]",
		`"token": "[REDACTED:github-token]"`,
		"postgres://u:[REDACTED:url-password]@db/app",
		"Authorization: Bearer [REDACTED:bearer]",
	} {
		if f := Find(in); f != nil {
			t.Errorf("Find(%q) = %v, want none", in, f)
		}
	}
}

// A long line of keywords without values still has its secrets found after
// them (the scan before the matchers switched strategies past 2 KiB).
func TestLongLinesAreSearchedToo(t *testing.T) {
	s := strings.Repeat("key token ", 205) + "password=hunter22x https://u:pw123456@h/x"
	out, _ := String(s)
	if !strings.HasSuffix(out, "password=[REDACTED:secret] https://u:[REDACTED:url-password]@h/x") {
		t.Errorf("String(long line) ends %q", out[len(out)-80:])
	}
	checkPrefilter(t, s)
}

// The prefilter compares triggers in ASCII case only, so the patterns must
// not fold further: Go's (?i) would match "key" written with the Kelvin sign.
func TestPatternsFoldOnlyASCIICase(t *testing.T) {
	for _, s := range []string{"api_\u212aey = hunter22x", "\u017fecret: hunter22x"} {
		if f := Find(s); f != nil {
			t.Errorf("Find(%q) = %v, want none", s, f)
		}
		checkPrefilter(t, s)
	}
}

func TestLinesKeepsEveryLineNumber(t *testing.T) {
	in := "# Deploy\n-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\nxyz\n-----END RSA PRIVATE KEY-----\n- token: ghp_abcdefghijklmnopqrstuvwxyz0123456789AB\n- last line\n"
	out, kinds := Lines(in)
	if strings.Count(out, "\n") != strings.Count(in, "\n") {
		t.Fatalf("lines changed: %q", out)
	}
	if strings.Contains(out, "MIIE") || strings.Contains(out, "ghp_") || len(kinds) != 2 {
		t.Fatalf("Lines = %q, %v", out, kinds)
	}
	if got := strings.Split(out, "\n")[6]; got != "- last line" {
		t.Fatalf("line 7 = %q", got)
	}
	if again, _ := Lines(out); again != out {
		t.Fatalf("not idempotent: %q", again)
	}
}

// A password on a command line is a secret; the flag alone, a port, or a
// value that names where the password lives is not.
func TestCommandLinePasswordsAndTheirLookAlikes(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"mysql -u root -pS3cret shop", "mysql -u root -p[REDACTED:secret] shop"},
		{"mysqldump -uroot -p'two words' shop", "mysqldump -uroot -p'[REDACTED:secret]' shop"},
		{"mysql -u root -p shop", "mysql -u root -p shop"},
		{"mysql -h db -P 3306 -p", "mysql -h db -P 3306 -p"},
		{"mysql -p$MYSQL_PWD shop", "mysql -p$MYSQL_PWD shop"},
		{"cd /srv; mysql -u app; ls -pa", "cd /srv; mysql -u app; ls -pa"},
		{"curl -u ada:Pa55word https://x.example", "curl -u ada:[REDACTED:secret] https://x.example"},
		{`curl --user "ci:two words" https://x.example`, `curl --user "ci:[REDACTED:secret]" https://x.example`},
		{"curl -u ada https://x.example:8443/v1", "curl -u ada https://x.example:8443/v1"},
		// h-v97 b7: a literal compared with a password; Python's Final and ClassVar.
		{`if password == "Xk9mZ2qLw7!":`, `if password == "[REDACTED:secret]":`},
		{`if (password === 'Xk9mZ2qLw7!') {`, `if (password === '[REDACTED:secret]') {`},
		{`if password == input:`, `if password == input:`},
		{`if password == "":`, `if password == "":`},
		{`if password != "changeme" {`, `if password != "changeme" {`},
		{`assert user.password.equals("Xk9mZ2qLw7!")`, `assert user.password.equals("[REDACTED:secret]")`},
		{`expect(password).toBe('Xk9mZ2qLw7!')`, `expect(password).toBe('[REDACTED:secret]')`},
		{`expect(password).toBe(hashed)`, `expect(password).toBe(hashed)`},
		{`DB_PASSWORD: Final = "Xk9mZ2qLw7!"`, `DB_PASSWORD: Final = "[REDACTED:secret]"`},
		{`token: ClassVar[str] = "Xk9mZ2qLw7abcdef"`, `token: ClassVar[str] = "[REDACTED:secret]"`},
		// h-v97 b5: a label ending its line, the value alone on the next.
		{"Password:\nXk9mZ2qLw7!", "Password:\n[REDACTED:secret]"},
		{"The new staging admin password:\nSt4g!ngAdm1n\nthanks", "The new staging admin password:\n[REDACTED:secret]\nthanks"},
		{"Password:\nplease rotate it monthly", "Password:\nplease rotate it monthly"},
		{"password:\nnext_key: 1", "password:\nnext_key: 1"},
		{"token:\nREADME.md", "token:\nREADME.md"},
		{"password:\n${DB_PASSWORD}", "password:\n${DB_PASSWORD}"},
		// h-v98 b4, b5: bold around the colon, prose's "is", a blank line between.
		{"Fix it. **Password:**\nSt4g!ngAdm1n", "Fix it. **Password:**\n[REDACTED:secret]"},
		{"Fix it. **Password**:\nSt4g!ngAdm1n", "Fix it. **Password**:\n[REDACTED:secret]"},
		{"{\n  \"password\":\n    \"St4g!ngAdm1n\"\n}", "{\n  \"password\":\n    \"[REDACTED:secret]\"\n}"},
		{"its password is\nXk9mZ2qLw7", "its password is\n[REDACTED:secret]"},
		{"bot password:\n\nXk9mZ2qLw7", "bot password:\n\n[REDACTED:secret]"},
		{"password is\nnot needed anymore", "password is\nnot needed anymore"},
		// h-v97 b4: PW as a label's last word; b3: pulumi's secret config.
		{"DB_PW=Xk9mZ2qLw7", "DB_PW=[REDACTED:secret]"},
		{"DB_PASSWORD_V2=Xk9mZ2qLw7", "DB_PASSWORD_V2=[REDACTED:secret]"},
		{"password1: Xk9mZ2qLw7", "password1: [REDACTED:secret]"},
		{"sha256=abcdef1234", "sha256=abcdef1234"},
		{"Set `password` to Xk9mZ2qLw7! now", "Set `password` to [REDACTED:secret] now"},
		{"Set `db.password` to Xk9mZ2qLw7! now", "Set `db.password` to [REDACTED:secret] now"},
		{"adminPw: Xk9mZ2qLw7", "adminPw: [REDACTED:secret]"},
		{`admin_pw: "Xk9mZ2qLw7"`, `admin_pw: "[REDACTED:secret]"`},
		{"pw=Xk9mZ2qLw7", "pw=[REDACTED:secret]"},
		{"upw=Xk9mZ2qLw7", "upw=Xk9mZ2qLw7"},
		{"ctrl_pw_timeout=30", "ctrl_pw_timeout=30"},
		{"pulumi config set --secret dbPassword Xk9mZ2qLw7", "pulumi config set --secret dbPassword [REDACTED:secret]"},
		{`pulumi config set --path --secret db.password "Xk9 mZ2qLw7"`, `pulumi config set --path --secret db.password "[REDACTED:secret]"`},
		{"pulumi config set aws:region us-east-1", "pulumi config set aws:region us-east-1"},
		{"echo Xk9mZ2qLw7abc | gh secret set DB_PASSWORD", "echo [REDACTED:secret] | gh secret set DB_PASSWORD"},
		{"printf Xk9mZ2qLw7abc | wrangler secret put API_KEY", "printf [REDACTED:secret] | wrangler secret put API_KEY"},
		{"echo hello | gh secret list", "echo hello | gh secret list"},
		{"vercel env add DB_PASSWORD production <<< Xk9mZ2qLw7abc", "vercel env add DB_PASSWORD production <<< [REDACTED:secret]"},
		{"aws ssm put-parameter --name /db/pw --type SecureString --value Xk9mZ2qLw7abc", "aws ssm put-parameter --name /db/pw --type SecureString --value [REDACTED:secret]"},
		// h-v96 b6: quoted after the separator.
		{`curl -u admin:"Sup3r$ecret" https://x`, `curl -u admin:"[REDACTED:secret]" https://x`},
		{`curl -u admin:'Sup3r$ecret' https://x`, `curl -u admin:'[REDACTED:secret]' https://x`},
		{`openssl enc -aes256 -pass pass:"Sup3r$ecret" -in x`, `openssl enc -aes256 -pass pass:"[REDACTED:secret]" -in x`},
		{`smbclient //h/s -U admin%"Sup3r$ecret"`, `smbclient //h/s -U admin%"[REDACTED:secret]"`},
		{`lftp -u admin,'Sup3r$ecret' ftp://h`, `lftp -u admin,'[REDACTED:secret]' ftp://h`},
		{`http -a admin:"Sup3r$ecret" https://x`, `http -a admin:"[REDACTED:secret]" https://x`},
		{`curl -u admin:"" https://x`, `curl -u admin:"" https://x`},
		{`curl -u "deploy":"Sup3r$ecret" https://x`, `curl -u "deploy":"[REDACTED:secret]" https://x`},
		{`curl -u 'admin':Sup3r$ecret https://x`, `curl -u 'admin':[REDACTED:secret] https://x`},
		{`curl -u "$USER:$TOKEN" https://x.example`, `curl -u "$USER:$TOKEN" https://x.example`},
		{"sshpass -p S3cret ssh deploy@host", "sshpass -p [REDACTED:secret] ssh deploy@host"},
		{"ssh -p 22 deploy@host", "ssh -p 22 deploy@host"},
		{`sshpass -p "$(pass show deploy)" ssh host`, `sshpass -p "$(pass show deploy)" ssh host`},
		{"docker login -u ada -p d0cker registry.example.com", "docker login -u ada -p [REDACTED:secret] registry.example.com"},
		{"docker run -p 8080:80 nginx", "docker run -p 8080:80 nginx"},
		{"docker login -u ada --password-stdin r.example", "docker login -u ada --password-stdin r.example"},
		{"bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsEXA ok", "bot [REDACTED:telegram-token] ok"},
		{"release 20261127:AAfix flaky test", "release 20261127:AAfix flaky test"},
		{"curl --user=ada:Pa66wordEXAMPLE https://x", "curl --user=ada:[REDACTED:secret] https://x"},
		{"curl --proxy-user ada:Pa69wordEXAMPLE https://x", "curl --proxy-user ada:[REDACTED:secret] https://x"},
		{"curl -U ada:Pa70wordEXAMPLE https://x", "curl -U ada:[REDACTED:secret] https://x"},
		{"curl -U ada https://x", "curl -U ada https://x"},
		{"ldapsearch -D cn=admin -w Pa79wordEXAMPLE -b dc=x", "ldapsearch -D cn=admin -w [REDACTED:secret] -b dc=x"},
		{"ldapsearch -x -W -b dc=x", "ldapsearch -x -W -b dc=x"},
		{"ssh-keygen -N Pa98wordEXAMPLE -f key", "ssh-keygen -N [REDACTED:secret] -f key"},
		{"redis-cli --pass Pa31wordEXAMPLE ping", "redis-cli --pass [REDACTED:secret] ping"},
		{"redis-cli --askpass ping", "redis-cli --askpass ping"},
		{"localhost:5432:shop:alice:Pg9xPwQ2z", "localhost:5432:shop:alice:[REDACTED:secret]"},
		{"db.internal:*:*:app:Pg9x\\:PwQ2z\r\n*:5432:*:ro:Pg8xPwQ3z", "db.internal:*:*:app:[REDACTED:secret]\r\n*:5432:*:ro:[REDACTED:secret]"},
		{"main.go:42:func:parse:undefined", "main.go:42:func:parse:undefined"},
		{"10.0.0.1:8080:GET:/api:200ms", "10.0.0.1:8080:GET:/api:200ms"},
		{"echo 'alice:Ch9xPwQ2z' | chpasswd", "echo 'alice:[REDACTED:secret]' | chpasswd"},
		{`echo "root:Ch9xPwQ2z" | sudo chpasswd`, `echo "root:[REDACTED:secret]" | sudo chpasswd`},
		{"echo alice | chpasswdx", "echo alice | chpasswdx"},
		{"sudo chpasswd <<< 'alice:Ch9xPwQ2z'", "sudo chpasswd <<< 'alice:[REDACTED:secret]'"},
		{"echo 'Ch9xPwQ2z' | passwd --stdin alice", "echo '[REDACTED:secret]' | passwd --stdin alice"},
		{"echo foo | git hash-object --stdin", "echo foo | git hash-object --stdin"},
		{"ipmitool -I lanplus -H 10.0.0.5 -U admin -P Ipm1Pw9xQ chassis status", "ipmitool -I lanplus -H 10.0.0.5 -U admin -P [REDACTED:secret] chassis status"},
		{"ipmitool -I lanplus -H 10.0.0.5 -U admin -E chassis status", "ipmitool -I lanplus -H 10.0.0.5 -U admin -E chassis status"},
		{`psexec \\host -u admin -p Ps3xPw9q cmd`, `psexec \\host -u admin -p [REDACTED:secret] cmd`},
		{"PsExec64.exe -p Ps3xPw9q", "PsExec64.exe -p [REDACTED:secret]"},
		{`PSEXEC \\srv -u admin -p Ps3xPw9q cmd`, `PSEXEC \\srv -u admin -p [REDACTED:secret] cmd`},
		{"NuGet.exe push pkg.nupkg -k oy2kNuGet9xQ", "NuGet.exe push pkg.nupkg -k [REDACTED:secret]"},
		{"IPMITOOL -H h -U admin -P Ipm1Pw9xQ", "IPMITOOL -H h -U admin -P [REDACTED:secret]"},
		{"vsce publish -p vsceTok9xQ2", "vsce publish -p [REDACTED:secret]"},
		{"vsce package -o out.vsix", "vsce package -o out.vsix"},
		{"vsce publish --pat vsceTok9xQ2", "vsce publish --pat [REDACTED:secret]"},
		{"ovsx publish -p vsceTok9xQ2", "ovsx publish -p [REDACTED:secret]"},
		{"nuget push pkg.nupkg -ApiKey oy2kNuGet9xQ", "nuget push pkg.nupkg -ApiKey [REDACTED:secret]"},
		{"xh -a alice:Ht9pieQx example.org", "xh -a alice:[REDACTED:secret] example.org"},
		{"poetry publish -u alice -p Po9xPwQ2z", "poetry publish -u alice -p [REDACTED:secret]"},
		{"vsce package --path out", "vsce package --path out"},
		{"nuget push pkg.nupkg -Source https://api.nuget.org/v3/index.json -ApiKey $env:NUGET_KEY", "nuget push pkg.nupkg -Source https://api.nuget.org/v3/index.json -ApiKey $env:NUGET_KEY"},
		{"password: String.Empty", "password: String.Empty"},
		{"CREATE USER app WITH PASSWORD :'app_password';", "CREATE USER app WITH PASSWORD :'app_password';"},
		{"CREATE USER app WITH PASSWORD 'Qv7mWz2pRt';", "CREATE USER app WITH PASSWORD '[REDACTED:secret]';"},
		{"password : 'hunter2x'", "password : '[REDACTED:secret]'"},
		// Prose about the command (h-v80 B15, B16).
		{"ipmitool -P is insecure, prefer -E", "ipmitool -P is insecure, prefer -E"},
		{"vsce publish -p takes a personal access token", "vsce publish -p takes a personal access token"},
		{"nuget push -k takes the API key", "nuget push -k takes the API key"},
		{"the net user command lists accounts", "the net user command lists accounts"},
		{"the mc alias set command takes four arguments", "the mc alias set command takes four arguments"},
		{"sshpass -p hunter ssh deploy@host", "sshpass -p [REDACTED:secret] ssh deploy@host"},
		{"dotnet nuget push pkg.nupkg -k oy2kNuGet9xQ -s https://api.nuget.org/v3/index.json", "dotnet nuget push pkg.nupkg -k [REDACTED:secret] -s https://api.nuget.org/v3/index.json"},
		{"lftp -u alice,Lftp9xPw ftp.example.com", "lftp -u alice,[REDACTED:secret] ftp.example.com"},
		{"lftp -u alice ftp.example.com", "lftp -u alice ftp.example.com"},
		{"http -a admin:Ht9pieQx https://api.example.com", "http -a admin:[REDACTED:secret] https://api.example.com"},
		{"https --auth=admin:Ht9pieQx api.example.com", "https --auth=admin:[REDACTED:secret] api.example.com"},
		{"http -a admin https://api.example.com", "http -a admin https://api.example.com"},
		{"http --auth-type=bearer --auth $TOKEN api.example.com", "http --auth-type=bearer --auth $TOKEN api.example.com"},
		{"see http://x.example -a ada:b and more", "see http://x.example -a ada:b and more"},
		{`printf '%s\n' Pa36wordEXAMPLE | sudo -S apt update`, `printf '%s\n' [REDACTED:secret] | sudo -S apt update`},
		{`printf '%s\n' "$PW" | sudo -S apt update`, `printf '%s\n' "$PW" | sudo -S apt update`},
		{`printf -- '%s\n' Pa36wordEXAMPLE | sudo -S ls`, `printf -- '%s\n' [REDACTED:secret] | sudo -S ls`},
		{"my password was changed to Hunter2x!", "my password was [REDACTED:secret]"},
		{"password: changed to Hunter2x!", "password: [REDACTED:secret]"},
		{"passphrase: wicked and wild horse", "passphrase: [REDACTED:secret]"},
		{"passphrase: sacred family oak tree", "passphrase: [REDACTED:secret]"},
		{"pw = Tr0ub4dor&3'", "pw = [REDACTED:secret]"},
		{"POSTGRES_PASSWORD: ${POSTGRES_PASSWORD-Hunter2xQ7}", "POSTGRES_PASSWORD: [REDACTED:secret]"},
		{"redis-server --requirepass Hunter2x --appendonly yes", "redis-server --requirepass [REDACTED:secret] --appendonly yes"},
		{"env: - name: DB_PASSWORD value: Hunter2xK8", "env: - name: DB_PASSWORD value: [REDACTED:secret]"},
		{"- name: DB_PASSWORD\n  value: correct horse battery staple", "- name: DB_PASSWORD\n  value: [REDACTED:secret]"},
		{`{"env":[{"name":"DB_PASSWORD","value":"EcsPw9x!q"}]}`, `{"env":[{"name":"DB_PASSWORD","value":"[REDACTED:secret]"}]}`},
		{"{\n  \"name\": \"DB_PASSWORD\",\n  \"value\": \"EcsPw9x!q\"\n}", "{\n  \"name\": \"DB_PASSWORD\",\n  \"value\": \"[REDACTED:secret]\"\n}"},
		{`{"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db"}}}`, `{"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db"}}}`},
		{`{"env":[{"name":"DB_PASSWORD","value":null},{"name":"API_TOKEN","value":true}]}`, `{"env":[{"name":"DB_PASSWORD","value":null},{"name":"API_TOKEN","value":true}]}`},
		{"- Name: DB_PASSWORD\n  Value: Xk9mP2qLw7", "- Name: DB_PASSWORD\n  Value: [REDACTED:secret]"},
		{`[{"Name": "DB_PASSWORD", "Value": "CfnPw9x!q"}]`, `[{"Name": "DB_PASSWORD", "Value": "[REDACTED:secret]"}]`},
		{`{"name":"DB_PASSWORD","value":"p@ss\"word9"}`, `{"name":"DB_PASSWORD","value":"[REDACTED:secret]"}`},
		{`{"name":"DB_PASSWORD","value":"Ab9\u0022xK7q!"}`, `{"name":"DB_PASSWORD","value":"[REDACTED:secret]"}`},
		{`{\u0022password\u0022:\u0022Hunter2x!\u0022}`, `{\u0022password\u0022:\u0022[REDACTED:secret]\u0022}`},
		{"?q=%7B%22password%22%3A%22Hunter2x!%22%7D", "?q=%7B%22password%22%3A%22[REDACTED:secret]%22%7D"},
		// A full-width quote shows as a quote: read as one both ways.
		{"{＂password＂:＂Hunter2x!＂}", "{＂password＂:＂[REDACTED:secret]＂}"},
		{"password: ＂Hunter 2x!＂ ok", "password: ＂[REDACTED:secret]＂ ok"},
		// A struct's print: one word to its field's end.
		{"EnvVar{Name:DB_PASSWORD,Value:GoPw9x!qz,ValueFrom:nil,},EnvVar{Name:PORT,Value:8080,},} pull failed", "EnvVar{Name:DB_PASSWORD,Value:[REDACTED:secret],ValueFrom:nil,},EnvVar{Name:PORT,Value:8080,},} pull failed"},
		{"{Name:DB_PASSWORD Value:GoPw9x!qz ValueFrom:nil}", "{Name:DB_PASSWORD Value:[REDACTED:secret] ValueFrom:nil}"},
		{"{Name:DB_PASSWORD Value:Xq7p]L2mZ9wKd ValueFrom:nil}", "{Name:DB_PASSWORD Value:[REDACTED:secret] ValueFrom:nil}"},
		{"EnvVar{Name:DB_PASSWORD,Value:p@ss,w0rdX9,ValueFrom:nil,}", "EnvVar{Name:DB_PASSWORD,Value:[REDACTED:secret],ValueFrom:nil,}"},
		{"{Name:DB_PASSWORD Value:GoPw9x!qz}", "{Name:DB_PASSWORD Value:[REDACTED:secret]}"},
		{"  - name: DB_PASSWORD\n    value: \"p@ss\\\"word9\"", "  - name: DB_PASSWORD\n    value: \"[REDACTED:secret]\""},
		{"EnvVar{Name:API_TOKEN,Value:,ValueFrom:&EnvVarSource{}}", "EnvVar{Name:API_TOKEN,Value:,ValueFrom:&EnvVarSource{}}"},
		{"password:\n  hunter2x  # prod", "password:\n  [REDACTED:secret]  # prod"},
		{"ENV DB_PASSPHRASE tiger horse battery staple", "ENV DB_PASSPHRASE [REDACTED:secret]"},
		{`password: Optional[str] = "hunter2x"`, `password: Optional[str] = "[REDACTED:secret]"`},
		{`password: Final[str] = "Hunter2xQ7"`, `password: Final[str] = "[REDACTED:secret]"`},
		{"env: - name: DB_PASSWORD value: Hunter2xK8, and more text here", "env: - name: DB_PASSWORD value: [REDACTED:secret], and more text here"},
		{"env: - name: DB_PASSWORD value: tiger horse battery staple", "env: - name: DB_PASSWORD value: [REDACTED:secret]"},
		{"ENV DB_PASSPHRASE wicked and wild horse", "ENV DB_PASSPHRASE [REDACTED:secret]"},
		{"password:\n  my dog has fleas 42", "password:\n  [REDACTED:secret]"},
		{"ENV API_TOKEN " + strings.Repeat("A1", 130), "ENV API_TOKEN [REDACTED:secret]"},
		{"password:\n  " + strings.Repeat("x", 300), "password:\n  [REDACTED:secret]"},
		{"the password was changed to correct horse battery staple", "the password was [REDACTED:secret]"},
		{"the password was changed to 48392017", "the password was [REDACTED:secret]"},
		{"passphrase: hidden lily pond", "passphrase: [REDACTED:secret]"},
		{"The password was set to Hunter2x! for the staging admin", "The password was [REDACTED:secret] for the staging admin"},
		{"the password was set as Hunter2x!", "the password was [REDACTED:secret]"},
		{"the password has been changed to Tr0ub4dor&3", "the password has been changed to [REDACTED:secret]"},
		{"password changed to Hunter2x!", "password changed to [REDACTED:secret]"},
		{"the wifi password changed to blue-Sky-42", "the wifi password changed to [REDACTED:secret]"},
		{"password reset to 48392017 today", "password reset to [REDACTED:secret] today"},
		{"password: changed to correct horse battery staple", "password: [REDACTED:secret]"},
		{"the staging db password was changed to Sha256Pass! last week", "the staging db password was [REDACTED:secret] last week"},
		{"the vpn password was set to base64Hunter2! yesterday", "the vpn password was [REDACTED:secret] yesterday"},
		{"password changed to md5Hunter2x!", "password changed to [REDACTED:secret]"},
		{"ops login: ada <password Tr0ub4dor&3>", "ops login: ada <password [REDACTED:secret]"},
		{"mysql -u root <password Hunter2x!", "mysql -u root <password [REDACTED:secret]"},
		{"the staging password was changed to Summer2024.1! last week", "the staging password was [REDACTED:secret] last week"},
		{"passwd Hunter2.0!", "passwd [REDACTED:secret]"},
		{"root password reset to Admin123.45 on all hosts", "root password reset to [REDACTED:secret] on all hosts"},
		{"the password was changed to 84713265 thanks", "the password was [REDACTED:secret]"},
		{"password changed to %Hunter2x%", "password changed to [REDACTED:secret]"},
		{"the password has been reset to Tr0ub4dor&3", "the password has been reset to [REDACTED:secret]"},
		{"the password changed to: Hunter2x!", "the password changed to: [REDACTED:secret]"},
		{"db password changed from Hunter2x! to Wombat9$zz", "db password changed from [REDACTED:secret]"},
		{"The password was changed from Hunter2x! to Wombat9$zz.", "The password was [REDACTED:secret]."},
		{"the password was changed from hunter22 to wombat99", "the password was [REDACTED:secret]"},
		{"admin password: changed from Tr0ub4dor&3 to Hunter2x!", "admin password: [REDACTED:secret]"},
		{"password changed from Tr0ub4dor&3 to a passphrase", "password changed from [REDACTED:secret] to a passphrase"},
		{"password changed from Hunter2x! to hunter3x", "password changed from [REDACTED:secret]"},
		{`password changed from "Hunter2x!" to "Wombat9$zz"`, `password changed from "[REDACTED:secret]"`},
		{"password changed from `Hunter2x!` to `Wombat9$zz`", "password changed from `[REDACTED:secret]`"},
		{`password changed from "Hunter2x!" to "something else"`, `password changed from "[REDACTED:secret]" to "something else"`},
		{`The password was changed to "Hunter2x!".`, `The password was changed to "[REDACTED:secret]".`},
		{"the password was reset to `Tr0ub4dor&3`", "the password was reset to `[REDACTED:secret]`"},
		{"password was changed to: Hunter2x!", "password was changed to: [REDACTED:secret]"},
		{"Changed the password from Hunter2x! to Wombat9$zz", "Changed the password from [REDACTED:secret]"},
		{"I changed my password from Hunter2x! to Wombat9$zz", "I changed my password from [REDACTED:secret]"},
		{"the staging db password is now Tr0ub4dor&3", "the staging db password is now [REDACTED:secret]"},
		{"the password is still Hunter2x!", "the password is still [REDACTED:secret]"},
		{"the password is now: Hunter2x!", "the password is now: [REDACTED:secret]"},
		{"the password is now correct horse battery staple", "the password is now [REDACTED:secret]"},
		{"<b>Password:</b> Hunter2x!", "<b>Password:</b> [REDACTED:secret]"},
		{"<strong>Password:</strong> Hunter2x!", "<strong>Password:</strong> [REDACTED:secret]"},
		{"<td>Password:</td><td>Hunter2x!</td></tr>", "<td>Password:</td><td>[REDACTED:secret]</td></tr>"},
		{"password: {Hunter2x!}", "password: [REDACTED:secret]"},
		{"- DB password changed: Pw09x!Kq9", "- DB password changed: [REDACTED:secret]"},
		{"  password: <%= ENV.fetch('DB_PASSWORD') { 'Pw65x!Kq9' } %>", "  password: <%= ENV.fetch('DB_PASSWORD') { '[REDACTED:secret]' } %>"},
		{"password: #{ENV.fetch('PW') { 'Pw92x!Kq9' }}", "password: #{ENV.fetch('PW') { '[REDACTED:secret]' }}"},
		{"  password: <%= ENV['DB_PASSWORD'] or 'Pw93x!Kq9' %>", "  password: <%= ENV['DB_PASSWORD'] or '[REDACTED:secret]' %>"},
		{"<dt>WiFi password:</dt><dd>blue elephant dancing slowly</dd><dt>SSID:</dt><dd>office-guest</dd>", "<dt>WiFi password:</dt><dd>[REDACTED:secret]</dd><dt>SSID:</dt><dd>office-guest</dd>"},
		{"<p>Username: jdoe<br>Password: Welcome2024!<br>Please change it.</p>", "<p>Username: jdoe<br>Password: [REDACTED:secret]<br>Please change it.</p>"},
		{"the wifi password is still Summer-2024!", "the wifi password is still [REDACTED:secret]"},
		{"the password is: Pw<xK9!mQ", "the password is: [REDACTED:secret]"},
		{"password: !Hunter2x", "password: [REDACTED:secret]"},
		{"password: abc[def]Hunter2x!", "password: [REDACTED:secret]"},
		{"the password is now _Pw51x!Kq9_", "the password is now [REDACTED:secret]"},
		{"the password for staging is now my_pass_2024", "the password for staging is now [REDACTED:secret]"},
		{`conn = PG.connect(password: "#{ENV['PGPASS'] || 'Pw52x!Kq9'}")`, `conn = PG.connect(password: "#{ENV['PGPASS'] || '[REDACTED:secret]'}")`},
		{"Password: #{ENV.fetch('DB_PASSWORD', 'Pw52x!Kq9')}", "Password: #{ENV.fetch('DB_PASSWORD', '[REDACTED:secret]')}"},
		{`  password: <%= ENV.fetch("DB_PASSWORD", "Pw53x!Kq9") %>`, `  password: <%= ENV.fetch("DB_PASSWORD", "[REDACTED:secret]") %>`},
		// A default given where the environment is read, outside a template too.
		{`DB_PASSWORD = os.environ.get("DB_PASSWORD", "Pw54x!Kq9")`, `DB_PASSWORD = os.environ.get("DB_PASSWORD", "[REDACTED:secret]")`},
		{`password = os.getenv("DB_PASSWORD", "Pw54x!Kq9")  # local only`, `password = os.getenv("DB_PASSWORD", "[REDACTED:secret]")  # local only`},
		{`const pw = process.env.DB_PASSWORD || "Pw54x!Kq9";`, `const pw = process.env.DB_PASSWORD || "[REDACTED:secret]";`},
		{`  password: process.env.DB_PASSWORD ?? 'Pw54x!Kq9',`, `  password: process.env.DB_PASSWORD ?? '[REDACTED:secret]',`},
		{`password: {{ .Values.db.password | default "Pw54x!Kq9" | quote }}`, `password: {{ .Values.db.password | default "[REDACTED:secret]" | quote }}`},
		{`  password: {{ default "Pw54x!Kq9" .Values.password }}`, `  password: {{ default "[REDACTED:secret]" .Values.password }}`},
		{`db_password: "{{ lookup('env', 'DB_PASSWORD') | default('Pw54x!Kq9', true) }}"`, `db_password: "{{ lookup('env', 'DB_PASSWORD') | default('[REDACTED:secret]', true) }}"`},
		{`DB_PASSWORD = config("DB_PASSWORD", default="Pw54x!Kq9")`, `DB_PASSWORD = config("DB_PASSWORD", default="[REDACTED:secret]")`},
		{`  password: <%= ENV.fetch "DB_PASSWORD", "Pw75x!Kq9" %>`, `  password: <%= ENV.fetch "DB_PASSWORD", "[REDACTED:secret]" %>`},
		{`'password' => env('DB_PASSWORD', 'Pw54x!Kq9'),`, `'password' => env('DB_PASSWORD', '[REDACTED:secret]'),`},
		// h-v28: a tag that types the literal after it; an apostrophe in a
		// word before a label opens no string; creds' own labels.
		{"ansible_password: !unsafe 'Pw87x!Kq9'", "ansible_password: [REDACTED:secret]"},
		{"password: !!str Pw89x!Kq9", "password: [REDACTED:secret]"},
		{"Here's the prod password: 'Pw11x!Kq9'", "Here's the prod password: '[REDACTED:secret]'"},
		{"# Don't forget: mysql -u root --password='Pw13x!Kq9' app", "# Don't forget: mysql -u root --password='[REDACTED:secret]' app"},
		{"The client's wifi password is 'Pw06x!Kq9'", "The client's wifi password is '[REDACTED:secret]'"},
		{"Bob's creds: password='Pw02x!Kq9'", "Bob's creds: password='[REDACTED:secret]'"},
		{"creds: user=ada password=Pw02x!Kq9", "creds: user=ada password=[REDACTED:secret]"},
		{"the password is now Blue42-sky", "the password is now [REDACTED:secret]"},
		// Known leaks of the rounds before: a table's cell, plurals, "again",
		// "back", an intro of up to ten words, a verb of change before.
		{"| user | password |\n|------|----------|\n| admin | Tabl3Pass! |\n| ci | same as staging |", "| user | password |\n|------|----------|\n| admin | [REDACTED:secret] |\n| ci | same as staging |"},
		{"| env | | DB_PASSWORD | API token |\n|:---|---|:---:|---|\n| prod | | `Pr0d!Pass` | ghx_abcdefghij0123456789 |", "| env | | DB_PASSWORD | API token |\n|:---|---|:---:|---|\n| prod | | `[REDACTED:secret]` | [REDACTED:secret] |"},
		{"the passwords were reset to Welcome2024!", "the passwords were [REDACTED:secret]"},
		{"the admin password has been changed again to Welcome2024!", "the admin password has been changed again to [REDACTED:secret]"},
		{"the password was changed back to Hunter2x!", "the password was [REDACTED:secret]"},
		{"the password for the admin user on the old staging box has been changed to Welcome2024!", "the password for the admin user on the old staging box has been changed to [REDACTED:secret]"},
		{"the password for the admin user on the old staging box is Hunter2x!", "the password for the admin user on the old staging box is [REDACTED:secret]"},
		{"I changed the password for prod to Welcome2024!", "I changed the password for prod to [REDACTED:secret]"},
		{"the admin password, by the way, is Welcome2024!", "the admin password, by the way, is [REDACTED:secret]"},
		// h-v30: more places code reads a setting; a key/value table; a
		// possessive before a label.
		{"$password = $_ENV['DB_PASSWORD'] ?? 'Pw57x!Kq9';", "$password = $_ENV['DB_PASSWORD'] ?? '[REDACTED:secret]';"},
		{"$pw = getenv('DB_PASS') ?: 'Pw57x!Kq9';", "$pw = getenv('DB_PASS') ?: '[REDACTED:secret]';"},
		{`var password = Environment.GetEnvironmentVariable("DB_PASSWORD") ?? "Pw57x!Kq9";`, `var password = Environment.GetEnvironmentVariable("DB_PASSWORD") ?? "[REDACTED:secret]";`},
		{`String password = props.getProperty("db.password", "Pw57x!Kq9");`, `String password = props.getProperty("db.password", "[REDACTED:secret]");`},
		{`const password = Deno.env.get("DB_PASSWORD") ?? "Pw57x!Kq9";`, `const password = Deno.env.get("DB_PASSWORD") ?? "[REDACTED:secret]";`},
		{"| Setting | Value |\n|---|---|\n| Host | db.example.com |\n| **Password:** | `Tabl4Pass!` |", "| Setting | Value |\n|---|---|\n| Host | db.example.com |\n| **Password:** | `[REDACTED:secret]` |"},
		{"| Secret | Value |\n|---|---|\n| api_key | sk_abcdefghij0123456789 |", "| Secret | Value |\n|---|---|\n| api_key | [REDACTED:secret] |"},
		{"the users' password is 'Pw!x9Kq2'", "the users' password is '[REDACTED:secret]'"},
		{"James' password is 'Pw!x9Kq2'", "James' password is '[REDACTED:secret]'"},
		{"> | user | password |\n> |---|---|\n> | admin | Tabl3Pass! |", "> | user | password |\n> |---|---|\n> | admin | [REDACTED:secret] |"},
		{"| user | note | password |\n|---|---|---|\n| admin | a \\| b | Tabl3Pass! |", "| user | note | password |\n|---|---|---|\n| admin | a \\| b | [REDACTED:secret] |"},
		{"| user | password |\n|---|---|\n| admin | 84920173 |", "| user | password |\n|---|---|\n| admin | [REDACTED:secret] |"},
		{"password: ${DB_PASSWORD-Pw58x!Kq9}", "password: [REDACTED:secret]"},
		// h-v32: a quoted word ending in s before a label closes its string;
		// a secret's value that looks like a name under its own label; a
		// URL that is the secret; a literal in Symfony's %env(…)%; a closure's
		// default.
		{"PGUSER='ops' PGPASSWORD='Pg!Pass9' psql -h db", "PGUSER='ops' PGPASSWORD='[REDACTED:secret]' psql -h db"},
		{"the 'ops' account's password is 'Pw!x9Kq2'", "the 'ops' account's password is '[REDACTED:secret]'"},
		// h-v95 b1: a closing quote glued to what follows, a leading
		// apostrophe, a year.
		{`echo "Hi "$USER && export PGPASSWORD="Hunter2xyz"`, `echo "Hi "$USER && export PGPASSWORD="[REDACTED:secret]"`},
		{`echo "Hi "$USER && mysql -u root --password="Hunter2xyz"`, `echo "Hi "$USER && mysql -u root --password="[REDACTED:secret]"`},
		{"echo 'Welcome '$USER; export PGPASSWORD='Hunter2xyz'", "echo 'Welcome '$USER; export PGPASSWORD='[REDACTED:secret]'"},
		{"x=' '$y; PGPASSWORD='Hunter2xyz'", "x=' '$y; PGPASSWORD='[REDACTED:secret]'"},
		{`console.log("Connecting as "+user); const password = "Hunter2xyz!";`, `console.log("Connecting as "+user); const password = "[REDACTED:secret]";`},
		{`puts "="*40; password = "Tr0ub4dor3xx"`, `puts "="*40; password = "[REDACTED:secret]"`},
		{`s = " "+a; client_secret: "Hunter2xyz!Hunter2xyz"`, `s = " "+a; client_secret: "[REDACTED:secret]"`},
		{"Send 'em the login, password: 'Hunter2xyz'", "Send 'em the login, password: '[REDACTED:secret]'"},
		{"Don't rotate 'til Friday: DB_PASSWORD='Hunter2xyz'", "Don't rotate 'til Friday: DB_PASSWORD='[REDACTED:secret]'"},
		{"'cause prod broke, I set PGPASSWORD='Hunter2xyz'", "'cause prod broke, I set PGPASSWORD='[REDACTED:secret]'"},
		{"Since '24 the admin password is 'Hunter2xyz'", "Since '24 the admin password is '[REDACTED:secret]'"},
		// h-v96 b1: a quote of the other kind inside a string, a typographic
		// close, an unclosed quote in a sentence, more elisions.
		{`tr -d ' "' < a.csv > b.csv && PGPASSWORD="Summer2024!" psql`, `tr -d ' "' < a.csv > b.csv && PGPASSWORD="[REDACTED:secret]" psql`},
		{`sed 's/,"/,/g' a.csv && PGPASSWORD="Summer2024!" psql`, `sed 's/,"/,/g' a.csv && PGPASSWORD="[REDACTED:secret]" psql`},
		{`line.split(',"'); const password = "Summer2024!";`, `line.split(',"'); const password = "[REDACTED:secret]";`},
		{"the \"prod\u201d db: DB_PASSWORD=\"Summer2024!\"", "the \"prod\u201d db: DB_PASSWORD=\"[REDACTED:secret]\""},
		{"Bob said 'hi. Password: 'Summer2024!'", "Bob said 'hi. Password: '[REDACTED:secret]'"},
		{"'cept prod, PGPASSWORD='Summer2024!'", "'cept prod, PGPASSWORD='[REDACTED:secret]'"},
		// h-v94 c6: a string opened out of the 256-byte window, or on an
		// earlier line, does not make the label a prompt.
		{"docker run -e MOTD='hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world ' -e POSTGRES_PASSWORD='Yt8uKn1Jw6Ov' postgres", "docker run -e MOTD='hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world ' -e POSTGRES_PASSWORD='[REDACTED:secret]' postgres"},
		{`docker run -e MOTD="hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world " -e POSTGRES_PASSWORD="Yt8uKn1Jw6Ov" postgres`, `docker run -e MOTD="hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world " -e POSTGRES_PASSWORD="[REDACTED:secret]" postgres`},
		{"git commit -m 'Fix login\n\nCloses #12' && PGPASSWORD='Yt8uKn1Jw6Ov' psql -h db", "git commit -m 'Fix login\n\nCloses #12' && PGPASSWORD='[REDACTED:secret]' psql -h db"},
		{"docker run -e MOTD='Welcome\nto prod' -e POSTGRES_PASSWORD='Yt8uKn1Jw6Ov' postgres", "docker run -e MOTD='Welcome\nto prod' -e POSTGRES_PASSWORD='[REDACTED:secret]' postgres"},
		{"psql -c \"select 1\n\" && PGPASSWORD=\"Yt8uKn1Jw6Ov\" pg_dump db", "psql -c \"select 1\n\" && PGPASSWORD=\"[REDACTED:secret]\" pg_dump db"},
		{"echo \"it's 5' tall\"; export PGPASSWORD='Yt8uKn1Jw6Ov'", "echo \"it's 5' tall\"; export PGPASSWORD='[REDACTED:secret]'"},
		{"export NOTE='hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world '; export PGPASSWORD='Yt8uKn1Jw6Ov'", "export NOTE='hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world hello world '; export PGPASSWORD='[REDACTED:secret]'"},
		{"JWT_SECRET=my-super-secret-key-123", "JWT_SECRET=[REDACTED:secret]"},
		{"| user | password |\n|---|---|\n| ci | ci-pass-2024 |", "| user | password |\n|---|---|\n| ci | [REDACTED:secret] |"},
		{"password: ftp://Xy7kQ9mN2pL4rT8vW1zA3bC5", "password: [REDACTED:secret]"},
		{`password: "%env(Hunter2x!9)%"`, `password: "[REDACTED:secret]"`},
		{`let pw = env::var("DB_PASSWORD").unwrap_or_else(|_| "Hunter2x!9".to_string());`, `let pw = env::var("DB_PASSWORD").unwrap_or_else(|_| "[REDACTED:secret]".to_string());`},
		// h-v34: unwrap_or after a '.'; a settings' get for a key that
		// names a secret; apostrophes after a digit, another script's letter,
		// a backtick; a value column headed by an environment or Default; a
		// bucket with no path; Swift's environment.
		{`let password = env::var("DB_PASSWORD").unwrap_or("Hunter2x!9".to_string());`, `let password = env::var("DB_PASSWORD").unwrap_or("[REDACTED:secret]".to_string());`},
		{`password = settings.get("DB_PASSWORD", "Sett!ngs77")`, `password = settings.get("DB_PASSWORD", "[REDACTED:secret]")`},
		{"on the S3's side, export PGPASSWORD='Pg!Pass9'", "on the S3's side, export PGPASSWORD='[REDACTED:secret]'"},
		{"José's db: export PGPASSWORD='Pg!Pass9'", "José's db: export PGPASSWORD='[REDACTED:secret]'"},
		{"`psql`'s env: PGPASSWORD='Pg!Pass9'", "`psql`'s env: PGPASSWORD='[REDACTED:secret]'"},
		{"the '90s box: PGPASSWORD='Pg!Pass9'", "the '90s box: PGPASSWORD='[REDACTED:secret]'"},
		{"| Variable | Dev | Prod |\n|---|---|---|\n| DB_PASSWORD | Hunter2x!9 | (vault) |", "| Variable | Dev | Prod |\n|---|---|---|\n| DB_PASSWORD | [REDACTED:secret] | (vault) |"},
		{"| Variable | Default |\n|---|---|\n| DB_PASSWORD | Hunter2x!9 |", "| Variable | Default |\n|---|---|\n| DB_PASSWORD | [REDACTED:secret] |"},
		{"password: s3://Xy7kQ9mN2pL4rT8vW1zA3bC5", "password: [REDACTED:secret]"},
		{`let password = ProcessInfo.processInfo.environment["DB_PASSWORD"] ?? "Swift!42x"`, `let password = ProcessInfo.processInfo.environment["DB_PASSWORD"] ?? "[REDACTED:secret]"`},
		{"cfg.password = Hunter2x9", "cfg.password = [REDACTED:secret]"},
		{"spring.datasource.password = mysecretpw", "spring.datasource.password = [REDACTED:secret]"},
		{`dsn := "app:Go9xPw!qz@tcp(db:3306)/app?parseTime=true"`, `dsn := "app:[REDACTED:url-password]@tcp(db:3306)/app?parseTime=true"`},
		{"DATABASE_DSN=app:Go9xPw!qz@tcp(127.0.0.1:3306)/app", "DATABASE_DSN=app:[REDACTED:url-password]@tcp(127.0.0.1:3306)/app"},
		{"see ada:mypw@tcpx(y)", "see ada:mypw@tcpx(y)"},
		{"db.password=hunterpw", "db.password=[REDACTED:secret]"},
		// h-v36: a token in a URL with a path; a header's first word; a dotted
		// key, getattr and configparser's fallback; a label whose value is
		// another label's assignment.
		{"token: tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/987654", "token: [REDACTED:secret]"},
		{"| Variable | Local dev |\n|---|---|\n| DB_PASSWORD | Hunter2x!9 |", "| Variable | Local dev |\n|---|---|\n| DB_PASSWORD | [REDACTED:secret] |"},
		{`password = settings.get("database.password", "Hunter2x!9")`, `password = settings.get("database.password", "[REDACTED:secret]")`},
		{`password = getattr(settings, "DB_PASSWORD", "Hunter2x!9")`, `password = getattr(settings, "DB_PASSWORD", "[REDACTED:secret]")`},
		{`pw = config.get("db", "password", fallback="Hunter2x!9")`, `pw = config.get("db", "password", fallback="[REDACTED:secret]")`},
		{"db secret: PGPASSWORD='Hunter2x9' psql -h db", "db secret: PGPASSWORD='[REDACTED:secret]' psql -h db"},
		// h-v37: a URL with its user under a label keeps its host; a row's
		// name across its value columns; configparser's section; a key with a
		// '-'; a header's first word before '-'.
		{"MONGO_PASSWORD=mongodb://root:Sw!ft42xQ@mongo-primary:27017/admin", "MONGO_PASSWORD=mongodb://root:[REDACTED:url-password]@mongo-primary:27017/admin"},
		{"| Key | Dev | Staging | Prod |\n|---|---|---|---|\n| DB_PASSWORD | Dev!pass42 | Stg!pass42 | Prd!pass77 |\n| LOG_LEVEL | debug | info | warn |", "| Key | Dev | Staging | Prod |\n|---|---|---|---|\n| DB_PASSWORD | [REDACTED:secret] | [REDACTED:secret] | [REDACTED:secret] |\n| LOG_LEVEL | debug | info | warn |"},
		{`password = parser["db"].get("password", fallback="Hunter2x9!Cd")`, `password = parser["db"].get("password", fallback="[REDACTED:secret]")`},
		{`password = settings.get("db-password", "Hunter2x9!Cd")`, `password = settings.get("db-password", "[REDACTED:secret]")`},
		{"| Variable | Prod-EU |\n|---|---|\n| DB_PASSWORD | Hunter2x!9 |", "| Variable | Prod-EU |\n|---|---|\n| DB_PASSWORD | [REDACTED:secret] |"},
		{"webhook_token: discord://1180000000000000000/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "webhook_token: [REDACTED:secret]"},
		{"notify_token: pover://uQiRzpo4DXghDmr9QzzfQu27cmVRsG@Tq9xLmW2vB8nK4pZr7sAbCd", "notify_token: [REDACTED:secret]"},
		{"the password, as agreed, is correct horse battery staple", "the password, as agreed, is [REDACTED:secret]"},
		{"<b>Passphrase:</b><br>correct horse battery staple", "<b>Passphrase:</b><br>[REDACTED:secret]"},
		{"the password for user `admin` has been changed to Pw56x!Kq9", "the password for user `admin` has been changed to [REDACTED:secret]"},
		{"the password was just changed to Pw55x!Kq9", "the password was just changed to [REDACTED:secret]"},
		{"<p><b>Password:</b><br>Pw41x!Kq9</p>", "<p><b>Password:</b><br>[REDACTED:secret]</p>"},
		{`<b>Password:</b> <font face="Courier New">Pw42x!Kq9</font>`, `<b>Password:</b> <font face="Courier New">[REDACTED:secret]</font>`},
		{"DB_PASSWORD=(Pw43x!Kq9", "DB_PASSWORD=[REDACTED:secret]"},
		{`{"user": "app", "password": "<Pw44x!Kq9"}`, `{"user": "app", "password": "[REDACTED:secret]"}`},
		{"the password is (xK9#mQ2!vL", "the password is [REDACTED:secret]"},
		{"password changed: <code>Pw45x!Kq9</code>", "password changed: <code>[REDACTED:secret]</code>"},
		{"the password for prod has been changed to Pw46x!Kq9", "the password for prod has been changed to [REDACTED:secret]"},
		{"the password for prod is now Pw21x!Kq9", "the password for prod is now [REDACTED:secret]"},
		{"the staging password is now set to Pw22x!Kq9", "the staging password is now set to [REDACTED:secret]"},
		// h-v95 b5: a modal verb, an identifier after a verb of change.
		{"Set DB_PASSWORD to Summer2024!", "Set DB_PASSWORD to [REDACTED:secret]"},
		{"Set `DB_PASSWORD` to Summer2024! in CI.", "Set `DB_PASSWORD` to [REDACTED:secret] in CI."},
		{"**DB_PASSWORD** should be Summer2024!", "**DB_PASSWORD** should be [REDACTED:secret]"},
		{"I set dbPassword to hunter2xyz today", "I set dbPassword to [REDACTED:secret] today"},
		{"set POSTGRES_PASSWORD to 'Tr0ub4dor&3'", "set POSTGRES_PASSWORD to '[REDACTED:secret]'"},
		{"DB_PASSWORD should be Summer2024!", "DB_PASSWORD should be [REDACTED:secret]"},
		{"the password should be Summer2024!", "the password should be [REDACTED:secret]"},
		{"DB_PASSWORD needs to be Summer2024!", "DB_PASSWORD needs to be [REDACTED:secret]"},
		{"the admin password must now be \"Wombat9$zz\"", "the admin password must now be \"[REDACTED:secret]\""},
		{"DB_PASSWORD should be rotated monthly", "DB_PASSWORD should be rotated monthly"},
		{"DB_PASSWORD should be set in the env", "DB_PASSWORD should be set in the env"},
		{"Set DB_PASSWORD to the value from vault", "Set DB_PASSWORD to the value from vault"},
		{"the password must be at least 12 characters", "the password must be at least 12 characters"},
		{"DB_PASSWORD should be ${DB_PASSWORD}", "DB_PASSWORD should be ${DB_PASSWORD}"},
		{"Pass DB_PASSWORD to the container", "Pass DB_PASSWORD to the container"},
		{"the admin password is still admin123", "the admin password is still [REDACTED:secret]"},
		{"the password has now been changed to Hunter2x!", "the password has now been changed to [REDACTED:secret]"},
		{"- password changed from Pw31x!Kq9 -> Nw31z$Lm4", "- password changed from [REDACTED:secret]"},
		{"- DB password changed: `Pw23x!Kq9`", "- DB password changed: `[REDACTED:secret]`"},
		{"the password was changed: Pw26x!Kq9", "the password was changed: [REDACTED:secret]"},
		{"<b>Password changed:</b> Hunter2x!", "<b>Password changed:</b> [REDACTED:secret]"},
		{"<p>Password:&nbsp;<b>Pw33x!Kq9</b></p>", "<p>Password:&nbsp;<b>[REDACTED:secret]</b></p>"},
		{"Password:&#xA0;Pw27x!Kq9", "Password:&#xA0;[REDACTED:secret]"},
		{"password changed from Hunter2x! to\nWombat9$zz", "password changed from [REDACTED:secret] to\nWombat9$zz"},
		{"password: %Hunter2x", "password: [REDACTED:secret]"},
		{"POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-$(cat /run/pw)}x", "POSTGRES_PASSWORD: [REDACTED:secret]"},
		{"the staging password now is Pw06x!Kq9", "the staging password now is [REDACTED:secret]"},
		{"the password is currently still Hunter2x!", "the password is currently still [REDACTED:secret]"},
		{`the password now is "Hunter2x!"`, `the password now is "[REDACTED:secret]"`},
		{"<b>Password:</b>&nbsp;Hunter2x!", "<b>Password:</b>&nbsp;[REDACTED:secret]"},
		{"my password is&nbsp;Hunter2x!", "my password is&nbsp;[REDACTED:secret]"},
		{"<p><strong>Password</strong>: Pw03x!Kq9</p>", "<p><strong>Password</strong>: [REDACTED:secret]</p>"},
		{"<b>Mot de passe :</b> Pw04x!Kq9", "<b>Mot de passe :</b> [REDACTED:secret]"},
		{"(password changed from Pw07x!Kq9)", "(password changed from [REDACTED:secret])"},
		{"the password got changed from Pw08x!Kq9 to Wombat9$zz", "the password got changed from [REDACTED:secret]"},
		{`The password was changed from "Hunter2x!" to "Wombat9$zz".`, `The password was changed from "[REDACTED:secret]".`},

		{"my passphrase is setting sun over hills", "my passphrase is [REDACTED:secret]"},
		{`<property name="password" value="Hunter2xQ"/>`, `<property name="password" value="[REDACTED:secret]"/>`},
		{"<password><![CDATA[hunter2xyz]]></password>", "<password><![CDATA[[REDACTED:secret]]]></password>"},
		{"- here is the key: -----BEGIN RSA PRIVATE KEY-----\n  MIIEowIBAAKCAQEAexampleEXAMPLE0123\n- The billing cron runs at 03:00 UTC\n", "- here is the key: [REDACTED:private-key]\n- The billing cron runs at 03:00 UTC\n"},
		{"-----BEGIN RSA PRIVATE KEY-----\r\nProc-Type: 4,ENCRYPTED\r\n\r\n> MIIEowIBAAKCAQEAexampleEXAMPLE0123 (cut)\r\nabc==\r\n\r\nThat was all.\r\n", "[REDACTED:private-key]\r\n"},
		{"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA==\n", "[REDACTED:private-key]\n"},
		{"const key = \"-----BEGIN RSA PRIVATE KEY-----\\n\" +\n  \"MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789\\n\" +\n  \"Zr8Yk2LmNpQrStUvWxYz0123456789abcdefABCDEFGH\\n\";\nrest()", "const key = \"[REDACTED:private-key]"},
		{"-----BEGIN RSA PRIVATE KEY-----\n1. MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123\n; Zr8Yk2LmNpQrStUvWxYz0123456789abcdefABCDEF\n\n## Notes\n- ConfigurationManager loads settings from env\n- Version: 3 of the API is live\n", "[REDACTED:private-key]\n\n## Notes\n- ConfigurationManager loads settings from env\n- Version: 3 of the API is live\n"},
		{"- grep for -----BEGIN OPENSSH PRIVATE KEY----- to find leaked keys\n- Internationalization is handled by i18next\n", "- grep for [REDACTED:private-key]\n- Internationalization is handled by i18next\n"},
		{"KEY = \"-----BEGIN RSA PRIVATE KEY-----\\n\"  # TODO SEND via vault\n      \"MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789abcdefABCDEFGH\\n\"\n", "KEY = \"[REDACTED:private-key]\n"},
		{"lines = [\n  \"-----BEGIN RSA PRIVATE KEY-----\",\n  \"MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789abcdefABCDEFGH\",\n]\n", "lines = [\n  \"[REDACTED:private-key]\n"},
		{"- Never commit `-----BEGIN OPENSSH PRIVATE KEY-----` files; use the vault instead\n  continuation\n- next note\n", "- Never commit `[REDACTED:private-key]` files; use the vault instead\n  continuation\n- next note\n"},
		{"> -----BEGIN RSA PRIVATE KEY-----\n> MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789abcdefABCDEFGH\n> ## KEEPME\n> - KEEPME item\n", "> [REDACTED:private-key]\n> ## KEEPME\n> - KEEPME item\n"},
		{"password changed to Kim1990.12", "password changed to [REDACTED:secret]"},
		{"keys/id_rsa:1: -----BEGIN RSA PRIVATE KEY-----\nkeys/id_rsa-2- MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789\nkeys/id_rsa-3- Qw7e/Rt9yUiOpAsDfGhJkLzXcVbNm1234567890qwerty\n", "keys/id_rsa:1: [REDACTED:private-key]\n"},
		{"+-----BEGIN RSA PRIVATE KEY-----\n+Proc-Type: 4,ENCRYPTED\n+DEK-Info: AES-128-CBC,0123456789ABCDEF\n+\n+MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789\n## next\n", "+[REDACTED:private-key]\n## next\n"},
		{"KEY = (\n    b\"-----BEGIN RSA PRIVATE KEY-----\\n\"\n    b\"MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789\\n\"\n)\n- next\n", "KEY = (\n    b\"[REDACTED:private-key]\n- next\n"},
		{`value="-----BEGIN RSA PRIVATE KEY-----\r\nMIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789"`, `value="[REDACTED:private-key]`},
		{"2024-05-01T10:00:00Z -----BEGIN RSA PRIVATE KEY-----\n2024-05-01T10:00:00Z MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123456789\n", "2024-05-01T10:00:00Z [REDACTED:private-key]\n"},
		{"if bytes.HasPrefix(data, []byte(\"-----BEGIN RSA PRIVATE KEY-----\")) {\n\tkey, err = parsePKCS1PrivateKey()\n}\n", "if bytes.HasPrefix(data, []byte(\"[REDACTED:private-key]\")) {\n\tkey, err = parsePKCS1PrivateKey()\n}\n"},
		{"-----BEGIN RSA PRIVATE KEY----- MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123 Zr8Yk2Lm\n- next", "[REDACTED:private-key]\n- next"},
		{"-----BEGIN RSA PRIVATE KEY----- \nRCCCPP3m8cJrMPkOx90B5Ih1NKIPCw0Ew27YDnHg/XewdnDrlAvVM1+XParYYZuR\n/8kR9XzO1Fi7vyzgN1PJvfoP8BadyVdWdAZmds+wtOuJAsRCadoc9rpm0/i21LEA\n- next note", "[REDACTED:private-key]\n- next note"},
		{"| key | -----BEGIN RSA PRIVATE KEY----- |\n| | RCCCPP3m8cJrMPkOx90B5Ih1NKIPCw0Ew27YDnHg/XewdnDrlAvVM1+XParYYZuR |\n\n## Next", "| key | [REDACTED:private-key]\n\n## Next"},
		{"<td>-----BEGIN RSA PRIVATE KEY-----<br>\n<td>RCCCPP3m8cJrMPkOx90B5Ih1NKIPCw0Ew27YDnHg/XewdnDrlAvVM1</td>\n- next", "<td>[REDACTED:private-key]\n- next"},
		{"- The scanner rejects any file that starts with -----BEGIN RSA PRIVATE KEY-----\n  src/main/java/com/acme/KeyScanner.java has the check\n- KEEPME\n", "- The scanner rejects any file that starts with [REDACTED:private-key]\n- KEEPME\n"},
		{"Example PEM begins -----BEGIN RSA PRIVATE KEY-----\n1. UploadTheCertificate2 to the portal\n", "Example PEM begins [REDACTED:private-key]\n1. UploadTheCertificate2 to the portal\n"},
		{`password changed to "Tr0ub4dor&3"`, `password changed to "[REDACTED:secret]"`},
		{"password reset to `Xk9#mQ2v` for the staging box", "password reset to `[REDACTED:secret]` for the staging box"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAexampleEXAMPLE0123\n-----END RSA PRIVATE KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCnotAKeyButLongEnough\n", "[REDACTED:private-key]\nMIIBIjANBgkqhkiG9w0BAQEFAAOCnotAKeyButLongEnough\n"},
		{"     1\t-----BEGIN RSA PRIVATE KEY-----\n     2\tMIIEowIBAAKCAQEAexampleEXAMPLE0123\n     3\tkl+mnEXAMPLE==\n", "     1\t[REDACTED:private-key]\n"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAexampleEXAMPLE0123\n[...]\nMII EowIB AAKC\nkl+mnEXAMPLEexampleEXAMPLE01==\n\nDecision: we use ed25519 now.\nReason: shorter keys.\nhttps://wiki.example.com/keys\nMIIEowIBAAKCAQEAexampleEXAMPLE0123\n", "[REDACTED:private-key]\n"},
		{"A: -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAexampleEXAMPLE0123\nB: -----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIexampleEXAMPLE0123456789\n- notes\n", "A: [REDACTED:private-key]\n- notes\n"},
		{"<password><![CDATA[p]ss]word!]]></password>", "<password><![CDATA[[REDACTED:secret]]]></password>"},
		{`<password xmlns="http://example.com/ns">Hunter2x!</password>`, `<password xmlns="http://example.com/ns">[REDACTED:secret]</password>`},
		{`<wsse:Password Type="http://docs.oasis-open.org/x#PasswordText">Hunter2x!</wsse:Password>`, `<wsse:Password Type="http://docs.oasis-open.org/x#PasswordText">[REDACTED:secret]</wsse:Password>`},
		{`<ns:password xmlns:ns="urn:x">Hunter2x!</ns:password>`, `<ns:password xmlns:ns="urn:x">[REDACTED:secret]</ns:password>`},
		{`<password type='a>b'>Hunter2x!</password>`, `<password type='a>b'>[REDACTED:secret]</password>`},
		{`<password type="text">hunter2x</password>`, `<password type="text">[REDACTED:secret]</password>`},
		{"<password >hunter2x</password>", "<password >[REDACTED:secret]</password>"},
		{`<add value="hunter2x" key="DbPassword"/>`, `<add value="[REDACTED:secret]" key="DbPassword"/>`},
		{`<add key="DbPassword"  value = "hunter2x"/>`, `<add key="DbPassword"  value = "[REDACTED:secret]"/>`},
		{`<input type="password" name="pw" value="Zq8vPw3nKx7L">`, `<input type="password" name="pw" value="[REDACTED:secret]">`},
		{`<meta name="api-key" content="Zq8vPw3nKx7L">`, `<meta name="api-key" content="[REDACTED:secret]">`},
		{`<input value="Zq8vPw3nKx7L" type="password" name="pw">`, `<input value="[REDACTED:secret]" type="password" name="pw">`},
		{`<meta content="Zq8vPw3nKx7L" name="api-key">`, `<meta content="[REDACTED:secret]" name="api-key">`},
		{`<meta property="api-key" content="Zq8vPw3nKx7L">`, `<meta property="api-key" content="[REDACTED:secret]">`},
		{`<meta property="og:title" content="Zq8vPw3nKx7L">`, `<meta property="og:title" content="Zq8vPw3nKx7L">`},
		{`<input type="password" name="pw" placeholder="Password">`, `<input type="password" name="pw" placeholder="Password">`},
		{`<add key = "DbPassword" value="hunter2x"/>`, `<add key = "DbPassword" value="[REDACTED:secret]"/>`},
		{`<password xsi:nil="true"/> is empty</p>`, `<password xsi:nil="true"/> is empty</p>`},
		{"openssl enc -aes-256-cbc -k Pa32wordEXAMPLE -in a", "openssl enc -aes-256-cbc -k [REDACTED:secret] -in a"},
		{"openssl enc -aes-256-cbc -kfile pw.txt -in a", "openssl enc -aes-256-cbc -kfile pw.txt -in a"},
		{"keytool -importkeystore -srcstorepass Pa33wordEXAMPLE -destkeystore k.p12", "keytool -importkeystore -srcstorepass [REDACTED:secret] -destkeystore k.p12"},
		{"keytool -list -storepass:env STOREPASS", "keytool -list -storepass:env STOREPASS"},
		{"jarsigner -keystore k.jks -storepass Pa34wordEXAMPLE -keypass Pa35wordEXAMPLE app.apk key0", "jarsigner -keystore k.jks -storepass [REDACTED:secret] -keypass [REDACTED:secret] app.apk key0"},
		{"keytool -genkey -storepass Pa38wordEXAMPLE -keypass Pa39wordEXAMPLE", "keytool -genkey -storepass [REDACTED:secret] -keypass [REDACTED:secret]"},
		{"twine upload -u ada -p Pa37wordEXAMPLE dist/*", "twine upload -u ada -p [REDACTED:secret] dist/*"},
		{"requirepass Pa34wordEXAMPLE", "requirepass [REDACTED:secret]"},
		{"redis-cli CONFIG SET masterauth Pa35wordEXAMPLE", "redis-cli CONFIG SET masterauth [REDACTED:secret]"},
		{"# requirepass foobared", "# requirepass foobared"},
		{"requirepass $REDIS_PASSWORD", "requirepass $REDIS_PASSWORD"},
		{"ssh-keygen -p -P old1pass -f key", "ssh-keygen -p -P [REDACTED:secret] -f key"},
		{`ssh-keygen -t ed25519 -N "" -f key`, `ssh-keygen -t ed25519 -N "" -f key`},
		{"ssh -N -L 8080:db:5432 host", "ssh -N -L 8080:db:5432 host"},
		{"echo Pb03wordEXAMPLE | sudo -S apt update", "echo [REDACTED:secret] | sudo -S apt update"},
		{"echo 'two words' | sudo -k -S true", "echo '[REDACTED:secret]' | sudo -k -S true"},
		{"echo hello | sudo tee /etc/motd", "echo hello | sudo tee /etc/motd"},
		{"echo Pa91wordEXAMPLEtoken | gh auth login --with-token", "echo [REDACTED:secret] | gh auth login --with-token"},
		{"echo done | sort -S 1G", "echo done | sort -S 1G"},
		{"sudo -S <<< Pb02wordEXAMPLE", "sudo -S <<< [REDACTED:secret]"},
		{"npm config set //registry.npmjs.org/:_authToken Pa92wordEXAMPLEtoken", "npm config set //registry.npmjs.org/:_authToken [REDACTED:secret]"},
		{"aws configure set aws_secret_access_key Pa96wordEXAMPLEkeyValue0123456789abcdefgh", "aws configure set aws_secret_access_key [REDACTED:secret]"},
		{"git config github.token Pa93wordEXAMPLE", "git config github.token [REDACTED:secret]"},
		{"npm config set registry https://r.example", "npm config set registry https://r.example"},
		{"aws configure set region eu-west-1", "aws configure set region eu-west-1"},
		{"git config --global github.token Pa93wordEXAMPLE", "git config --global github.token [REDACTED:secret]"},
		{"npm config set '//registry.npmjs.org/:_authToken' Pa92wordEXAMPLE", "npm config set '//registry.npmjs.org/:_authToken' [REDACTED:secret]"},
		{"kubectl config set-credentials ada --token=$TOKEN", "kubectl config set-credentials ada --token=$TOKEN"},
		{"echo Pb03wordEXAMPLE | sudo -kS apt update", "echo [REDACTED:secret] | sudo -kS apt update"},
		{"printf 'Pb03wordEXAMPLE\\n' | sudo --stdin true", "printf '[REDACTED:secret]' | sudo --stdin true"},
		{"sudo -Sk <<< Pb02wordEXAMPLE", "sudo -Sk <<< [REDACTED:secret]"},
		{"echo y | sudo pacman -Syu", "echo y | sudo pacman -Syu"},
		{"sudo ls -lS /var/log <<< x", "sudo ls -lS /var/log <<< x"},
		{"git config --get github.token | cat", "git config --get github.token | cat"},
		{"git config --global --unset credential.password && echo done", "git config --global --unset credential.password && echo done"},
		{"gh auth login --with-token <<< Pa91wordEXAMPLEtoken", "gh auth login --with-token <<< [REDACTED:secret]"},
		{`docker login -u ada --password-stdin <<< "two words"`, `docker login -u ada --password-stdin <<< "[REDACTED:secret]"`},
		{"sudo -S <<< $PW", "sudo -S <<< $PW"},
		{"grep x <<< hello; sudo ls", "grep x <<< hello; sudo ls"},
	} {
		if got, _ := String(tt.in); got != tt.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// A format character (a zero-width space, a joiner, a soft hyphen, a
// byte-order mark) inside a secret or its label hides nothing: the text is
// matched without them, and the mark covers them too.
func TestFormatCharactersDoNotHideASecret(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"push with ghp_abcdefghij\u200bklmnopqrstuvwxyz0123456789", "push with [REDACTED:github-token]"},
		{"push with ghp_abcdefghij\U0001D173klmnop\u17b4qrstuvwxyz\U000E0002\ufff00123456789", "push with [REDACTED:github-token]"}, // h-v93 c8
		{"\u200bghp_abcdefghijklmnopqrstuvwxyz0123456789\u200b.", "\u200b[REDACTED:github-token]\u200b."},
		{"DB_PASS\u200dWORD=hunter22x", "DB_PASS\u200dWORD=[REDACTED:secret]"},
		{"my pass\u00adword is hunter2x9", "my pass\u00adword is [REDACTED:secret]"},
		{"\ufeffpassword=hunter22x\n", "\ufeffpassword=[REDACTED:secret]\n"},
		{"AKIA\u2060ABCDEFGHIJKLMNOP", "[REDACTED:aws-key]"},
		{"a zero\u200bwidth space in prose", "a zero\u200bwidth space in prose"},
	} {
		if got, _ := String(tt.in); got != tt.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if Contains(tt.in) != (tt.in != tt.want) {
			t.Errorf("Contains(%q) = %v", tt.in, Contains(tt.in))
		}
	}
}

// A control character or an escape sequence inside a secret, or touching
// it, hides nothing: every exit removes them (marker.Plain), so the text
// shown would hold the secret whole. The mark covers them too.
func TestControlsAndEscapeSequencesDoNotHideASecret(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"- key \x1b[32mAKIAIOSFODNN7EXAMPLE\x1b[0m here", "- key \x1b[32m[REDACTED:aws-key]\x1b[0m here"},
		{"- split AKIAIOSF\x01ODNN7EXAMPLE", "- split [REDACTED:aws-key]"},
		{"AKIAIOSF\x07ODNN7EXAMPLE", "[REDACTED:aws-key]"},
		{"AKIAIOSF\x7fODNN7EXAMPLE", "[REDACTED:aws-key]"},
		{"AKIAIOSF\u0085ODNN7EXAMPLE", "[REDACTED:aws-key]"},
		{"AKIAIOSF\u009b1mODNN7EXAMPLE", "[REDACTED:aws-key]"},
		{"AKIAIOSF\x1b]52;c;aGk=\x07ODNN7EXAMPLE", "[REDACTED:aws-key]"},
		{"billing uses \x1b[1msk_live_4eC39HqLyjWDarjtT1zdp7dc\x1b[0m", "billing uses \x1b[1m[REDACTED:stripe-key]\x1b[0m"},
		{"pass\x1b[1mword=hunter22x", "pass\x1b[1mword=[REDACTED:secret]"},
		{"a\x1b[31mred\x1b[0m word in prose\r\n", "a\x1b[31mred\x1b[0m word in prose\r\n"},
		// A sequence whose last byte starts the secret: a terminal shows
		// "hp_…", a model reading the bytes "ghp_…" (FuzzToolTurn, CI
		// 2026-11-30). Either reading is marked, and the mark takes the
		// control (after it, "\x1b[REDACTED:" would be ESC [ R on a screen).
		{"old\x00@\x1bghp_EXAMPLEexample0123456789EXAMPLEexamp", "old\x00@[REDACTED:github-token]"},
		{"\x1b[ghp_EXAMPLEexample0123456789EXAMPLEexamp", "[REDACTED:github-token]"},
		{"\u009bghp_EXAMPLEexample0123456789EXAMPLEexamp!", "[REDACTED:github-token]!"},
		{"key \x1bAKIAIOSFODNN7EXAMPLE", "key [REDACTED:aws-key]"},
		{"key \x1b[1mAKIAIOSFODNN7EXAMPLE and \x1bghp_EXAMPLEexample0123456789EXAMPLEexamp", "key \x1b[1m[REDACTED:aws-key] and [REDACTED:github-token]"},
		{"\x1b7saved\x1b8 and \x1b[2Jcleared", "\x1b7saved\x1b8 and \x1b[2Jcleared"},
		// A colour's sequence has parameters: read one way, the mark
		// between the codes (not after an ESC, where "[R" would be CSI).
		{"password=\x1b[33mHunter2x9\x1b[0m for staging", "password=\x1b[33m[REDACTED:secret]\x1b[0m for staging"},
		// Controls stacked before a glued one, or a sequence left open:
		// the mark takes them too (h-v42).
		{"pasted \x1b\x1bghp_EXAMPLEexample0123456789EXAMPLEexamp in", "pasted [REDACTED:github-token] in"},
		{"T=\x1b%\x1bghp_EXAMPLEexample0123456789EXAMPLEexamp set", "T=[REDACTED:github-token] set"},
		{"token \x1b[1;31\u009bghp_EXAMPLEexample0123456789EXAMPLEexamp ok", "token [REDACTED:github-token] ok"},
	} {
		if got, _ := String(tt.in); got != tt.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// A secret spelled in full-width letters, percent-encoded or as a \u escape
// reads, and pastes or decodes, as the secret: the plain text is matched,
// and the mark covers the spelling.
func TestOtherSpellingsDoNotHideASecret(t *testing.T) {
	tok := "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	for _, tt := range []struct{ in, want string }{
		{"ｐａｓｓｗｏｒｄ: hunter2x", "ｐａｓｓｗｏｒｄ: [REDACTED:secret]"},
		{"ｐａｓｓｗｏｒｄ：ｈｕｎｔｅｒ２ｘ", "ｐａｓｓｗｏｒｄ：[REDACTED:secret]"},
		{"push with ｇｈｐ＿abcdefghijklmnopqrstuvwxyz0123456789 now", "push with [REDACTED:github-token] now"},
		{"url ?t=ghp%5Fabcdefghijklmnopqrstuvwxyz0123456789&x=1", "url ?t=[REDACTED:github-token]&x=1"},
		{"password%3Dhunter22x", "password%3D[REDACTED:secret]"},
		{`{"t":"\u0067hp_abcdefghijklmnopqrstuvwxyz0123456789"}`, `{"t":"[REDACTED:github-token]"}`},
		{`\u0067\u0068\u0070_abcdefghijklmnopqrstuvwxyz0123456789`, "[REDACTED:github-token]"},
		{tok[:10] + "%6B" + tok[11:] + ".", "[REDACTED:github-token]."},
		{"AKIA%41BCDEFGHIJKLMNOP", "[REDACTED:aws-key]"},
		// A string inside a string, as aws secretsmanager prints one, and
		// JSON's escaped slashes; a value's own escaped quote stays in it.
		{`{"SecretString":"{\"username\":\"app\",\"password\":\"Hunter2x!\"}"}`, `{"SecretString":"{\"username\":\"app\",\"password\":\"[REDACTED:secret]\"}"}`},
		{`{"url":"postgres:\/\/app:S3cretPw@db\/app"}`, `{"url":"postgres:\/\/app:[REDACTED:url-password]@db\/app"}`},
		{`{"password": "p@ss\"wordEXAMPLE"}`, `{"password": "[REDACTED:secret]"}`},
		// Three levels: a docker log line of an app that logs JSON.
		{`{"log":"{\"body\":\"{\\\"password\\\":\\\"Hunter2x!\\\"}\"}\n"}`, `{"log":"{\"body\":\"{\\\"password\\\":\\\"[REDACTED:secret]\\\"}\"}\n"}`},
		{`{"a":{"password":123456}}`, `{"a":{"password":[REDACTED:secret]}}`},
		{`printf("He said \"hi\" to the password reset page\n"); x = "a\\"`, `printf("He said \"hi\" to the password reset page\n"); x = "a\\"`},
		// Text that only looks encoded stays as it is.
		{"a 100%fine build, 50%OFF, \\u00zz and \\u0007 and ％ alone", "a 100%fine build, 50%OFF, \\u00zz and \\u0007 and ％ alone"},
		{"ｆｕｌｌ－ｗｉｄｔｈ prose", "ｆｕｌｌ－ｗｉｄｔｈ prose"},
	} {
		if got, _ := String(tt.in); got != tt.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if Contains(tt.in) != (tt.in != tt.want) {
			t.Errorf("Contains(%q) = %v", tt.in, Contains(tt.in))
		}
	}
}

// A text of many spellings and many findings maps each finding back to
// where it is (original): each finds the bytes cut before it by binary
// search, as the loop over every cut before it did (a line of "密码：123456"
// again and again, 4 MB, took 71 s with that loop; time quadratic in the
// text). A fold and a format run at one position, around findings.
func TestManySpellingsAndFindingsMapBackToTheirPlace(t *testing.T) {
	unit := "密码：１２３４５６\u200b密码:123456 x%41 "
	want := "密码：[REDACTED:secret]\u200b密码:[REDACTED:secret] x%41 "
	in := strings.Repeat(unit, 20_000)
	if got, _ := String(in); got != strings.Repeat(want, 20_000) {
		t.Fatalf("String = %.200q", got)
	}
	p, cuts := plain(in[:len(unit)*3], false)
	for pos := 0; pos <= len(p); pos++ {
		for _, atStart := range []bool{true, false} {
			loop := 0
			for _, c := range cuts {
				if c.at > pos || !atStart && c.at == pos && !c.fold {
					break
				}
				loop += c.n
			}
			f := original([]Finding{{Start: pos, End: pos}}, cuts)[0]
			if got := map[bool]int{true: f.Start, false: f.End}[atStart] - pos; got != loop {
				t.Fatalf("at %d (start %v): %d bytes cut before, want %d", pos, atStart, got, loop)
			}
		}
	}
}

// Spellings a URL, a page or a string literal makes of a secret, beside the
// ones above: percent-encoding applied twice (a link in a link's query),
// \x, \U and \u{} escapes, and HTML character references.
func TestEncodedTwiceOrEscapedOtherwiseDoesNotHideASecret(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"next=%3Ft%3Dghp%255Fabcdefghijklmnopqrstuvwxyz0123456789%26x", "next=%3Ft%3D[REDACTED:github-token]%26x"},
		{"%2567hp_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED:github-token]"},
		{"%25252567hp_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED:github-token]"},
		{`b"\x67hp_abcdefghijklmnopqrstuvwxyz0123456789"`, `b"[REDACTED:github-token]"`},
		{`"\U00000067hp_abcdefghijklmnopqrstuvwxyz0123456789"`, `"[REDACTED:github-token]"`},
		{`"\u{67}hp_abcdefghijklmnopqrstuvwxyz0123456789"`, `"[REDACTED:github-token]"`},
		{"<p>&#x67;hp&#95;abcdefghijklmnopqrstuvwxyz0123456789</p>", "<p>[REDACTED:github-token]</p>"},
		{"password&#61;hunter22x", "password&#61;[REDACTED:secret]"},
		{"ｇ\u200b%2568\\x70&#x5F;abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED:github-token]"},
		// Text that only looks encoded stays as it is.
		{"100%25 done, %2525, \\x0a, \\U0067, \\u{110000}, &#x;, &#9; and &amp;", "100%25 done, %2525, \\x0a, \\U0067, \\u{110000}, &#x;, &#9; and &amp;"},
	} {
		if got, _ := String(tt.in); got != tt.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if Contains(tt.in) != (tt.in != tt.want) {
			t.Errorf("Contains(%q) = %v", tt.in, Contains(tt.in))
		}
	}
}

// A key that spans an entry's continuation lines leaves each of them with
// text: a blank line would end the entry, and the entry in the view would
// not be the entry in the file.
func TestLinesKeepsEveryLineThatHeldText(t *testing.T) {
	in := "- deploy key:\n  -----BEGIN RSA PRIVATE KEY-----\r\n  MIIEabc\n\n  -----END RSA PRIVATE KEY-----\n- next\n"
	want := "- deploy key:\n  [REDACTED:private-key]\r\n  [REDACTED:private-key]\n\n  [REDACTED:private-key]\n- next\n"
	if got, _ := Lines(in); got != want {
		t.Fatalf("Lines(%q)\n got %q\nwant %q", in, got, want)
	}
}

// A token split by a character that prints as nothing, or by a line
// separator, is found and its mark covers it (the closing check of issue 25:
// U+034F, the variation selectors, the Hangul fillers and U+2028 kept a
// GitHub token in the injected prompt).
func TestATokenSplitByAnInvisibleCharacterIsFound(t *testing.T) {
	tok := "ghp_u8jzPde0IgxLd6GncfBAepfJBd0123456789"
	for _, r := range []rune{0x34F, 0xFE00, 0xFE0F, 0x3164, 0x115F, 0x1160, 0xFFA0, 0x2028, 0x2029, 0xE0100, 0xE01EF, 0x200B} {
		if out, _ := String("key " + tok[:12] + string(r) + tok[12:] + " end"); out != "key [REDACTED:github-token] end" {
			t.Errorf("%U: %q", r, out)
		}
	}
}

// A text redacted in a buffer that held another text of the same length
// before is redacted as itself: a memo of where a key's END line was is
// kept only within one text's scan.
func TestAKeyInAReusedBufferIsRedactedAsItself(t *testing.T) {
	a := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123\n-----END RSA PRIVATE KEY-----\nnotes notes notes notes notes notes notes notes notes\n"
	b := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123\nNpQrStUvWxYz0123MIIEowIBAAKCAQEAx3Bq9Zr8Yk2Lm\n-----END RSA PRIVATE KEY-----\nnotes notes \n"
	if len(a) < len(b) {
		a = a[:len(a)-1] + strings.Repeat(" ", len(b)-len(a)) + "\n"
	} else {
		b = b[:len(b)-1] + strings.Repeat(" ", len(a)-len(b)) + "\n"
	}
	buf := []byte(a)
	String(unsafe.String(&buf[0], len(buf)))
	copy(buf, b)
	got, _ := String(unsafe.String(&buf[0], len(buf)))
	want, _ := String(strings.Clone(b))
	if got != want || strings.Contains(got, "MIIE") {
		t.Errorf("String of a reused buffer = %q, want %q", got, want)
	}
}

// A label alone at a line's start and a quoted value ending the line is a
// call without parentheses (Gradle's signing block, Groovy's and Ruby's
// settings, SQL's PASSWORD clause); a bare word there is a variable's name,
// a reference or a call is code. A value glued to a redirect or an HTML
// element ends where they start (h-v63 B1/B2).
func TestALabelAndAQuotedValueAloneOnALineAndAGluedRedirect(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"storePassword 'Hunter2xyz'", "storePassword '[REDACTED:secret]'"},
		{"    keyPassword \"Hunter2xyz\"", "    keyPassword \"[REDACTED:secret]\""},
		{"DB_PASSWORD 'Hunter2xyz'", "DB_PASSWORD '[REDACTED:secret]'"},
		{"\tkeyPassword \"Hunter2xyz\";\r\nkeyAlias 'key0'", "\tkeyPassword \"[REDACTED:secret]\";\r\nkeyAlias 'key0'"},
		{"keyPassword \"Hunter2xyz\" // release", "keyPassword \"[REDACTED:secret]\" // release"},
		{"  storePassword \"correct horse battery\"", "  storePassword \"[REDACTED:secret]\""},
		{"config.api_key 'Zq8xw1Lk'", "config.api_key '[REDACTED:secret]'"},
		{"signingConfigs {\n  release {\n    storePassword 'Hunter2xyz'\n  }\n}", "signingConfigs {\n  release {\n    storePassword '[REDACTED:secret]'\n  }\n}"},
		// Code and prose keep their words.
		{"storePassword \"${System.getenv('STORE_PW')}\"", "storePassword \"${System.getenv('STORE_PW')}\""},
		{"storePassword System.getenv(\"STORE_PW\")", "storePassword System.getenv(\"STORE_PW\")"},
		{"keyPassword keystoreProperties['keyPassword']", "keyPassword keystoreProperties['keyPassword']"},
		{"  storePassword '${STORE_PW}'", "  storePassword '${STORE_PW}'"},
		{"  storePassword \"$storePw\"", "  storePassword \"$storePw\""},
		{"  password 'required'", "  password 'required'"},
		{"Token \"expired\"", "Token \"expired\""},
		{"keyAlias 'release'", "keyAlias 'release'"},
		{"echo storePassword 'Hunter2xyz' is set", "echo storePassword '[REDACTED:secret]' is set"},
		{"1. DB_PASSWORD 'Li7xQm2zz'", "1. DB_PASSWORD '[REDACTED:secret]'"},
		{"> storePassword 'Bq9xQm2zz'", "> storePassword '[REDACTED:secret]'"},
		{"signingConfigs { release { storePassword 'Br9xQm2zz' } }", "signingConfigs { release { storePassword '[REDACTED:secret]' } }"},
		{"DB_PASSWORD 'Kq9Zp2xLm' -- prod", "DB_PASSWORD '[REDACTED:secret]' -- prod"},
		{"keyPassword 'Cr8xQm2zz' \\\r\n", "keyPassword '[REDACTED:secret]' \\\r\n"},
		{"setenv DB_PASSWORD \"Kq9Zp2xLm\"", "setenv DB_PASSWORD \"[REDACTED:secret]\""},
		{"the passphrase \"must be long\" rule", "the passphrase \"must be long\" rule"},
		// Glued to a redirect or an element.
		{"foo --password Hunter2xyz<dump.sql", "foo --password [REDACTED:secret]<dump.sql"},
		{"psql --password Hunter2xyz</tmp/x.sql", "psql --password [REDACTED:secret]</tmp/x.sql"},
		{"foo --password Hunter2xyz<<EOF", "foo --password [REDACTED:secret]<<EOF"},
		{"foo --password Hunter2xyz<(cat f)", "foo --password [REDACTED:secret]<(cat f)"},
		{"my password Hunter2xyz<br>", "my password [REDACTED:secret]<br>"},
		{"the password Hunter2xyz<b>bold</b>", "the password [REDACTED:secret]<b>bold</b>"},
		{"mysql --password Q1wEr<Kq7Zp2Lm", "mysql --password [REDACTED:secret]"},
		{"passwd Ab5x<Kq7Zp2", "passwd [REDACTED:secret]"},
		{"set the password to Ab6x<Kq7Zp2", "set the password to [REDACTED:secret]"},
		{"password <%= @password %>", "password <%= @password %>"},
		// A secret's quoted name and a literal, a call's last arguments (h-v70 B2, B7).
		{`return os.environ.get("DB_PASSWORD", "Pw54x!Kq9")`, `return os.environ.get("DB_PASSWORD", "[REDACTED:secret]")`},
		{`os.getenv("DB_PASSWORD", "Kq9Zp2xLm")`, `os.getenv("DB_PASSWORD", "[REDACTED:secret]")`},
		{`ENV.fetch("DB_PASSWORD", "Pw54x!Kq9")`, `ENV.fetch("DB_PASSWORD", "[REDACTED:secret]")`},
		{`System.getenv().getOrDefault("DB_PASSWORD","Hunter2x!")`, `System.getenv().getOrDefault("DB_PASSWORD","[REDACTED:secret]")`},
		{`define('DB_PASSWORD', 'Kq9Zp2xLm');`, `define('DB_PASSWORD', '[REDACTED:secret]');`},
		{`x = process.env.DB_PASSWORD || "Pw54x!Kq9"`, `x = process.env.DB_PASSWORD || "[REDACTED:secret]"`},
		{`getenv("DB_PASSWORD") ?: "Hunter2x!"`, `getenv("DB_PASSWORD") ?: "[REDACTED:secret]"`},
		{`Environment.GetEnvironmentVariable("DB_PASSWORD") ?? "Hunter2x!"`, `Environment.GetEnvironmentVariable("DB_PASSWORD") ?? "[REDACTED:secret]"`},
		{`env::var("DB_PASSWORD").unwrap_or("Hunter2x!".into())`, `env::var("DB_PASSWORD").unwrap_or("[REDACTED:secret]".into())`},
		{`os.environ['DB_PASSWORD'] or 'Pw54x!Kq9'`, `os.environ['DB_PASSWORD'] or '[REDACTED:secret]'`},
		{`const t = process.env.API_TOKEN ?? ""`, `const t = process.env.API_TOKEN ?? ""`},
		{`password || "none"`, `password || "none"`},
		{`SECRET_KEY = config('DJANGO_SECRET_KEY', default='Zq7hunter2x')`, `SECRET_KEY = config('DJANGO_SECRET_KEY', default='[REDACTED:secret]')`},
		{`db = os.getenv("DB_PASSWORD", default="Zq7hunter2x")`, `db = os.getenv("DB_PASSWORD", default="[REDACTED:secret]")`},
		{`define("DB_PASSWORD", "Zq7hunter2x", true);`, `define("DB_PASSWORD", "[REDACTED:secret]", true);`},
		// A call that sets a header, a variable or a property by its name (h-v79 open list).
		{`req.Header.Set("X-Api-Key", "Zq8vPw3nKx7L")`, `req.Header.Set("X-Api-Key", "[REDACTED:secret]")`},
		{`xhr.setRequestHeader("X-Api-Key", "Zq8vPw3nKx7L");`, `xhr.setRequestHeader("X-Api-Key", "[REDACTED:secret]");`},
		{`os.Setenv("DB_PASSWORD", "Zq8vPw3nKx7L")`, `os.Setenv("DB_PASSWORD", "[REDACTED:secret]")`},
		{`props.setProperty("password", "Zq8vPw3nKx7L");`, `props.setProperty("password", "[REDACTED:secret]");`},
		{`headers.set("token", token)`, `headers.set("token", token)`},
		{`headers.set("X-Api-Key", "<your key>")`, `headers.set("X-Api-Key", "<your key>")`},
		// A value on the one line of a code block below its label (h-v79 open list).
		{"password:\n```\nZq8vPw3nKx7L\n```", "password:\n```\n[REDACTED:secret]\n```"},
		{"**DB password:**\r\n  ```text\r\n  correct horse battery staple  \r\n  ```", "**DB password:**\r\n  ```text\r\n  [REDACTED:secret]  \r\n  ```"},
		{"password:\n```\n$DB_PASSWORD\n```", "password:\n```\n$DB_PASSWORD\n```"},
		{"password: ``` Zq8vPw3nKx7L ```", "password: ``` [REDACTED:secret] ```"},
		{"password: ```Zq8vPw3nKx7L```", "password: ```[REDACTED:secret]```"},
		{"password:\n~~~\nZq8vPw3nKx7L\n~~~", "password:\n~~~\n[REDACTED:secret]\n~~~"},
		{"**Staging token:**\n\n```\nZq8vPw3nKx7L\n```", "**Staging token:**\n\n```\n[REDACTED:secret]\n```"},
		{"password:\n\n\n```\nZq8vPw3nKx7L\n```", "password:\n\n\n```\nZq8vPw3nKx7L\n```"},
		{`tag "password:\n` + "```" + `\nZq8vPw3nKx7L\n` + "```" + `" skipped`, `tag "password:\n` + "```" + `\n[REDACTED:secret]\n` + "```" + `" skipped`},
		{"Run this to reset the password:\n```\n./reset.sh --user alice\n```", "Run this to reset the password:\n```\n./reset.sh --user alice\n```"},
		{"Password:\n```bash\nexport PGPASSWORD=x9\n```", "Password:\n```bash\nexport PGPASSWORD=x9\n```"},
		{"Set-Cookie: auth_token=undefined; Path=/", "Set-Cookie: auth_token=undefined; Path=/"},
		{"Cookie: _session_id=Abc123xyz789QQ", "Cookie: _session_id=[REDACTED:secret]"},
		{"2024-11-20:10:15:30:ERROR1", "2024-11-20:10:15:30:ERROR1"},
		{"node1:8080:api:GET:/v1/users2", "node1:8080:api:GET:/v1/users2"},
		{`echo "db.example.com:5432:appdb:app:Pg9xPwQ2z" >> ~/.pgpass`, `echo "db.example.com:5432:appdb:app:[REDACTED:secret]" >> ~/.pgpass`},
		{`echo "alice:$PASSWORD" | chpasswd`, `echo "alice:$PASSWORD" | chpasswd`},
		{`printf 'alice:Ch9xPwQ2z\n' | chpasswd`, `printf 'alice:[REDACTED:secret]\n' | chpasswd`},
		// A PIN, recovery codes (h-v76 open list).
		{"the PIN is 482913", "the PIN is [REDACTED:secret]"},
		{"SIM pin code: 0451.", "SIM pin code: [REDACTED:secret]."},
		{"recovery codes: 8f3k-2j9d 7h2k-9d8s, 3k9d-8s7h", "recovery codes: [REDACTED:secret]"},
		{"connect the LED to PIN 13", "connect the LED to PIN 13"},
		{"pin: 1234", "pin: 1234"},
		{"backup codes are stored in 1Password", "backup codes are stored in 1Password"},
		{"SIM PIN 4829, PUK 12345678", "SIM PIN [REDACTED:secret], PUK [REDACTED:secret]"},
		{"Recovery key: ABCD-EFGH-IJKL-MNOP", "Recovery key: [REDACTED:secret]"},
		{"BitLocker recovery key: 123456-234567-345678", "BitLocker recovery key: [REDACTED:secret]"},
		{"recovery keys are rotated-monthly", "recovery keys are rotated-monthly"},
		// A path in Rust (h-v81 B10).
		{"use jsonwebtoken::encode;", "use jsonwebtoken::encode;"},
		{"apitoken::new(cfg)", "apitoken::new(cfg)"},
		// A user and a password after a label (h-v76 open list).
		{"credentials: alice / Zq8vPw3nKx7L", "credentials: alice / [REDACTED:secret]"},
		{"Login: admin/S3cret!x", "Login: admin/[REDACTED:secret]"},
		{"login: docs/login.md", "login: docs/login.md"},
		{"login: src/auth/login2.ts", "login: src/auth/login2.ts"},
		{"login: pages/Login2.vue", "login: pages/Login2.vue"},
		{`credentials: "alice" / "Hunter2x9"`, `credentials: "[REDACTED:secret]" / "[REDACTED:secret]"`},
		{"**Credentials:** alice / Hunter2x9", "**Credentials:** alice / [REDACTED:secret]"},
		{"credentials: alice, Hunter2x9", "credentials: alice, [REDACTED:secret]"},
		{"credentials: `alice` / `Qv7mWz2pRt`", "credentials: `[REDACTED:secret]` / `[REDACTED:secret]`"},
		{"u/p: admin/Qv7mWz2pRt", "u/p: admin/[REDACTED:secret]"},
		{"account: admin / Qv7mWz2pRt", "account: admin / [REDACTED:secret]"},
		{"auth: oauth2/callback", "auth: oauth2/callback"},
		{"credentials are alice | Hunter2x9", "credentials are alice | [REDACTED:secret]"},
		{"user/pass: alice / Hunter2x9", "user/pass: alice / [REDACTED:secret]"},
		{"the login is done via SSO / SAML2x", "the login is done via SSO / SAML2x"},
		{"credentials: see vault/prod", "credentials: see vault/prod"},
		// A session's cookie in a header (h-v76 open list).
		{"curl -H 'Cookie: _ga=GA1.2.3; session=Zq8vPw3nKx7Lq9' https://x", "curl -H 'Cookie: _ga=GA1.2.3; session=[REDACTED:secret]' https://x"},
		{"Set-Cookie: JSESSIONID=8F3A9C2B1D4E5F60; Path=/; HttpOnly", "Set-Cookie: JSESSIONID=[REDACTED:secret]; Path=/; HttpOnly"},
		{"cookie: connect.sid=s%3AZq8vPw3nKx7L.abc", "cookie: connect.sid=[REDACTED:secret]"},
		{"Cookie: theme=dark; lang=en", "Cookie: theme=dark; lang=en"},
		{"Cookie: theme=dark; JSESSIONID=Abc123xyz789QQ; _gh_sess=Zz9Yy8Xx7Ww6Vv5", "Cookie: theme=dark; JSESSIONID=[REDACTED:secret]; _gh_sess=[REDACTED:secret]"},
		{`res.cookie("sessionid", "Abc123xyz789QQ")`, `res.cookie("sessionid", "[REDACTED:secret]")`},
		{"let a = 1; session=getSession(req);", "let a = 1; session=getSession(req);"},
		{"Cookie: session=short", "Cookie: session=short"},
		// A web server's directive sets a header or a variable (h-v79 open list).
		{"proxy_set_header X-Api-Key Zq8vPw3nKx7L;", "proxy_set_header X-Api-Key [REDACTED:secret];"},
		{"    fastcgi_param DB_PASSWORD Zq8vPw3nKx7L; # db", "    fastcgi_param DB_PASSWORD [REDACTED:secret]; # db"},
		{"SetEnv DB_PASSWORD Zq8vPw3nKx7L", "SetEnv DB_PASSWORD [REDACTED:secret]"},
		{"Header always set X-Api-Key Zq8vPw3nKx7L", "Header always set X-Api-Key [REDACTED:secret]"},
		{"php_admin_value mysql.default_password Zq8vPw3nKx7L", "php_admin_value mysql.default_password [REDACTED:secret]"},
		{"Header set X-Frame-Options DENY", "Header set X-Frame-Options DENY"},
		{`conn.setRequestProperty("X-Api-Key", "Zq8vPw3nKx7L");`, `conn.setRequestProperty("X-Api-Key", "[REDACTED:secret]");`},
		{`ENV.store("DB_PASSWORD", "Zq8vPw3nKx7L")`, `ENV.store("DB_PASSWORD", "[REDACTED:secret]")`},
		{"proxy_set_header X-Api-Key $http_x_api_key;", "proxy_set_header X-Api-Key $http_x_api_key;"},
		{"add_header X-Frame-Options DENY;", "add_header X-Frame-Options DENY;"},
		{`i18n.t('password', 'Passwort')`, `i18n.t('password', 'Passwort')`},
		{`addColumn("password", "varchar")`, `addColumn("password", "varchar")`},
		{`form.field("password", "min:8")`, `form.field("password", "min:8")`},
		{`$table->string('password', '60');`, `$table->string('password', '60');`},
		{`input("password", "secret")`, `input("password", "secret")`},
		{`["DB_PASSWORD", "Zq7hunter2x"]`, `["DB_PASSWORD", "Zq7hunter2x"]`},
		{`'password' => env('PW', 'Hunter2x!'),`, `'password' => env('PW', '[REDACTED:secret]'),`},
		{`'password' => env('DB_PASSWORD'),`, `'password' => env('DB_PASSWORD'),`},
		{`password = getpass()`, `password = getpass()`},
		{`define( 'AUTH_KEY', 'put your unique phrase here' );`, `define( 'AUTH_KEY', 'put your unique phrase here' );`},
		{`os.getenv("DB_PASSWORD", "")`, `os.getenv("DB_PASSWORD", "")`},
		{`t("password", "Password")`, `t("password", "Password")`},
		{`["password", "x1y2z3w4"]`, `["password", "x1y2z3w4"]`},
		// A colon's presentation form, a modifier letter (h-v70 B7).
		{"password︓ Kq9Zp2xLm", "password︓ [REDACTED:secret]"},
		{"passwordː Kq9Zp2xLm", "passwordː [REDACTED:secret]"},
		// A label in code or emphasis (h-v72 B2).
		{"`DB_PASSWORD`: Zq7hunter2x", "`DB_PASSWORD`: [REDACTED:secret]"},
		{"**DB_PASSWORD**: Zq7hunter2x", "**DB_PASSWORD**: [REDACTED:secret]"},
		{"*DB_PASSWORD*: Zq7hunter2x", "*DB_PASSWORD*: [REDACTED:secret]"},
		{"`API_TOKEN`=Zq7abcdefghijklmnop123", "`API_TOKEN`=[REDACTED:secret]"},
		{"- `token`: the session token used for auth", "- `token`: the session token used for auth"},
		{"- **Password**: required, at least 12 characters", "- **Password**: required, at least 12 characters"},
		{"- `DB_PASSWORD`: read from Vault at deploy time", "- `DB_PASSWORD`: read from Vault at deploy time"},
		{"`api_key`: string", "`api_key`: string"},
		{"setenv DB_PASSWORD Zq7hunter2x", "setenv DB_PASSWORD [REDACTED:secret]"},
		{"ALTER USER ada IDENTIFIED WITH mysql_native_password BY 'Zq7hunter2x';", "ALTER USER ada IDENTIFIED WITH mysql_native_password BY '[REDACTED:secret]';"},
		{"IDENTIFIED WITH auth_socket", "IDENTIFIED WITH auth_socket"},
		// Another language's password word and a hyphen between blanks (h-v72 B7).
		{"Passwort - Zq7hunter2x", "Passwort - [REDACTED:secret]"},
		{"пароль - Zq7hunter2x", "пароль - [REDACTED:secret]"},
		{"contraseña - Zq7hunter2x", "contraseña - [REDACTED:secret]"},
		{"Passwort - bitte ändern", "Passwort - bitte ändern"},
		// PuTTY's key file (h-v72 B1).
		{"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ada\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIOq\nZq7PUBabcdefghijklmnopqrstuvwx\nPrivate-Lines: 2\nAAAAIZq7PRIVabcdefghijklmnopqrstuvwxyz0123456789AB\nAAAAIZq7PRIVabcdefghij+/=\nPrivate-MAC: 0123456789abcdef",
			"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: ada\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIOq\nZq7PUBabcdefghijklmnopqrstuvwx\nPrivate-Lines: 2\n[REDACTED:private-key]\nPrivate-MAC: 0123456789abcdef"},
		// A value in Markdown's code after a label (h-v74 B2).
		{"DB_PASSWORD: `Qz9kLmPAd`", "DB_PASSWORD: `[REDACTED:secret]`"},
		{"- staging api_key: `Qz9kLmPCa` for the billing service", "- staging api_key: `[REDACTED:secret]` for the billing service"},
		{"- `API_KEY`: `Qz9kLmPAb`", "- `API_KEY`: `[REDACTED:secret]`"},
		{"token: `Bearer`", "token: `Bearer`"},
		{"DB_PASSWORD: `$DB_PASSWORD`", "DB_PASSWORD: `$DB_PASSWORD`"},
		{"secret: `${{ secrets.DB }}`", "secret: `${{ secrets.DB }}`"},
		{`getattr(settings, "DB_PASSWORD", "Hunter2x!")`, `getattr(settings, "DB_PASSWORD", "[REDACTED:secret]")`},
		{`getattr(settings, 'SECRET_KEY', 'Qz9kLmP6a')`, `getattr(settings, 'SECRET_KEY', '[REDACTED:secret]')`},
		{`mask(pw, "password", "****")`, `mask(pw, "password", "****")`},
		{"- my key file:\n  Private-Lines: 1\n  AAAAIZq7PRIVabcdefghijklmnopqrstuvwxyz0123456789AB\n  Private-MAC: 01234567",
			"- my key file:\n  Private-Lines: 1\n  [REDACTED:private-key]\n  Private-MAC: 01234567"},
		{"> Private-Lines: 1\n> AAAAIZq7PRIVabcdefghijklmnopqrstuvwxyz0123456789AB\n> Private-MAC: 01234567",
			"> Private-Lines: 1\n> [REDACTED:private-key]\n> Private-MAC: 01234567"},
		// SQL's IDENTIFIED BY (h-v70 B5).
		{"CREATE USER ada IDENTIFIED BY 'Kq9Zp2xLm';", "CREATE USER ada IDENTIFIED BY '[REDACTED:secret]';"},
		{"alter user ada identified by \"Kq9Zp2xLm\"", "alter user ada identified by \"[REDACTED:secret]\""},
		{"ALTER USER ada IDENTIFIED BY Kq9Zp2xLm", "ALTER USER ada IDENTIFIED BY [REDACTED:secret]"},
		{"users are identified by their email", "users are identified by their email"},
		{"IDENTIFIED BY clause", "IDENTIFIED BY clause"},
		// A dash between blanks before the value (h-v70 B4).
		{"staging db password — Kq9Zp2xLm!", "staging db password — [REDACTED:secret]"},
		{"root password - Kq9Zp2xLm!", "root password - [REDACTED:secret]"},
		{"admin password – Kq9Zp2xLm!", "admin password – [REDACTED:secret]"},
		{"the wifi password — \"Kq9Zp2xLm!\"", "the wifi password — \"[REDACTED:secret]\""},
		{"--password - the password to use", "--password - the password to use"},
		{"password - required for login", "password - required for login"},
		{"- **password** - the user's password", "- **password** - the user's password"},
		{"for (i = 0; i<pass.length; i++)", "for (i = 0; i<pass.length; i++)"},
		{"password Vec<u8>", "password Vec<u8>"},
		{"password HashMap<String, String>", "password HashMap<String, String>"},
	} {
		if got, _ := String(tt.in); got != tt.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// A quoted string printed with its escapes (Go's %q, JSON): a value ends
// at "\n", "\r" or "\t" after its first six characters, so the next line's
// label is not taken into it and its own value is found (h-v93 a6).
func TestAValueEndsAtAnEscapedLineBreak(t *testing.T) {
	bothWays(t, redacts{
		{`unknown tool "api_key=abcdef12345\ntoken=ghijk67890\t"`, `unknown tool "api_key=[REDACTED:secret]\ntoken=[REDACTED:secret]\t"`},
		{`DB_PASSWORD=s3cr3tpass\r\nUSER=bob`, `DB_PASSWORD=[REDACTED:secret]\r\nUSER=bob`},
		{`password: ab\ncd1234`, `password: [REDACTED:secret]`},
	}, nil)
	got, _ := String(`unknown tool "password: hunter2x\npassword: hunter3x\n"`)
	if strings.Contains(got, "hunter2x") || strings.Contains(got, "hunter3x") {
		t.Fatalf("a value kept: %s", got)
	}
}

// A shell's line continuation is read as the shell reads it, as nothing:
// a flag and its value on two lines are one (h-v93 c6).
func TestALineContinuationJoinsAFlagAndItsValue(t *testing.T) {
	bothWays(t, redacts{
		{"mysql -u root \\\n  -pHunt3rPw9 db", "mysql -u root \\\n  -p[REDACTED:secret] db"},
		{"docker login -u me \\\n  -p Hunt3rPw9 registry", "docker login -u me \\\n  -p [REDACTED:secret] registry"},
		{"curl \\\r\n  -u admin:Hunt3rPw9 https://x", "curl \\\r\n  -u admin:[REDACTED:secret] https://x"},
		{"export DB_PASSWORD=\\\nHunt3rPw9", "export DB_PASSWORD=\\\n[REDACTED:secret]"},
	}, []string{"make build \\\n  -j4 test", "mysql -u root -p \\\n db_name", "a \\\\\n  -pHunt3rPw9"})
	for _, s := range []string{"sshpass -p \\\n  Hunt3rPw9 ssh host", "psql --password \\\n  Hunt3rPw9"} {
		if got, _ := String(s); strings.Contains(got, "Hunt3rPw9") {
			t.Fatalf("a value kept: %q", got)
		}
	}
}

// A table row no header explains (h-v72): the cell after a secret's name
// is its value when it looks chosen, like a password of 8+ bytes without a
// name's separators, or like a long token; what names, types or describes
// it stays.
func TestARowWithoutAHeaderNamesItsValueInTheCellBefore(t *testing.T) {
	bothWays(t, redacts{
		{"| DB_PASSWORD | hunter2xyz |", "| DB_PASSWORD | [REDACTED:secret] |"},
		{"| prod | DB_PASSWORD | hunter2xyz |", "| prod | DB_PASSWORD | [REDACTED:secret] |"},
		{"| db password | `Tr0ub4dor&3` |", "| db password | `[REDACTED:secret]` |"},
		{"| API_KEY | a1b2c3d4e5f6a7b8c9d0 |", "| API_KEY | [REDACTED:secret] |"},
		{"| Env var | Notes |\n|---|---|\n| DB_PASSWORD | S3cretName |", "| Env var | Notes |\n|---|---|\n| DB_PASSWORD | [REDACTED:secret] |"},
	}, []string{
		"| DB_PASSWORD | string |", "| DB_PASSWORD | yes |", "| DB_PASSWORD | required |", "| API_KEY | base64 |",
		"| SECRET_KEY | sha256 |", "| API_KEY | utf8mb4 |", "| SECRET_KEY | django-insecure-dev |", "| DB_PASSWORD | 90 days |",
		"| DB_PASSWORD | $DB_PASSWORD |", "| DB_PASSWORD | DB_PASSWORD |", "| password | ******** |", "| token | xxxxxxxx |",
		"| DB_PASSWORD | k8s/db-secret |", "| NPM_TOKEN | 1Password/CI |", "| DB_PASSWORD | aes-256-gcm |",
		"| token_ttl | 3600s |", "| DB_PASSWORD | ${{ secrets.DB_PASSWORD }} |", "| DB_PASSWORD | <from vault> |",
		"| AUTH_TOKEN | HttpOnly |", "| API_KEY | db-creds-v2 |", "| password | v2.3.1 |", "| SECRET | ed25519 |",
	})
}

// A secret given to a secret store's command (h-v72's list): the value
// after its flag or its name; a reference, a file, stdin, a subexpression
// or prose about the command stays.
func TestASecretStoresCommandGivesItsValue(t *testing.T) {
	bothWays(t, redacts{
		{"gh secret set DB_PASSWORD --body hunter2xyz", "gh secret set DB_PASSWORD --body [REDACTED:secret]"},
		{`gh secret set DB_PASSWORD -b"hunter2xyz"`, `gh secret set DB_PASSWORD -b"[REDACTED:secret]"`},
		{"az keyvault secret set --vault-name kv --name db --value hunter2xyz", "az keyvault secret set --vault-name kv --name db --value [REDACTED:secret]"},
		{"aws secretsmanager create-secret --name db --secret-string hunter2xyz", "aws secretsmanager create-secret --name db --secret-string [REDACTED:secret]"},
		{"doppler secrets set DB_PASSWORD hunter2xyz", "doppler secrets set DB_PASSWORD [REDACTED:secret]"},
		{`dotnet user-secrets set "Db:Password" "hunter2xyz"`, `dotnet user-secrets set "Db:Password" "[REDACTED:secret]"`},
		{"rabbitmqctl add_user admin hunter2xyz", "rabbitmqctl add_user admin [REDACTED:secret]"},
		{`$pw = ConvertTo-SecureString "hunter2xyz" -AsPlainText -Force`, `$pw = ConvertTo-SecureString "[REDACTED:secret]" -AsPlainText -Force`},
		{`convertto-securestring -String 'hunter2xyz' -AsPlainText`, `convertto-securestring -String '[REDACTED:secret]' -AsPlainText`},
		{"mc alias set myminio https://minio.local admin Mc9xPwQ2z", "mc alias set myminio https://minio.local admin [REDACTED:secret]"},
		{"mc config host add s3 https://s3.amazonaws.com AKIDX 'Mc9x Pw'", "mc config host add s3 https://s3.amazonaws.com AKIDX '[REDACTED:secret]'"},
		{"poetry config http-basic.pypi alice Po9xPwQ2z", "poetry config http-basic.pypi alice [REDACTED:secret]"},
		{"poetry config pypi-token.pypi pypi-Po9xPwQ2zAbc", "poetry config pypi-token.pypi [REDACTED:secret]"},
		{"net user alice Ne9xPwQ2z /add", "net user alice [REDACTED:secret] /add"},
		{"NET USER bob Ne9xPwQ2z /ADD", "NET USER bob [REDACTED:secret] /ADD"},
		{`net user "bob smith" Ne9xPwQ2z /add`, `net user "bob smith" [REDACTED:secret] /add`},
		{"net user /add alice Ne9xPwQ2z", "net user /add alice [REDACTED:secret]"},
		{`mc alias set m https://m.example "minioadmin" "Mc9xPwQ2zAb"`, `mc alias set m https://m.example "minioadmin" "[REDACTED:secret]"`},
		{"mcli admin user add myminio newuser Mc9xPwQ2zAb", "mcli admin user add myminio newuser [REDACTED:secret]"},
		{"poetry config --local http-basic.foo alice Po9xPwQ2z", "poetry config --local http-basic.foo alice [REDACTED:secret]"},
		{"nuget setapikey oy2kNuGet9xQ -Source https://x", "nuget setapikey [REDACTED:secret] -Source https://x"},
		{`C:\Windows\System32\net.exe user bob Ne9xPwQ2z /add`, `C:\Windows\System32\net.exe user bob [REDACTED:secret] /add`},
	}, []string{
		"net user alice * /add", "net user alice /add", "net user alice /delete", "poetry config http-basic.pypi alice", "mc alias set myminio https://minio.local",
		"mc alias set local http://localhost:9000 $MINIO_USER $MINIO_PASS", "poetry config pypi-token.pypi $PYPI_TOKEN", "net user",
		`gh secret set DB_PASSWORD --body "$DB_PASSWORD"`, "gh secret set DB_PASSWORD < secret.txt", "gh secret set DB_PASSWORD --body -",
		"gh secret set --help", `gh secret set X --body "${{ secrets.X }}"`, "aws secretsmanager create-secret --name db --secret-string file://creds.json",
		"az keyvault secret set --vault-name kv --name db --value @secret.txt", "ConvertTo-SecureString $plain -AsPlainText -Force",
		"ConvertTo-SecureString -String $env:DB_PASSWORD -AsPlainText -Force", "ConvertTo-SecureString (Get-Content pw.txt) -AsPlainText",
		"doppler secrets set DB_PASSWORD", "doppler secrets set DB_PASSWORD --no-interactive", `dotnet user-secrets set "Db:Password" "$(cat pw)"`,
		`rabbitmqctl add_user admin "$RABBIT_PW"`, "the gh secret set command takes --body or stdin", "gh secret list",
	})
}

// Other languages' string prefixes before a label's quoted value (h-v72):
// C#'s verbatim @"…", C++'s u8"…" and L"…", Rust's raw r#"…"#; C#'s
// interpolated $"…" computes.
func TestOtherLanguagesStringPrefixesQuoteTheValue(t *testing.T) {
	bothWays(t, redacts{
		{`var password = @"hunter2xyz";`, `var password = @"[REDACTED:secret]";`},
		{`const char* password = u8"hunter2xyz";`, `const char* password = u8"[REDACTED:secret]";`},
		{`const wchar_t* password = L"hunter2xyz";`, `const wchar_t* password = L"[REDACTED:secret]";`},
		{`let password = r#"hunter2xyz"#;`, `let password = r#"[REDACTED:secret]"#;`},
		{`let password = r##"hunter2xyz"##;`, `let password = r##"[REDACTED:secret]"##;`},
	}, []string{`Password = $"{prefix}{suffix}",`, `var password = @$"{prefix}{suffix}";`, `password = L"%s"`, `password = u8""`})
}

// A Terraform variable's default (h-v72), its block on one line or on
// several; a variable that names no secret, a reference or an
// interpolation stays. And the readers' defaults of Helm's and Ruby's.
func TestATerraformVariablesDefaultAndOtherReadersDefaults(t *testing.T) {
	bothWays(t, redacts{
		{`variable "db_password" { default = "hunter2xyz" }`, `variable "db_password" { default = "[REDACTED:secret]" }`},
		{"variable \"api_token\" {\n  type      = string\n  sensitive = true\n  default   = \"hunter2xyz\"\n}\n", "variable \"api_token\" {\n  type      = string\n  sensitive = true\n  default   = \"[REDACTED:secret]\"\n}\n"},
		{`{{ .Values.db.password | default "hunter2xyz" }}`, `{{ .Values.db.password | default "[REDACTED:secret]" }}`},
		{`ENV.fetch("DB_PASSWORD") { "hunter2xyz" }`, `ENV.fetch("DB_PASSWORD") { "[REDACTED:secret]" }`},
		{`password ||= "hunter2xyz"`, `password ||= "[REDACTED:secret]"`},
		{`this.password ??= "hunter2xyz";`, `this.password ??= "[REDACTED:secret]";`},
	}, []string{
		`variable "region" { default = "eu-west-1" }`, `variable "db_password" { default = "${var.base}-pw" }`,
		"variable \"db_password\" {\n  type = string\n}\nvariable \"region\" {\n  default = \"eu-west-1\"\n}\n",
		`variable "db_password" { default = "" }`, `{{ .Values.db.password | default .Values.global.password }}`,
		`ENV.fetch("DB_PASSWORD") { |k| raise "#{k} missing" }`, `password ??= process.env.PW;`,
	})
}

// MySQL 5's IDENTIFIED BY PASSWORD names the hash after it: the word stays
// (h-v72's over-mark), the hash is marked.
func TestIdentifiedByPasswordMarksItsHash(t *testing.T) {
	bothWays(t, redacts{
		{"CREATE USER bob IDENTIFIED BY PASSWORD '*6C8989366EAF75BB670AD8EA7A7FC1176A95CEF4';", "CREATE USER bob IDENTIFIED BY PASSWORD '[REDACTED:secret]';"},
		{"CREATE USER bob IDENTIFIED BY 'hunter2xyz';", "CREATE USER bob IDENTIFIED BY '[REDACTED:secret]';"},
		{"ALTER USER bob IDENTIFIED BY password;", "ALTER USER bob IDENTIFIED BY [REDACTED:secret]"},
	}, []string{"the IDENTIFIED BY PASSWORD clause takes a hash"})
}

// Basic auth's password after its user (h-v72): requests' auth=(…),
// HTTPBasicAuth, Go's SetBasicAuth; a variable or a reference stays.
func TestBasicAuthsPasswordFollowsItsUser(t *testing.T) {
	bothWays(t, redacts{
		{`requests.get(url, auth=("admin", "hunter2xyz"))`, `requests.get(url, auth=("admin", "[REDACTED:secret]"))`},
		{`auth = HTTPBasicAuth('admin', 'hunter2xyz')`, `auth = HTTPBasicAuth('admin', '[REDACTED:secret]')`},
		{`req.SetBasicAuth("admin", "hunter2xyz")`, `req.SetBasicAuth("admin", "[REDACTED:secret]")`},
		{`aiohttp.BasicAuth(login="admin", password="hunter2xyz")`, `aiohttp.BasicAuth(login="admin", password="[REDACTED:secret]")`},
	}, []string{
		`requests.get(url, auth=(user, password))`, `req.SetBasicAuth("admin", os.Getenv("PW"))`, `auth=("admin", "${PW}")`,
		`HTTPBasicAuth("admin", "")`, `the auth=(user, pass) tuple`,
	})
}

// A literal given to a password's setter (h-v72's call-style labels):
// set_password("x"), a builder's .password("x"); a getter's key, a prompt,
// a reference, a name or a token's or key's call stay.
func TestAPasswordSettersLiteralIsItsValue(t *testing.T) {
	bothWays(t, redacts{
		{`user.set_password("hunter2xyz")`, `user.set_password("[REDACTED:secret]")`},
		{`ds.setPassword('hunter2xyz');`, `ds.setPassword('[REDACTED:secret]');`},
		{`User.withUsername("ada").password("{noop}hunter2xyz").build()`, `User.withUsername("ada").password("[REDACTED:secret]").build()`},
		{"client.withPassword(`hunter2xyz`)", "client.withPassword(`[REDACTED:secret]`)"},
		{`hash_password('hunter2xyz')`, `hash_password('[REDACTED:secret]')`},
	}, []string{
		`getPassword("db.main")`, "get_password(`DB_PASSWORD`)", `config.password("DB_PASSWORD")`, `getpass("Password: ")`,
		`set_password("Enter new password")`, `setPassword("${PW}")`, `prompt_password("Password: ")`, `password("required")`,
		`api_key("openai")`, `secret("prod/db")`, `with_pass("first")`, `.password(passwordEncoder.encode("x"))`,
		`isPassword("abcd")`, `has_password("user")`,
	})
}

// More of a key's names label a value (h-v76 B2, B12, B15): Laravel's
// APP_KEY, HMAC, admin, client, webhook, JWT and WireGuard's preshared
// keys, a salt, a pepper, a password given base64; a key's file is no key.
// And a Telegram token in the Bot API's path (B1).
func TestMoreKeyNamesLabelAValueAndAKeysFileStays(t *testing.T) {
	bothWays(t, redacts{
		{"APP_KEY=base64:Xq9vLm2pRtZ8kQ3aB4cD5eF6gH7iJ8kL9mN0oP1qR2s=", "APP_KEY=[REDACTED:secret]"},
		{"DD_APP_KEY=cff00d796c25410335b400141212b62c37663112", "DD_APP_KEY=[REDACTED:secret]"},
		{"HMAC_KEY=Xq9vLm2pRtZ8kQ3a", "HMAC_KEY=[REDACTED:secret]"},
		{"ALGOLIA_ADMIN_KEY=Xq9vLm2pRtZ8kQ3a", "ALGOLIA_ADMIN_KEY=[REDACTED:secret]"},
		{"PresharedKey = /UwcSPg38hW/D9Y3tcS1FOV0K1wuURMbS0sesJEP5ak=", "PresharedKey = [REDACTED:secret]"},
		{"SALT=Xq9vLm2pRtZ8kQ3a", "SALT=[REDACTED:secret]"},
		{"password_b64=WHE5dkxtMnBSdA==", "password_b64=[REDACTED:secret]"},
		{"https://api.telegram.org/bot1234567890:AAtQDH9eN6JUJqGb8mUtDZldrphAxHUtwud/sendMessage", "https://api.telegram.org/bot[REDACTED:telegram-token]/sendMessage"},
	}, []string{
		"client_key: /etc/ssl/client.key", "server_key: server.pem", "CLIENT_KEY=client.key", "root_key = \"keys/root.pem\"",
		"private_key: /etc/ssl/private.key", "api_key: keys/api.json", "app_key: ${APP_KEY}", "salt: random", "salt_rounds: 12",
		"the app key is rotated monthly", "jwt_key: process.env.JWT_KEY", "PRIMARY_KEY=id", "cache_key: users",
	})
}

// An Authorization header of any scheme, and nginx's quoted form (h-v76
// B9); more vendors' keys with no label (B10, B11).
func TestAnyAuthorizationSchemeAndMoreVendorsKeys(t *testing.T) {
	bothWays(t, redacts{
		{"Authorization: SSWS 00hzyG9LAoQ34dZx9IvQqePEKiBDR4TNDmvNmhzksW", "Authorization: SSWS [REDACTED:auth-header]"},
		{`proxy_set_header Authorization "Basic YWRhOlhxOXZMbTJwUnQ=";`, `proxy_set_header Authorization "Basic [REDACTED:auth-header]";`},
		{"Authorization = ApiKey Xq9vLm2pRtZ8kQ3aB4cD", "Authorization = ApiKey [REDACTED:auth-header]"},
		{"note: sntryu_" + strings.Repeat("0123456789abcdef", 4), "note: [REDACTED:api-key]"},
		{"key nsec1vl029mgpspedva04g90vltkh6fvh240zqtv9k0t9af8935ke9laqsnlfe5", "key [REDACTED:api-key]"},
		{"refresh 1//0" + strings.Repeat("gAbC-dEf_9", 5), "refresh [REDACTED:api-key]"},
	}, []string{
		"authorization: server configuration", `the Authorization "header" is required`,
		`Authorization: Digest username="ada", realm="x", response="6629fae49393a05397450978507c4ef1"`,
		"Authorization: Negotiate", "the rubygems_ prefix, phx_ keys and bkua_ tokens",
	})
}

// A session's cookie given to curl or a page, or set in code by its name
// and value (h-v80, h-v81); a cookie that clears or reads one stays.
func TestASessionCookieGivenToCurlOrSetInCode(t *testing.T) {
	bothWays(t, redacts{
		{`document.cookie = "session=Zq8vPw3nKx7L; path=/"`, `document.cookie = "session=[REDACTED:secret]; path=/"`},
		{`curl --cookie "sessionid=Zq8vPw3nKx7L" https://x`, `curl --cookie "sessionid=[REDACTED:secret]" https://x`},
		{`curl -b 'sid=Zq8vPw3nKx7L' https://x`, `curl -b 'sid=[REDACTED:secret]' https://x`},
		{`curl --cookie auth_token=Zq8vPw3nKx7L https://x`, `curl --cookie auth_token=[REDACTED:secret] https://x`},
		{`res.cookie('sid', 'Zq8vPw3nKx7L', { httpOnly: true })`, `res.cookie('sid', '[REDACTED:secret]', { httpOnly: true })`},
		{`setcookie("PHPSESSID", "Zq8vPw3nKx7L", time() + 3600);`, `setcookie("PHPSESSID", "[REDACTED:secret]", time() + 3600);`},
		{`response.set_cookie(key="sessionid", value="Zq8vPw3nKx7L")`, `response.set_cookie(key="sessionid", value="[REDACTED:secret]")`},
		{"http.SetCookie(w, &http.Cookie{\n\tName:  \"session\",\n\tValue: \"Zq8vPw3nKx7L\",\n})", "http.SetCookie(w, &http.Cookie{\n\tName:  \"session\",\n\tValue: \"[REDACTED:secret]\",\n})"},
		{`await page.setCookie({name: 'session', value: 'Zq8vPw3nKx7L'})`, `await page.setCookie({name: 'session', value: '[REDACTED:secret]'})`},
		{`driver.add_cookie({"name": "sessionid", "value": "Zq8vPw3nKx7L"})`, `driver.add_cookie({"name": "sessionid", "value": "[REDACTED:secret]"})`},
		{`Cookies.set('token', 'Zq8vPw3nKx7L')`, `Cookies.set('token', '[REDACTED:secret]')`},
		{`cookies[:_session_id] = "Rl4sE7sN1mWq5"`, `cookies[:_session_id] = "[REDACTED:secret]"`},
		{`cookies["session_id"] = "Rl5sE8sN2mWq6"`, `cookies["session_id"] = "[REDACTED:secret]"`},
		{"sonar-scanner -Dsonar.login=squ_" + strings.Repeat("4f1c2e9ab7", 4), "sonar-scanner -Dsonar.login=[REDACTED:api-key]"},
		{"twitch chat: oauth:tw9it1ch5aqw6er8ty0ui2op4as6df", "twitch chat: [REDACTED:api-key]"},
	}, []string{
		`res.cookie('sid', token, { httpOnly: true })`, `res.clearCookie('sid')`, `setcookie("PHPSESSID", "", time() - 3600);`,
		`document.cookie = "session=; expires=Thu, 01 Jan 1970 00:00:00 GMT"`, `curl -b cookies.txt https://x`,
		`res.cookie('theme', 'dark-mode-2024')`, `git checkout -b session=feature`, `document.cookie = "session=" + id`,
		`Cookies.set('token', 'deleted')`, `curl --cookie-jar jar.txt https://x`, `cookies[:theme] = "dark-mode-2024"`, `cookies[:session_id] == "x"`,
		"oauth: callback handled by the gateway",
	})
	// A line of cookie headers with no session's cookie in it is read once:
	// a header inside a run of pairs read before is not read to the end
	// again (this took 1.3 s for 64 KB, time quadratic in the line).
	for _, unit := range []string{"cookie:a=b;", "Set-Cookie: a=b;", "cookies a=b;", "cookiecookie("} {
		in := strings.Repeat(unit, (1<<20)/len(unit))
		if got, _ := String(in); got != in {
			t.Errorf("String(%q × %d) changed it", unit, len(in)/len(unit))
		}
	}
}

// h-v84: a bracket inside a quoted literal makes no call (B1); a
// conversion's literal is the value, not the call (B2); a URL's user may
// hold an '@' (B3); "between" is a preposition (B5); more calls that take a
// password or a token by its place (B7); and what stays (B8).
func TestQuotedBracketsConversionsAndAURLUsersAt(t *testing.T) {
	bothWays(t, redacts{
		{`define('DB_PASSWORD', 'Ya1xTq8Wm3(Kp6Xv1');`, `define('DB_PASSWORD', '[REDACTED:secret]');`},
		{`os.getenv("DB_PASSWORD", "Ya4xTq8Wm3(Kp6)Xv1")`, `os.getenv("DB_PASSWORD", "[REDACTED:secret]")`},
		{`setPassword('Ya6xTq8Wm3)Kp6Xv1')`, `setPassword('[REDACTED:secret]')`},
		{`admin.setPassword('Sx5(aB)9kLm')`, `admin.setPassword('[REDACTED:secret]')`},
		{`admin.set_password('Sx4(aB9kLm')`, `admin.set_password('[REDACTED:secret]')`},
		{`jwt.sign(payload, 'Ya7xTq8(Wm3)Kp6Xv1')`, `jwt.sign(payload, '[REDACTED:secret]')`},
		{"mytool --app-secret Ap9sE4cR6tQw", "mytool --app-secret [REDACTED:secret]"},
		{"aliyun configure set --access-key-secret As8cC3eS5sK7yQ9wE1rT3yU5iO7pL9", "aliyun configure set --access-key-secret [REDACTED:secret]"},
		{"apksigner sign --ks release.jks --ks-pass pass:Ap9kS7gN9pQw app.apk", "apksigner sign --ks release.jks --ks-pass [REDACTED:secret] app.apk"},
		{"mytool --apiToken Ak8pI4tO6kQw", "mytool --apiToken [REDACTED:secret]"},
		{"mytool --api_key Ak7pI5kE7yQw", "mytool --api_key [REDACTED:secret]"},
		{`HTTPBasicAuth("ada", "Yb2xTq8Wm3)Kp6Xv1")`, `HTTPBasicAuth("ada", "[REDACTED:secret]")`},
		{`jwt.sign(payload, 'Ya7xTq8Wm3)Kp6Xv1')`, `jwt.sign(payload, '[REDACTED:secret]')`},
		{`DB_PASSWORD="Zo5xTq8Wm3(Kp6Xv1Zz"`, `DB_PASSWORD="[REDACTED:secret]"`},
		{`secret: "Zo4xTq8Wm3(Kp6Xv1Zz"`, `secret: "[REDACTED:secret]"`},
		{`jwtKey := []byte("Zm1xTq8Wm3Kp6Xv1")`, `jwtKey := []byte("[REDACTED:secret]")`},
		{`SECRET_KEY = bytes("Zm7xTq8Wm3Kp6Xv1", "utf-8")`, `SECRET_KEY = bytes("[REDACTED:secret]", "utf-8")`},
		{`let apiKey = String::from("Zn1xTq8Wm3Kp6Xv1")`, `let apiKey = String::from("[REDACTED:secret]")`},
		{`password = SecretStr("Zn2xTq8Wm3Kp6Xv1")`, `password = SecretStr("[REDACTED:secret]")`},
		{`secret := string("Gs5eCr7tXzQw")`, `secret := string("[REDACTED:secret]")`},
		{`let db_password: String = String::from("Rp4(Nq)8Lm");`, `let db_password: String = String::from("[REDACTED:secret]");`},
		{`var dbPassword []byte = []byte("Gv4Nq8LmXw")`, `var dbPassword []byte = []byte("[REDACTED:secret]")`},
		{`db_password: SecretStr = SecretStr("Ps4Nq8LmXw")`, `db_password: SecretStr = SecretStr("[REDACTED:secret]")`},
		{`let token: SecretString = SecretString::new("Rs5Nq8LmXw".into());`, `let token: SecretString = SecretString::new("[REDACTED:secret]".into());`},
		{"eas secret:create --scope project --name SENTRY_AUTH_TOKEN --type string", "eas secret:create --scope project --name SENTRY_AUTH_TOKEN --type string"},
		{"npm run token:refresh && rails secret:generate", "npm run token:refresh && rails secret:generate"},
		{`std::string password = std::string("Cp6pWd8qZxTr");`, `std::string password = std::string("[REDACTED:secret]");`},
		{`token := fmt.Sprint("Gt6oK3eN9wQz")`, `token := fmt.Sprint("[REDACTED:secret]")`},
		{`Postman env: {"key": "apiKey", "value": "Pm9sT3mN7kQw1eR3tY5u", "enabled": true}`, `Postman env: {"key": "apiKey", "value": "[REDACTED:secret]", "enabled": true}`},
		{"postgres://ada%40acme.io:Yc3xK8vT2mQ7pR9w@localhost:5432/app", "postgres://ada%40acme.io:[REDACTED:url-password]@localhost:5432/app"},
		{"postgres://ada@acme:Yc8xK8vT2mQ7pR9w@db:5432/app", "postgres://ada@acme:[REDACTED:url-password]@db:5432/app"},
		{"the shared secret between services = Zo6xTq8Wm3Kp6Xv1ZzQ4", "the shared secret between services = [REDACTED:secret]"},
		{`new AuthenticationHeaderValue("Bearer", "Ze8xTq8Wm3Kp6Xv1ZzQ4")`, `new AuthenticationHeaderValue("Bearer", "[REDACTED:secret]")`},
		{`client.get(url).bearer_auth("Zd9xTq8Wm3Kp6Xv1")`, `client.get(url).bearer_auth("[REDACTED:secret]")`},
		{`.basic_auth("ada", Some("Zd8xTq8Wm3Kp6Xv1"))`, `.basic_auth("ada", Some("[REDACTED:secret]"))`},
		{`smtp.PlainAuth("", "bot@acme.io", "Zd4xTq8Wm3Kp6Xv1", "smtp.acme.io")`, `smtp.PlainAuth("", "bot@acme.io", "[REDACTED:secret]", "smtp.acme.io")`},
		{`pymysql.connect('db', 'root', 'Zb8xTq8Wm3Kp6Xv1', 'shop')`, `pymysql.connect('db', 'root', '[REDACTED:secret]', 'shop')`},
		{`WiFi.begin("HomeNet", "Qz232Wk7Lp9Xr5Tb");`, `WiFi.begin("HomeNet", "[REDACTED:secret]");`},
		{`pika.PlainCredentials('guest', 'Qz232Wk7Lp9Xr5Tb')`, `pika.PlainCredentials('guest', '[REDACTED:secret]')`},
		{`ldap3.Connection(server, 'cn=admin,dc=acme,dc=io', 'Qz232Wk7Lp9Xr5Tb', auto_bind=True)`, `ldap3.Connection(server, 'cn=admin,dc=acme,dc=io', '[REDACTED:secret]', auto_bind=True)`},
		{`ftp_login($conn, 'ada', 'Qz232Wk7Lp9Xr5Tb');`, `ftp_login($conn, 'ada', '[REDACTED:secret]');`},
		{`new ClientSecretCredential(tenantId, clientId, "Qz232Wk7Lp9Xr5Tb")`, `new ClientSecretCredential(tenantId, clientId, "[REDACTED:secret]")`},
		{`User.objects.create_superuser('admin', 'admin@acme.io', 'Qz232Wk7Lp9Xr5Tb')`, `User.objects.create_superuser('admin', 'admin@acme.io', '[REDACTED:secret]')`},
	}, []string{
		"password: required (see docs/auth.md)", "token: optional (only in CI)",
		"const token = req.headers.authorization?.split(' ')[1]", "const token = req.headers.authorization",
		"Go's MySQL DSN format is user:password@tcp(host:3306)/db", "docker build --secret id=npmrc,src=$HOME/.npmrc .",
		"ansible-playbook site.yml --private-key ~/.ssh/deploy_ed25519", "ssh-add --private-key keys/deploy.pem", "the --secret flag takes a spec",
		"git config --bypass hooks", `admin.setPassword(getPassword())`,
		`jwtKey := []byte(os.Getenv("JWT_KEY"))`, `token = String(raw)`, "client.bearer_auth(token)", `.basic_auth("ada", None::<&str>)`, `WiFi.begin(ssid, password);`, `WiFi.begin("HomeNet", WIFI_PASS);`,
		"https://user@host:8080/path?e=a@b.c", "ssh://git@github.com:22/org/repo.git", "the password with special chars is required",
	})
}

// More commands that take a password after a flag (h-v84 B6), Oracle's
// user/password@db (B4), a password piped to passwd, net use, and a JSON
// Web Key's private members.
func TestMoreCommandsThatTakeAPasswordAfterAFlag(t *testing.T) {
	bothWays(t, redacts{
		{"cf login -a api.run.pivotal.io -u ada -p Cf6nT9vX3mQ7pR2w", "cf login -a api.run.pivotal.io -u ada -p [REDACTED:secret]"},
		{"oc login https://api.ocp:6443 -u admin -p Oc4kQ3vT9xM2pR5w", "oc login https://api.ocp:6443 -u admin -p [REDACTED:secret]"},
		{"mosquitto_pub -u iot -P Mq7kT3vX9mQ2pR5w -t home/temp -m 21", "mosquitto_pub -u iot -P [REDACTED:secret] -t home/temp -m 21"},
		{"rdesktop -u admin -p Rd6nT9vX3mQ7pR2w 10.0.0.5", "rdesktop -u admin -p [REDACTED:secret] 10.0.0.5"},
		{"ncftpput -u ada -p Nf3kT9vX2mQ7pR5w ftp.example.com /in f.txt", "ncftpput -u ada -p [REDACTED:secret] ftp.example.com /in f.txt"},
		{"cqlsh -u cassandra -p Cs9aS9sA3nQw 10.0.0.7", "cqlsh -u cassandra -p [REDACTED:secret] 10.0.0.7"},
		{"<key>API_SECRET</key>\n\t<string>Pl9sT4kQ2wXz</string>", "<key>API_SECRET</key>\n\t<string>[REDACTED:secret]</string>"},
		{"<key>CFBundleName</key><string>Acme Tokens</string>", "<key>CFBundleName</key><string>Acme Tokens</string>"},
		{"salasana: Sa7kQ2wN9x", "salasana: [REDACTED:secret]"},
		{"adgangskode: Ad4mK8qW2z", "adgangskode: [REDACTED:secret]"},
		{"heslo k serveru: He5nT9vX3q", "heslo k serveru: [REDACTED:secret]"},
		{"jelszó: Je6pR2kW8m", "jelszó: [REDACTED:secret]"},
		{"kata sandi: Ks3vB7nQ1w", "kata sandi: [REDACTED:secret]"},
		{"jelszóval lépj be, a heslo je silne", "jelszóval lépj be, a heslo je silne"},
		{"Tietokannan salasana on Kv8rTq2wZm", "Tietokannan salasana on [REDACTED:secret]"},
		{"Heslo do databáze je Kv8rTq2wZm", "Heslo do databáze je [REDACTED:secret]"},
		{"kata sandi adalah Kv8rTq2wZm", "kata sandi adalah [REDACTED:secret]"},
		{"adgangskode er påkrævet; kata sandi adalah rahasia; jelszó: kötelező", "adgangskode er påkrævet; kata sandi adalah rahasia; jelszó: kötelező"},
		{"security find-identity -v -p codesigning", "security find-identity -v -p codesigning"},
		{"ibmcloud login -apikey @~/.bluemix/apikey.json", "ibmcloud login -apikey @~/.bluemix/apikey.json"},
		{"grep -n requirepass /etc/redis/redis.conf", "grep -n requirepass /etc/redis/redis.conf"},
		{"Authorization: Build 20240115.1234567890", "Authorization: Build 20240115.1234567890"},
		{"curl -H 'Authorization: Splunk 12345678-1234-1234-1234-123456789012' https://hec:8088", "curl -H 'Authorization: Splunk [REDACTED:auth-header]' https://hec:8088"},
		{"sqlplus scott/Tg7rO2kQ9vZx@//db.acme.io:1521/ORCL", "sqlplus scott/[REDACTED:url-password]@//db.acme.io:1521/ORCL"},
		{"composer config http-basic.repo.acme.io ada Cp4sT8kQ2wZx", "composer config http-basic.repo.acme.io ada [REDACTED:secret]"},
		{"composer config -g github-oauth.github.com ghx9Kq2Wz7Lp4Nv8Rt3Yc6Mb1Xs5Dj0Fh2Gk", "composer config -g github-oauth.github.com [REDACTED:secret]"},
		{"composer config minimum-stability dev", "composer config minimum-stability dev"},
		{"php composer.phar config http-basic.repo.acme.io ada Cp4sT8kQ2wZx", "php composer.phar config http-basic.repo.acme.io ada [REDACTED:secret]"},
		{"composer global config github-oauth.github.com Gh7kQ2wN9vLx3mZp", "composer global config github-oauth.github.com [REDACTED:secret]"},
		{"redis.conf has requirepass Rc5nF8qW2kZx set", "redis.conf has requirepass [REDACTED:secret] set"},
		{"use requirepass and masterauth together", "use requirepass and masterauth together"},
		{"redis:\n  requirepass: Rq8vT3kW9mZx", "redis:\n  requirepass: [REDACTED:secret]"},
		{"REDIS_REQUIREPASS=Rq8vT3kW9mZx", "REDIS_REQUIREPASS=[REDACTED:secret]"},
		{"STRIPE_KEY=Sk7vQ2mN9xLp4tRw", "STRIPE_KEY=[REDACTED:secret]"},
		{"export OPENAI_KEY=Oa3kV8nQ2wZx7mLp", "export OPENAI_KEY=[REDACTED:secret]"},
		{"MAILGUN_KEY: Mg5tR9wQ2kZx8vNp", "MAILGUN_KEY: [REDACTED:secret]"},
		{"PRIMARY_KEY=created_at_idx9", "PRIMARY_KEY=created_at_idx9"},
		{"cypher-shell -u neo4j -p Cy9pH3eR4sQw -a bolt://db:7687", "cypher-shell -u neo4j -p [REDACTED:secret] -a bolt://db:7687"},
		{"security unlock-keychain -p Kc7hN2tW9qLm login.keychain", "security unlock-keychain -p [REDACTED:secret] login.keychain"},
		{"java -jar jenkins-cli.jar -s http://ci:8080 -auth ada:Jk4nS8cL2qWx build app", "java -jar jenkins-cli.jar -s http://ci:8080 -auth ada:[REDACTED:secret] build app"},
		{"ibmcloud login -apikey Ib9mC3lO5uDkQ7wR2tY4uI6oP8aS0dF2gH4jK6lZ8xC0", "ibmcloud login -apikey [REDACTED:secret]"},
		{"codecov -t 5f1c2a9b-e07d-43aa-9b1c-2d3e4f5a6b7c -f coverage.xml", "codecov -t [REDACTED:secret] -f coverage.xml"},
		{"netlify env:set AUTH_SECRET Nf9eT1lY3yQw", "netlify env:set AUTH_SECRET [REDACTED:secret]"},
		{"expo login -u ada -p Ex9pO2lG4nQw", "expo login -u ada -p [REDACTED:secret]"},
		{`osql -S srv -U sa -P Os9qL2sV3rQw -Q "select 1"`, `osql -S srv -U sa -P [REDACTED:secret] -Q "select 1"`},
		{"p4 -u ada -P P4pW9dQz2xLm sync //depot/...", "p4 -u ada -P [REDACTED:secret] sync //depot/..."},
		{`curl -H "Authorization: sso-key dKq8Wz3Lm5N_2Xc9Vb7Nm1:Qz240Wk7Lp9Xr5Tb" https://api.godaddy.com`, `curl -H "Authorization: sso-key [REDACTED:auth-header]" https://api.godaddy.com`},
		{`curl -H "Ocp-Apim-Subscription-Key: 4f1c2e9ab7d34e2f9a1b3c5d7e9f1a2b" https://x`, `curl -H "Ocp-Apim-Subscription-Key: [REDACTED:secret]" https://x`},
		{"matrix token syt_YWRh_KqWzXnLpTrVbYcMdFgHj_0a1B2c", "matrix token [REDACTED:api-key]"},
		{"xcrun altool --upload-app -f App.ipa -u dev@acme.io -p Xc9rA1lT4oQw", "xcrun altool --upload-app -f App.ipa -u dev@acme.io -p [REDACTED:secret]"},
		{"OCI config: key_file=~/.oci/key.pem, pass_phrase=Oc9iP4aS6sQw", "OCI config: key_file=~/.oci/key.pem, pass_phrase=[REDACTED:secret]"},
		{"sqlplus system/Or9kT3vM7xQ2pW5n@localhost:1521/XEPDB1", "sqlplus system/[REDACTED:url-password]@localhost:1521/XEPDB1"},
		{"expdp hr/Ex4kT3vM7xQ2pW5n@orcl directory=dp dumpfile=hr.dmp", "expdp hr/[REDACTED:url-password]@orcl directory=dp dumpfile=hr.dmp"},
		{"CONNECT scott/Ct6kT3vM7xQ2pW5n@ORCL", "CONNECT scott/[REDACTED:url-password]@ORCL"},
		{`{"kty":"oct","k":"GawgguFyGrWKav7AX4VKUg8vQ3Jm9xZp2LkR5tWq"}`, `{"kty":"oct","k":"[REDACTED:secret]"}`},
		{`{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","d": "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"}`, `{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","d": "[REDACTED:secret]"}`},
		{`echo -e "Pw7xK2mQ9v\nPw7xK2mQ9v" | passwd ada`, `echo -e "[REDACTED:secret]" | passwd ada`},
		{"yes Pw7xK2mQ9v | passwd ada", "yes [REDACTED:secret] | passwd ada"},
		{`net use Z: \\fs01\share Nu7xK2mQ9v /user:CORP\ada /persistent:no`, `net use Z: \\fs01\share [REDACTED:secret] /user:CORP\ada /persistent:no`},
		{`NET USE \\fs01\share /user:CORP\ada Nu7xK2mQ9v`, `NET USE \\fs01\share /user:CORP\ada [REDACTED:secret]`},
		{"echo 'Pw7xK2mQ9v' | sudo passwd --stdin ada", "echo '[REDACTED:secret]' | sudo passwd --stdin ada"},
	}, []string{
		`echo "$NEW_PW" | passwd ada`, `{"key": "theme", "value": "dark-mode-2024"}`, `{"key": "apiKey", "value": "{{apiKey}}"}`, `{"d":"2024-01-01","k":"some_long_identifier_name_for_the_cache"}`, `{"p": "packages/core/src/index.ts"}`, `net use Z: \\fs01\share * /user:ada`, `net use \\fs01\share /user:ada`, `net use Z: /delete`, "yes | apt-get install curl", "echo done | passwdqc", "yes y | passwd -l ada",
		"images/logo@2x.png", "docker pull library/nginx@sha256:abc", "lodash/fp@4.17.21", "npm i @scope/pkg@1.2.0",
		"user/repo@v1.2.3", "refs/heads/main@{1}", "uses: actions/checkout@v4", "git push org/Repo2@main",
		"cf push myapp -p ./build", "oc get pods -p", "rdesktop -p - host", "mosquitto_sub -t home/# -P", "cf login -p",
	})
}

// More vendors' keys that need no label: JFrog, HubSpot, Dynatrace,
// Sourcegraph, Fly.io, Facebook, Alibaba Cloud, Tencent Cloud (h-v80).
func TestMoreVendorsKeysWithoutALabel(t *testing.T) {
	bothWays(t, redacts{
		{"jfrog AKCp8" + strings.Repeat("kQ3aB4cDzW", 7), "jfrog [REDACTED:api-key]"},
		{"hubspot pat-na1-1f2e3d4c-5b6a-4978-8695-a4b3c2d1e0f9", "hubspot [REDACTED:api-key]"},
		{"DT_API_TOKEN dt0c01.ST2EY72KQINMH574WMNVI7YN." + strings.Repeat("G3DFPBEJYMODIDAEX454M7YW", 3), "DT_API_TOKEN [REDACTED:api-key]"},
		{"src login with sgp_" + strings.Repeat("0123456789abcdef", 3), "src login with [REDACTED:api-key]"},
		{"flyctl uses fm2_" + strings.Repeat("lJPECAAAAAAAAMRx", 5), "flyctl uses [REDACTED:api-key]"},
		{"graph token EAAG" + strings.Repeat("m0PX4ZCpsBAPZBx", 8), "graph token [REDACTED:api-key]"},
		{"aliyun LTAI5tQ3aB4cDzWkXy", "aliyun [REDACTED:api-key]"},
		{"tencent AKIDz8krbsJ5yKBZQpn74WFkmLPx3gnPhESA", "tencent [REDACTED:api-key]"},
		// h-v90's unlabelled prefixes.
		{"bitbucket ATBB" + strings.Repeat("x7Kq2mWz", 4) + "E1F2A3B4", "bitbucket [REDACTED:api-key]"},
		{"adafruit aio_" + strings.Repeat("Qx7m", 7), "adafruit [REDACTED:api-key]"},
		{"FLWSECK-" + strings.Repeat("0a1b2c3d", 4) + "-X and FLWSECK_TEST-" + strings.Repeat("9f8e7d6c", 4) + "-X", "[REDACTED:api-key] and [REDACTED:api-key]"},
		{"typeform tfp_" + strings.Repeat("Ab3_Cd4-Ef5G", 4), "typeform [REDACTED:api-key]"},
		{"shippo shippo_live_" + strings.Repeat("0123456789abcdef", 3), "shippo [REDACTED:api-key]"},
		{"deploy with CLOJARS_" + strings.Repeat("a1b2c3d4e5f60718", 4), "deploy with [REDACTED:api-key]"},
		{"frame.io fio-u-" + strings.Repeat("Ab3_Cd4-Ef5G", 6), "frame.io [REDACTED:api-key]"},
		{"square EAAA" + strings.Repeat("l9Kx_2Mw-", 7), "square [REDACTED:api-key]"},
		{"notion secret_" + strings.Repeat("Ab3Cd4Ef5G", 5), "notion [REDACTED:api-key]"},
		{"lob live_" + strings.Repeat("0a1b2c3d4e", 4), "lob [REDACTED:api-key]"},
		{"braintree access_token$production$x7kq2mwzh5n3p9rt$" + strings.Repeat("0123456789abcdef", 2), "braintree [REDACTED:api-key]"},
	}, []string{
		"ATBB is Bitbucket's prefix", "aio_key in settings", "FLWSECK-", "tfp_ tokens", "shippo_live_ keys", "CLOJARS_ tokens",
		"EAAA tokens", "secret_key_base", "secret_name_of_the_kubernetes_secret_object", "live_reload", "live_preview_enabled_for_staging_builds_only",
		"access_token$production$ is the shape",
	})
	bothWays(t, redacts{}, []string{
		"the AKCp prefix", "pat-na1- tokens rotate", "EAAG tokens expire", "LTAI is Alibaba's prefix", "AKID and then 32 characters",
		"sgp_ tokens", "the EAABBCCDD pattern",
	})
}

// A password given by its place to a call that takes one there (h-v76
// B8); a variable, a reference or a name there stays.
func TestAPasswordGivenByItsPlace(t *testing.T) {
	bothWays(t, redacts{
		{`DriverManager.getConnection(url, "ada", "Xq9vLm2pRt");`, `DriverManager.getConnection(url, "ada", "[REDACTED:secret]");`},
		{`jwt.sign(payload, "Zq8vPw3nKx7L")`, `jwt.sign(payload, "[REDACTED:secret]")`},
		{`hmac.new(b"Zq8vPw3nKx7L", msg, hashlib.sha256)`, `hmac.new(b"[REDACTED:secret]", msg, hashlib.sha256)`},
		{`Fernet(b"Zq8vPw3nKx7LZq8vPw3nKx7LZq8vPw3nKx7LZq8vPw3=")`, `Fernet(b"[REDACTED:secret]")`},
		{`AES.new(b"Zq8vPw3nKx7L0123", AES.MODE_GCM)`, `AES.new(b"[REDACTED:secret]", AES.MODE_GCM)`},
		{`crypto.createCipheriv("aes-256-cbc", "Zq8vPw3nKx7L0123", iv)`, `crypto.createCipheriv("aes-256-cbc", "[REDACTED:secret]", iv)`},
		{`crypto.createHmac('sha256', 'Zq8vPw3nKx7L').update(x)`, `crypto.createHmac('sha256', '[REDACTED:secret]').update(x)`},
		{`new SecretKeySpec("Zq8vPw3nKx7L".getBytes(UTF_8), "HmacSHA256")`, `new SecretKeySpec("[REDACTED:secret]".getBytes(UTF_8), "HmacSHA256")`},
		// Other languages' and payloads with quotes (h-v81 B7).
		{`jwt.encode({"sub": "1"}, "k3yMaterialXyz99")`, `jwt.encode({"sub": "1"}, "[REDACTED:secret]")`},
		{`hmac.new("k3yMaterialXyz99".encode("utf-8"), msg, hashlib.sha256)`, `hmac.new("[REDACTED:secret]".encode("utf-8"), msg, hashlib.sha256)`},
		{`mac := hmac.New(sha256.New, []byte("k3yMaterialXyz99"))`, `mac := hmac.New(sha256.New, []byte("[REDACTED:secret]"))`},
		{`s, err := token.SignedString([]byte("k3yMaterialXyz99"))`, `s, err := token.SignedString([]byte("[REDACTED:secret]"))`},
		{`OpenSSL::HMAC.hexdigest("SHA256", "k3yMaterialXyz99", data)`, `OpenSSL::HMAC.hexdigest("SHA256", "[REDACTED:secret]", data)`},
		{`hash_hmac('sha256', $data, 'k3yMaterialXyz99')`, `hash_hmac('sha256', $data, '[REDACTED:secret]')`},
		{`new HMACSHA256(Encoding.UTF8.GetBytes("k3yMaterialXyz99"))`, `new HMACSHA256(Encoding.UTF8.GetBytes("[REDACTED:secret]"))`},
		{`Algorithm.HMAC256("k3yMaterialXyz99")`, `Algorithm.HMAC256("[REDACTED:secret]")`},
		{`EncodingKey::from_secret(b"k3yMaterialXyz99")`, `EncodingKey::from_secret(b"[REDACTED:secret]")`},
		// h-v82 B5–B8.
		{`EncodingKey::from_secret("Qv7mWz2pRt".as_ref())`, `EncodingKey::from_secret("[REDACTED:secret]".as_ref())`},
		{"hmac.new(key=b'Qv7mWz2pRt', msg=m, digestmod='sha256')", "hmac.new(key=b'[REDACTED:secret]', msg=m, digestmod='sha256')"},
		{"jwt.encode(payload, key='Qv7mWz2pRt')", "jwt.encode(payload, key='[REDACTED:secret]')"},
		{"crypto.createCipheriv('aes-256-cbc', Buffer.from('Qv7mWz2pRt'), iv)", "crypto.createCipheriv('aes-256-cbc', Buffer.from('[REDACTED:secret]'), iv)"},
		{`new SymmetricSecurityKey(Encoding.UTF8.GetBytes("Qv7mWz2pRt"))`, `new SymmetricSecurityKey(Encoding.UTF8.GetBytes("[REDACTED:secret]"))`},
		{"CryptoJS.HmacSHA256(msg, 'Qv7mWz2pRt')", "CryptoJS.HmacSHA256(msg, '[REDACTED:secret]')"},
		{"CryptoJS.AES.encrypt(msg, 'Qv7mWz2pRt')", "CryptoJS.AES.encrypt(msg, '[REDACTED:secret]')"},
		{"jose.JWS.sign(payload, 'Qv7mWz2pRt', 'HS256')", "jose.JWS.sign(payload, '[REDACTED:secret]', 'HS256')"},
		{`$pdo = new PDO($dsn, 'ada', 'Xq9vLm2pRt');`, `$pdo = new PDO($dsn, 'ada', '[REDACTED:secret]');`},
		{`mysqli_connect('localhost', 'root', 'Xq9vLm2pRt');`, `mysqli_connect('localhost', 'root', '[REDACTED:secret]');`},
		{`$mysqli = new mysqli("db", "ada", "Xq9vLm2pRt", "app");`, `$mysqli = new mysqli("db", "ada", "[REDACTED:secret]", "app");`},
		{`new NetworkCredential("ada", "Xq9vLm2pRt")`, `new NetworkCredential("ada", "[REDACTED:secret]")`},
		{`server.login("me@example.com", "Xq9vLm2pRt")`, `server.login("me@example.com", "[REDACTED:secret]")`},
		{`ftp = ftplib.FTP("ftp.example.com", "ada", "Xq9vLm2pRt")`, `ftp = ftplib.FTP("ftp.example.com", "ada", "[REDACTED:secret]")`},
	}, []string{
		`DriverManager.getConnection(url, user, password);`, `new PDO($dsn, $user, $pass);`, `server.login(user, os.environ["PW"])`,
		`DriverManager.getConnection(url, "sa", "DB_PASSWORD")`, `mysqli_connect("localhost", "root", "")`, `form.login("Sign in", "Cancel")`,
		`getConnection(url, f("a", "b"), "Xq9vLm2pRt")`,
		`jwt.sign(payload, process.env.JWT_SECRET)`, `hash_hmac('sha256', $data, $key)`, `hmac.New(sha256.New, key)`, `AESGCM(key)`, `hmac.new(key, msg, hashlib.sha256)`, `Fernet(key)`, `AES.new(key, AES.MODE_GCM)`, `jwt.verify(token, "JWT_SECRET")`,
	})
}

// A private key's DER in base64 without its BEGIN and END lines (h-v76
// B3): its first bytes say it is one; a public key's say otherwise.
func TestAKeysBase64WithoutItsArmour(t *testing.T) {
	body := "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKjMzEfYyjiWA4R4"
	bothWays(t, redacts{
		{"PRIVATE KEY: " + body, "PRIVATE KEY: [REDACTED:private-key]"},
		{"private key (base64): " + body, "private key (base64): [REDACTED:private-key]"},
		{body, "[REDACTED:private-key]"},
		{"MIIEowIBAAKCAQEAx3Bq9Zr8Yk2LmNpQrStUvWxYz0123", "[REDACTED:private-key]"},
		{"ec: MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oa4XdW+5bJ1ToAoGCCqGSM49", "ec: [REDACTED:private-key]"},
	}, []string{
		"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo", "the DER starts MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
	})
}

// Any command's long flag that names a secret, its value after a blank
// (h-v76 B6); a file's flag, a reference, a subshell and prose about the
// flag stay.
func TestALongFlagThatNamesASecretGivesTheWordAfterIt(t *testing.T) {
	bothWays(t, redacts{
		{"kubectl --token Xq9vLm2pRtZ8kQ3aB4cD get pods", "kubectl --token [REDACTED:secret] get pods"},
		{"mytool --db-password Xq9vLm2pRt --host db", "mytool --db-password [REDACTED:secret] --host db"},
		{"vault write auth/x --client-secret Xq9vLm2pRt", "vault write auth/x --client-secret [REDACTED:secret]"},
		{"tool --token Xq9vLm2pRt;echo done", "tool --token [REDACTED:secret];echo done"},
	}, []string{
		"mytool --password-file /run/secrets/pw", "the --token flag takes a token", `use --password "$PW"`, "cmd --token $(cat token.txt)",
		"cmd --no-password --user ada", "use the --password option to set it", "git log --format=%H --token-count 3", "x--token Xq9vLm2pRt",
	})
}

// YAML's value on the next line is indented deeper than its key's line: a
// line no deeper is the next item of a list or a report (h-v78 B13).
func TestAValueOnTheNextLineIsIndentedDeeperThanItsKey(t *testing.T) {
	bothWays(t, redacts{
		{"password:\n  hunter2x", "password:\n  [REDACTED:secret]"},
		{"db:\n  password:\n    hunter2x\n", "db:\n  password:\n    [REDACTED:secret]\n"},
		{"- password:\n  hunter2x9\n", "- password:\n  [REDACTED:secret]\n"},
	}, []string{
		"    Build — Staging needs a password:\n  .pi/memory/MEMORY.md:6#P-0a1b2c3d4e  note\n",
		"  password:\n  hunter2x\n",
	})
}

// A key's name written with a blank labels prose too (h-v76 B15, h-v78
// B3): "Private Key: …", "the master key for the vault is …".
func TestAKeysNameWithABlankLabelsProse(t *testing.T) {
	bothWays(t, redacts{
		{"Prod signer Private Key: 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "Prod signer Private Key: [REDACTED:secret]"},
		{"Access Key: Xk29dmw02kdLs0dk3", "Access Key: [REDACTED:secret]"},
		{"Secret Key: Xk29dmw02kdLs0dk3Xk29", "Secret Key: [REDACTED:secret]"},
		{"master key = Xk29dmw02kdLs0dk3", "master key = [REDACTED:secret]"},
		{"the master key for the vault is Xq9vLm2pRtZ8kQ3aB4cD", "the master key for the vault is [REDACTED:secret]"},
	}, []string{
		"the private key is in 1Password", "the deploy key: github-actions-deploy", "Private Key: see vault", "the signing key rotates monthly",
	})
}

// Docker's credentials and a PEM key base64'd whole, a Wi-Fi PSK (h-v78
// B4, B5, B7).
func TestDockersAuthAPEMInBase64AndAPSK(t *testing.T) {
	bothWays(t, redacts{
		{`{"auths":{"https://index.docker.io/v1/":{"auth":"YWRhOlhrMjlkbXcwMmtkTHMwZGsz"}}}`, `{"auths":{"https://index.docker.io/v1/":{"auth":"[REDACTED:secret]"}}}`},
		{".dockerconfigjson: eyJhdXRocyI6eyJodHRwczovL2luZGV4LmRvY2tlci5pbyI6", ".dockerconfigjson: [REDACTED:api-key]"},
		{"tls.key: LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JSUV2UUlCQURBTkJna3Foa2lHOXcw", "tls.key: [REDACTED:private-key]"},
		{`Staging wifi psk="Xk29dmw02kdLs0dk3"`, `Staging wifi psk="[REDACTED:secret]"`},
		{"wpa_psk=Xk29dmw02kdLs0dk3", "wpa_psk=[REDACTED:secret]"},
	}, []string{
		`{"auth":"bearer"}`, `{"auth":"dXNlcm5hbWVvbmx5"}`, "tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUR", "psk: ${WIFI_PSK}",
	})
}

// A label's value picked by a ternary: the literals are marked, not the
// condition (h-v78 B1: the mark took "isProd ?" and left the literal).
func TestATernarysLiteralsAreTheValue(t *testing.T) {
	bothWays(t, redacts{
		{`const password = isProd ? "Xk29dmw02kdLs0dk3" : "dev"`, `const password = isProd ? "[REDACTED:secret]"`},
		{`password = cond ? "Xk29dmw02kdLs0dk3" : null`, `password = cond ? "[REDACTED:secret]" : null`},
	}, nil)
}

// redacts is the half of a rule's table that String changes: each in
// becomes its want.
type redacts []struct{ in, want string }

// bothWays checks a rule both ways: each of marked becomes its want, and
// each of kept comes back as it was.
func bothWays(t *testing.T, marked redacts, kept []string) {
	t.Helper()
	for _, c := range marked {
		if got, _ := String(c.in); got != c.want {
			t.Errorf("String(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
	for _, s := range kept {
		if got, kinds := String(s); got != s {
			t.Errorf("String(%q) = %q %v", s, got, kinds)
		}
	}
}

// A variable named for auth or a personal access token holds one when its
// value looks chosen (h-v90): a token, a password with both cases or a
// symbol, user:password. A setting there (a mechanism, a boolean, a
// reference) stays, and a lowercase _pat is a pattern's name.
func TestAuthAndAccessTokenVariables(t *testing.T) {
	bothWays(t, redacts{
		{"REDIS_AUTH=Xq9vLm2pRt", "REDIS_AUTH=[REDACTED:secret]"},
		{"REDIS_AUTH=hunter2hunter", "REDIS_AUTH=[REDACTED:secret]"},
		{"export GITHUB_PAT=abc123def456ghi789", "export GITHUB_PAT=[REDACTED:secret]"},
		{"ADO_PAT: 5xk2m9q7w3e8r4t6y1u0i9o8p7a6s5d4f3g2h1j0k9l8z7x6c5v4", "ADO_PAT: [REDACTED:secret]"},
		{"PROXY_AUTH=admin:hunter22", "PROXY_AUTH=[REDACTED:secret]"},
		{`basic_auth: "ada:Xq9vLm2p"`, `basic_auth: "[REDACTED:secret]"`},
	}, []string{
		"SMTP_AUTH=starttls", "MAIL_AUTH=true", "PG_AUTH=md5", "REQUIRE_AUTH=enabled", `url_pat = r"^/api/v1/"`, "glob_pat: '*.go'",
		"REDIS_AUTH=${REDIS_PASSWORD}", "DB_AUTH=scram-sha-256", "BASIC_AUTH=$BASIC_AUTH", "use_auth = True", "auth.method = oauth2",
		"x.auth = 'Bearer'", "NEXTAUTH_URL=http://localhost:3000", "ENABLE_OAUTH=true", "the author_path = docs/authors.md",
	})
}

// A label with where it is used after it, or before its KEY (h-v91): the
// same label. A word that is no place (TTL, COUNT, MIN_LENGTH) or three
// digits is no label's end.
func TestALabelWithWhereItIsUsed(t *testing.T) {
	bothWays(t, redacts{
		{"DB_PASSWORD_PROD=hunter2x9", "DB_PASSWORD_PROD=[REDACTED:secret]"},
		{"API_KEY_2=Xq9vLm2pRtQ", "API_KEY_2=[REDACTED:secret]"},
		{"STRIPE_LIVE_KEY=Xq9vLm2pRtQ", "STRIPE_LIVE_KEY=[REDACTED:secret]"},
		{"STRIPE_KEY_PROD=Xq9vLm2pRtQ", "STRIPE_KEY_PROD=[REDACTED:secret]"},
		{"OPENAI_KEY_1=Xq9vLm2pRtQ", "OPENAI_KEY_1=[REDACTED:secret]"},
		{"token_new: Xq9vLm2pRtQ", "token_new: [REDACTED:secret]"},
		{"SECRET_KEY_BASE_PROD=abcdef123456", "SECRET_KEY_BASE_PROD=[REDACTED:secret]"},
		{"REDIS_AUTH_STAGING=Xq9vLm2pRt", "REDIS_AUTH_STAGING=[REDACTED:secret]"},
	}, []string{
		"SMTP_AUTH_2=starttls", "TOKEN_TTL=3600", "PASSWORD_MIN_LENGTH=12", "token_count_2 = 12", "PRIMARY_KEY_1=id", "SORT_KEY_PROD=created_at",
		"test_2 = foo bar",
	})
}

// Network devices' and daemons' secret directives (h-v90/h-v91 named
// them): a line's first words, a bullet's or after a label's colon, with
// the type digit IOS writes first; the daemons' labels; JDBC's thin URL
// and keychain imports. Prose about the directives stays.
func TestDeviceAndDaemonDirectives(t *testing.T) {
	bothWays(t, redacts{
		{"enable secret 0 Vn7qLz2Rw9", "enable secret 0 [REDACTED:secret]"},
		{"!\nenable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0\n!", "!\nenable secret 5 [REDACTED:secret]\n!"},
		{"- username admin privilege 15 password 0 Vn7qLz2Rw9", "- username admin privilege 15 password 0 [REDACTED:secret]"},
		{"username admin secret Vn7qLz2Rw9", "username admin secret [REDACTED:secret]"},
		{"core switch: snmp-server community Hq4Zr8Lm2W RO", "core switch: snmp-server community [REDACTED:secret] RO"},
		{" radius-server key Hq4Zr8Lm2W", " radius-server key [REDACTED:secret]"},
		{"`pre-shared-key Hq4Zr8Lm2W`", "`pre-shared-key [REDACTED:secret]`"},
		{"  authentication {\n    auth_type PASS\n    auth_pass Kd82mQzL\n  }", "  authentication {\n    auth_type PASS\n    auth_pass [REDACTED:secret]\n  }"},
		{"ldap_default_authtok = Pq7Vz3Lk9Rm2", "ldap_default_authtok = [REDACTED:secret]"},
		{"olcRootPW: Xm4Kq8Zr2Lv7", "olcRootPW: [REDACTED:secret]"},
		{"masterauth: Rv9Lq2Zm7Kx4", "masterauth: [REDACTED:secret]"},
		{"jdbc:oracle:thin:scott/Tg7Kq2Lm9Zx4@//db.example.com:1521/ORCL", "jdbc:oracle:thin:scott/[REDACTED:url-password]@//db.example.com:1521/ORCL"},
		{"security import dev.p12 -k login.keychain -P Wm3Zq8Lk2Rv7", "security import dev.p12 -k login.keychain -P [REDACTED:secret]"},
	}, []string{
		"Run enable, then configure terminal.", "the username field takes a login name", "set the snmp-server community on every switch",
		"keepalived's auth_pass is at most 8 characters", "jdbc:oracle:thin:@//db.example.com:1521/ORCL", "security import cert.p12 -k login.keychain",
		"enable secret", "username admin privilege 15", "`key-string ``", "`enable secret 0 `",
	})
}

// A tool call's arguments are JSON (h-v93 c1): a command or a file quoted
// whole hides its values behind escaped quotes and "\n"; each string is
// read decoded, at any depth, and what holds no secret keeps its bytes.
func TestJSONStringsReadsEachStringDecoded(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"command":"export OPENAI_API_KEY=\"Wq8xR2pLa8abcdEFGHijkl\" && echo ok"}`, `{"command":"export OPENAI_API_KEY=\"[REDACTED:secret]\" && echo ok"}`},
		{`{"path":"compose.yml","content":"db:\n  environment:\n    POSTGRES_PASSWORD: \"Wr1teToolPw9\"\n"}`, `{"path":"compose.yml","content":"db:\n  environment:\n    POSTGRES_PASSWORD: \"[REDACTED:secret]\"\n"}`},
		{`{"command":"cat > ~/.pgpass <<EOF\ndb:5432:app:app:Vq7Lm2Zr9Kx\nEOF"}`, `{"command":"cat > ~/.pgpass <<EOF\ndb:5432:app:app:[REDACTED:secret]\nEOF"}`},
		{`{"command":"htpasswd -bc .htpasswd admin Vq7Lm2Zr9Kx"}`, `{"command":"htpasswd -bc .htpasswd admin [REDACTED:secret]"}`},
		{`[[[[{"a":"token=\"hunter2xyz\""}]]]]`, `[[[[{"a":"token=\"[REDACTED:secret]\""}]]]]`},
		{`{"n":1,"path":"a.go","s":"x \"y\" z"}`, `{"n":1,"path":"a.go","s":"x \"y\" z"}`},
		{`{"cut":"token=\"hunter2`, `{"cut":"token=\"hunter2`},
		{`"\u00e9\t"`, `"\u00e9\t"`},
		{``, ``},
	} {
		if got := JSONStrings(c.in); got != c.want {
			t.Errorf("JSONStrings(%s)\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// A heading or a list's head that names secrets makes each entry under it
// a secret's name and value (h-v93 c2, c3); what names no chosen value, a
// sentence, a path and an entry past the list stay.
func TestWhatAHeadingOrAListsHeadNamesAsSecrets(t *testing.T) {
	bothWays(t, redacts{
		{"## Passwords\n\n- grafana: Gr4fAdm1nPw\n- rotate: every 90 days", "## Passwords\n\n- grafana: [REDACTED:secret]\n- rotate: every 90 days"},
		{"## Grafana admin password\n\n- `Gr4fAdm1nPw`\n", "## Grafana admin password\n\n- `[REDACTED:secret]`\n"},
		{"- Passwords:\n  - jenkins: Jk8sPw!x2\n- next: Qq9Zz8Yy7X", "- Passwords:\n  - jenkins: [REDACTED:secret]\n- next: Qq9Zz8Yy7X"},
		{"secrets:\n  db: Db7Pw9Xx\n  api = Ap1Kx7Zq\nother: Qq9Zz8Yy7X", "secrets:\n  db: [REDACTED:secret]\n  api = [REDACTED:secret]\nother: Qq9Zz8Yy7X"},
		{"## API keys\n### Staging\n- mapbox: Mb4Xk9Lq2Wz\n## Notes\n- build: Qq9Zz8Yy7X", "## API keys\n### Staging\n- mapbox: [REDACTED:secret]\n## Notes\n- build: Qq9Zz8Yy7X"},
		{"**Credentials**:\n1. staging = \"St4g1ngPw\"", "**Credentials**:\n1. staging = \"[REDACTED:secret]\""},
		// h-v95 b3: a qualifier after the word, a closing '#' run, a bold
		// line, a note after the value, other languages.
		{"## Passwords for staging\n- grafana: Gr4fAdm1nPw", "## Passwords for staging\n- grafana: [REDACTED:secret]"},
		{"## Credentials (prod)\n- grafana: Gr4fAdm1nPw", "## Credentials (prod)\n- grafana: [REDACTED:secret]"},
		{"## Passwords ##\n- grafana: Gr4fAdm1nPw", "## Passwords ##\n- grafana: [REDACTED:secret]"},
		{"**Passwords**\n- grafana: Gr4fAdm1nPw", "**Passwords**\n- grafana: [REDACTED:secret]"},
		{"## Passwords\n- grafana: Gr4fAdm1nPw (rotated monthly)", "## Passwords\n- grafana: [REDACTED:secret] (rotated monthly)"},
		{"Passwörter:\n- grafana: Gr4fAdm1nPw", "Passwörter:\n- grafana: [REDACTED:secret]"},
		{"Mots de passe :\n- grafana: Gr4fAdm1nPw", "Mots de passe :\n- grafana: [REDACTED:secret]"},
		// h-v96 b5: more heading shapes.
		{"## Passwords and SSH keys\n- grafana: Gr4fAdm1nPw", "## Passwords and SSH keys\n- grafana: [REDACTED:secret]"},
		{"## Passwords/Tokens\n- grafana: Gr4fAdm1nPw", "## Passwords/Tokens\n- grafana: [REDACTED:secret]"},
		{"## DB-Passwords\n- grafana: Gr4fAdm1nPw", "## DB-Passwords\n- grafana: [REDACTED:secret]"},
		{"## 数据库密码\n- grafana: Gr4fAdm1nPw", "## 数据库密码\n- grafana: [REDACTED:secret]"},
		// h-v97 b8: punctuation, a symbol, a bracketed note, a year, what
		// holds them, other languages.
		{"## Passwords.\n- grafana: Gr4fAdm1nPw", "## Passwords.\n- grafana: [REDACTED:secret]"},
		{"## Credentials 🔐\n- grafana: Gr4fAdm1nPw", "## Credentials 🔐\n- grafana: [REDACTED:secret]"},
		{"## Passwords [prod]\n- grafana: Gr4fAdm1nPw", "## Passwords [prod]\n- grafana: [REDACTED:secret]"},
		{"## Passwords 2024\n- grafana: Gr4fAdm1nPw", "## Passwords 2024\n- grafana: [REDACTED:secret]"},
		{"## Passwords | prod\n- grafana: Gr4fAdm1nPw", "## Passwords | prod\n- grafana: [REDACTED:secret]"},
		{"## Password list\n- grafana: Gr4fAdm1nPw", "## Password list\n- grafana: [REDACTED:secret]"},
		{"## Credential store\n- grafana: Gr4fAdm1nPw", "## Credential store\n- grafana: [REDACTED:secret]"},
		{"## 密码表\n- grafana: Gr4fAdm1nPw", "## 密码表\n- grafana: [REDACTED:secret]"},
		{"## Wachtwoorden\n- grafana: Gr4fAdm1nPw", "## Wachtwoorden\n- grafana: [REDACTED:secret]"},
		{"## Zugangsdaten\n- grafana: Gr4fAdm1nPw", "## Zugangsdaten\n- grafana: [REDACTED:secret]"},
		{"## Hasła\n- grafana: Gr4fAdm1nPw", "## Hasła\n- grafana: [REDACTED:secret]"},
		// h-v96 b2: a shell comment in a code block is no heading.
		{"## Credentials\n\n```sh\n# rotate with vault\nexport X=1\n```\n\n- jenkins: Jenk1ns!Pw9", "## Credentials\n\n```sh\n# rotate with vault\nexport X=1\n```\n\n- jenkins: [REDACTED:secret]"},
	}, []string{
		"## Passwords\n\n- owner: @alice\n- path: secret/data/app\n- policy: min 12 chars\n- see https://vault.example.com/ui",
		"## Secrets management\n- grafana: Gr4fAdm1nPw", "## Rotating passwords safely\n- grafana: Gr4fAdm1nPw", "**Notes**\n- build: Qq9Zz8Yy7X", "## Keys\n- save: Ctrl+S1", "- Tokens:\n- jenkins: Jk8sPw!x2",
		"## Tokens\n- ttl: 3600s\n- format: JWT\n- issuer: auth.example.com", "## Passwords\n- vault: ${VAULT_PW}\n- `hunter2`",
		"## Shopping list\n- grafana: Gr4fAdm1nPw", "## Release 2024\n- grafana: Gr4fAdm1nPw",
	})
}

// h-v99 a1: a secret flag whose value starts with "-", more than 8 KiB
// into a line, sliced the text from after its value's start and panicked
// (the core trapped for good: a note, a tool's output, a past session).
func TestAFlagFarIntoALineWithADashValueDoesNotPanic(t *testing.T) {
	for _, s := range []string{strings.Repeat("x", 8193) + " --password -", strings.Repeat("y ", 4200) + "--token -", strings.Repeat("x", 9000) + " --api-key --verbose"} {
		out, _ := String(s)
		if out != s {
			t.Errorf("changed: %q", out[len(out)-40:])
		}
	}
}

// The scan keeps a pattern's bit in a 64-bit mask: a 65th pattern took the
// first one's bit, and tables went unread (h-v100, found adding one).
func TestThePatternsFitTheScansMasks(t *testing.T) {
	setupOnce.Do(setup)
	if len(patterns) > 64 {
		t.Fatalf("%d patterns", len(patterns))
	}
}

// A key named for its service alone (SPEECH_KEY, as Azure's quickstarts
// name it) when its value looks made at random, and a substitution that
// writes a secret into a file (h-v100 b1, b2).
func TestAServicesKeyByItsOwnNameAndASubstitutionsValue(t *testing.T) {
	bothWays(t, redacts{
		{"SPEECH_KEY=4f1c9a07Qz811e2b3c4d5e6f708192a3", "SPEECH_KEY=[REDACTED:secret]"},
		{`AZURE_STORAGE_KEY: "Zm9vYmFyQz811e2b3c4d5e6f708192a3=="`, `AZURE_STORAGE_KEY: "[REDACTED:secret]"`},
		{"FERNET_KEY=ZmDfcTF7_60GrrY167zsiPd67pEvs0aGOv2oasOM1Pg=", "FERNET_KEY=[REDACTED:secret]"},
		{`export TRANSLATOR_KEY="8a1f2c3d4e5f60718293a4b5c6d7e8f9"`, `export TRANSLATOR_KEY="[REDACTED:secret]"`},
		{"sed -i 's/^DB_PASSWORD=.*/DB_PASSWORD=SedQz801xPw/' .env", "sed -i 's/^DB_PASSWORD=.*/DB_PASSWORD=[REDACTED:secret]/' .env"},
		{`sed -i "s|DB_PASSWORD=.*|DB_PASSWORD=SedQz802xPw|" .env`, `sed -i "s|DB_PASSWORD=.*|DB_PASSWORD=[REDACTED:secret]|" .env`},
		{"perl -pi -e 's/^API_KEY=.*/API_KEY=PerlQz802xAbcdef/' .env", "perl -pi -e 's/^API_KEY=.*/API_KEY=[REDACTED:secret]/' .env"},
		{`sed -i 's/DB_PASSWORD=.*/DB_PASSWORD="SedQz2617xPw"/' .env`, `sed -i 's/DB_PASSWORD=.*/DB_PASSWORD="[REDACTED:secret]"/' .env`},
		{`sed -i "s/DB_PASSWORD=.*/DB_PASSWORD='SedQz2619xPw'/" .env`, `sed -i "s/DB_PASSWORD=.*/DB_PASSWORD='[REDACTED:secret]'/" .env`},
	}, []string{
		"PRIMARY_KEY=created_at_idx9", "SORT_KEY=created_at", "CACHE_KEY=user:profile:v2", "PARTITION_KEY=tenant_id",
		"PUBLIC_KEY=pk_live_51HxyzAbc", "SSH_KEY=~/.ssh/id_ed25519_2024",
		// Keys no one keeps secret (h-v101 b9).
		"RECAPTCHA_SITE_KEY=6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI", "KMS_KEY=alias/prod-key-2024-01", "SORT_KEY=createdAt2024Desc123",
		"GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D", "VAPID_PUBLIC_KEY=BEl62iUYgUivxIkv69yViEuiBIa40HI80NM9f8HnKJuOmLsOM",
		"sed -i 's/DB_PASSWORD=.*/DB_PASSWORD=${NEW}/' .env", `sed -i 's/DB_PASSWORD=.*/DB_PASSWORD=\1/' .env`,
	})
}

// A token, a key or a secret named in French, German, Spanish, Portuguese,
// Italian, Dutch or Swedish, with the English word or the language's own,
// and the language's "is" (h-v100 b4).
func TestATokenOrAKeyInAnotherLanguage(t *testing.T) {
	bothWays(t, redacts{
		{"le token est Qz1407abcdef12345", "le token est [REDACTED:secret]"},
		{"Der API-Key für Produktion lautet Qz1420abcdef12345", "Der API-Key für Produktion lautet [REDACTED:secret]"},
		{"Das Token ist Qz1410abcdef12345", "Das Token ist [REDACTED:secret]"},
		{"El token de GitHub es Qz1421abcdef12345", "El token de GitHub es [REDACTED:secret]"},
		{"Mi clave de API es Qz1412abcdef1234567", "Mi clave de API es [REDACTED:secret]"},
		{"O token é Qz1413abcdef12345", "O token é [REDACTED:secret]"},
		{"il token di staging è Qz1415abcdef12345", "il token di staging è [REDACTED:secret]"},
		{"Mijn API-sleutel is Qz1416abcdef1234567", "Mijn API-sleutel is [REDACTED:secret]"},
		{"API-nyckeln är Qz1417abcdef1234567", "API-nyckeln är [REDACTED:secret]"},
		{"el secreto del cliente es Qz1419abcdef12345", "el secreto del cliente es [REDACTED:secret]"},
		// A colon after the verb, a word that qualifies the key between
		// (h-v101 b4).
		{"le token de staging est : Qz2619abcdef12345", "le token de staging est : [REDACTED:secret]"},
		{"El token es: Qz2620abcdef12345", "El token es: [REDACTED:secret]"},
		{"La clave API es Qz2622abcdef1234567", "La clave API es [REDACTED:secret]"},
		{"Le secret client est Qz2624abcdef12345", "Le secret client est [REDACTED:secret]"},
		{"the token value is Qz2625abcdef12345", "the token value is [REDACTED:secret]"},
	}, []string{
		"the token count is 12345678901", "the key idea is simple", "the token type is bearer",
		"the token est un jeton", "la clave es user_id", "the token es6 module", "la password è scaduta", "la chiave è nel README",
		"il segreto è semplice", "Der Schlüssel ist abgelaufen",
	})
}

// A query's result whose header names a secret column, as psql and mysql
// print one, and a GFM table without outer pipes (h-v100 b3).
func TestAQuerysTableAndOneWithoutOuterPipes(t *testing.T) {
	bothWays(t, redacts{
		{" id | client_id | secret\n----+-----------+--------\n  1 | web       | PsqlQz1401abcdefghijklmnop\n(1 row)",
			" id | client_id | secret\n----+-----------+--------\n  1 | web       | [REDACTED:secret]\n(1 row)"},
		{"+----+----------+----------------+\n| id | username | password       |\n+----+----------+----------------+\n|  1 | admin    | MysqlQz1403xPw |\n+----+----------+----------------+",
			"+----+----------+----------------+\n| id | username | password       |\n+----+----------+----------------+\n|  1 | admin    | [REDACTED:secret] |\n+----+----------+----------------+"},
		{"Environment | Password\n--- | ---\nstaging | Qz1405xStagingPw", "Environment | Password\n--- | ---\nstaging | [REDACTED:secret]"},
		// The first column, left of the first "|" (h-v101 b3).
		{" token                      | user_id\n----------------------------+---------\n PsqlQz2604abcdefghijklmnop |       7",
			" token                      | user_id\n----------------------------+---------\n [REDACTED:secret] |       7"},
		{"Password | Environment\n---|---\nMdQz2622xPw | staging", "Password | Environment\n---|---\n[REDACTED:secret] | staging"},
		{"name | value\n---|---\nDB_PASSWORD | Qz2630xValuePw", "name | value\n---|---\nDB_PASSWORD | [REDACTED:secret]"},
	}, []string{
		"name | note\n---|---\nalice | likes tea",
		"a | b is a pipe in prose\n--- and a rule",
		" id | client_id | secret_name\n----+-----------+------------\n  1 | web       | web-oauth",
		"ls | grep password\n---",
	})
}

// CloudFormation's parameters, in JSON, YAML and the CLI's shorthand, and a
// name/value pair written with "=" (h-v100 b6).
func TestCloudFormationParametersAndPairsWithEquals(t *testing.T) {
	bothWays(t, redacts{
		{`[{"ParameterKey":"DBPassword","ParameterValue":"Qz1814xPw"}]`, `[{"ParameterKey":"DBPassword","ParameterValue":"[REDACTED:secret]"}]`},
		{"aws cloudformation create-stack --stack-name app --parameters ParameterKey=DBPassword,ParameterValue=Qz1813xPw",
			"aws cloudformation create-stack --stack-name app --parameters ParameterKey=DBPassword,ParameterValue=[REDACTED:secret]"},
		{"Parameters:\n- ParameterKey: MasterUserPassword\n  ParameterValue: Qz1815xPw\n", "Parameters:\n- ParameterKey: MasterUserPassword\n  ParameterValue: [REDACTED:secret]\n"},
		{"name=DB_PASSWORD value=Qz1817xPwValue", "name=DB_PASSWORD value=[REDACTED:secret]"},
	}, []string{
		`[{"ParameterKey":"InstanceType","ParameterValue":"t3.micro"}]`, "name=db_host value=db.internal",
	})
}

// A long flag that names a key and its value after a blank, when the value
// looks made at random (h-v101 b1: Azure's docs write --account-key so).
func TestAKeysFlagAndItsValueAfterABlank(t *testing.T) {
	bothWays(t, redacts{
		{"az storage blob upload --account-name acct --account-key Zm9vQz2615e2b3c4d5e6f708192a3AbCd== -f a.txt", "az storage blob upload --account-name acct --account-key [REDACTED:secret] -f a.txt"},
		{"meilisearch --master-key MeiliQz2616abcdefghijkl", "meilisearch --master-key [REDACTED:secret]"},
	}, []string{
		"ssh-keygen --key ./k.pem", "aws s3 cp --sse-kms-key-id alias/x --key prefix/obj.txt", "foo --sort-key created_at", "sops --key 1234",
	})
}
