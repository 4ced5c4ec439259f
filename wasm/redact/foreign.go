package redact

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Secrets in prose of other languages: "Passwort: geheim", "la contraseña
// es manzana", "пароль: яблоко", and "la password è mela", where Italian
// (and often Spanish and Portuguese) borrows the English word. A value that
// looks like a password is kept wherever the sentence puts it, as in
// English; a word of letters alone only where the sentence clearly gives
// it (after ":", "=", a dash or the language's "is") and it is the whole
// clause, one word not on the list of words that say what a password is
// like or what happened to it ("Passwort: falsch", "la password è
// scaduta"). So "Passwort: siehe Tresor" (see the vault) and "mein
// Passwort ist sehr sicher" are prose: a value of letters must stand alone.

// findForeignPasswordWord: the word for a password in German, Dutch,
// French, Spanish (also typed without its tilde), Catalan, Portuguese,
// Swedish, Norwegian, Danish, Finnish, Polish, Czech, Hungarian, Indonesian,
// Turkish and Russian (and cjkPasswordWords):
//
//	\b(?:PASSWORT|KENNWORT|SENHA|MOT DE PASSE|WACHTWOORD|SALASANA|ADGANGSKODE|HESLO|KATA SANDI)\b|\bJELSZ(?:ó|Ó)|\bJELSZ[oO]\b|\bCONTRASE(?:ñ|Ñ|n|N)A\b|\bCONTRASENYA\b|
//	\bPASSORD(?:ET)?\b|\bL(?:ö|Ö)SENORD(?:ET)?\b|\bHAS(?:ł|Ł)O\b|(?:ş|Ş)(?:I|İ)FRE(?:M|SI|NIZ)?\b|[Пп]ароль|ПАРОЛЬ
//
// with Latin letters in any ASCII case. regexp's \b knows ASCII words only,
// so the Turkish and Russian words have none before them (nor the Russian
// one after); the span function looks at what follows. The Turkish word
// may carry "my", "its" or "your" (şifrem, wifi şifresi, şifreniz).
func findForeignPasswordWord(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		switch c := s[i]; {
		case c == 0xD0: // п or П
			for _, w := range [...]string{"пароль", "Пароль", "ПАРОЛЬ"} {
				if strings.HasPrefix(s[i:], w) {
					return whole(i, i+len(w))
				}
			}
		case c == 0xC5: // ş or Ş
			if e := turkishPasswordWord(s, i); e >= 0 {
				return whole(i, e)
			}
		case c == 0xE5 || c == 0xE3 || c == 0xEB || c == 0xEC: // 密 口 パ 비 암: written without blanks around
			for _, w := range cjkPasswordWords {
				if strings.HasPrefix(s[i:], w) {
					return whole(i, i+len(w))
				}
			}
		case isLetter(c) && wordStart(s, i):
			e := -1
			for _, w := range plainPasswordWords {
				if w[0] == c|0x20 && text.HasFoldPrefix(s[i:], w) {
					e = i + len(w)
					break
				}
			}
			switch c | 0x20 {
			case 'p':
				if text.HasFoldPrefix(s[i:], "passord") {
					e = optSuffix(s, i+7, "et")
				}
			case 'j':
				if text.HasFoldPrefix(s[i:], "jelsz") {
					if hasAt(s, i+5, "ó") || hasAt(s, i+5, "Ó") {
						return whole(i, i+7) // no \b after a letter regexp does not know
					}
					if i+5 < len(s) && s[i+5]|0x20 == 'o' {
						e = i + 6
					}
				}
			case 'l':
				if (hasAt(s, i+1, "ö") || hasAt(s, i+1, "Ö")) && text.HasFoldPrefix(s[i+3:], "senord") {
					e = optSuffix(s, i+9, "et")
				}
			case 'h':
				if text.HasFoldPrefix(s[i:], "has") && (hasAt(s, i+3, "ł") || hasAt(s, i+3, "Ł")) && i+5 < len(s) && s[i+5]|0x20 == 'o' {
					e = i + 6
				}
			case 'c':
				if k := i + 8; text.HasFoldPrefix(s[i:], "contrase") {
					switch {
					case hasAt(s, k, "ñ") || hasAt(s, k, "Ñ"):
						k += 2
					case k < len(s) && s[k]|0x20 == 'n':
						k++
					}
					if k > i+8 && k < len(s) && s[k]|0x20 == 'a' {
						e = k + 1
					} else if k == i+9 && text.HasFoldPrefix(s[k:], "ya") {
						e = k + 2
					}
				}
			}
			if e >= 0 && wordEnd(s, e) {
				return whole(i, e)
			}
			i = runEnd(s, i, isWord) - 1
		}
	}
	return nil
}

