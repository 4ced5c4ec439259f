package observe

import (
	"errors"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestAnswerEmptyIsNothingNewNotAFailure(t *testing.T) {
	for _, text := range []string{"<observations>\n</observations>", "None.", "No new observations.", "NOTHING NEW"} {
		r, err := readAnswer(modelAnswer{Text: text}, d12, maxObserverAnswer)
		require.NoError(t, err, "%q", text)
		require.True(t, r.empty, "%q", text)
	}
}

// An answer the model did not finish writing is a failed call: counted as
// "nothing new" it would mark the span observed and lose what it said
// (issue 19, item 1).
func TestAnswerEmptyOrCutOffIsAFailedCallNotNothingNew(t *testing.T) {
	tests := []struct {
		name string
		a    modelAnswer
		msg  string
	}{
		{"no text", modelAnswer{Text: "", StopReason: "stop"}, "answered with no text"},
		{"only white space", modelAnswer{Text: "  \n"}, "answered with no text"},
		{"no text, no stop reason from the host", modelAnswer{}, "answered with no text"},
		{"cut off after observations", modelAnswer{Text: "Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n* 🟡 (14:31) The build", StopReason: "length"}, `stopReason "length" after 76 bytes`},
		{"cut off before writing", modelAnswer{StopReason: "length"}, "cut off at the model's output limit"},
		{"cut off while saying nothing is new", modelAnswer{Text: "None.", StopReason: "length"}, "cut off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAnswer(tt.a, d12, maxObserverAnswer)
			require.True(t, errors.Is(err, errIncomplete), "got %v", err)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
	r, err := readAnswer(modelAnswer{Text: "* 🔴 (14:30) User prefers tabs", StopReason: "stop"}, d12, maxObserverAnswer)
	require.NoError(t, err, "a finished answer is read")
	require.Equal(t, 1, countItems(r.groups))
}

func TestAnswerRefusesWhatNoObserverWritesOnPurpose(t *testing.T) {
	repeated := strings.Repeat("* 🟡 (14:30) Agent ran the tests\n", 300000/33)
	tests := []struct {
		name string
		a    modelAnswer
		want error
		msg  string
	}{
		{"a 300 KB repeated reply", modelAnswer{Text: "Date: Feb 12, 2026\n" + repeated}, errDegenerate, "over the limit"},
		{"a line over 10k characters", modelAnswer{Text: "Date: Feb 12, 2026\n* " + strings.Repeat("a", 10001)}, errDegenerate, "line 2 of the answer is 10003 characters"},
		{"one observation repeated", modelAnswer{Text: "Date: Feb 12, 2026\n" + strings.Repeat("* 🟡 same thing\n", 4)}, errDegenerate, "repeats one observation"},
		{"lines repeated", modelAnswer{Text: "Date: Feb 12, 2026\n* a\n" + strings.Repeat("  * -> again\n", 45)}, errDegenerate, "repeats its lines"},
		{"prompt too long as an error", modelAnswer{Error: "400 prompt is too long: 250000 tokens > 200000 maximum"}, errTooLong, "too long"},
		{"prompt too long as text", modelAnswer{Text: "Error: This model's maximum context length is 128000 tokens."}, errTooLong, "too long"},
		{"another failure", modelAnswer{Error: "503 overloaded"}, errFailed, "overloaded"},
		{"no model of that name", modelAnswer{Model: "anthropic/claude-nope", NoModel: modelUnknown}, errFailed, `observerModel "anthropic/claude-nope" is not a model pi knows`},
		{"a provider without credentials", modelAnswer{Model: "claude-haiku-4-5", NoModel: modelNoCredentials, Provider: "anthropic", Error: "no credentials"}, errFailed, "a model of anthropic, which has no credentials here: log in to it (/login)"},
		{"prose without observations", modelAnswer{Text: "I am sorry, I cannot help with that."}, errFormat, "holds no observation"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAnswer(tt.a, d12, maxObserverAnswer)
			require.True(t, errors.Is(err, tt.want), "got %v", err)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestAnswerReadsObservationsTaskAndResponse(t *testing.T) {
	r, err := readAnswer(modelAnswer{Text: "* 🔴 (14:30) User prefers tabs\n<current-task>tabs</current-task>"}, d13, maxObserverAnswer)
	require.NoError(t, err)
	require.False(t, r.empty)
	require.Equal(t, []group{{Day: d13, Items: []observation{item(high, 870, "User prefers tabs")}}}, r.groups)
	require.Equal(t, "tabs", r.task)
	// A task alone is an answer too.
	r, err = readAnswer(modelAnswer{Text: "<current-task>Write the docs</current-task>"}, d13, maxObserverAnswer)
	require.NoError(t, err)
	require.Equal(t, "Write the docs", r.task)
}
