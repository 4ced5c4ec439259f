// The worker thread a Core moves its instance to (core.ts, InWorker): it holds one
// instance of the core with its own Host (the host functions run here, on this
// thread), makes the calls it is sent one at a time and answers each with what the
// module handed back. It decides nothing: a call, a trap and the end of an instance
// are as they are on pi's main thread. `make` compiles this file and core.ts to
// dist/ (ts/tsconfig.worker.json): a package installed under node_modules is not
// one Node strips the types of.
import { parentPort } from "node:worker_threads";
import { callInstance, instantiate, memoryOf, release, Trapped, type FromWorker, type Instance, type ToWorker } from "./core.ts";

const port = parentPort;
if (port === null) throw new Error("pi-memory's worker.ts runs only as a worker thread");

let live: Instance | undefined;

// What the thread would print (a warning of Node's, a library's) is a log line of pi's
// adapter, never pi's screen: the Worker's stdout and stderr are not read.
for (const stream of [process.stdout, process.stderr]) {
	stream.write = ((chunk: string | Uint8Array) => {
		answer({ t: "log", level: 2, message: `worker thread: ${String(chunk).trimEnd()}` });
		return true;
	}) as typeof stream.write;
}

function answer(m: FromWorker, transfer: ArrayBuffer[] = []): void {
	port!.postMessage(m, transfer);
}

// One message at a time, in order: a call's answer is sent before the next is read.
let queue: Promise<void> = Promise.resolve();
port.on("message", (m: ToWorker) => {
	queue = queue.then(() => handle(m));
});

async function handle(m: ToWorker): Promise<void> {
	switch (m.t) {
		case "start":
			try {
				live = await instantiate(m.module, { log: (level, message) => answer({ t: "log", level, message }) });
				answer({ t: "started" });
			} catch (error) {
				answer({ t: "failed", error });
			}
			return;
		case "call":
			if (live === undefined) {
				answer({ t: "trapped", panic: "", error: new Error("no instance in the worker thread") });
				return;
			}
			try {
				const raw = await callInstance(live, m.exportName, m.input);
				answer({ t: "done", raw, memoryBytes: memoryOf(live) }, raw.big === undefined ? [] : [raw.big.buffer as ArrayBuffer]);
			} catch (err) {
				// The instance is gone: its locks are released here, as on pi's thread.
				release(live);
				live = undefined;
				answer(err instanceof Trapped ? { t: "trapped", panic: err.panic, error: err.cause } : { t: "trapped", panic: "", error: err });
			}
			return;
		case "drop":
			if (live !== undefined) release(live);
			live = undefined;
			answer({ t: "dropped" });
	}
}