// plainPasswordWords are the words for a password that are letters of
// ASCII alone, whole words in any case (German, Portuguese, French, Dutch,
// Finnish, Danish, Czech, Indonesian).
var plainPasswordWords = [...]string{"passwort", "kennwort", "senha", "mot de passe", "wachtwoord", "salasana", "adgangskode", "heslo", "kata sandi"}

// cjkPasswordWords: the word for a password in Chinese (simplified and
// traditional), Japanese and Korean, and cjkIs the particles or verb that
// give its value right after it ("密码是…", "パスワードは…", "비밀번호는…").
var (
	cjkPasswordWords = [...]string{"密码", "密碼", "口令", "パスワード", "비밀번호", "비밀 번호", "암호"}
	cjkIs            = [...]string{"是", "为", "為", "は", "が", "는", "은", "가", "이"}
	cjkObject        = [...]string{"を", "를", "을"}
)

// optSuffix: where a word that ends at s[e] (or, greedy as regexp's
// (?:SUFFIX)?, after suffix, when a word ends there) ends.
func optSuffix(s string, e int, suffix string) int {
	if text.HasFoldPrefix(s[e:], suffix) && wordEnd(s, e+len(suffix)) {
		return e + len(suffix)
	}
	return e
}

// turkishPasswordWord: the end of (?:ş|Ş)(?:I|İ)FRE(?:M|SI|NIZ)?\b at s[i:]
// (ASCII letters in any case), or -1. The suffixes start with different
// letters, so at most one can be there.
func turkishPasswordWord(s string, i int) int {
	if !hasAt(s, i, "ş") && !hasAt(s, i, "Ş") {
		return -1
	}
	k := i + 2
	switch {
	case k < len(s) && s[k]|0x20 == 'i':
		k++
	case hasAt(s, k, "İ"):
		k += 2
	default:
		return -1
	}
	if !text.HasFoldPrefix(s[k:], "fre") {
		return -1
	}
	k += 3
	for _, suffix := range [...]string{"m", "si", "niz"} {
		if text.HasFoldPrefix(s[k:], suffix) && wordEnd(s, k+len(suffix)) {
			return k + len(suffix)
		}
	}
	if wordEnd(s, k) {
		return k
	}
	return -1
}

