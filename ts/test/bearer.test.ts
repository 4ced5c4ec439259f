// The http effect's bearerEnv (decision 001): the adapter reads the variable the core names
// when it sends a request, so a key kept in the environment never enters the core.
import test from "node:test";
import assert from "node:assert/strict";
import "./fake-pi.ts"; // its hook stands in for pi's package, which index.ts imports

const { withBearer } = (await import(new URL("../index.ts?real", import.meta.url).href)) as typeof import("../index.ts");

test("a request's bearerEnv sends the variable's value as a bearer token, and nothing when it is unset", () => {
	process.env.PIMEM_TEST_EMBED_KEY = "sk-test-123";
	try {
		const r = { method: "POST", url: "http://127.0.0.1:1/", headers: { "Content-Type": "application/json" } };
		assert.deepEqual(withBearer({ ...r, bearerEnv: "PIMEM_TEST_EMBED_KEY" }), { "Content-Type": "application/json", Authorization: "Bearer sk-test-123" });
		assert.deepEqual(withBearer({ ...r, bearerEnv: "PIMEM_TEST_UNSET_VARIABLE" }), { "Content-Type": "application/json" });
		assert.deepEqual(withBearer(r), { "Content-Type": "application/json" });
	} finally {
		delete process.env.PIMEM_TEST_EMBED_KEY;
	}
});
