package hindsight

// recalls reads the resume value of a recall's http effect (one request per
// bank, in order) as what each bank gave: its memories, or why none (the
// host's problem, the server's status, or a body that is not a recall
// answer). The recall before a model request, the hindsight_recall tool and
// /hindsight doctor all read their answers with it.
//
//	recalls([]Bank{{"project", "p"}, {"user", "u"}},
//	  `[{"status":200,"body":"{\"results\":[{\"text\":\"Uses Go\"}]}"},{"error":"timed out after 1500 ms"}]`)
//	=> [{Bank: {project p}, Memories: [{Uses Go }]}, {Bank: {user u}, Problem: "timed out after 1500 ms"}]
func recalls(banks []Bank, value []byte) []Recalled {
	rs := make([]Recalled, len(banks))
	for i, r := range ReadResponses(value, len(banks)) {
		rs[i].Bank = banks[i]
		if rs[i].Problem = r.Problem(); rs[i].Problem == "" {
			rs[i].Memories, rs[i].Problem = ParseRecall(r.Body)
		}
	}
	return rs
}
