package observe

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"strings"
)

// The argument grammars of the /om subcommands that take words: what a
// person typed, read into values. Words are matched without regard to case;
// numbers are decimal (strconv.Atoi). The driver (driver_command.go) runs
// the command with what these return.

// parseAutoCompact reads /om auto-compact's words: on or off, a mode
// (buffered or blocking), and up to three token counts from 0 to
// maxTokensLimit, which set the observer, reflector and retain thresholds in
// that order. The words may come in any order; a later on/off or mode wins
// over an earlier one. No words set nothing. Any other word, a count out of
// range or a fourth count is refused: why names it (and set is empty).
//
//	parseAutoCompact([]string{"OFF", "20000"}) => AutoCompact false, ObserverTokens 20000
//	parseAutoCompact([]string{"1", "2", "3", "4"}) => why `/om auto-compact: "4" is not on, off, …`
func parseAutoCompact(words []string) (set settings, why string) {
	var nums []*int
	for _, w := range words {
		switch lw := strings.ToLower(w); lw {
		case "on", "off":
			on := lw == "on"
			set.AutoCompact = &on
		case modeBuffered, modeBlocking:
			set.Mode = &lw
		default:
			n, err := strconv.Atoi(w)
			if err != nil || n < 0 || n > maxTokensLimit || len(nums) == 3 {
				return settings{}, "/om auto-compact: " + strconv.Quote(w) + " is not on, off, buffered, blocking or a token count from 0 to " + numstr.Itoa(maxTokensLimit) + " (at most three: observer, reflector, retain)."
			}
			nums = append(nums, &n)
		}
	}
	for i, p := range nums {
		switch i {
		case 0:
			set.ObserverTokens = p
		case 1:
			set.ReflectorTokens = p
		case 2:
			set.RetainTokens = p
		}
	}
	return set, ""
}

// parseMode reads /om mode's word: buffered or blocking. ok is false for
// any other word, and when there is none or more than one (the registry
// refuses a second word first, naming it).
//
//	parseMode([]string{"Blocking"}) => "blocking", true
//	parseMode([]string{"blocking", "foo"}) => "", false
func parseMode(words []string) (mode string, ok bool) {
	if len(words) != 1 {
		return "", false
	}
	mode = strings.ToLower(words[0])
	if mode != modeBuffered && mode != modeBlocking {
		return "", false
	}
	return mode, true
}

// viewSel is what /om view shows: the observations, the conversation not
// yet observed, or both, each cut to its first lines.
type viewSel struct {
	obs, raw bool
	limit    int // lines of each part, 0 for all
}

// parseView reads /om view's words: obs, raw, and a number of lines
// greater than 0 (the last one given wins). Neither obs nor raw shows
// both. ok is false for any other word.
//
//	parseView([]string{"raw", "20"}) => {raw, 20 lines}, true
//	parseView(nil) => {obs and raw, every line}, true
func parseView(words []string) (v viewSel, ok bool) {
	for _, w := range words {
		switch strings.ToLower(w) {
		case "obs":
			v.obs = true
		case "raw":
			v.raw = true
		default:
			n, err := strconv.Atoi(w)
			if err != nil || n <= 0 {
				return viewSel{}, false
			}
			v.limit = n
		}
	}
	if !v.obs && !v.raw {
		v.obs, v.raw = true, true
	}
	return v, true
}
