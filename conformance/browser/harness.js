// Drives Box UI Elements' prebuilt bundles (box-ui-elements' dist, loaded
// through a script tag, unchanged) in headless Chromium against a running
// reference server, and reports one line per scenario:
//
//   PASS <name>
//   FAIL <name>: <why>            (a scenario expected to pass)
//   PENDING <name>: <reason>      (needs a server fix not made yet; it is
//                                  run all the same, and its outcome shown)
//
// then "browser: N passed, N failed, N skipped" (a pending scenario counts as
// skipped). Exits non-zero only when a
// scenario expected to pass failed. A scenario fails when its steps fail or
// when, while it runs, an API call fails (an HTTP error, or a request the
// browser refused, CORS among them), the page logs a console error or
// throws. Everything stays on loopback: any other request is aborted and
// listed.
//
// Environment (run.sh sets it): BASE_URL, UPLOAD_URL (the server's startup
// line), TOKEN (the managed user's token), CHROMIUM (default
// /usr/bin/chromium), OUT_DIR (screenshots; default ./out), SCENARIO (run
// only the scenarios whose name contains it), VERBOSE=1 (print every call
// to the server), TLS_CERT and TLS_KEY (PEM files: the page is served over
// https too, for the chunked upload).
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const https = require('node:https');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { scenarios, setup } = require('./scenarios');

function need(name) {
	const v = process.env[name];
	if (!v) {
		throw new Error(`${name} is not set`);
	}
	return v;
}

const cfg = {
	baseURL: need('BASE_URL'),
	uploadURL: need('UPLOAD_URL'),
	token: need('TOKEN'),
	chromium: process.env.CHROMIUM || '/usr/bin/chromium',
	outDir: process.env.OUT_DIR || path.join(__dirname, 'out'),
	only: process.env.SCENARIO || '',
	verbose: process.env.VERBOSE === '1',
	tlsCert: process.env.TLS_CERT || '',
	tlsKey: process.env.TLS_KEY || '',
};

// redact hides the token in a URL (downloads and thumbnails carry it in
// access_token), and the signed part of a content-host URL, before it is
// printed.
function redact(s) {
	return String(s)
		.split(cfg.token)
		.join('[token]')
		.replace(/\/(d|embed)\/[^/?\s]+/g, '/$1/[signed]');
}

// The static page: index.html, page.js, config.js and the element bundles
// from node_modules/box-ui-elements/dist.
const dist = path.join(__dirname, 'node_modules', 'box-ui-elements', 'dist');
const bundles = new Set(['explorer.js', 'explorer.css', 'picker.js', 'picker.css', 'uploader.js', 'uploader.css']);
const types = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.html': 'text/html; charset=utf-8' };

function indexHTML(element) {
	const bundle = element === 'picker' || element === 'uploader' ? element : 'explorer';
	return `<!doctype html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<title>Box UI Elements against the reference server</title>
<link rel="stylesheet" href="/elements/${bundle}.css">
<style>html, body { height: 100%; margin: 0; } #root { height: 100%; }</style>
</head>
<body>
<div id="root"></div>
<script src="/elements/${bundle}.js"></script>
<script src="/config.js"></script>
<script src="/page.js"></script>
</body>
</html>
`;
}

// startPageServer serves the page on a free loopback port: over https
// when tls ({cert, key}) is given (the elements upload in chunks only from
// an https page).
function startPageServer(tls) {
	const config = `window.CMS = ${JSON.stringify({
		apiHost: new URL(cfg.baseURL).origin,
		uploadHost: new URL(cfg.uploadURL).origin,
		token: cfg.token,
		rootFolderId: '0',
	})};\n`;
	const handler = (req, res) => {
		const url = new URL(req.url, 'http://page');
		let body;
		let file;
		let type = types['.js'];
		if (url.pathname === '/') {
			body = indexHTML(url.searchParams.get('element'));
			type = types['.html'];
		} else if (url.pathname === '/config.js') {
			body = config;
		} else if (url.pathname === '/page.js') {
			file = path.join(__dirname, 'page.js');
		} else if (url.pathname.startsWith('/elements/') && bundles.has(url.pathname.slice('/elements/'.length))) {
			file = path.join(dist, url.pathname.slice('/elements/'.length));
		} else {
			res.writeHead(404, { 'Content-Type': 'text/plain' });
			res.end('not found\n');
			return;
		}
		if (file) {
			type = types[path.extname(file)];
		}
		res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' });
		if (body !== undefined) {
			res.end(body);
		} else {
			fs.createReadStream(file)
				.on('error', (err) => res.destroy(err))
				.pipe(res);
		}
	};
	const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(server));
	});
}