// foreignPassword is the span of the value a password word of another
// language introduces: after ":", "=", a dash or the language's "is"
// (see foreignIs), also after up to three words ("das Passwort für den
// Server ist …", "пароль от сервера: …"), see foreignValue; without
// either, one word right after it that looks like a password ("пароль
// qwerty123").
//
//	mein Passwort ist hunter2!      => hunter2!
//	mot de passe : "soleil 42"      => soleil 42
//	Passwort: geheim                => geheim
//	contraseña incorrecta           => (none)
//	contraseña: incorrecta          => (none)
func foreignPassword(s string, m []int) (int, int, int, int, bool) {
	i := m[1]
	if fam := familyOf(s[m[0]:i]); fam == cjk {
		for _, w := range cjkIs {
			if strings.HasPrefix(s[i:], w) {
				// A colon may follow the verb ("密码为：123456", as "password
				// is: …"); it is not the value's.
				v := runEnd(s, i+len(w), isBlank)
				if v < len(s) && s[v] == ':' {
					v = runEnd(s, v+1, isBlank)
				}
				return foreignValue(s, m[0], v, true, fam)
			}
		}
		// Their object particle ("パスワードをhunter2xyzに変更", "set the
		// password to …"), or a value in Latin letters right after the word
		// ("root密码hunter2xyz"): no verb, so only a word that looks like
		// a password.
		for _, w := range cjkObject {
			if strings.HasPrefix(s[i:], w) {
				return foreignValue(s, m[0], runEnd(s, i+len(w), isBlank), false, fam)
			}
		}
		if i < len(s) && isAlnum(s[i]) {
			return foreignValue(s, m[0], i, false, fam)
		}
	}
	if _, _, _, ok := quoted(s, i); ok && familyOf(s[m[0]:i]) == cjk {
		return foreignValue(s, m[0], i, false, cjk) // パスワード「…」: no blank before a quote
	}
	if i < len(s) && !isBlank(s[i]) && s[i] != ':' && s[i] != '=' && !isMarkup(s[i]) {
		return 0, 0, 0, 0, false // пароли, парольный: another word
	}
	v, verb := foreignIntro(s, i, foreignIs[:], true)
	if !verb {
		v = runEnd(s, i, isBlank)
		if v == i {
			return 0, 0, 0, 0, false
		}
	}
	return foreignValue(s, m[0], v, verb, familyOf(s[m[0]:m[1]]))
}

// foreignIs: the words for "is" (and "was") in the languages of
// findForeignPasswordWord: German, French ("c'est" too), Spanish and
// Catalan, Portuguese, Italian, Dutch, Polish, Swedish, Norwegian and
// Danish, Finnish ("on"), Czech ("je") and Indonesian ("adalah").
var foreignIs = [...]string{"ist", "lautet", "war", "est", "c'est", "es", "és", "era", "é", "è", "e'", "is", "was", "to", "jest", "är", "er", "var", "on", "je", "adalah"}

// borrowedIs: "is" in the languages that write the English word
// ("la password è mela", "a password é laranja"), see prosePassword;
// English's own is/was are prosePassword's.
var borrowedIs = [...]string{"è", "e'", "é", "es", "era", "ist", "est"}

// foreignIntro: where a value starts after a verb (one of verbs, or with
// labels ":", "=" or a dash) right after s[:i] or after up to three
// words (with labels, the third may end in ":": "пароль от сервера:"),
// and whether there is one.
func foreignIntro(s string, i int, verbs []string, labels bool) (int, bool) {
	v, verb := foreignVerb(s, i, verbs, labels)
	for k, n := i, 0; !verb && n < 3; n++ {
		j := runEnd(s, k, isBlank)
		if j == k || j == len(s) {
			break
		}
		k = proseWordEnd(s, j)
		if k == j {
			break
		}
		if labels && s[k-1] == ':' && k-j > 1 {
			return runEnd(s, k, isBlank), true
		}
		v, verb = foreignVerb(s, k, verbs, labels)
	}
	return v, verb
}

// foreignVerb: where a value starts after one of verbs (or, with labels,
// ":", "=" or a dash) that follows s[:i], blanks and markdown's emphasis
// allowed before it, and whether there is one.
func foreignVerb(s string, i int, verbs []string, labels bool) (int, bool) {
	j := runEnd(s, runEnd(s, i, isMarkup), isBlank)
	switch {
	case j == len(s):
	case labels && (s[j] == ':' || s[j] == '='):
		return afterColon(s, j+1), true
	case labels && (hasAt(s, j, "—") || hasAt(s, j, "–")):
		return runEnd(s, j+len("—"), isBlank), true
	case labels && j > i && hasAt(s, j, "- "):
		return runEnd(s, j+2, isBlank), true // a hyphen between blanks: "Passwort - x"
	case j > i:
		for _, w := range verbs {
			if k := runEnd(s, j+len(w), isBlank); proseWordIs(s, j, w) && k > j+len(w) {
				return k, true
			}
		}
	}
	return 0, false
}

