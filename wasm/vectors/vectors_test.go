package vectors

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestBodyIsWhatAnOpenAICompatibleEndpointTakes(t *testing.T) {
	require.Equal(t, `{"model":"nomic-embed-text","input":["kiwi \"harvest\"","b"],"encoding_format":"float"}`,
		string(Body("nomic-embed-text", []string{`kiwi "harvest"`, "b"}, 0)))
}

func TestParseReadsOpenAIAndOllamaAnswers(t *testing.T) {
	unit := func(v ...int8) []int8 { return v }
	tests := []struct {
		name, body string
		want       int
		vecs       [][]int8
		err        string
	}{
		{"OpenAI, in order", `{"object":"list","data":[{"object":"embedding","index":0,"embedding":[3,4]},{"index":1,"embedding":[0,-2]}],"model":"m"}`, 2,
			[][]int8{unit(76, 102), unit(0, -127)}, ""},
		{"OpenAI, by index", `{"data":[{"index":1,"embedding":[0,1]},{"index":0,"embedding":[1,0]}]}`, 2,
			[][]int8{unit(127, 0), unit(0, 127)}, ""},
		{"Ollama /api/embed", `{"model":"m","embeddings":[[1,0,0],[0,0,0.5]]}`, 2,
			[][]int8{unit(127, 0, 0), unit(0, 0, 127)}, ""},
		// Escape sequences are store.Out's to remove, at every exit (marker.Data).
		{"an endpoint's error, redacted", `{"error":{"message":"bad key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"}}`, 1, nil,
			"the endpoint answered an error: bad key [REDACTED"},
		{"an error that is a string", `{"error":"model not found"}`, 1, nil, "the endpoint answered an error: model not found"},
		{"not JSON", `<html>`, 1, nil, "the answer is not JSON"},
		{"empty", ``, 1, nil, "the answer is not JSON"},
		{"neither shape", `{"vectors":[[1]]}`, 1, nil, "the answer holds neither data nor embeddings"},
		{"too few", `{"embeddings":[[1,0]]}`, 2, nil, "the answer holds 1 vectors for 2 texts"},
		{"too many", `{"embeddings":[[1,0],[0,1]]}`, 1, nil, "the answer holds a vector for text 1 of 1"},
		{"an index twice", `{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`, 2, nil, "the answer holds text 0's vector twice"},
		{"an index out of range", `{"data":[{"index":-1,"embedding":[1]}]}`, 1, nil, "the answer holds a vector for text -1 of 1"},
		{"a huge index", `{"data":[{"index":1e300,"embedding":[1]}]}`, 1, nil, "the answer holds a vector for text 1073741824 of 1"},
		{"no index", `{"data":[{"embedding":[1]}]}`, 1, nil, "the answer holds a vector without its index"},
		{"a fractional index", `{"data":[{"index":0.5,"embedding":[1]}]}`, 1, nil, "the answer holds a vector without its index"},
		{"dimensions differ", `{"embeddings":[[1,0],[1,0,0]]}`, 2, nil, "text 1's vector has 3 dimensions, the others 2"},
		{"a string in a vector", `{"embeddings":[[1,"0"]]}`, 1, nil, "text 0's vector holds what is not a number"},
		{"not an array", `{"embeddings":[{"0":1}]}`, 1, nil, "text 0's vector is not an array of numbers"},
		{"all zero", `{"embeddings":[[0,0]]}`, 1, nil, "text 0's vector is empty, zero or not finite"},
		{"empty vector", `{"embeddings":[[]]}`, 1, nil, "text 0's vector is empty, zero or not finite"},
		{"infinite", `{"embeddings":[[1e400,1]]}`, 1, nil, "text 0's vector is empty, zero or not finite"},
		{"too many dimensions", `{"embeddings":[[` + strings.Repeat("1,", MaxDims) + `1]]}`, 1, nil, "text 0's vector has more than 4096 dimensions"},
		{"1,000 deep", strings.Repeat(`{"embeddings":[`, 1000) + strings.Repeat(`]}`, 1000), 1, nil, "text 0's vector is not an array of numbers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.body), tt.want)
			if tt.err != "" {
				require.True(t, err != nil, "no error; got ", got)
				require.True(t, strings.HasPrefix(err.Error(), tt.err), "error ", err.Error())
				require.False(t, strings.Contains(err.Error(), "abcdefghijklmnop"), "a secret said back")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.vecs, got)
		})
	}
}

func TestDotIsTheCosineOfQuantisedVectors(t *testing.T) {
	a, _ := Quantize([]float64{1, 0})
	b, _ := Quantize([]float64{1, 1})
	c, _ := Quantize([]float64{-1, 0})
	require.Equal(t, int32(127*127), Dot(a, a))
	require.Equal(t, int32(127*90), Dot(a, b)) // cos 45° ≈ 0.707: 90/127
	require.Equal(t, int32(-127*127), Dot(a, c))
	require.Equal(t, int32(0), Dot(a, []int8{1, 2, 3}), "dimensions differ")
}

func TestFuseRanksByReciprocalRank(t *testing.T) {
	tests := []struct {
		name     string
		rankings [][]string
		want     []string
	}{
		{"one ranking stays as it is", [][]string{{"a", "b", "c"}}, []string{"a", "b", "c"}},
		{"in both beats first in one", [][]string{{"a", "b"}, {"b", "c"}}, []string{"b", "a", "c"}},
		{"ties keep the first ranking's order", [][]string{{"a", "x"}, {"b", "y"}}, []string{"a", "b", "x", "y"}},
		{"none", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, Fuse(60, tt.rankings...))
		})
	}
}

// An endpoint's answer is outside data: whatever it holds, Parse answers
// vectors of one length for every text, or an error, and never panics.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"data":[{"index":0,"embedding":[0.1,0.2]}]}`), 1)
	f.Add([]byte(`{"embeddings":[[1,2],[3,4]]}`), 2)
	f.Add([]byte(`{"error":{"message":"x"}}`), 1)
	f.Fuzz(func(t *testing.T, body []byte, want int) {
		want = want & 7
		got, err := Parse(body, want)
		if err != nil {
			return
		}
		require.Equal(t, want, len(got))
		for _, v := range got {
			require.True(t, len(v) > 0 && len(v) <= MaxDims && len(v) == len(got[0]), "dimensions ", len(v))
		}
	})
}
