package host_test

import (
	"context"
	"fmt"
	"os"

	"github.com/pi-memory/pi-memory/host"
	"github.com/pi-memory/pi-memory/host/fsys"
)

func ExampleParseEnvelope() {
	env, err := host.ParseEnvelope([]byte(`{"v":1,"effects":[{"t":"notify","level":"info","text":"Added D-2026-11-21-0001"},{"t":"dialog","id":"k1","kind":"confirm","title":"Keep?"}],"exit":0}`))
	fmt.Println(err)
	for _, e := range env.Effects {
		fmt.Println(e.T, e.Waits())
	}
	// Output:
	// <nil>
	// notify false
	// dialog true
}

// A host without a UI: compile the core once, bind an instance to the real
// disk, start a session and run a command, as pimem does.
func ExampleDriver() {
	ctx := context.Background()
	rt, err := host.NewRuntimeFromFile(ctx, "ts/core.wasm", host.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)
	inst, err := rt.NewInstance(ctx, host.Config{FS: fsys.NewOS()})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer inst.Close()
	d := &host.Driver{Inst: inst, Stdout: os.Stdout, Stderr: os.Stderr}
	d.Run("session_start", []byte(`{"cwd":"/home/ada/app","agentDir":"/home/ada/.pi/agent","trusted":true,"hasUI":false,"mode":"cli","reason":"startup","flags":{}}`))
	res, err := d.Run("command", []byte(`{"name":"decision","argv":["list"],"hasUI":false}`))
	fmt.Println(res.Exit, err)
}