// foreignValue is the span of the value at s[v:] of the password word at
// s[start:], in a language of family fam: a quoted value after a verb, a
// word that looks like a password, or, after a verb, a word of four
// letters or more (any script) that is its clause and says nothing about
// the password (see foreignProse): "Passwort: geheim", "пароль: яблоко",
// "la password è mela!" (the "!" stays).
func foreignValue(s string, start, v int, verb bool, fam family) (int, int, int, int, bool) {
	if v == len(s) {
		return 0, 0, 0, 0, false
	}
	if vs, ve, end, ok := quoted(s, v); ok && (verb && !isReference(s[vs:ve]) || !verb && quotedAlone(s[vs:ve], false)) {
		return vs, ve, start, end, true
	}
	e := proseWordEnd(s, v)
	if fam == cjk {
		e = cjkWordEnd(s, v, e)
	}
	w := trimClause(s[v:e])
	if w == "" || isReference(w) || isPath(w) || strings.HasPrefix(w, markOpen) {
		return 0, 0, 0, 0, false
	}
	// A word of the lists says what the password is like, also one whose
	// letters are not ASCII and so look chosen ("adgangskode er påkrævet").
	if inList(foreignPredicates, strings.ToLower(strings.TrimSuffix(w, "!"))) {
		return 0, 0, 0, 0, false
	}
	if !looksLikePassword(w) && !(verb && isNumber(w)) {
		if !verb || !aloneInClause(s, v, e, w) {
			return 0, 0, 0, 0, false
		}
		w = strings.TrimSuffix(w, "!")
		if !isWordOfLetters(w) || foreignProse(strings.ToLower(w), fam) {
			return 0, 0, 0, 0, false
		}
	}
	return v, v + len(w), start, v + len(w), true
}

// cjkWordEnd: where a value at s[v:e] after a password word in Chinese,
// Japanese or Korean ends: where their script starts again, since no blank
// is written between words ("密码是hunter2，别忘了" => hunter2). A value in
// their script is prose (foreignProse), and is not read at all.
func cjkWordEnd(s string, v, e int) int {
	for i := v; i < e; {
		r, n := utf8.DecodeRuneInString(s[i:])
		if isCJK(r) {
			return i
		}
		i += n
	}
	return e
}

// isCJK: a letter or punctuation of Chinese, Japanese or Korean (Hangul
// Jamo, the CJK blocks from radicals to unified ideographs with kana and
// their punctuation, Hangul syllables, compatibility ideographs and forms,
// full-width punctuation, the supplementary ideographs); full-width letters
// and digits are not: they are typed as a value's.
func isCJK(r rune) bool {
	return r >= 0x1100 && r <= 0x11FF || r >= 0x2E80 && r <= 0x9FFF || r >= 0xAC00 && r <= 0xD7AF ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0xFE30 && r <= 0xFE4F || r >= 0xFF01 && r <= 0xFF0F ||
		r >= 0xFF1A && r <= 0xFF20 || r >= 0xFF3B && r <= 0xFF40 || r >= 0xFF5B && r <= 0xFF65 ||
		r >= 0x20000 && r <= 0x3FFFF
}

// aloneInClause: the word w at s[v:] (s[v:e] with the punctuation that
// closes a clause) is the whole of its clause, and no mark follows it
// unless a ".", "!", "?" or ":" of its own ended the clause: a mark may
// stand for a word the first pass saw there ("Passwort: geheim
// AKIAIOSFODNN7EXAMPLE"), and the second pass must find what the first
// did.
func aloneInClause(s string, v, e int, w string) bool {
	if clauseEnd(s, v, e) != v+len(w) {
		return false
	}
	return strings.IndexByte(".!?:", s[e-1]) >= 0 || !strings.HasPrefix(s[runEnd(s, e, isBlank):], markOpen)
}

// isNumber: w is six ASCII digits or more, with single dashes between
// them. After a verb or a label it is a password, as in English
// (proseValue): "密码：123456", "Passwort: 123-456-789".
func isNumber(w string) bool {
	n := 0
	for i := 0; i < len(w); i++ {
		switch {
		case w[i] >= '0' && w[i] <= '9':
			n++
		case w[i] != '-' || i == 0 || i == len(w)-1 || w[i-1] == '-':
			return false
		}
	}
	return n >= 6
}

