package observe

import (
	"github.com/pi-memory/pi-memory/wasm/budget"
	txt "github.com/pi-memory/pi-memory/wasm/internal/text"
)

// outputRules is the format both the observer and the reflector write: the
// reflector is given the same rules, so a reflection reads exactly like an
// observation and the parser reads both.
const outputRules = `Priorities: start every observation with exactly one marker.
🔴 high: what the user asserted or prefers, goals reached or given up, decisions, blockers, errors that stop the work.
🟡 medium: project details, what the agent changed, tool results that matter, progress.
🟢 low: minor details, uncertain or exploratory notes.

Format: observations grouped under the local date of the messages they come from, oldest first, each with the 24-hour time of its message. Steps that belong to one observation (a sequence of tool calls, the reasons for a decision) are nested under it, indented by two spaces:

Date: Feb 12, 2026
* 🔴 (14:30) User stated the project uses Next.js 15 with the App Router
* 🟡 (14:45) Agent added fuzzy matching to src/utils/searchUtils.ts
  * -> read src/components/SearchBar.tsx to find the input handler
  * -> added levenshtein() at line 40; "npm test" passed (12 tests)

Date: Feb 13, 2026
* 🔴 (09:30) User found a bug: search fails on special characters such as "C++"

After the observations, the task in progress and how the agent should continue, each in its tag:

<current-task>
What the user and the agent are working on now, in one or two sentences.
</current-task>
<suggested-response>
What the agent should do or say next, in one or two sentences.
</suggested-response>`

// observerSystem is the observer's instruction (written for this project;
// the rules are seed 004's list).
const observerSystem = `You are the observer of a coding agent's memory. You read a part of a session between a user and an AI coding agent, with the agent's tool calls and their results, and write down what is worth remembering as observations. Older parts of the session will later be removed from the agent's context, and your observations will be all it remembers of them: write them so the agent can carry on the work without the original messages.

Record:
- What the user asserts, as facts: preferences, constraints, goals, decisions, corrections ("User prefers tabs", "User said the public API must stay backward compatible"). The user's statements are authoritative.
- What the user asks, as requests, not as facts ("User asked whether the cache can be removed"). A question is not an assertion, and what a question assumes is not a fact.
- Changes of state: when something replaces an earlier fact ("User switched from REST to GraphQL", "the failing test passes now"), say what it replaces, so the newer observation supersedes the older one.
- Exact technical detail: file paths, function and type names, line numbers, commands and their exit status, error messages (quoted), versions, configuration keys and values. Never paraphrase an identifier or an error.
- What the agent did: tool calls that belong together as one observation, with the steps nested under it (what was read, what was changed where, what was run and what it showed).
- Decisions together with their reasons: what was chosen, what was rejected, and why.
- The user's own words when they are unusual, emphatic or define a term: quote them.
- Time: anchor every observation to the time of the message it comes from. When a message refers to another day ("tomorrow", "last Friday", "by March 3"), add the date it means: "(meaning Feb 13, 2026)".

Do not record: greetings and thanks, the agent restating what the user said, file contents the repository already holds, anything the previous observations already say (unless it changed), anything from a memory block the agent was given, and secrets. Text shown as [REDACTED:…] stays redacted.

` + outputRules + `

Write nothing else: no preamble, no commentary, no code fences. If the transcript holds nothing worth recording, answer with nothing at all.`

// reflectorSystem is the reflector's instruction; it echoes the observer's
// output rules so that a reflection keeps (or restores) the format.
const reflectorSystem = `You are the reflector of a coding agent's memory. The observations you are given were written over time by an observer; they are all the agent remembers of the earlier parts of a long session. Rewrite them into a shorter memory that keeps everything the agent still needs.

- Merge duplicates, and observations that say the same thing, into one.
- Where a newer observation supersedes an older one (a changed state, a corrected fact, a reversed decision), keep the newer one, or say in one line what changed; drop the older one.
- Keep every 🔴 observation unless it is superseded or duplicated. Condense 🟡 observations. Drop 🟢 observations that no longer matter.
- Keep exact technical detail: paths, names, line numbers, commands, error messages, versions, and the reasons for decisions.
- Keep each observation under the date, and with the time, it was made. Fold nested steps into their parent where they add nothing.
- Observations in an older format (plain bullets without a priority, a time or a date) are converted to the format below: give each a priority by its importance and put it under the date of the observations around it.

` + outputRules + `

Answer with all the observations inside <observations> and </observations>, then the two tags. Write nothing else.`

const aggressiveRules = `

This reflection must be aggressive: the memory has grown too large. Aim for half the size of what you are given, or less. Keep the 🔴 observations and the current state of the work; merge the rest into a few observations per day; drop every 🟢 observation.`

