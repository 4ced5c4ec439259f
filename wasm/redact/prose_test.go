package redact

import (
	"strings"
	"testing"
)

// Issue 19 item 10: secrets in prose, and how far one extends (prose.go).
func TestProseSecretsAreRedactedToTheEndOfTheirClause(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"an AWS secret named by words around it",
			"aws creds: access key AKIAIOSFODNN7EXAMPLE, secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			"aws creds: access key [REDACTED:aws-key], secret [REDACTED:aws-secret-key]"},
		{"secret access key is …",
			"the aws secret access key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.",
			"the aws secret access key is [REDACTED:aws-secret-key]."},
		{"password is",
			"my password is hunter2",
			"my password is [REDACTED:secret]"},
		// h-v45: a value that is its label's word with "!", or shaped like a
		// generic, is a type only bare after a colon and a type's name.
		{"the label's own word with a bang", "the wifi password is Password! and PASSWORD=Password! and password: Password!", "the wifi password is [REDACTED:secret] and PASSWORD=[REDACTED:secret] and password: [REDACTED:secret]"},
		{"a bang after a password that is no type", "password: Hunter2x! (was: Wombat9$zz)", "password: [REDACTED:secret] (was: Wombat9$zz)"},
		{"a password shaped like a generic, quoted or assigned", `"password": "Tr0ub4dor<Xy>", ADMIN_PASSWORD=Tr0ub4dor<Xy>`, `"password": "[REDACTED:secret]", ADMIN_PASSWORD=[REDACTED:secret]`},
		{"print_r of an object's property", "App\\User Object ( [password:protected] => Ph9xQm2Lp7\n    [api_token:App\\Models\\User:private] => Tk9xQm2Lp7Zq", "App\\User Object ( [password:protected] => [REDACTED:secret]\n    [api_token:App\\Models\\User:private] => [REDACTED:secret]"},
		{"a quote doubled (YAML) or escaped the shell's way", "password: 'Sq9x''Qm2Lp'\nexport DB_PASSWORD='Ex9x'\\''Qm2Lp'\n- name: DB_PASSWORD\n  value: 'p@ss''word9'", "password: '[REDACTED:secret]'\nexport DB_PASSWORD='[REDACTED:secret]'\n- name: DB_PASSWORD\n  value: '[REDACTED:secret]'"},
		{"an env entry's block scalar", "- name: DB_PASSWORD\n  value: >-\n    Xq7pL2mZ9wKd", "- name: DB_PASSWORD\n  value: >-\n    [REDACTED:secret]"},
		{"a password shaped like an unclosed generic, a name with a digit in it (h-v47)", "password: Kx7<Lm9q\npassword: Pw<X9y>", "password: [REDACTED:secret]\npassword: [REDACTED:secret]"},
		{"a generic's first name with a digit, a later one a password's (h-v51)", "password: Pa55<Word>\ntoken: Gh7<Kq92>\nsecret: Hk<Qz9>\npassword: Summer2024<Beach>", "password: [REDACTED:secret]\ntoken: [REDACTED:secret]\nsecret: [REDACTED:secret]\npassword: [REDACTED:secret]"}, // a tag's name is in one case
		{"a type parameter is never first nor of four digits (h-v55)", "password: H2<O2>\npassword: Summer<K2024>\nvault password: Secret<Q12345678>", "password: [REDACTED:secret]\npassword: [REDACTED:secret]\nvault password: [REDACTED:secret]"},
		{"a '<' no '>' closes on its line is a password's (h-v49)", "password: Sunshine<Rainbow\nwifi password: Blue<Sky", "password: [REDACTED:secret]\nwifi password: [REDACTED:secret]"},
		{"a print_r value past 1 KiB, to its line's end (h-v49)", "[token:Aws\\Credentials\\Credentials:private] => IQoJb3JpZ2luX2Vj" + strings.Repeat("Ab3d", 300) + "\n[expires:protected] => ", "[token:Aws\\Credentials\\Credentials:private] => [REDACTED:secret]\n[expires:protected] => "},
		{"the shell's other quote inside a quote, its $'…', Python's triple quotes", "export DB_PASSWORD='Ex9x'\"'\"'Qm2Lp'\nDB_PASSWORD=$'Xk9mQ2Lp7'\npassword = \"\"\"Xk9mQ2Lp7\"\"\"", "export DB_PASSWORD='[REDACTED:secret]'\nDB_PASSWORD=$'[REDACTED:secret]'\npassword = \"\"\"[REDACTED:secret]\"\"\""},
		{"Python's string prefixes", `SECRET_KEY = b"Fk9xQm2Lp7Zq"; DB_PASSWORD = r'Dk9xQm2Lp7'; token = rb"Fk9xQm2Lp7Zq"`, `SECRET_KEY = b"[REDACTED:secret]"; DB_PASSWORD = r'[REDACTED:secret]'; token = rb"[REDACTED:secret]"`},
		{"the sentence's full stop stays",
			"my password is hunter2. Then run the tests.",
			"my password is [REDACTED:secret]. Then run the tests."},
		{"a preposition and up to three words before the verb",
			"the password for the staging db is hunter2",
			"the password for the staging db is [REDACTED:secret]"},
		{"pw: at the start of a value list",
			"pw: hunter2, user: ada",
			"pw: [REDACTED:secret], user: ada"},
		{"passwd without a verb: one word that looks like a password",
			"passwd hunter2 works",
			"passwd [REDACTED:secret] works"},
		{"without a verb, a quoted word that looks like a password, in any quotes",
			`use password "Tr0ub4dor&3" to log in, then password 'hunter2xyz', password ` + "`hunter2xyz`",
			`use password "[REDACTED:secret]" to log in, then password '[REDACTED:secret]', password ` + "`[REDACTED:secret]`"},
		{"a multi-word passphrase, quoted, without a verb",
			`use passphrase "correct horse battery staple" for the vault`,
			`use passphrase "[REDACTED:secret]" for the vault`},
		{"a multi-word passphrase, whole",
			"my passphrase is correct horse battery staple",
			"my passphrase is [REDACTED:secret]"},
		{"a label's bare value after a blank is a clause",
			"passphrase: correct horse battery staple # from the vault",
			"passphrase: [REDACTED:secret] # from the vault"},
		{"an identifier label too",
			"GPG_PASSPHRASE = correct horse battery staple",
			"GPG_PASSPHRASE = [REDACTED:secret]"},
		{"a quoted value is the quoted text",
			`my passphrase is "correct horse battery staple", keep it`,
			`my passphrase is "[REDACTED:secret]", keep it`},
		{"typographic quotes",
			"my password is “purple monkey dishwasher” today",
			"my password is “[REDACTED:secret]” today"},
		{"the clause may take more words than the secret held",
			"my password is hunter2 and the user is ada",
			"my password is [REDACTED:secret]"},
		{"a closing brace ends it",
			"{ password: hunter22x }",
			"{ password: [REDACTED:secret] }"},
		{"a new label ends it",
			"token: abcdef123 user: ada",
			"token: [REDACTED:secret] user: ada"},
		{"glued to its operator, a value is one word",
			"mysql --password=hunter22x -u root",
			"mysql --password=[REDACTED:secret] -u root"},
		{"markdown emphasis around the label",
			"- **Password:** hunter2",
			"- **Password:** [REDACTED:secret]"},
		{"set the password to …: one word that looks like a password",
			"change the password to hunter2 tomorrow",
			"change the password to [REDACTED:secret] tomorrow"},
		{"a predicate followed by words that are not prose",
			"my passphrase is correct horse battery staple. Thanks!",
			"my passphrase is [REDACTED:secret]. Thanks!"},
		// The phrasings issue 19 left (docs/roadmap.md).
		{"pass: a label that is the word pass alone",
			"pass: hunter2, user: ada",
			"pass: [REDACTED:secret], user: ada"},
		{"an identifier that ends in _pass",
			"SMTP_PASS = hunter22x",
			"SMTP_PASS = [REDACTED:secret]"},
		{"a parenthesis between the password word and its colon",
			"password (staging): hunter2",
			"password (staging): [REDACTED:secret]"},
		{"a value set off by commas",
			"the admin password, hunter2, is weak",
			"the admin password, [REDACTED:secret], is weak"},
		{"aws_secret and a key without an operator",
			"aws_secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
			"aws_secret [REDACTED:aws-secret-key]"},
		{"token is",
			"my token is 4f1c2e9ab7d3, keep it",
			"my token is [REDACTED:secret], keep it"},
		{"api key for … is",
			"the api key for staging is k3yEXAMPLE0123",
			"the api key for staging is [REDACTED:secret]"},
		{"a dictionary word ending in -ing, given as one's own",
			"my password is blessing",
			"my password is [REDACTED:secret]"},
		{"a dictionary word ending in -ed, one word before the password word",
			"our wifi password is wicked.",
			"our wifi password is [REDACTED:secret]."},
		{"German", "mein Passwort ist hunter2!", "mein Passwort ist [REDACTED:secret]"},
		{"French, quoted", `mon mot de passe est "soleil levant 42"`, `mon mot de passe est "[REDACTED:secret]"`},
		{"Spanish", "mi contraseña es perro123.", "mi contraseña es [REDACTED:secret]."},
		{"Spanish typed without its tilde", "Contrasena: perro123", "Contrasena: [REDACTED:secret]"},
		{"Portuguese", "a senha é abacaxi7", "a senha é [REDACTED:secret]"},
		{"Russian", "Пароль: qwerty123", "Пароль: [REDACTED:secret]"},
		{"Russian with a dash", "пароль — qwerty123", "пароль — [REDACTED:secret]"},
		// The phrasings docs/roadmap.md listed next: a password of letters
		// alone in another language, one word that is its whole clause.
		{"German, letters alone", "Passwort: geheim", "Passwort: [REDACTED:secret]"},
		{"German, the sentence's mark stays", "Das Passwort lautet geheim!", "Das Passwort lautet [REDACTED:secret]!"},
		{"French, letters alone", "mot de passe : soleil", "mot de passe : [REDACTED:secret]"},
		{"French, c'est", "mon mot de passe c'est soleil.", "mon mot de passe c'est [REDACTED:secret]."},
		{"Spanish, letters alone", "contraseña: manzana", "contraseña: [REDACTED:secret]"},
		{"Spanish, es", "la contraseña del wifi es manzana", "la contraseña del wifi es [REDACTED:secret]"},
		{"Catalan", "la contrasenya és poma", "la contrasenya és [REDACTED:secret]"},
		{"Portuguese, letters alone", "senha: laranja", "senha: [REDACTED:secret]"},
		{"Portuguese, é", "a senha é laranja, não conte", "a senha é [REDACTED:secret], não conte"},
		{"Russian, letters alone", "пароль: яблоко", "пароль: [REDACTED:secret]"},
		{"Italian", "la password è mela", "la password è [REDACTED:secret]"},
		{"Italian, one's own", "la mia password è mela", "la mia password è [REDACTED:secret]"},
		{"Italian, of the wifi", "la password del wifi è mela", "la password del wifi è [REDACTED:secret]"},
		{"Italian, typed without its accent", "la password e' mela", "la password e' [REDACTED:secret]"},
		{"Italian, a value with a digit", "la password è mela42", "la password è [REDACTED:secret]"},
		{"Portuguese with the English word", "a password é laranja", "a password é [REDACTED:secret]"},
		{"Dutch", "wachtwoord: appel", "wachtwoord: [REDACTED:secret]"},
		{"Dutch, is", "het wachtwoord is appel", "het wachtwoord is [REDACTED:secret]"},
		{"Polish", "hasło: jabłko", "hasło: [REDACTED:secret]"},
		{"Polish, to", "moje hasło to jabłko", "moje hasło to [REDACTED:secret]"},
		{"Polish, capitals", "HASŁO: jabłko", "HASŁO: [REDACTED:secret]"},
		{"Turkish", "şifre: elma", "şifre: [REDACTED:secret]"},
		{"Turkish, its password", "wifi şifresi: elma", "wifi şifresi: [REDACTED:secret]"},
		{"Turkish, capitals", "ŞİFRE: elma", "ŞİFRE: [REDACTED:secret]"},
		{"Swedish", "lösenordet är äpple", "lösenordet är [REDACTED:secret]"},
		{"Norwegian", "passord: eple", "passord: [REDACTED:secret]"},
		// Chinese, Japanese and Korean: no blank between the word, its "is"
		// and the value; a full-width colon reads as a colon.
		{"Chinese", "密码：hunter2", "密码：[REDACTED:secret]"},
		{"Chinese, is", "服务器的密码是 hunter2，别忘了", "服务器的密码是 [REDACTED:secret]，别忘了"},
		{"Chinese, is, no blank", "密码是hunter2xyz", "密码是[REDACTED:secret]"},
		{"Chinese, traditional", "密碼: Tr0ub4dor", "密碼: [REDACTED:secret]"},
		{"Japanese", "パスワードは hunter2 です", "パスワードは [REDACTED:secret] です"},
		{"Japanese, colon", "パスワード：swordfish9", "パスワード：[REDACTED:secret]"},
		{"Korean", "비밀번호는 hunter2 입니다", "비밀번호는 [REDACTED:secret] 입니다"},
		{"Korean, colon", "비밀번호: letmein42", "비밀번호: [REDACTED:secret]"},
		// The value ends where their script starts again (no blank is
		// written between words); quoted in any quotes, also with no blank
		// before the quote and no "is".
		{"Japanese, the value then です", "パスワードはhunter2xyzです", "パスワードは[REDACTED:secret]です"},
		{"Chinese, the value then a full-width comma", "密码是hunter2，别忘了", "密码是[REDACTED:secret]，别忘了"},
		{"Japanese, corner brackets", "パスワード「hunter2xyz」", "パスワード「[REDACTED:secret]」"},
		{"Chinese, corner brackets after a colon", "密码：「hunter2xyz」", "密码：「[REDACTED:secret]」"},
		{"Japanese, quoted after a blank", `パスワード "hunter2xyz"`, `パスワード "[REDACTED:secret]"`},
		{"Korean, quoted", `비밀번호 "letmein42"`, `비밀번호 "[REDACTED:secret]"`},
		{"Japanese, object particle", "パスワードを hunter2xyz に変更", "パスワードを [REDACTED:secret] に変更"},
		{"Korean, object particle", "비밀번호를 letmein42로 변경", "비밀번호를 [REDACTED:secret]로 변경"},
		{"Chinese, a Latin value right after the word", "root密码hunter2xyz", "root密码[REDACTED:secret]"},
		// Six digits or more after a verb or a label, as in English
		// ("password: 123456"); fewer, or a year with its word, are prose.
		{"Chinese, digits after a full-width colon", "密码：123456", "密码：[REDACTED:secret]"},
		{"Chinese, digits after is", "wifi密码是12345678，记住", "wifi密码是[REDACTED:secret]，记住"},
		{"Japanese, digits", "パスワードは 20240101 です", "パスワードは [REDACTED:secret] です"},
		{"German, digits", "Passwort: 123456", "Passwort: [REDACTED:secret]"},
		// A colon after the verb is not the value's; digits with dashes
		// between are a number, as in English ("password: 123-456-789").
		{"Chinese, is then a full-width colon", "密码为：123456", "密码为：[REDACTED:secret]"},
		{"Chinese, is then a colon, a word", "密码是: hunter2xyz", "密码是: [REDACTED:secret]"},
		{"Korean, is then a colon", "비밀번호는: letmein42", "비밀번호는: [REDACTED:secret]"},
		{"Chinese, digits with dashes", "密码：123-456-789", "密码：[REDACTED:secret]"},
		{"German, digits with dashes", "Passwort: 123-456-789", "Passwort: [REDACTED:secret]"},
		{"Chinese, a dash at the end is no number", "密码：123456-", "密码：123456-"},
		{"Chinese, a year then its word", "密码是2024年改的", "密码是2024年改的"},
		{"Chinese, four digits", "密码是1234", "密码是1234"},
		// The other words: 口令 (Chinese), 암호 and 비밀 번호 spelt apart (Korean).
		{"Chinese, 口令", "口令是hunter2xyz", "口令是[REDACTED:secret]"},
		{"Korean, 암호", "암호는 hunter2xyz 입니다", "암호는 [REDACTED:secret] 입니다"},
		{"Korean, spelt apart", "비밀 번호는 letmein42", "비밀 번호는 [REDACTED:secret]"},
		{"Korean, encryption is prose", "암호화는 AES256GCM으로 합니다", "암호화는 AES256GCM으로 합니다"},
		// Another language's word, then a quoted value with no verb, as in
		// English ("password "Tr0ub4dor&3"").
		{"Chinese, quoted, no verb", `密码 "Tr0ub4dor&3"`, `密码 "[REDACTED:secret]"`},
		{"German, quoted, no verb", `Passwort "Tr0ub4dor&3"`, `Passwort "[REDACTED:secret]"`},
		{"Russian, quoted, no verb", `пароль "Tr0ub4dor&3"`, `пароль "[REDACTED:secret]"`},
		{"French, quoted, no verb", `mot de passe "Tr0ub4dor&3"`, `mot de passe "[REDACTED:secret]"`},
		{"guillemets", "password «Tr0ub4dor&3»", "password «[REDACTED:secret]»"},
		// A value longer than maxProseWord is judged by its start and
		// redacted whole.
		{"a value past maxProseWord, whole", "password: hunter2" + strings.Repeat("x", 300) + ". Then", "password: [REDACTED:secret]. Then"},
		// A value ending in -ed or -ing when the sentence gives a password's
		// value without it being the speaker's own.
		{"-ing after a word that says which password", "the wifi password is blessing", "the wifi password is [REDACTED:secret]"},
		{"-ed after someone's password", "Ada's password is wicked.", "Ada's password is [REDACTED:secret]."},
		{"-ing after a colon", "pw: blessing", "pw: [REDACTED:secret]"},
		// A word of letters followed by another secret is not alone in its
		// clause, before the other is redacted or after (FuzzString's
		// "pAssord is pAssord is00000" was redacted only by a second pass).
		{"a word of letters before another secret", "Passwort: geheim AKIAIOSFODNN7EXAMPLE", "Passwort: geheim [REDACTED:aws-key]"},
		{"and after it was redacted", "Passwort: geheim [REDACTED:aws-key]", "Passwort: geheim [REDACTED:aws-key]"},
		{"unless the word's own mark ended the clause", "Passwort: geheim! AKIAIOSFODNN7EXAMPLE", "Passwort: [REDACTED:secret]! [REDACTED:aws-key]"},
		// Phrasings the adversarial pass through pi found passing: an arrow
		// or a full-width colon (as a Chinese or Japanese keyboard types it)
		// in place of ":", and "secret" as a token's word with a verb.
		{"an arrow after the word", "staging password -> hunter2x", "staging password -> [REDACTED:secret]"},
		{"a unicode arrow after the word", "password → hunter2x", "password → [REDACTED:secret]"},
		{"a full-width colon", "password：hunter2x", "password：[REDACTED:secret]"},
		{"the secret is …", "the secret is Qz45vK8rW3tLp9Xm", "the secret is [REDACTED:secret]"},
		{"token -> …", "deploy token -> 4f1c2e9ab7d3", "deploy token -> [REDACTED:secret]"},
		// The closing pass: any arrow, other full-width or look-alike colons
		// and equals signs, and a no-break space around them.
		{"a double arrow", "staging password ⇒ hunter2x", "staging password ⇒ [REDACTED:secret]"},
		{"a dingbat arrow", "password ➜ hunter2x", "password ➜ [REDACTED:secret]"},
		{"a long arrow", "password ⟶ hunter2x", "password ⟶ [REDACTED:secret]"},
		{"a long ascii arrow", "password --> hunter2x", "password --> [REDACTED:secret]"},
		{"a double ascii arrow", "password ==> hunter2x", "password ==> [REDACTED:secret]"},
		{"a dash arrow", "password —> hunter2x", "password —> [REDACTED:secret]"},
		{"a full-width equals sign", "password ＝ hunter2x", "password ＝ [REDACTED:secret]"},
		{"a small colon", "password﹕hunter2x", "password﹕[REDACTED:secret]"},
		{"no-break spaces", "password\u00a0=\u00a0hunter2x", "password\u00a0=\u00a0[REDACTED:secret]"},
		{"ideographic spaces", "password\u3000：\u3000hunter2x", "password\u3000：\u3000[REDACTED:secret]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestProseAboutPasswordsIsNotRedacted(t *testing.T) {
	for _, s := range []string{
		"密码是什么？",
		"密码错误，请重试",
		"パスワードが違います",
		"비밀번호가 틀렸습니다",
		`Passwort "required"`,
		`密码 "password_hash"`,
		"密码「必填」",
		"パスワードを変更してください",
		"비밀번호를 변경하세요",
		"パスワードを bcrypt で保存",
		"密码md5",
		"密码和用户名",
		"Reset your password in settings.",
		`the field password "required" fails`,
		`click "Forgot password" then "Reset"`,
		`the passphrase "must be long" rule`,
		`see passphrase "how to choose one" in the wiki`,
		"The password is hashed with bcrypt.",
		"The password is required.",
		"If the password is correct, the server returns 200.",
		"the password is valid for 90 days",
		"the password is too short",
		"Password is case-sensitive",
		"the password for each user is stored hashed",
		"passwd root",
		"cd $(pwd)/build",
		"pwd /home/ada2",
		"PWD=/home/ada/app",
		"password: ${DB_PASSWORD}",
		"my password is <your-password>",
		"the secret is stored in the vault",
		"secret 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
		"secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEYX",
		"--- PASS: TestParse2 (0.00s)",
		"PASS: TestParse2",
		"pass: 120/120",
		"bypass: cache-only1",
		"passkey: required",
		"stats.pass = stats.pass + 1",
		"the password (if any) is checked by the server",
		"the password, however, is weak",
		"supports password, OAuth2, and SAML sign-in",
		"my password is expired",
		"my password is missing from the vault",
		"the password is salted",
		"my password is auto-generated",
		"the token is expired",
		"the token is sha256-encoded",
		"the API key is required",
		"the token is valid for 15 minutes",
		"the token is ~/.config/gh2/hosts.yml",
		"the api key is ${API_KEY}",
		"mein Passwort ist sehr sicher",
		"Passwort vergessen?",
		"mot de passe oublié ?",
		"contraseña incorrecta",
		"Пароль неверный",
		"парольная фраза: qwerty123",
		// Near the phrasings above, with no secret.
		"the password is required",
		"password is missing",
		"the password is being reset",
		"my password is being reset",
		"my password is nothing special",
		"the password is incorrect",
		"reset the password is tracking the old policy",
		"the admin password is salted",
		"the root password is expired.",
		"pw: pending",
		"the wifi password is working again",
		"Passwort: siehe Tresor",
		"Passwort: falsch",
		"Das Passwort ist abgelaufen.",
		"Ihr Passwort ist inaktiv.",
		"mot de passe : oublié",
		"Votre mot de passe est incorrect.",
		"la contraseña es incorrecta",
		"la contraseña es demasiado corta",
		"contraseña: olvidada",
		"a senha é obrigatória",
		"пароль: неверный",
		"la password è scaduta",
		"la password è troppo corta",
		"Una passphrase vuota non è consentita.",
		"wachtwoord: vergeten",
		"Authenticatie met wachtwoord is mislukt.",
		"hasło: wymagane",
		"şifre: yanlış",
		"lösenord: glömt",
		"Passordet ditt er utløpt.",
		"Passwort: Geheimnis!?",
		// What happened to it, whatever follows; a quote or a parenthesis
		// that closes the string the sentence is in.
		"The password was rotated yesterday after the incident",
		"The password was reset yesterday",
		"// the password is validated server-side",
		"Validation: throw new Error('password is required') on empty input",
		"return 'Password is incorrect'",
		"alert('Your password is weak')",
		"token: expires after 3600 seconds",
		"secret: mounted at /run/secrets/db",
		"password: rotated quarterly",
		"requirepass and masterauth must match",
		`<string name="error_invalid_password">This password is too short</string>`,
		"token:\n\t./scripts/gen-token.sh",
		"password:\n  getPassword(),",
		"password=${db.password}",
		"token: passed to the client in the Authorization header",
		"secret: stored as a Kubernetes secret",
		"secret: mounted into the pod at startup",
		"token: written to ~/.npmrc",
		"password: stored securely in Vault",
		"the password was changed to meet the new policy",
		"password:\n  {{ .Values.db.password }}",
		"password:\n  !Ref DbPassword",
		"password=${app.db-password}",
		"the --requirepass flag is deprecated",
		"the password was moved to Vault last week",
		"the password was reset to default",
		"the password is stored as plaintext in the config",
		"the password is limited to 64 characters",
		"token: copied to clipboard",
		"password: stored safely",
		"the password was encoded as base64 before sending",
		"the password was migrated to argon2id last sprint",
		"the password was hashed as sha512 here",
		"the password was upgraded to bcrypt2b hashes",
		"the password column was changed to utf8mb4 collation",
		"the password was copied to s3://bucket/key",
		"the password is stored as SHA-256",
		"the password was converted to Base64URL",
		"the password was passed to getpass2() instead",
		"the password was renamed to DB_PASS2 in .env",
		"password: encoded as base64url",
		"password SHA-256 hash",
		"password has 12chars at least",
		"the password was set in the environment",
		"password: changed to correct horse battery staple and then we left for the day",
		"password changed to ed25519 for the deploy key",
		"password changed to ChaCha20-Poly1305 at rest",
		"password hashing changed to HMAC-SHA256",
		"password changed to X25519 keys",
		"password changed to ISO-8859-1 text",
		"password changed to v2.3.1 of the scheme",
		"password changed to x86_64 builds",
		"password changed to %DB_PASSWORD%",
		"password reset to 100000 iterations",
		"the password was set to 310000 iterations per OWASP",
		"password changed to 123456 digits minimum",
		"password set to expire in 90 days",
		"password copied to clipboard manager history buffer",
		"password moved to shared team vault folder",
		"password reset to factory default settings today",
		"password changed to Vault managed rotation policy",
		"password changed from 8 to 12 characters",
		"the password policy changed from 90 days to 180 days",
		"password hashing changed from md5 to argon2id",
		"the password was changed from nginx to caddy",
		"password rounds changed from 100000 to 600000 rounds",
		"password changed from v2.3.1 to v2.4.0 of the scheme",
		`read -s -p "Password: " PW; echo "ok"`,
		`getpass("Password: "); name = input("User: ")`,
		`console.log('Password:', 'hidden')`,
		`expect(getByText("Password:")).toBeInTheDocument()`,
		`label = "Password: " + hint`,
		`Password prompt changed from "Password: " to "Enter password: "`,
		"password copied from 1Password to Bitwarden",
		"migrated the password from md5Crypt to sha512Crypt",
		"I changed my password from the default to a long passphrase",
		`the password field was renamed from "pwd" to "password"`,
		`the password was changed to "meet the policy"`,
		"the password was changed to `${NEW_PASSWORD}`",
		`<label>Password:</label> <input type="password" name="pw">`,
		"<th>Password:</th><td>required</td>",
		"<dt>Password:</dt><dd>at least 12 characters</dd>",
		"the password is now required for all users",
		"the password is still hashed with bcrypt",
		"the password is also stored in `secrets.yaml`",
		"`<b>Password:</b> ${maskPassword(pw)}`",
		`printf("<b>Password:</b> %s\n", pw)`,
		`fmt.Printf("password: %s\n", pw)`,
		`log.info("password: {}", pw)`,
		`print(f"password: {pw}")`,
		`print("password: {0!r}".format(pw))`,
		`cursor.execute("password: %(password)s", row)`,
		"password changed: see the runbook",
		`log.Printf("password changed: user=%s", u.Name)`,
		`"Password changed: %{date}"`,
		`<string name="pw_changed">Password changed: %1$s</string>`,
		"password changed: 2024-05-01",
		"<span>Password: {password}</span>",
		`System.out.printf("Password: %-20s%n", pw)`,
		`puts "Password: #{password}"`,
		"<td>Password:</td><td><%= @password %></td>",
		`<p>Password: <input type="password" name="pw"></p>`,
		"Password: (none) for the local db",
		"{{{password}}}",
		"password: <your-password> then restart",
		"the password is now stronger",
		"<p>Password: {{{user.password}}}</p>",
		"the password is now pbkdf2_sha256",
		"the password is now unsalted_md5",
		"  password: <%= Rails.application.credentials.dig(:database, :password) %>",
		`  password: <%= ENV.fetch("DATABASE_PASSWORD", nil) %>`,
		"  password: <%= ENV['DB_PASSWORD'] || '' %>",
		`<p>Password: <%= link_to "Reset password", edit_password_path(@user) %></p>`,
		"Password: #{mask(pw, 4)}",
		`puts "Password: #{pw}, user: #{user.name}"`,
		"the password is now bcrypt-hashed",
		"  password: !vault |",
		"DBPassword: !GetAtt Secret.Password",
		"POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}",
		"DB_PASSWORD=${DB_PASSWORD:?missing}",
		"User.create!(email: params[:email], password: params[:password])",
		"the password is just fine",
		`puts "Password: #{@password}"`,
		"Password: #{ENV['DB_PASSWORD']}",
		`  password: "<%= ENV['DB_PASSWORD'] %>"`,
		"Password: %DB_PASSWORD%",
		"set PGPASSWORD=%DB_PASS%",
		"password changed: yes",
		"the password is now read from the env",
		"the password is now longer: 16 chars",
		"the password is now PBKDF2",
		"the password is now Base64-encoded",
		"the password is still base64",
		"the password is now shorter than 72 bytes",
		"the password now is required",
		"<tr><td>Password:</td></tr>\n<tr><td>Username:</td><td>ada</td></tr>",
		`<label>Password:</label><input type="password" name="pw" /> <button type="submit">Sign in</button>`,
		`subprocess.run(["mysql","-u","root","--password=" + pw, "app"])`,
		`'<td>Password:</td><td>' + user.password + '</td>'`,
		"the password was changed from \"\" to nothing",
		"<Password value={value} onChange={(e) => setValue(e.target.value)} />",
		"python moved to py3.12 and the password to v2.3.1",
		`password: Final[str] = os.environ["PW"]`,
		`DB_PASSWORD = os.environ.get("DB_PASSWORD", "")`,
		`puts "Password: #{'*' * 8} (hidden)"`,
		`db_password: "{{ lookup('env', 'DB_PASSWORD') }}"`,
		`password: <%= mask(@user.password, "****") %>`,
		`<p>Password: {{ user.password|default("not set") }}</p>`,
		`'password' => env('DB_PASSWORD', ''),`,
		"the reset password is now 6-digit",
		"the password is now 2FA-only",
		"the password is still v1-compatible",
		"the password is now 16-char min",
		`password=request.form["password"]`,
		`User(email=data["email"], password=data["password"])`,
		`mysql_root_password: "{{ lookup('env', 'MYSQL_ROOT_PASSWORD') }}"`,
		`db_pass: "{{ db_password | default(omit) }}"`,
		"machine github.com login octocat password $GH_TOKEN",
		"spring.datasource.password=${DB_PASSWORD:}",
		"password: ${DB_PASSWORD:-}",
		`kubectl create secret generic db --from-literal=password="$(openssl rand -base64 24)"`,
		"ANTHROPIC_API_KEY=your-key-here",
		"OPENAI_API_KEY=YOUR_API_KEY_HERE",
		"STRIPE_SECRET_KEY=sk_test_...",
		"DATABASE_URL=postgres://user:password@localhost:5432/app",
		"| Service | Key | Notes |\n|---|---|---|\n| stripe | test-mode | see `.env` |",
		"| password | policy |\n|---|---|\n| `${OPS_PW}` | 12+ chars, 1 digit |\n| <ask ops> | rotated 2024 |",
		"| Name | Token |\n|---|---|\n| GITHUB_TOKEN | used by CI |",
		"if a || b { return x | y }",
		"I sent the password for prod to ada",
		"I changed the password for prod to meet the policy",
		"I changed the password for prod to x86_64",
		"passwords were rotated last week",
		"The password, however, is not stored",
		"| Name | Secret |\n|---|---|\n| Deploy | deploy-key-v2 |\n| DB | db-creds-v2 |\n| ssh | id_ed25519 |",
		`let password = env::var("DB_PASSWORD")?;`,
		"{{- $password := .Values.auth.password | default (randAlphaNum 10) }}",
		"{{- $pw := .Values.password }}",
		`password: "${{ secrets.DB_PASSWORD }}"`,
		`api_key: "%env(API_KEY)%"`,
		"password: !env_var DB_PASSWORD",
		"password: arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbC123",
		"password: op://Private/Postgres/password",
		"password: ********",
		"password: xxxxxxxx",
		"SECRET_KEY=replace-with-a-long-random-string",
		"passwd:         files systemd",
		"secret: db-credentials  # k8s Secret name, created by terraform",
		"the password is now k8s-secret backed",
		"DB_PASSWORD=sk_test_...",
		"| Env var | Source |\n|---|---|\n| DB_PASSWORD | k8s/db-secret |\n| NPM_TOKEN | 1Password/CI |\n| API_KEY | Q3/2025 |",
		`config.get("database", "password", fallback="")`,
		"password: op://Private/2ma4dkxd3xbyq2ponjtjcwwjxu/password",
		"password: ref+vault://kv/apps/billing-api-v2/db#/password",
		"password: ref+awssm://prod/postgres15-main/password",
		`secret = os.environ.setdefault("SECRET_KEY", secrets.token_hex(32))`,
		`token = os.environ.setdefault("GITHUB_TOKEN", "")`,
		"api_key: '%env(resolve:API_KEY)%'",
		"token: op://Engineering/GitHub/token",
		"password: ref+vault://secret/data/db#/password",
		"password: file:///run/secrets/db_password",
		`"SecretId": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbC123"`,
		"this.password = password;",
		"this.password = hash;",
		"self.password = user_password",
		"$this->password = $password;",
		"this.clientSecret = clientSecret;",
		"this.password = hashedPassword;",
		"$this->password = $hashed;",
		"user.password = newPassword;",
		`{"a":{"token":false}}`,
		`x = {"a": {"password": null}, "secret": true}`,
		`"{\"token\":false}"`,
		`const body = '{"password":"' + pw + '"}';`,
		`$body = '{"password":"' . $pw . '"}';`,
		`let body = "{\"password\":\"\(pw)\"}"`,
		`let url = "https://\(user):\(password)@db.example.com"`,
		`"scripts": {"test": "jest", "token:refresh": "node scripts/refresh.js"}`,
		`echo "$password" | sudo -S true`,
		"console.log(`token: ${token.slice(0, 4)}…`);",
		`echo "token: ${TOKEN:0:4}..."`,
		`print(f"token: {token[:4]}...")`,
		`export TOKEN="${RAW_TOKEN:0:40}"`,
		`const password = await rl.question("Password: ");`,
		`type User { id: ID! email: String! password: String! }`,
		`mutation Login($password: String!) { login(password: $password) { token } }`,
		`pub struct Settings { pub api_key: Secret<String>, pub port: u16 }`,
		`password: Annotated[str, Field(min_length=8)]`,
		`let token: Result<String, Error> = fetch()`,
		`credentials: Record<string, string>;`,
		`secret: Secret<Vec<u8>>,`,
		`pub token: Arc<Mutex<String>>,`,
		`PASSWORD_RE = re.compile(r"password=(\S+)")`,
		`gcloud secrets versions access latest --secret=db-password`,
		`token = f"Bearer {tok}"`,
		`password: string[]`,
		`password: ?string`,
		`password: dict[str, str]`,
		`secret: Union[str, None]`,
		`fn verify(password: &SecretString) -> Result<(), AuthError>`,
		`secret: Secret<[u8; 32]>`,
		`password: Cow<'a, str>`,
		`apiKey: process.env.OPENAI_API_KEY!,`,
		`token: Pin<Box<dyn Future<Output = String>>>`,
		`    password: &'static str,`,
		`fn verify(password: &str) -> bool {`,
		`var token = $"Bearer {accessToken}";`,
		`token: Observable<string | null>;`,
		`val token: Map<String, Any?> = emptyMap()`,
		`token: Box<dyn Fn() -> String + Send>,`,
		`token: Map<string, () => Promise<string>>;`,
		`token: HashMap<String, (u64, Instant)>,`,
		`  secret: Uint8Array<ArrayBuffer>;`,
		// h-v63 B3, B5: a type's first word, a slice, a bare typed array; a Terraform reference
		"fn new(password: impl Into<String>) -> Self {", "fn check(password: &[u8]) -> bool {",
		"fn wipe(password: &mut [u8]) {", "fn raw(secret: *const u8) {", "fn f(token: &dyn Fn() -> String) {",
		"  token: typeof TOKEN;", "  password: readonly string[];",
		"  password = random_password.db.result", "  administrator_login_password = random_password.sql.result",
		"  password = data.aws_ssm_parameter.db.value", "  password = random_password.db[0].result",
		// h-v65 B3, B4: TypeScript's non-null after an environment read; a schema's type
		"  password: process.env.DB_PASSWORD!,", "  password: PropTypes.string.isRequired,", "  password: t.string,",
		"  password: Schema.String,", "  token: S.String,", "  password: pydantic.SecretStr",
		// h-v67 B4, B6
		"const password = process.env.DB_PASSWORD!;", "let password = import.meta.env.VITE_DB_PASSWORD!;",
		"  password: DataTypes.STRING,", "  password: Sequelize.STRING,", "  password: user.passwordHash,", "  password: dto.password_hash,",
		// h-v68 B3
		"  password: props.password!,", "  password: cfg.password!,", "  password: this.password!,", "  password: req.body.password!,",
		"  token: c.env.API_TOKEN!,", "  password: config.database.password!,",
		`    secret_key: GenericArray<u8, U32>,`,
		`  token: Cache<K2, V2>;`,
		`    api_token: Mapped[Optional[str]] = mapped_column(String(64))`,
		`Password = $"{prefix}{suffix}",`,
		`printf "\033[1mPassword:\033[0m "; read -rs PW`,
		"  this.token = accessToken",
		`{"valueFrom":"arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbC123:password::"}`,
		"valueFrom=arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/db-AbC123",
		`config.get("database", "password", fallback="")`,
		"password: op://Private/2ma4dkxd3xbyq2ponjtjcwwjxu/password",
		"password: ref+vault://kv/apps/billing-api-v2/db#/password",
		"password: ref+awssm://prod/postgres15-main/password",
		"the password, if set, is used for the API",
		"the password, by the way, is in 1Password",
		"the passwords are in 1Password",
		"all passwords must be 12+ chars",
		`password = os.getenv("DB_PASSWORD", None)`,
		`const pw = process.env.DB_PASSWORD || "";`,
		`  password: process.env.DB_PASSWORD_FILE || "/run/secrets/db_password",`,
		`password: {{ .Values.db.password | default "" | quote }}`,
		`password: {{ .Values.db.password | default .Values.global.password }}`,
		`password: {{ required "a db password is required" .Values.db.password }}`,
		`password: process.env.DB_PASSWORD, user: "admin"`,
		`password = os.environ.get("DB_PASSWORD", os.environ.get("PGPASSWORD"))`,
	} {
		if got, kinds := String(s); got != s {
			t.Errorf("String(%q) = %q %v", s, got, kinds)
		}
	}
}

func TestProseWordListsAreFoundByInList(t *testing.T) {
	for name, list := range map[string]string{
		"functionWords": functionWords, "predicates": predicates, "states": states, "foreignPredicates": foreignPredicates,
		"schemes": schemes, "counted": counted, "purposes": purposes, "adverbs": adverbs,
	} {
		if list[0] != ' ' || list[len(list)-1] != ' ' {
			t.Errorf("%s: not between blanks", name)
		}
		seen := map[string]bool{}
		for _, w := range strings.Fields(list) {
			if seen[w] || !inList(list, w) {
				t.Errorf("%s: %q twice or not found", name, w)
			}
			seen[w] = true
		}
	}
	for _, w := range []string{"hunter2", "", "the cat", "he", "th"} {
		if inList(functionWords, w) {
			t.Errorf("inList found %q, which functionWords does not hold", w)
		}
	}
}

// A clause ends after maxClauseWords words: a long line of labels whose
// values are too short to be secrets ("password=A password=A …") was read
// again from each label to its end, in time quadratic in its length.
func TestClauseEndStopsAfterMaxClauseWords(t *testing.T) {
	line := strings.Repeat("password=A ", 10_000)
	words := strings.Fields(line)
	if got, want := clauseEnd(line, 0, len(words[0])), maxClauseWords*len("password=A ")-1; got != want {
		t.Errorf("clauseEnd = %d, want %d (the end of word %d)", got, want, maxClauseWords)
	}
	if out, _ := String(line); out != line {
		t.Errorf("a value of one letter was redacted: %.80q", out)
	}
	// A passphrase of many words is still taken whole.
	in := "passphrase: correct horse battery staple orange river"
	if out, _ := String(in); out != "passphrase: [REDACTED:secret]" {
		t.Errorf("String(%q) = %q", in, out)
	}
}

// proseWordEnd reads at most maxProseWord bytes of a word, and quoted looks
// no further than maxQuoted for its closing quote: a line of one long word
// holding a password word again and again (256 KB of "密码是" took two
// minutes, of "password:" ten seconds), or of opening quotes, had each of
// them read the rest of the line. What they redact is unchanged.
func TestLongWordsAndQuotesAreReadOnlyToTheirBound(t *testing.T) {
	long := strings.Repeat("密码是", 30_000)
	if got := proseWordEnd(long, 0); got != maxProseWord {
		t.Errorf("proseWordEnd = %d, want %d", got, maxProseWord)
	}
	if _, _, _, ok := quoted(`"`+strings.Repeat("a", maxQuoted)+`"`, 0); ok {
		t.Error("a quote closed past maxQuoted was read")
	}
	for _, line := range []string{long, strings.Repeat("パスワードは", 20_000), strings.Repeat("비밀번호는", 20_000)} {
		if out, _ := String(line); out != line {
			t.Errorf("a line of password words in their script was redacted: %.80q", out)
		}
	}
	// What a password became is read from its "to" a few words on, not to
	// the text's end: 128 KiB of "password: changed to " took 0.8 s.
	for _, line := range []string{strings.Repeat("password:", 30_000), strings.Repeat("Passwort:", 30_000), strings.Repeat("password is “", 20_000),
		strings.Repeat("password: changed to ", 30_000), strings.Repeat("secret: mounted into ", 30_000),
		strings.Repeat(`variable "db_password" {`, 20_000), strings.Repeat("gh secret set X ", 20_000), strings.Repeat("DB_PASSWORD is ", 20_000),
		strings.Repeat("| DB_PASSWORD ", 20_000)} {
		String(line) // within the test's time
	}
	// One password word after another, each value holding the next: all
	// of it is one value, redacted whole.
	line := strings.Repeat("password:h1", 30_000)
	if out, _ := String(line); out != "password:[REDACTED:secret]" {
		t.Errorf("String = %.80q", out)
	}
}

// The generic rule, both ways, in one table: after "password:", "token:" or
// "secret:" bare, what the adversarial passes wrote as a type (kept) and as a
// password shaped like one (redacted), h-v45 … h-v55.
func TestGenericValueBothWays(t *testing.T) {
	types := []string{
		"Secret<String>", "Arc<Mutex<String>>", "Result<String, Error>", "Cow<'a, str>",
		"Secret<[u8; 32]>", "GenericArray<u8, U32>", "Uint8Array<ArrayBuffer>",
		"Observable<string | null>", "Box<dyn Fn() -> String + Send>", "Cache<K2, V2>",
		"Map<String, Any?>", "Option<Vec<u8>>",
		// h-v55 B2
		"StateFlow<AuthToken?>", "Set<Token.Id>", `Pick<Form, "password">`, "Map<String, Int32>",
		"Key<Aes256Gcm>", "Hmac<Sha256>", "PhantomData<fn() -> T>", "Base64<String>",
		"Result<Key<Aes256Gcm>, Error>", `Record<"token", string>`,
		"Array<Float32>", "Vector<Int16>", "Channel<Message?>", "Tuple<Int32, String>",
		"ValueTask<TokenResponse?>", "Array<Token.Kind>", "Cipher<Aes256>", `NonNullable<Config["secret"]>`,
		"Map<UserId, Token.Value>", "LiveData<Token?>", "MutableMap<UserId, Session?>", "Vec<Sha512>",
		"Pair<Token, Int64>", "List<Token?>", "Argon2<'static>", "Option<Sha512>", "HashMap<String, Utf8Path>",
		"Token<'a>", "Zeroizing<Vec<u8>>", "FormControl<string | null>", "ReadOnlyMemory<byte>",
		"JwtClaims<T1>", "WeakReference<Activity>", "Nonce<U12>", "Binding<String>", "JwtToken<Claims>",
		// h-v57 B2: any name outside, a word of the language inside; a path
		"Sensitive<String>", "Masked<String>", "Redacted<string>", "Writable<string>",
		"Readable<string | null>", "Accessor<string>", `Brand<string, "Password">`,
		"AnyPublisher<String, Error>", "BehaviorRelay<String>", "Driver<String>", "Protected<Vec<u8>>",
		"Jwt<Claims>", "PasswordHash<'static>", "UseControllerReturn<FormValues, 'password'>",
		"ValidationRule<string>", "secrecy::Secret<String>", "std::sync::Arc<str>",
		// h-v59 B2: a type parameter
		"Hashed<T>", "Masked<T>", "Hidden<T>", "Response<K, V>",
		"RefObject<HTMLInputElement>", "MutableRefObject<HTMLInputElement>",
		// h-v63 B4: a const generic's number
		"heapless::String<64>", "ArrayString<64>", "FixedBytes<32>", "ArrayVec<u8, 64>",
	}
	passwords := []string{
		"Gh7<Kq92>", "Hk<Qz9>", "H2<O2>", "Summer<K2024>", "Secret<Q12345678>", "Kx7<Lm9q",
		"Pw<X9y>", "Sunshine<Rainbow", "Blue<Sky", "Sunshine<Rainbow1>", "Ab<Cd|Ef>",
		"Kitty<Cat->Dog>", "Summer<Winter2024>", "Dog<Cat7Mouse>", "Tr0ub4dor<Xy>",
		"Abc<Def1234>", "Ab<Cd.>", "Ab<?Cd>",
		// h-v53, h-v55: shaped as the types above are
		"Monkey<Banana99>", "Xy<Z?>", "Mustang<Shelby500GT>", "Ocean<Blue77>", "Abc<Def?>",
		"Qwerty<Asdf123>", "Crimson<Tide?>", "Horse<Battery?>", "Abc<Def>", "Dragon<Fire=>",
		"Abc<u8>", "Qx<i32>", "Zz<f64!>", "Love<You4Ever>", "Hunter<Two2>", "Tiger<Lily+Rose>",
		"Sunshine<Rainbow>", "Blue<Sky-Fall.Rain>", "Welcome<Home2024>!", "Qwerty<Asdf(1)>",
		"Hunter<Two>", "Fish<Chips>", "QWERTY<ASDF>", "Rocket<V8>", "Love<U2>",
		"Red<Blue<Green>>", "Panda<Z99>!", "Xk<T9>",
		// h-v57 B1: a width's or an algorithm's name outside, a year
		"Ed1985<Sox>", "Word2024<Pass>", "Md5<Hunter>", "Sha256<Bob>", "Utf8<Love>", "Int32<Max>",
		"Curve25519<Rose>", "Aes1<Snake>", "Base77<Camp>", "Mat1990<Cat>",
		"Summer<2024>", "Dragon<64>", "MySecret<2024>", "Key<1999>",
		// h-v61 B3: a generic glued to more text is a password's, whole
		"Pass<W>ord", "Fire<X>fly2024", "Love<U>4ever", "Hello<T>here", "Money<K>ing$", "Black<T>ie",
		"Rain<bow>", "QWERTY<ASDF>",
		// Read as types, documented: a word of the language inside (Tiger<Lily|string>,
		// Sunshine<String>), a container's name outside (Secret<Rainbow>, MyKey<Door>).
	}
	for _, label := range []string{"password: ", "token: ", "secret: "} {
		for _, v := range types {
			if got, _ := String(label + v); got != label+v {
				t.Errorf("%q is a type: %q", label+v, got)
			}
		}
		for _, v := range passwords {
			if got, _ := String(label + v); strings.Contains(got, v) {
				t.Errorf("%q is a password's: %q", label+v, got)
			}
		}
	}
}

// A passphrase of dotted words with an underscore is no Terraform reference
// (h-v65 B1): a reference starts with a data source or a provider's resource.
func TestDottedPassphrasesAreNoTerraformReferences(t *testing.T) {
	for _, s := range []string{
		"the db password is correct_horse.battery.staple", "export DB_PASSWORD=blue_sky.green.grass42",
		`"password": "red_fox.jumps.over"`, "spring.datasource.password=my_db.pass.word",
		"password: s3cr3t_k3y.pr0d.v1", "api_key = abcd_efgh.ijkl.mnop",
		// h-v67 B1-B3
		"password: random_horse.battery.staple", "DB_PASSWORD=random_walk.on.beach", "the password is random_dog.eats.cake",
		`"password": "google_it.yourself.please"`, "password: vault_door.open.now",
		"password: Top.Secret!", "password: my.secret!", "token: my.secret!", "password: Lucky.Number!", "password: Top.String!",
		"DB_PASSWORD=Option<Kitty>", "password=Promise<Falcon>",
		// h-v68 B1, B2
		"password: Corned.Beef.Hash", "DB_PASSWORD=Corned.Beef.Hash", "the staging password is Potato.Hash now",
		`"password": "Mr.Hash"`, "password: Salt.hashed99", "token: abc.defHash", "passwd: Beef.hashed",
		"password: random_walk.by.name", "password: vault_door.open.value", "DB_PASSWORD=google_it.then.id",
		// h-v69 B1
		"token: this.is.Secret!", "secret: this.is.my.Secret!", "DB_PASSWORD: this.is.Secret!",
		"password: this.isMyPassword!", "password: this.is.my.Password!", "password: this.is.Secret!",
		"password: my.password!", "secret: top.secret!", "password: random_walk.by.result",
	} {
		if got, _ := String(s); got == s {
			t.Errorf("%q kept", s)
		}
	}
}

// A type on a module's path, bare after a colon, is a type when its
// modules are in small letters and its name is a type word of the
// language's (h-v69 B2); a password with "::" in it has neither.
func TestAPathTypeBothWays(t *testing.T) {
	for _, typ := range []string{"secrecy::SecretString", "std::string::String", "std::string", "alloc::string::String", "sqlx2::SecretString",
		"std::string_view", "absl::string_view", "sql.NullString", "z.ZodString", "java.lang.String", "*string"} {
		in := "    password: " + typ + ","
		if got, _ := String(in); got != in {
			t.Errorf("String(%q) = %q, a type redacted", in, got)
		}
	}
	for _, pw := range []string{"Hunter::Two", "hunter::two", "Corned::Beef", "Top::Secret", "hunter2::Password", "a::b::Horse9", "::String", "Std::String", "my.secret.Horse", "Corned.Beef.Hash", "*Hunter2x"} {
		in := "password: " + pw
		if got, _ := String(in); strings.Contains(got, pw) {
			t.Errorf("String(%q) = %q, a password kept", in, got)
		}
	}
}

// An identifier that ends in a password word is the word's label in prose
// too (h-v72): after "is", an arrow or a colon its markup or element
// closes; its own ':' and '=' stay labelledValue's, and what the word
// alone would not take it does not take either.
func TestAnIdentifierThatEndsInAPasswordWordLabelsProse(t *testing.T) {
	bothWays(t, redacts{
		{"DB_PASSWORD is hunter2xyz", "DB_PASSWORD is [REDACTED:secret]"},
		{"the DB_PASSWORD is hunter2xyz", "the DB_PASSWORD is [REDACTED:secret]"},
		{"the db_password is hunter2xyz", "the db_password is [REDACTED:secret]"},
		{"dbPassword is hunter2xyz", "dbPassword is [REDACTED:secret]"},
		{"adminPwd was 'Tr0ub4dor&3'", "adminPwd was '[REDACTED:secret]'"},
		{"**DB_PASSWORD:** hunter2xyz", "**DB_PASSWORD:** [REDACTED:secret]"},
		{"<b>DB_PASSWORD</b>: hunter2xyz", "<b>DB_PASSWORD</b>: [REDACTED:secret]"},
		{"DB_PASSWORD -> hunter2xyz", "DB_PASSWORD -> [REDACTED:secret]"},
		{"DB_PASSWORD for staging is hunter2xyz", "DB_PASSWORD for staging is [REDACTED:secret]"},
		{"the db_pass is Hunter2x!", "the db_pass is [REDACTED:secret]"},
		{"DB_PASSWORD = hunter2xyz", "DB_PASSWORD = [REDACTED:secret]"},
		{"password -- hunter2xyz", "password -- [REDACTED:secret]"},
		{"<tr><th>Password</th><td>Xq9vLm2pRt</td></tr>", "<tr><th>Password</th><td>[REDACTED:secret]</td></tr>"},
		{"<dt>Password</dt><dd>Xq9vLm2pRt</dd>", "<dt>Password</dt><dd>[REDACTED:secret]</dd>"},
		{"<th>DB_PASSWORD</th> <td>Xq9vLm2pRt</td>", "<th>DB_PASSWORD</th> <td>[REDACTED:secret]</td>"},
	}, []string{
		"DB_PASSWORD is required", "DB_PASSWORD is set in .env", "DB_PASSWORD is read from Vault at deploy time",
		"the DB_PASSWORD is now stored in 1Password", "POSTGRES_PASSWORD is optional", "dbPassword is undefined",
		"old_password is null", "DB_PASSWORD is ${DB_PASSWORD}", "`DB_PASSWORD` is the env var name",
		"MYSQL_ROOT_PASSWORD is used by the entrypoint", "DB_PASSWORD is empty in CI", "if DB_PASSWORD is None:",
		"assert user_password is not None", "is_password is true", "confirmPassword is validated on submit",
		"the newPassword is longer than 12 characters", "DB_PASSWORD is a secret", "DB_PASSWORD was rotated yesterday",
		"DB_PASSWORD is the same as in staging", "if (dbPassword is String) return;", "requires_password is False",
		"self.db_password is None", "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}",
		"{Name:DB_PASSWORD Value:${DB_PASSWORD}}", "- `DB_PASSWORD`: read from Vault at deploy time",
		"the password_hash is bcrypt", "DB_PASSWORD_FILE is /run/secrets/db", "db_pass is the first pass",
		"the password -- see vault", `git commit -m "password" -- src/`,
		"<tr><th>Password</th><td>Required</td></tr>", "<tr><td>password</td><td>body</td><td>required</td></tr>",
		"<tr><td>password</td><td>string</td><td>The user's password</td></tr>", "<tr><th>Password</th><th>Notes</th></tr>",
		`<tr><th>Password</th><td><input type="password"></td></tr>`, "<dt>password</dt><dd>The account password.</dd>",
	})
}
