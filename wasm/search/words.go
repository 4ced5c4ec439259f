package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/similarity"
)

// maxWord is the longest word indexed: anything longer is a hash, a key or
// a path, which nobody types as a search word.
const maxWord = 40

// stopWords carry no meaning a search can use: function words (pronouns,
// auxiliaries, prepositions, conjunctions, the pieces of contractions) in
// English and in the languages wasm/redact reads. Leaving them out keeps
// the index small, and keeps "his", "have" or "during" from ranking a
// question above the turn that answers it. The English list was measured
// against the relevance sets (docs/search.md, "Stop words"): a word whose
// absence ranks better stays a term ("her", "their", "would", "during",
// "all", "go", "got" here), and so do words that carry meaning in a coding
// conversation ("no", "never", "out", "up", "down", "id", "one"). The
// other languages' lists leave out every word that is also an English word
// someone searches for ("die", "war", "hat", "mit", "son", "per", "con",
// "pod", "var", "min", "vi", "du", "en", "os", "eu", "io", …).
// It is made on its first use (stop), not by a package initializer: one
// the compiler cannot run while it builds the module would run at every
// start-up.
var stopWords map[string]bool

// stopLists are the stop words by language, as lower-case words.
var stopLists = [...]string{
	// English
	`a an the and or but of to in on at for with by from as is are was were be been it its
		this that these those we you i our your they them he she do does did so if then than
		there here what which who how when where why about into me my us him his hers herself
		himself itself myself ourselves yourself yourselves themselves theirs ours yours whom
		whose am has have had having being can could should shall will may might must above
		below between over under again further against within onto upon any both each few more
		most other some such only own same very too just also every either neither because while
		until although though nor whether unless dont didnt doesnt isnt wasnt werent arent cant
		couldnt wouldnt shouldnt wont ive youre thats lets whats theres hes shes theyre weve
		youve youd before once since not ones say said told tell going let`,
	// German
	`der das dem des ein eine einen einem einer eines und oder aber ist sind waren wird
		werden wurde haben hatte ich sie es wir ihr mich mir dich sich uns euch mein meine dein
		deine sein seine unser nicht kein keine von zu zum zur auf aus bei nach vor über unter
		für durch gegen ohne um wie wo wer wann warum weil dass wenn auch noch schon nur sehr`,
	// Dutch
	`het een maar zijn waren wordt worden heeft hebben ik jij je hij zij ze wij jullie mij
		mijn jouw haar ons onze niet geen tot uit bij naar voor onder tegen zonder om hoe waar
		wie wanneer waarom omdat dat als ook nog alleen erg`,
	// French
	`le la les un une des de et ou mais est sont était étaient être avoir avons avez ont je
		tu il elle nous vous ils elles te se moi toi lui leur leurs mon ma mes ta tes sa ses
		notre nos votre vos ne pas avec pour par sur dans sous chez entre où qui quand pourquoi
		parce que qu quoi aussi encore déjà très ce cette ces cet`,
	// Spanish
	`el la los las un una unos unas pero es eran ser estar está están fue ha han yo tú él
		ella nosotros vosotros ellos ellas te se mi mis tu tus su sus nuestro nuestra de del al
		por para sobre entre hasta desde como cómo donde dónde quien quién cuando cuándo porque
		que qué también muy ya`,
	// Catalan
	`el la els les un una uns unes però és són eren ser estar ha han jo tu ell ella nosaltres
		vosaltres ells elles et es meu meva teu teva seu seva amb de del al des qui quan perquè
		que també molt ja`,
	// Portuguese
	`um uma uns umas ou mas são eram ser estar está estão foi tem têm tu ele ela nós vós eles
		elas te se meu minha teu tua seu sua nosso nossa não de da das ao na por para pelo pela
		sobre entre até desde como onde quem quando porque que também muito já`,
	// Italian
	`il lo la gli le un uno una ma è sono erano essere avere ho hai ha abbiamo hanno tu lui
		lei noi voi loro mi ti si mio mia tuo tua suo sua nostro nostra non di del della dei
		delle da dal nel nella su tra fra senza sopra sotto dove chi quando perché che anche
		molto già`,
	// Polish
	`oraz lub albo ale jest są był była było byli być mam ma mają ja ty ona ono wy oni mnie
		cię się mój moja twój twoja jego jej nasz nasza nie ze od na przez dla bez nad przed za
		jak gdzie kto kiedy dlaczego bo że też bardzo już`,
	// Swedish
	`och eller är varit vara har hade jag han hon det ni mig mitt din ditt hans hennes vår
		vårt inte med av på från vid för genom mot utan om hur vem när varför eftersom att också
		mycket redan`,
	// Norwegian
	`og eller er vært være har hadde jeg han hun det dere meg mitt din ditt hans hennes vår
		vårt ikke med av til på fra ved gjennom mot uten om hvordan hvor hvem når hvorfor fordi
		også veldig allerede`,
	// Russian
	`и или но а это был была было были быть есть я ты он она оно мы вы они меня мне тебя тебе
		себя мой моя твой твоя его её наш наша не нет с со от до на в во по для без под над
		перед за как где кто когда почему потому что чтобы тоже также очень уже`,
}

