package hindsight_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/hindsight"
)

func ExampleProjectBankID() {
	fmt.Println(hindsight.ProjectBankID("github.com/acme/widgets"))
	// Output:
	// pimem-widgets-5da08e0be9
}

func ExampleFoldOutbox() {
	data := hindsight.JobRecord("pimem-widgets-5da08e0be9", hindsight.Item{Content: "user: use Go", DocumentID: "pimem:s1:5"}, 9)
	data = append(data, hindsight.JobRecord("pimem-user", hindsight.Item{Content: "user: tabs, not spaces", DocumentID: "pimem:s1:6"}, 9)...)
	delivered := hindsight.FoldOutbox(data).Pending[0]
	data = append(data, hindsight.DoneRecord(delivered, 10)...)
	for _, j := range hindsight.FoldOutbox(data).Pending {
		fmt.Println(j.ID, "→", j.Bank)
	}
	// Output:
	// pimem:s1:6 → pimem-user
}
