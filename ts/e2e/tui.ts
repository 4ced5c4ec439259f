// pi's interactive terminal, driven as a person drives it: the real pi in a real
// terminal (a pty tmux gives it, at 80x30 unless a test says otherwise), keys typed,
// the screen read. Completion, the footer, dialogs drawn as overlays, the command
// output's renderer and anything that reaches stderr show only here; RPC and print
// mode show none of them.
//
// Why tmux: it is a Debian package (build/tui.sh installs it), it gives pi a real pty
// with a real terminal emulator behind it, and `capture-pane` reads the screen as the
// emulator drew it. node-pty would need a native build against Node's headers, which
// this machine cannot download; a headless xterm would have to be fed by it.
//
// Each Tui owns a private tmux server (its own socket, `-f /dev/null`), so nothing
// touches another server or the person's own; close() ends it, and with it pi.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REPO, TIMEOUT, piBin, type Sandbox } from "./harness.ts";

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, "ts", "package.json"), "utf8")) as { version: string }).version;
/** The release tarball `make package` builds (make test-e2e builds it first). */
export const TARBALL = path.join(REPO, "build", "out", `pimem-${VERSION}.tgz`);

/** What must never be on pi's screen: a trap, a stack trace, our contract breaking. */
export const NEVER_ON_SCREEN = /CoreTrap|core failed in|completing the command failed|RuntimeError|wasm-function|^\s+at .+\((?:file:|node:|\/).+:\d+:\d+\)|^\s+at .+\.(?:ts|js|mjs):\d+|Extension error|Extension ".*" error|extension_error|unknown effect|goroutine \d+ \[/m;

let servers = 0;
const live = new Set<string>();
process.on("exit", () => {
	for (const sock of live) {
		try {
			execFileSync("tmux", ["-L", sock, "kill-server"], { stdio: "ignore" });
		} catch {
			// already gone
		}
	}
});

export interface TuiOptions {
	cols?: number;
	rows?: number;
	/** pi's arguments after the model (e.g. ["--no-memory"]). */
	args?: string[];
	/** Extra environment for pi. */
	env?: Record<string, string>;
	/** The folder pi starts in (default: the sandbox's project). */
	cwd?: string;
}

/**
 * Unpacks the release tarball into the sandbox's ~/.local/lib/pimem and installs it
 * with `pi install`, as the README tells a person to: pi then loads it with no -e.
 */
export function installRelease(sb: Sandbox): string {
	if (!fs.existsSync(TARBALL)) throw new Error(`${TARBALL} is missing: run make package (make test-e2e does)`);
	const dir = path.join(sb.home, ".local", "lib", "pimem");
	fs.mkdirSync(dir, { recursive: true });
	execFileSync("tar", ["-xzf", TARBALL, "-C", dir, "--strip-components=1"]);
	execFileSync(piBin(), ["install", dir], { env: sb.env, cwd: sb.project, stdio: "pipe", timeout: TIMEOUT.print });
	return dir;
}

function shellQuote(s: string): string {
	return `'${s.replace(/'/g, `'\\''`)}'`;
}

export class Tui {
	readonly sock: string;
	readonly cols: number;
	readonly rows: number;
	/** The newest screen read (printed when a wait fails). */
	#last = "";
	/** Every distinct screen read, in order: what the person saw, for seen(). */
	readonly #screens: string[] = [];

	private constructor(sock: string, cols: number, rows: number) {
		this.sock = sock;
		this.cols = cols;
		this.rows = rows;
	}

	/** Starts pi in the sandbox's project, in a terminal of cols x rows, and waits for its footer. */
	static async start(sb: Sandbox, opts: TuiOptions = {}): Promise<Tui> {
		const cols = opts.cols ?? 80;
		const rows = opts.rows ?? 30;
		const sock = `pimem-tui-${process.pid}-${++servers}`;
		const env = { ...sb.env, ...opts.env, TERM: "xterm-256color", COLUMNS: String(cols), LINES: String(rows) };
		const cmd = [
			"cd",
			shellQuote(opts.cwd ?? sb.project),
			"&&",
			"exec env -i",
			...Object.entries(env).map(([k, v]) => shellQuote(`${k}=${v}`)),
			shellQuote(piBin()),
			"--model fake/fake-model",
			...(opts.args ?? []).map(shellQuote),
		].join(" ");
		execFileSync("tmux", ["-L", sock, "-f", "/dev/null", "new-session", "-d", "-s", "pi", "-x", String(cols), "-y", String(rows), cmd], { stdio: "pipe" });
		live.add(sock);
		// remain-on-exit keeps the pane (and what pi printed last) if pi exits.
		execFileSync("tmux", ["-L", sock, "set-option", "-t", "pi", "remain-on-exit", "on"], { stdio: "pipe" });
		// An OSC 52 clipboard write from the pane lands in tmux's paste buffers (clipboard()).
		execFileSync("tmux", ["-L", sock, "set-option", "-s", "set-clipboard", "on"], { stdio: "pipe" });
		const tui = new Tui(sock, cols, rows);
		await tui.waitFor(/fake-model/, "pi's footer");
		return tui;
	}

	#tmux(...args: string[]): string {
		return execFileSync("tmux", ["-L", this.sock, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
	}

	/** Types text literally (no key names). */
	type(text: string): void {
		this.#tmux("send-keys", "-t", "pi", "-l", text);
	}

	/** Presses keys by tmux's names: Enter, Tab, Escape, Up, Down, BSpace, C-c… */
	key(...names: string[]): void {
		for (const n of names) this.#tmux("send-keys", "-t", "pi", n);
	}

	/**
	 * The visible screen, as drawn: one string per row, no joining of wrapped lines. pi
	 * draws on the terminal's alternate screen (its "fullscreen" mode, the default of
	 * 1.5 and 1.6): there is no scrollback, only what pi shows; PageUp scrolls its view.
	 */
	rowsNow(): string[] {
		const s = this.#tmux("capture-pane", "-p", "-t", "pi");
		this.#last = s;
		if (this.#screens.at(-1) !== s) {
			this.#screens.push(s);
			if (this.#screens.length > 2000) this.#screens.splice(0, 1000);
		}
		return s.replace(/\n$/, "").split("\n");
	}

	/** The visible screen as text. */
	screen(): string {
		return this.rowsNow().join("\n");
	}

	/** Every distinct screen read so far, oldest first: what the person was shown. */
	seen(): string {
		return this.#screens.join("\n");
	}

	/** Waits until the screen matches. */
	async waitFor(what: RegExp | ((screen: string) => boolean), label: string, opts: { timeoutMs?: number } = {}): Promise<string> {
		const test = typeof what === "function" ? what : (s: string) => what.test(s);
		const deadline = Date.now() + (opts.timeoutMs ?? TIMEOUT.wait);
		for (;;) {
			const s = this.screen();
			if (test(s)) return s;
			if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}; the screen:\n${this.#last}`);
			await sleep(100);
		}
	}

	/** Waits until the screen has not changed for quietMs (pi redraws a spinner while it works). */
	async settle(quietMs = 400): Promise<string> {
		const deadline = Date.now() + TIMEOUT.wait;
		let prev = this.screen();
		let since = Date.now();
		for (;;) {
			await sleep(100);
			const s = this.screen();
			if (s !== prev) {
				prev = s;
				since = Date.now();
			} else if (Date.now() - since >= quietMs && !/Working\.\.\./.test(s)) return s;
			if (Date.now() > deadline) throw new Error(`the screen did not settle; the screen:\n${s}`);
		}
	}

	/** Whether pi's completion menu is open (its highlighted row starts with "→ "). */
	menuOpen(): boolean {
		return this.rowsNow().some((r) => /^→ /.test(r));
	}

	/**
	 * Types a line and submits it: a completion menu still open would take Enter for its
	 * highlighted item, so it is closed first.
	 */
	async submit(line: string): Promise<void> {
		this.type(line);
		await this.settle(250);
		if (this.menuOpen()) {
			this.key("Escape");
			await this.waitFor((s) => !/^→ /m.test(s), "the completion menu to close");
		}
		this.key("Enter");
	}

	/**
	 * Runs a slash command and waits until the screen shows one more of what it shows —
	 * by default its output block's head, `pi-memory /cmd …` (cut at the terminal's
	 * width); pass `expect` for an output longer than the screen, whose head scrolls
	 * away — then for a settled screen, which it returns.
	 */
	async command(line: string, expect?: string | RegExp): Promise<string> {
		const mark = expect ?? `pi-memory ${line}`.slice(0, this.cols - 4);
		const before = countOf(this.screen(), mark);
		await this.submit(line);
		await this.waitFor((s) => countOf(s, mark) > before, `what ${line} shows (${String(mark)})`);
		return this.settle();
	}

	/** Scrolls pi's view up a page at a time until the screen matches (bounded), and returns it. */
	async scrollUpTo(what: RegExp, label: string, pages = 20): Promise<string> {
		for (let i = 0; i <= pages; i++) {
			const s = await this.settle(200);
			if (what.test(s)) return s;
			this.key("PageUp");
		}
		throw new Error(`scrolled up ${pages} pages without seeing ${label}; the screen:\n${this.#last}`);
	}

	/** The footer: pi-memory's status line (the line under pi's model line). */
	footer(): string {
		const rows = this.rowsNow();
		const i = rows.findLastIndex((r) => /fake-model\s*$/.test(r));
		return i < 0 ? "" : (rows[i + 1] ?? "").trim();
	}

	/** What the pane wrote to the clipboard (OSC 52): tmux's paste buffers, newest first. */
	clipboard(): string {
		return this.#tmux("list-buffers", "-F", "#{buffer_sample}");
	}

	/** The pane's title, as an OSC 0 or 2 from the pane sets it. */
	title(): string {
		return this.#tmux("display-message", "-p", "-t", "pi", "#{pane_title}").trim();
	}

	/** Whether pi is still running in the pane. */
	alive(): boolean {
		return this.#tmux("display-message", "-p", "-t", "pi", "#{pane_dead}").trim() === "0";
	}

	/**
	 * Ends the terminal and pi with it, and waits until pi's process is gone (it may
	 * still be writing its session when the terminal goes): by its PID, SIGKILL after
	 * TIMEOUT.close.
	 */
	async close(): Promise<void> {
		let pid = 0;
		try {
			pid = Number(this.#tmux("display-message", "-p", "-t", "pi", "#{pane_pid}").trim());
		} catch {
			// the server is gone already
		}
		try {
			this.#tmux("kill-server");
		} catch {
			// already gone
		}
		live.delete(this.sock);
		if (!(pid > 0)) return;
		const deadline = Date.now() + TIMEOUT.close;
		while (running(pid)) {
			if (Date.now() > deadline) {
				process.kill(pid, "SIGKILL");
				await sleep(100);
				break;
			}
			await sleep(50);
		}
	}
}

function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** How many times needle (a string, or a pattern: its matches) is in text. */
export function countOf(text: string, needle: string | RegExp): number {
	if (typeof needle !== "string") return [...text.matchAll(new RegExp(needle.source, needle.flags.includes("g") ? needle.flags : `${needle.flags}g`))].length;
	let n = 0;
	for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
	return n;
}

function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}