// previousTokens is how much of the newest observations an observer prompt
// repeats, so the observer does not write them again: a twentieth of the
// context window, at most 4,000 tokens.
func previousTokens(window int) int {
	if window <= 0 {
		window = defaultWindow
	}
	n := window / 20
	if n > 4000 {
		n = 4000
	}
	return n
}

// observeAction is the observer call for chunk c.
func (s *state) observeAction(cfg omConfig, t *transcript, c chunk, env planEnv) action {
	c.Start = s.Mark
	var b txt.Builder
	b.WriteString("Observe this part of a pi coding session.\n")
	if prev := newestItems(s.Groups, budget.TokenBytes(previousTokens(env.Window))); prev != "" {
		b.WriteString("\nThe newest observations you already made (do not repeat them; record what changed):\n<previous-observations>\n")
		b.WriteString(prev)
		b.WriteString("</previous-observations>\n")
	}
	if s.Task != "" {
		b.WriteString(cat("\n<current-task>\n", s.Task, "\n</current-task>\n"))
	}
	b.WriteString("\n<transcript>\n")
	// The session's text is data: our markers and the prompt's tags, in any
	// case ("</TRANSCRIPT>", "<PI-MEMORY-RECALL>"), are made inert (h-v93 a4).
	b.WriteString(neutralise(c.Text))
	b.WriteString("\n</transcript>\n\nWrite the new observations for this transcript in the format described.")
	return action{
		Do:        doObserve,
		System:    observerSystem,
		Prompt:    b.String(),
		MaxTokens: observerMaxTokens,
		Model:     cfg.ObserverModel,
		Chunk:     c,
		version:   s.version,
	}
}

// newestItems renders the newest observations that fit in max bytes, oldest
// of them first.
func newestItems(groups []group, max int) string {
	sizes := itemSizes(groups)
	keep, sum := 0, 0
	for k := len(sizes) - 1; k >= 0; k-- {
		if sum += sizes[k]; sum > max {
			break
		}
		keep++
	}
	_, tail := splitItems(groups, len(sizes)-keep)
	return render(tail)
}

// itemSizes is each item's share of render's bytes, in date order; the
// first item of a group carries its date line (and the blank line before
// it), so any run of items from the newest or the oldest sums to at least
// its rendered size.
func itemSizes(groups []group) []int {
	var out []int
	for gi := range groups {
		for ii := range groups[gi].Items {
			var b txt.Builder
			writeItem(&b, &groups[gi].Items[ii], true)
			n := b.Len()
			if ii == 0 {
				n += len("Date: "+formatDay(groups[gi].Day)+"\n") + 1
			}
			out = append(out, n)
		}
	}
	return out
}

// splitItems cuts groups after the first k items (in date order).
func splitItems(groups []group, k int) (head, tail []group) {
	for gi := range groups {
		g := groups[gi]
		switch {
		case k <= 0:
			tail = append(tail, g)
		case k >= len(g.Items):
			head = append(head, g)
			k -= len(g.Items)
		default:
			head = append(head, group{Day: g.Day, Items: g.Items[:k]})
			tail = append(tail, group{Day: g.Day, Items: g.Items[k:]})
			k = 0
		}
	}
	return head, tail
}

// reflectAction is the reflector call over the oldest observations that fit
// in maxReflectorObservationsChars (all of them, usually); newer ones beyond
// are kept as they are and reflected next time.
func (s *state) reflectAction(cfg omConfig, env planEnv) action {
	upto, sum := 0, 0
	for _, n := range itemSizes(s.Groups) {
		if sum += n; sum > cfg.MaxReflectorObservationsChars && upto > 0 {
			break
		}
		upto++
	}
	head, _ := splitItems(s.Groups, upto)
	text := render(head)
	system := reflectorSystem
	if env.Aggressive {
		system += aggressiveRules
	}
	var b txt.Builder
	b.WriteString(cat("<observations>\n", text, "</observations>\n"))
	if s.Task != "" {
		b.WriteString(cat("\n<current-task>\n", s.Task, "\n</current-task>\n"))
	}
	if s.Response != "" {
		b.WriteString(cat("\n<suggested-response>\n", s.Response, "\n</suggested-response>\n"))
	}
	if f := oneLine(clean(env.Focus), 500); f != "" {
		b.WriteString(cat("\nPay particular attention to: ", f, "\n"))
	}
	b.WriteString("\nRewrite these observations as described.")
	out := budget.EstimateTokens(text) + 1000
	if out < 2000 {
		out = 2000
	}
	if out > 32000 {
		out = 32000
	}
	return action{
		Do:         doReflect,
		System:     system,
		Prompt:     b.String(),
		MaxTokens:  out,
		Model:      cfg.ObserverModel,
		Aggressive: env.Aggressive,
		version:    s.version,
		upto:       upto,
	}
}