// api calls the server directly (Node's fetch), for setup.
const api = {
	async json(method, p, body) {
		const resp = await fetch(cfg.baseURL + p, {
			method,
			headers: { Authorization: `Bearer ${cfg.token}`, 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const data = await resp.json();
		if (!resp.ok) {
			throw new Error(`${method} ${p}: ${resp.status} ${data.code}`);
		}
		return data;
	},
	async upload(parentID, name, text) {
		const form = new FormData();
		form.append('attributes', JSON.stringify({ name, parent: { id: parentID } }));
		form.append('file', new Blob([text]), name);
		const resp = await fetch(`${cfg.uploadURL}/files/content`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${cfg.token}` },
			body: form,
		});
		if (resp.status !== 201) {
			throw new Error(`upload ${name}: ${resp.status} ${await resp.text()}`);
		}
		return (await resp.json()).entries[0];
	},
};

// within fails after ms.
function within(ms, promise) {
	let timer;
	return Promise.race([
		promise,
		new Promise((_, reject) => {
			timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
		}),
	]).finally(() => clearTimeout(timer));
}

const loopback = new Set(['127.0.0.1', 'localhost', '[::1]']);

// watch records, for the scenario running, what went wrong on the page.
function watch(page, problems, blocked) {
	const apiHosts = new Set([new URL(cfg.baseURL).host, new URL(cfg.uploadURL).host]);
	page.on('response', (resp) => {
		const u = new URL(resp.url());
		if (cfg.verbose && (apiHosts.has(u.host) || u.hostname === 'localhost')) {
			console.log(`  ${resp.request().method()} ${redact(u.pathname + u.search)} -> ${resp.status()}`);
		}
		if (resp.status() >= 400 && (apiHosts.has(u.host) || u.hostname === 'localhost')) {
			problems.push(`${resp.request().method()} ${redact(u.pathname + u.search)} answered ${resp.status()}`);
		}
	});
	page.on('requestfailed', (req) => {
		const u = new URL(req.url());
		if (!loopback.has(u.hostname)) {
			return; // aborted by the route below, listed apart
		}
		problems.push(`${req.method()} ${redact(u.pathname + u.search)} failed: ${req.failure()?.errorText}`);
	});
	page.on('console', (msg) => {
		// Requests aborted off this machine (fonts on Box's CDN) are
		// listed apart.
		if (msg.type() === 'error' && !msg.text().includes('net::ERR_BLOCKED_BY_CLIENT')) {
			problems.push(`console error: ${redact(msg.text()).slice(0, 300)}`);
		}
	});
	page.on('pageerror', (err) => {
		problems.push(`page error: ${redact(err.message).slice(0, 300)}`);
	});
	return page.route('**/*', (route) => {
		const u = new URL(route.request().url());
		if (u.protocol === 'data:' || u.protocol === 'blob:' || loopback.has(u.hostname)) {
			return route.continue();
		}
		blocked.add(`${u.protocol}//${u.host}${u.pathname}`);
		return route.abort('blockedbyclient');
	});
}

// scenarioTimeout bounds one scenario; a step's own wait is 10 s at most.
const scenarioTimeout = 30000;

async function main() {
	fs.mkdirSync(cfg.outDir, { recursive: true });
	const made = await setup(api);
	const server = await startPageServer();
	const pageURL = `http://127.0.0.1:${server.address().port}/`;
	let secureServer;
	let securePageURL = '';
	if (cfg.tlsCert && cfg.tlsKey) {
		secureServer = await startPageServer({ cert: fs.readFileSync(cfg.tlsCert), key: fs.readFileSync(cfg.tlsKey) });
		securePageURL = `https://127.0.0.1:${secureServer.address().port}/`;
	}
	const browser = await chromium.launch({
		executablePath: cfg.chromium,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
		],
	});
	let passed = 0;
	let failed = 0;
	let pending = 0;
	const blocked = new Set();
	try {
		const shared = { ...made }; // what setup made, and what one scenario leaves for the next
		for (const sc of scenarios) {
			if (cfg.only && !sc.name.includes(cfg.only)) {
				continue;
			}
			const problems = [];
			// A context per scenario: the elements keep settings (grid or
			// list view) in the page's storage.
			const context = await browser.newContext({
				viewport: { width: 1280, height: 800 },
				locale: 'en-US',
				timezoneId: 'UTC',
				ignoreHTTPSErrors: true, // the https page's certificate is made by run.sh
			});
			const page = await context.newPage();
			// A pending scenario waits less: it is expected to fail.
			page.setDefaultTimeout(sc.pending ? 4000 : 10000);
			await watch(page, problems, blocked);
			let err;
			const started = Date.now();
			try {
				await within(scenarioTimeout, sc.run({
					page,
					open: async (query = '', { secure = false } = {}) => {
						if (secure && !securePageURL) {
							throw new Error('no https page: TLS_CERT and TLS_KEY are not set');
						}
						await page.goto((secure ? securePageURL : pageURL) + query);
					},
					shot: (name) => page.screenshot({ path: path.join(cfg.outDir, `${name}.png`) }),
					shared,
					cfg,
					api,
				}));
				// Let calls the last step started finish before judging.
				await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
			} catch (e) {
				err = e;
				await page
					.screenshot({ path: path.join(cfg.outDir, `failed-${sc.name.replace(/[^a-z0-9]+/gi, '-')}.png`) })
					.catch(() => {});
			}
			await context.close();
			const ms = Date.now() - started;
			const why = [];
			if (err) {
				// The message, and the locator Playwright was waiting for.
				// eslint-disable-next-line no-control-regex
				const lines = err.message.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
				const waiting = lines.find((l) => l.includes('waiting for'));
				why.push(redact(lines[0] + (waiting ? ` (${waiting.trim().replace(/^- /, '')})` : '')));
			}
			// An error answer the scenario expects (a name conflict) is none.
			why.push(...problems.filter((p) => !(sc.allow || []).some((re) => re.test(p))));
			// Each problem once, with how often it happened (retries repeat).
			const counts = new Map();
			for (const w of why) {
				counts.set(w, (counts.get(w) || 0) + 1);
			}
			const detail = [...counts].map(([w, n]) => `\n    - ${w}${n > 1 ? ` (${n} times)` : ''}`).join('');
			if (sc.pending) {
				pending++;
				console.log(`PENDING ${sc.name}: ${sc.pending} (${why.length ? 'fails as expected' : 'now passes: mark it expected'}, ${ms} ms)${detail}`);
			} else if (why.length) {
				failed++;
				console.log(`FAIL ${sc.name} (${ms} ms)${detail}`);
			} else {
				passed++;
				console.log(`PASS ${sc.name} (${ms} ms)`);
			}
		}
	} finally {
		await browser.close();
		server.close();
		secureServer?.close();
	}
	if (blocked.size) {
		console.log(`blocked requests off this machine (aborted): ${[...blocked].sort().join(', ')}`);
	}
	// The closing line counts a pending scenario as skipped.
	console.log(`browser: ${passed} passed, ${failed} failed, ${pending} skipped`);
	process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
	console.error(`browser: ${redact(e.stack || e)}`);
	process.exit(1);
});
