package trust_test

import (
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/trust"
)

func ExampleDecide() {
	// A cloned repository holding only .pi/memory/: pi itself says
	// "trusted", but its settings say never.
	v := trust.Decide(trust.Facts{PiTrusted: true, Default: "never"}, "/src/app", "/src/app", true, true)
	fmt.Println(v.Trusted, v.Why)
	v = trust.Decide(trust.Facts{Store: `{"/src": true}`, Default: "never"}, "/src/app/web", "/src/app", true, true)
	fmt.Println(v.Trusted, v.Why)
	// Output:
	// false pi's defaultProjectTrust is "never" and pi's trust store has no entry for /src/app
	// true pi's trust store trusts /src
}
