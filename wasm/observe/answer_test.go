package observe

import (
	"errors"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestAnswerEmptyIsNothingNewNotAFailure(t *testing.T) {
	for _, text := range []string{"", "  \n", "<observations>\n</observations>", "None.", "No new observations.", "NOTHING NEW"} {
		r, err := readAnswer(modelAnswer{Text: text}, d12, maxObserverAnswer)
		require.NoError(t, err, "%q", text)
		require.True(t, r.empty, "%q", text)
	}
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
