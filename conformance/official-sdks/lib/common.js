'use strict';
// Shared helpers for the official-SDK conformance scripts. Content is
// generated deterministically so every run uploads the same bytes.
const crypto = require('crypto');

function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`missing environment variable ${name}`);
  return v;
}

function sha1hex(buf) {
  return crypto.createHash('sha1').update(buf).digest('hex');
}

// bytes returns n pseudo-random bytes derived from seed (SHA-256 counter mode).
function bytes(n, seed) {
  const out = Buffer.allocUnsafe(n);
  let off = 0;
  for (let i = 0; off < n; i++) {
    const block = crypto.createHash('sha256').update(`${seed}:${i}`).digest();
    off += block.copy(out, off, 0, Math.min(block.length, n - off));
  }
  return out;
}

async function readAll(stream) {
  const chunks = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

// describe summarises downloaded bytes for a failure message; a short body
// is most likely an error document, so it is shown as text.
function describe(buf) {
  const text = buf.length <= 2048 && buf.every((b) => b >= 9 && b < 127) ? `: ${buf.toString('utf8')}` : '';
  return `${buf.length} bytes, sha1 ${sha1hex(buf)}${text}`;
}

let failures = 0;
let passes = 0;
function check(name, cond, detail) {
  if (cond) {
    passes++;
    console.log(`  ok   ${name}`);
  } else {
    failures++;
    console.log(`  FAIL ${name}${detail ? ': ' + detail : ''}`);
  }
}

// step runs one named scenario step; an exception counts as a failure and
// the script goes on with the next independent step.
async function step(name, fn) {
  try {
    return await fn();
  } catch (err) {
    failures++;
    const status = err && (err.statusCode || (err.responseInfo && err.responseInfo.statusCode));
    const body = err && err.response && err.response.body;
    console.log(`  FAIL ${name}: ${err && err.message}${status ? ` (HTTP ${status})` : ''}`);
    if (body) console.log(`       body: ${typeof body === 'string' ? body : JSON.stringify(body)}`.slice(0, 600));
    if (err && err.responseInfo && err.responseInfo.body) {
      console.log(`       body: ${JSON.stringify(err.responseInfo.body)}`.slice(0, 600));
    }
    return undefined;
  }
}

function finish(sdk) {
  console.log(`${sdk}: ${passes} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}

// pkgJSON reads an installed package's package.json (the packages'
// "exports" hide it from require); name is its directory in node_modules.
function pkgJSON(name) {
  const fs = require('fs');
  const path = require('path');
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'node_modules', name, 'package.json'), 'utf8'));
}

// pkgVersion reads the installed version of a package.
function pkgVersion(name) {
  return pkgJSON(name).version;
}

// GEN_SDK names the generated SDK the *.ts-gen.js scripts and
// box-typescript-sdk-gen.js run: the package as installed in node_modules,
// box-typescript-sdk-gen (the default) or box-node-sdk-10 (npm's
// box-node-sdk 10.x, the same generated BoxClient under Box's classic name).
const GEN_SDK = process.env.GEN_SDK || 'box-typescript-sdk-gen';

// genSDK is the generated SDK's module, or one of its subpath exports
// ('managers', ...).
function genSDK(subpath) {
  return require(subpath ? `${GEN_SDK}/${subpath}` : GEN_SDK);
}

// genLabel is the generated SDK's published name and installed version,
// e.g. "box-node-sdk 10.12.0", for the scripts' header and result lines.
function genLabel() {
  const pkg = pkgJSON(GEN_SDK);
  return `${pkg.name} ${pkg.version}`;
}

// updateCollaboration is userCollaborations.updateCollaborationById(id,
// body) in either generated SDK: the one call whose shape differs between
// them. Box's API document made every field of PUT /collaborations/{id}
// optional, so box-node-sdk 10 takes the body inside its optionals
// ({requestBody}); box-typescript-sdk-gen 1.x takes it as the second
// argument. (Given the 1.x shape, 10.x sends {} and the role is unchanged.)
function updateCollaboration(client, id, body) {
  const pkg = pkgJSON(GEN_SDK);
  const bodyInOptionals = pkg.name === 'box-node-sdk' && Number(pkg.version.split('.')[0]) >= 10;
  return bodyInOptionals
    ? client.userCollaborations.updateCollaborationById(id, { requestBody: body })
    : client.userCollaborations.updateCollaborationById(id, body);
}

// root is the service root of an API or upload URL of the reference
// server (the SDKs add /2.0 themselves).
function root(url) {
  const suffix = '/2.0';
  if (!url.endsWith(suffix)) throw new Error(`${url} does not end in ${suffix}`);
  return url.slice(0, -suffix.length);
}

// customBaseUrls is the generated SDK's withCustomBaseUrls argument
// for the reference server of BASE_URL and UPLOAD_URL.
function customBaseUrls() {
  return { baseUrl: root(env('BASE_URL')), uploadUrl: root(env('UPLOAD_URL')), oauth2Url: root(env('BASE_URL')) + '/oauth2' };
}

// classicRoots is the classic box-node-sdk's configuration for the
// reference server: its roots, and plain HTTP on loopback. The SDK's
// default request options pin an https.Agent; the plain agent class goes
// through the SDK's own "request" configuration (no patch to the SDK).
function classicRoots() {
  const http = require('http');
  return { apiRootURL: root(env('BASE_URL')), uploadAPIRootURL: root(env('UPLOAD_URL')), request: { agentClass: http.Agent } };
}

// classicSDK is a classic box-node-sdk instance (BoxSDK, the package's
// default export) for developer tokens against the reference server.
function classicSDK(BoxSDK) {
  return new BoxSDK({ clientID: 'conformance', clientSecret: 'conformance', numMaxRetries: 2, retryIntervalMS: 200, ...classicRoots() });
}

// genClient is a generated-SDK (GEN_SDK) client for a developer token
// against the reference server of BASE_URL and UPLOAD_URL.
function genClient(token) {
  const { BoxClient, BoxDeveloperTokenAuth } = genSDK();
  return new BoxClient({ auth: new BoxDeveloperTokenAuth({ token }) }).withCustomBaseUrls(customBaseUrls());
}

// failure awaits a call expected to fail and returns its {status, code}
// ({} when it succeeds), from either SDK's error: box-typescript-sdk-gen's
// responseInfo (which keeps the code as the JSON text it read, "\"…\"", so
// it is unquoted) or the classic SDK's response.
async function failure(promise) {
  try {
    await promise;
    return {};
  } catch (err) {
    if (err.responseInfo) {
      const code = err.responseInfo.code;
      return { status: err.responseInfo.statusCode, code: code && String(code).replace(/^"|"$/g, '') };
    }
    const body = err.response && err.response.body;
    return { status: err.statusCode || (err.response && err.response.statusCode), code: body && body.code };
  }
}

// webhookReceiver listens on a loopback port for webhook deliveries: url
// is its address, next() the next delivery ({headers, body}; rejects after
// ms), close() stops it. It answers every delivery 200.
function webhookReceiver() {
  const http = require('http');
  const got = [];
  const waiters = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      res.writeHead(200).end();
      const d = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const w = waiters.shift();
      if (w) w(d);
      else got.push(d);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}/hook`,
    next(ms = 10000) {
      if (got.length) return Promise.resolve(got.shift());
      return new Promise((res, rej) => {
        const t = setTimeout(() => rej(new Error('no delivery')), ms);
        waiters.push((d) => { clearTimeout(t); res(d); });
      });
    },
    close: () => server.close(),
  })));
}

module.exports = {
  pkgVersion, genSDK, genLabel, updateCollaboration, env, sha1hex, bytes, readAll, describe, check, step, finish,
  root, customBaseUrls, classicRoots, classicSDK, genClient, failure, webhookReceiver,
};
