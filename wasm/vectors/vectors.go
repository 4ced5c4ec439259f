// Package vectors is what search's embedding fusion (decision 019) needs of
// an embeddings endpoint the person already has: the request an
// OpenAI-compatible /v1/embeddings endpoint takes (Ollama, llama.cpp and
// vLLM serve one), the reading of its answer (and of Ollama's own /api/embed)
// into vectors of unit length kept as int8, their similarity, and the
// reciprocal-rank fusion of the word ranking with the vectors' one. Pure
// functions over bytes and slices: the store that asks the host for the
// request, keeps the vectors and fuses at search time is built on them.
package vectors

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"math"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// MaxDims bounds a vector's dimensions: the largest common models have
// 4,096 (a larger answer is not an embedding this package keeps).
const MaxDims = 4096

// Body is the request for the embeddings of texts by model, as an
// OpenAI-compatible endpoint takes it; dims > 0 asks for that many
// dimensions (a model trained to be cut, such as OpenAI's text-embedding-3).
//
//	Body("nomic-embed-text", []string{"a", "b"}, 0) => {"model":"nomic-embed-text","input":["a","b"],"encoding_format":"float"}
func Body(model string, texts []string, dims int) []byte {
	o := jsonw.Open(nil)
	o.Str("model", model)
	o.Strs("input", texts)
	o.Str("encoding_format", "float")
	if dims > 0 {
		o.Int("dimensions", int64(dims))
	}
	return o.Close()
}

// Parse reads an endpoint's answer to a request of want texts: OpenAI's
// {"data":[{"index":0,"embedding":[…]},…]} (in any order, by index) or
// Ollama's /api/embed {"embeddings":[[…],…]}. Every vector has the same
// dimensions, at most MaxDims, finite and not all zero; each is returned of
// unit length as int8 (Quantize). An answer that is not one of these is an
// error that says why, and an endpoint's own error message is said
// redacted, one line, cut.
func Parse(body []byte, want int) ([][]int8, error) {
	if !jsonr.ValidBytes(body) {
		return nil, errors.New("the answer is not JSON")
	}
	root := gjson.ParseBytes(body)
	if e := jsonr.Get(root, "error"); e.Exists() {
		msg := jsonr.Get(e, "message")
		if !msg.Exists() {
			msg = e
		}
		said, _ := redact.String(text.OneLine(msg.String()))
		return nil, errors.New("the endpoint answered an error: " + text.Whole(said, 200))
	}
	out := make([][]int8, want)
	dims, got := -1, 0
	put := func(i int, v gjson.Result) error {
		if i < 0 || i >= want {
			return errors.New("the answer holds a vector for text " + numstr.Itoa(i) + " of " + numstr.Itoa(want))
		}
		if out[i] != nil {
			return errors.New("the answer holds text " + numstr.Itoa(i) + "'s vector twice")
		}
		q, err := read(v, dims)
		if err != nil {
			return errors.New("text " + numstr.Itoa(i) + "'s vector " + err.Error())
		}
		out[i], dims = q, len(q)
		got++
		return nil
	}
	var err error
	switch data, ollama := jsonr.Get(root, "data"), jsonr.Get(root, "embeddings"); {
	case data.IsArray():
		data.ForEach(func(_, item gjson.Result) bool {
			idx := jsonr.Get(item, "index")
			if idx.Type != gjson.Number || idx.Num != math.Trunc(idx.Num) {
				err = errors.New("the answer holds a vector without its index")
				return false
			}
			err = put(int(max(min(idx.Num, 1<<30), -1)), jsonr.Get(item, "embedding"))
			return err == nil
		})
	case ollama.IsArray():
		i := 0
		ollama.ForEach(func(_, v gjson.Result) bool {
			err = put(i, v)
			i++
			return err == nil
		})
	default:
		return nil, errors.New("the answer holds neither data nor embeddings")
	}
	if err != nil {
		return nil, err
	}
	if got != want {
		return nil, errors.New("the answer holds " + numstr.Itoa(got) + " vectors for " + numstr.Itoa(want) + " texts")
	}
	return out, nil
}

// read is one vector of the answer, of dims dimensions (-1: any), quantised.
func read(v gjson.Result, dims int) ([]int8, error) {
	if !v.IsArray() {
		return nil, errors.New("is not an array of numbers")
	}
	var f []float64
	bad := false
	v.ForEach(func(_, x gjson.Result) bool {
		if x.Type != gjson.Number || len(f) == MaxDims {
			bad = true
			return false
		}
		f = append(f, x.Num)
		return true
	})
	switch {
	case bad && len(f) == MaxDims:
		return nil, errors.New("has more than " + numstr.Itoa(MaxDims) + " dimensions")
	case bad:
		return nil, errors.New("holds what is not a number")
	case dims >= 0 && len(f) != dims:
		return nil, errors.New("has " + numstr.Itoa(len(f)) + " dimensions, the others " + numstr.Itoa(dims))
	}
	q, ok := Quantize(f)
	if !ok {
		return nil, errors.New("is empty, zero or not finite")
	}
	return q, nil
}

// Quantize scales v to unit length and keeps each dimension as an int8
// (×127, rounded): a quarter of float32's size, and the similarity of two
// vectors is then an integer dot product. False for a vector with no
// length or a dimension that is not finite.
func Quantize(v []float64) ([]int8, bool) {
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	if len(v) == 0 || sum == 0 || math.IsInf(sum, 0) || math.IsNaN(sum) {
		return nil, false
	}
	scale := 127 / math.Sqrt(sum)
	q := make([]int8, len(v))
	for i, x := range v {
		q[i] = int8(math.Round(x * scale))
	}
	return q, true
}

// Dot is the similarity of two quantised vectors of the same dimensions:
// their cosine ×127² (up to rounding), 0 when their dimensions differ.
func Dot(a, b []int8) int32 {
	if len(a) != len(b) {
		return 0
	}
	// Four sums at once, with b cut to a's length so no index is checked:
	// a search takes this over every vector held.
	b = b[:len(a)]
	var s0, s1, s2, s3 int32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += int32(a[i]) * int32(b[i])
		s1 += int32(a[i+1]) * int32(b[i+1])
		s2 += int32(a[i+2]) * int32(b[i+2])
		s3 += int32(a[i+3]) * int32(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1 + s2 + s3
}

// Fuse merges rankings of the same entries (refs, best first) by
// reciprocal rank: each entry scores the sum of 1/(k + rank) over the
// rankings it is in (rank from 1), best first; ties keep the order of
// first appearance, the first ranking's first. Decision 019 measured k 60
// over the first 20 of each.
//
//	Fuse(60, []string{"a", "b"}, []string{"b", "c"}) => [b a c]
func Fuse(k int, rankings ...[]string) []string {
	score := map[string]float64{}
	var order []string
	for _, r := range rankings {
		for i, ref := range r {
			if _, ok := score[ref]; !ok {
				order = append(order, ref)
			}
			score[ref] += 1 / float64(k+i+1)
		}
	}
	// Insertion sort, stable: rankings are a few dozen entries.
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && score[order[j]] > score[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	return order
}
