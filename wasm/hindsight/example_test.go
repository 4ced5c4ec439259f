package hindsight_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/hindsight"
)

func ExampleRepoKey() {
	fmt.Println(hindsight.RepoKey("git@GitHub.com:acme/widgets.git", "/p"))
	fmt.Println(hindsight.RepoKey("https://ada@github.com/acme/widgets.git/", "/p"))
	fmt.Println(hindsight.RepoKey("", "/home/ada/widgets"))
	// Output:
	// github.com/acme/widgets
	// github.com/acme/widgets
	// /home/ada/widgets
}

func ExampleProjectBankID() {
	fmt.Println(hindsight.ProjectBankID("github.com/acme/widgets"))
	// Output:
	// pimem-widgets-5da08e0be9
}

func ExampleBackoff() {
	fmt.Println(hindsight.Backoff(1), hindsight.Backoff(3), hindsight.Backoff(20))
	// Output:
	// 2000 8000 300000
}

func ExampleLiveDocumentID() {
	fmt.Println(hindsight.LiveDocumentID("s1", 1767225600000))
	// Output:
	// pimem:s1:1767225600000
}