// isWordOfLetters: four or more letters of any script and nothing else.
func isWordOfLetters(w string) bool {
	n := 0
	for _, r := range w {
		if r < utf8.RuneSelf && !isLetter(byte(r)) || r >= utf8.RuneSelf && !unicode.IsLetter(r) {
			return false
		}
		n++
	}
	return n >= 4
}

// A family of languages, for the endings of their participles and
// adjectives (see foreignProse).
type family uint8

const (
	germanic family = iota // German, Dutch
	romance                // French, Spanish, Catalan, Portuguese, Italian
	nordic                 // Swedish, Norwegian
	slavic                 // Polish, Russian
	turkic                 // Turkish
	cjk                    // Chinese, Japanese, Korean
)

// familyOf: the family of the password word kw (a match of
// findForeignPasswordWord).
func familyOf(kw string) family {
	switch kw[0] {
	case 0xD0:
		return slavic
	case 0xC5:
		return turkic
	case 0xE5, 0xE3, 0xEB, 0xEC:
		return cjk
	}
	switch kw[0] | 0x20 {
	case 'k':
		if text.HasFoldPrefix(kw, "kata") {
			return romance // Indonesian's
		}
		return germanic
	case 'w':
		return germanic
	case 'a':
		return nordic // Danish's adgangskode
	case 's':
		if text.HasFoldPrefix(kw, "salasana") {
			return nordic // Finnish's
		}
	case 'p':
		if text.HasFoldPrefix(kw, "passwort") {
			return germanic
		}
		return nordic
	case 'l':
		return nordic
	case 'h':
		return slavic
	}
	return romance
}

// foreignProse: whether lw, a lowercase word of letters that is the whole
// of a clause after a password word and its verb, says what the password
// is like or what happened to it rather than giving it: a word of
// English's lists ("Passwort: required"; foreignValue asks
// foreignPredicates before, whatever the word's letters), or a participle or
// adjective by its ending, weighed only where the family makes the ending
// one (Italian's -ata is a participle, German's -ig an adjective):
//
//	germanic: ge…t, ge…en, ge…d (also after a separable prefix:
//	          abgelaufen, zurückgesetzt), ver…t, ver…en, -lich
//	romance:  -ata, -ada, -ida, -ita, -uta and their -o forms (8+ bytes:
//	          olvidada, bloccata, consentita; not patata), French -é (7+
//	          bytes: oublié; not café)
//	slavic:   Russian не…, -ый, -ая, -ое; Polish nie…, -ne, -owe
//	turkic:   -sız, -siz, -suz, -süz
//
// Words of four letters or more only: shorter ones are never a value.
func foreignProse(lw string, fam family) bool {
	if inList(predicates, lw) || inList(states, lw) || isFunctionWord(lw) {
		return true
	}
	switch fam {
	case germanic:
		if len(lw) >= 6 && endsIn(lw, germanicParticiple[:]) {
			if strings.HasPrefix(lw, "ge") || strings.HasPrefix(lw, "ver") {
				return true
			}
			for _, p := range separablePrefixes {
				if strings.HasPrefix(lw, p) && strings.HasPrefix(lw[len(p):], "ge") {
					return true
				}
			}
		}
		return len(lw) >= 7 && strings.HasSuffix(lw, "lich")
	case romance:
		return len(lw) >= 8 && endsIn(lw, romanceParticiple[:]) || len(lw) >= 7 && strings.HasSuffix(lw, "é")
	case slavic:
		return strings.HasPrefix(lw, "не") || strings.HasPrefix(lw, "nie") || endsIn(lw, slavicAdjective[:])
	case turkic:
		return endsIn(lw, turkicWithout[:])
	case cjk:
		// A word in the language's own script there is a sentence
		// ("密码是什么", "パスワードが違います"); one of Latin letters is given.
		return utf8.RuneCountInString(lw) != len(lw)
	}
	return false
}

