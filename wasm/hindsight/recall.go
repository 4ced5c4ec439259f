package hindsight

import (
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
	"github.com/tidwall/gjson"
)

// A recall: what it asks (the newest user message), how its outcome is
// kept for a retry of the same message, the requests, and the reading of
// their answers.

// cacheSize is how many recalled blocks are kept, by user message.
const cacheSize = 32

// newestUserMessage is the newest user message of a model request's
// messages (pi's context event): its index, its time, and its text without
// our injected blocks; index -1 when there is none. Only that message's
// text is read: a long conversation's earlier ones (each with its recalled
// block) would be copied for nothing.
//
//	newestUserMessage(`[{"role":"user","content":"a","timestamp":1},{"role":"assistant"},{"role":"user","content":"b","timestamp":2}]`)
//	=> 2, 2, "b"
func newestUserMessage(messages gjson.Result) (index int, ts int64, text string) {
	index, i := -1, -1
	var user gjson.Result
	messages.ForEach(func(_, m gjson.Result) bool {
		i++
		if jsonr.Get(m, "role").Str == "user" {
			index, user = i, m
		}
		return true
	})
	if index < 0 {
		return -1, 0, ""
	}
	return index, jsonr.Get(user, "timestamp").Int(), messageText(jsonr.RawAt(user, "content"))
}

// recallKey is what a recall's outcome is kept by: the user message's time
// and the SHA-1 of its text. A retry or a tool-loop step of the same message
// has the same key.
func recallKey(ts int64, text string) string {
	sum := sha1.Sum([]byte(text))
	return strconv.FormatInt(ts, 10) + ":" + string(sum[:])
}

// blockCache keeps the recalled block (maybe "") of the newest cacheSize
// keys; putting one more forgets the oldest put.
type blockCache struct {
	blocks map[string]string
	order  []string // oldest first
}

func (c *blockCache) get(key string) (string, bool) {
	b, ok := c.blocks[key]
	return b, ok
}

func (c *blockCache) put(key, block string) {
	if c.blocks == nil {
		c.blocks = map[string]string{}
	}
	if _, ok := c.blocks[key]; !ok {
		c.order = append(c.order, key)
	}
	c.blocks[key] = block
	if len(c.order) > cacheSize {
		delete(c.blocks, c.order[0])
		c.order = c.order[1:]
	}
}

// recallRequests ask each bank for memories about query, in order.
func recallRequests(c settings, banks []bank, repoKey, query string) []request {
	reqs := make([]request, len(banks))
	for i, b := range banks {
		reqs[i] = recallRequest(c, b, repoKey, query)
	}
	return reqs
}

// recalls reads the resume value of a recall's http effect (one request per
// bank, in order) as what each bank gave: its memories, or why none (the
// host's problem, the server's status, or a body that is not a recall
// answer). The recall before a model request, the hindsight_recall tool and
// /hindsight doctor all read their answers with it.
//
//	recalls([]bank{{"project", "p"}, {"user", "u"}},
//	  `[{"status":200,"body":"{\"results\":[{\"text\":\"Uses Go\"}]}"},{"error":"timed out after 1500 ms"}]`)
//	=> [{Bank: {project p}, Memories: [{Uses Go }]}, {Bank: {user u}, Problem: "timed out after 1500 ms"}]
func recalls(banks []bank, value []byte) []recalled {
	rs := make([]recalled, len(banks))
	for i, r := range readResponses(value, len(banks)) {
		rs[i].Bank = banks[i]
		if rs[i].Problem = r.problem(); rs[i].Problem == "" {
			rs[i].Memories, rs[i].Problem = parseRecall(r.Body)
		}
	}
	return rs
}