// stop reports whether w, lower-case, is a stop word.
func stop(w string) bool {
	if stopWords == nil {
		stopWords = map[string]bool{}
		for _, l := range stopLists {
			for _, w := range strings.Fields(l) {
				stopWords[w] = true
			}
		}
	}
	return stopWords[w]
}

// splitter cuts text into words, keeping its buffer from one text to the
// next.
type splitter struct{ buf []byte }

// words calls f with each word of s in its canonical form (canon), and the
// bytes of s it came from. The string f receives is valid only during the
// call.
//
//	words("Use Postgres databases") => "use" [0,3), "postgresql" [4,12), "databas" [13,22)
func (sp *splitter) words(s string, f func(w string, start, end int)) {
	sp.raw(s, func(w string, start, end int) {
		if c, ok := canon(w); ok {
			f(c, start, end)
		}
	})
}

// canon is a lower-case word's canonical form (similarity.Canonical), or
// false for a stop word.
func canon(w string) (string, bool) {
	if stop(w) {
		return "", false
	}
	return similarity.Canonical(w), true
}

// raw calls f with each word of s as it is written, lower-cased, and the
// bytes of s it came from. Words are runs of letters and digits; a
// possessive's "'s" is dropped ("Jonas's" is "jonas", "it's" is "it"), and
// an apostrophe between letters ("don't" is "dont"); one-letter
// words and words over maxWord bytes are left out. The string f receives
// is valid only during the call.
func (sp *splitter) raw(s string, f func(w string, start, end int)) {
	buf := sp.buf[:0]
	start := -1
	flush := func(end int) {
		if n := len(buf); n > 1 && n <= maxWord {
			f(unsafe.String(unsafe.SliceData(buf), n), start, end)
		}
		buf, start = buf[:0], -1
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				if start < 0 {
					start = i
				}
				buf = append(buf, c)
			case 'A' <= c && c <= 'Z':
				if start < 0 {
					start = i
				}
				buf = append(buf, c+'a'-'A')
			case c == '\'' && len(buf) > 0 && possessive(s, i+1):
				i++ // Jonas's → jonas, it's → it
			case c == '\'' && len(buf) > 0 && i+1 < len(s) && isASCIILetter(s[i+1]):
				// don't → dont
			default:
				flush(i)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		} else if r != '’' || len(buf) == 0 {
			flush(i)
		} else if possessive(s, i+n) {
			i++
		}
		i += n
	}
	flush(len(s))
	sp.buf = buf
}

// possessive reports whether s[i:] starts with the s of a possessive or of
// "it's": an s that ends the word.
func possessive(s string, i int) bool {
	return i < len(s) && (s[i] == 's' || s[i] == 'S') && (i+1 == len(s) || isBreak(s[i+1]) && s[i+1] != '\'')
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// Canon is s as the engine matches it: its canonical words (stop words
// left out), each with a space before and after, so a word w matches when
// Canon holds " "+w+" ". For a store that matches a few words of its own
// against a short text (observe's relevant observations) by the same
// notion of a word as search.
//
//	Canon("Use Postgres databases") => " use postgresql databas "
func Canon(s string) string {
	var sp splitter
	out := []byte{' '}
	sp.words(s, func(w string, _, _ int) { out = append(append(out, w...), ' ') })
	return string(out)
}

// Terms are the distinct canonical words of a query, in order: its first
// MaxTerms.
//
//	Terms("Which databases? The database!") => ["databas"]
func Terms(q string) []string {
	terms, _ := termsOf(q)
	return terms
}

// MaxTerms and MaxQuery bound what a search reads of its query: a query of
// 60 KB (a pasted file) is a search for its first words, not for all of
// them against every entry.
const (
	MaxTerms = 32
	MaxQuery = 1000
)

// termsOf is Terms, and where in q the words after them start (len(q)
// when there are none).
func termsOf(q string) ([]string, int) {
	var sp splitter
	var out []string
	end := len(q)
	sp.words(q, func(w string, start, _ int) {
		if end < len(q) {
			return
		}
		for _, t := range out {
			if t == w {
				return
			}
		}
		if len(out) == MaxTerms {
			end = start
			return
		}
		out = append(out, string([]byte(w)))
	})
	return out, end
}

// Bounded is q as a search reads it: its first MaxQuery bytes, cut where a
// word ends, and no further than its MaxTerms distinct words; cut says a
// word was left out.
//
//	Bounded("deploy the frontend") => "deploy the frontend", false
//	Bounded(40 distinct words) => its first 32, true
func Bounded(q string) (string, bool) {
	end := len(q)
	if end > MaxQuery {
		end = MaxQuery
		for end > 0 && !isBreak(q[end]) {
			end--
		}
	}
	_, words := termsOf(q[:end])
	end = min(end, words)
	return strings.TrimRight(q[:end], " \t\r\n"), len(Terms(q[end:])) > 0
}

// isBreak reports whether c cannot be inside a word: a cut there keeps
// every word whole.
func isBreak(c byte) bool {
	return c < utf8.RuneSelf && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '\'')
}