// The endings foreignProse weighs.
var (
	germanicParticiple = [...]string{"t", "en", "d"}
	separablePrefixes  = [...]string{"ab", "an", "auf", "aus", "ein", "um", "zu", "zurück", "vor", "weg", "uit", "op", "af", "aan", "terug"}
	romanceParticiple  = [...]string{"ata", "ada", "ida", "ita", "uta", "ato", "ado", "ido", "ito", "uto"}
	slavicAdjective    = [...]string{"ый", "ая", "ое", "ne", "owe"}
	turkicWithout      = [...]string{"sız", "siz", "suz", "süz"}
)

// endsIn: w ends with one of suffixes.
func endsIn(w string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(w, x) {
			return true
		}
	}
	return false
}

// foreignPredicates: words of those languages that say what a password is
// like or what happened to it, four letters or more, lowercase (inList).
// Those the endings of foreignProse catch in their family are left out.
const foreignPredicates = " actif activa active aktiv aktivt aktuell aktywne andere anders antiga antigo ativa " +
	" attiva aucun aucune aynı bekannt bekend benötigt brak buena buida correcta correcte " +
	" correcto correta correto corretta corta court courte curta debole değil değişti " +
	" değiştirildi diferente différent distinta diversa dobra dobre doğru débil długie endra " +
	" endret errada errata errónea eski facoltativa facultatif faible falsch farklı feil " +
	" felaktigt fertig forte fout fraca fuerte förändrat gammalt gammelt geblokkeerd geen " +
	" geldig gerekli geçerli giltigt giusta gleich glemt glömt gyldig gültig güçlü hatalı " +
	" hetzelfde identique identisch igual inactif inactiva inactive inaktiv inaktivt inativa " +
	" inattiva incorrecta incorrecte incorrecto incorreta incorreto ingen inget inkorrekt inne " +
	" insegura inseguro insicura invalida invalide inválida inválido juist juste kein keine " +
	" keins kilitli korrekt krypterad krypterade krypterat kryptert krävs krótkie kurz kısa " +
	" lang larga leeg leer longa lunga låst mala mauvais mauvaise mislukt mislukte necessaria " +
	" necessária nein nenhuma nessuna nicht nieaktywne niet nieuw ninguna nodig notwendig " +
	" nouveau nouvelle nova nueva nuevo nuova nytt nötig obbligatoria obligatoire obligatoria " +
	" obligatoriskt obligatòria obrigatória oförändrat ogiltigt okrypterat ongeldig onjuist " +
	" onveilig opcional optionnel opzionale osäkert oude oändrat pflicht puste påkrevd requis " +
	" requise richiesta richtig riktig rätt salvata samma samme scaduta schwach scorretta " +
	" segura seguro sensible sicher sicura sikkert slabe sperret stare stark starkt sterk " +
	" sterkt svagt svakt säkert słabe tomt uendra uendret uguale ugyldig ukryptert unbekannt " +
	" ungültig unsicher unuttum unutuldu usikkert utgatt utgånget utgått utløpt uzun vacía " +
	" vacío valida valide vazia vazio vecchia veilig vide vieja viejo vorhanden vuota válida " +
	" válido wygasło yanlış yeni zayıf zorunlu zwak ändrat другой заблокирован забыт изменен " +
	" изменён истек истёк короткий обязательно отсутствует плохой простой пустой скрыт такой " +
	" устарел " +
	// Danish, Finnish, Czech, Hungarian and Indonesian (h-v91).
	" påkrævet obligatorisk nødvendig udløbet forkert ændret hemmelig krypteret nulstillet " +
	" pakollinen vanhentunut väärä vaihdettava vaihdettu salattu vahva heikko unohtunut oikea " +
	" virheellinen tyhjä lukittu povinné povinný silné slabé neplatné špatné změněno vypršelo " +
	" zašifrované prázdné zamčené kötelező erős gyenge lejárt hibás helytelen megváltozott " +
	" titkos zárolt wajib rahasia salah kuat lemah kedaluwarsa diubah terenkripsi kosong " +
	" terkunci benar diperlukan "
