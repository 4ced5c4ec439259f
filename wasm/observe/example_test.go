package observe

import "fmt"

func ExampleDecodeLedger() {
	ledger := `{"v":1,"op":"observe","t":1770907000000,"session":"s-1","from":"a1","through":"a4","tokens":64,"obs":"Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n"}
{"v":1,"op":"set","t":1770907100000,"mode":"blocking"}
{"v":1,"op":"obs`
	recs, problems := DecodeLedger([]byte(ledger))
	st := fold(recs, "s-1", defaultConfig())
	fmt.Println(len(recs), problems)
	fmt.Println(st.Mark.ID, st.Items()[0], *st.Settings.Mode)
	// Output:
	// 2 [line 3: torn last line (a write was interrupted; the next write starts on a new line): not valid JSON]
	// a4 1 blocking
}
