'use strict';
// box-node-sdk (the classic "BoxSDK" client), unchanged, against the
// reference server: upload, new version, download, 25 MB chunked upload.
// Env: BASE_URL (…/2.0), UPLOAD_URL (…/api/2.0), TOKEN.
const { Readable } = require('stream');
const BoxSDK = require('box-node-sdk').default; // v4 ships the classic client as the default export
const { pkgVersion, env, sha1hex, bytes, readAll, describe, check, step, finish, classicSDK } = require('./lib/common');

const CHUNKED_SIZE = 25_000_000;
// RUN keeps names unique so the scripts can run again against one server.
const RUN = `${process.pid}-${Date.now()}`;

// The SDK appends "/<apiVersion>" to both roots, so strip it from our URLs.

async function main() {
  const sdk = classicSDK(BoxSDK);
  const client = sdk.getBasicClient(env('TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')}`);

  const v1 = bytes(100_000, 'node-v1');
  const v2 = bytes(123_457, 'node-v2');
  let file;

  await step('upload file', async () => {
    const res = await client.files.uploadFile('0', `classic-sdk-${RUN}.bin`, v1);
    file = res && res.entries && res.entries[0];
    check('upload returns a file id', file && typeof file.id === 'string' && file.id !== '', JSON.stringify(res));
    check('upload sha1 matches', file && file.sha1 === sha1hex(v1), file && file.sha1);
    check('upload size matches', file && file.size === v1.length, file && file.size);
  });
  if (!file) return;

  await step('upload new version', async () => {
    const res = await client.files.uploadNewFileVersion(file.id, v2);
    const f2 = res && res.entries && res.entries[0];
    check('new version keeps the file id', f2 && f2.id === file.id, f2 && f2.id);
    check('new version sha1 matches', f2 && f2.sha1 === sha1hex(v2), f2 && f2.sha1);
    check('new version changes the sha1', f2 && f2.sha1 !== file.sha1);
    check('new version changes the etag', f2 && f2.etag !== file.etag, f2 && `${file.etag} -> ${f2.etag}`);
  });

  await step('download current version', async () => {
    const stream = await client.files.getReadStream(file.id);
    const got = await readAll(stream);
    check('download returns the current version', sha1hex(got) === sha1hex(v2), describe(got));
  });

  await step('chunked upload 25 MB', async () => {
    const data = bytes(CHUNKED_SIZE, 'node-chunked');
    const uploader = await client.files.getChunkedUploader('0', CHUNKED_SIZE, `classic-chunked-${RUN}.bin`, Readable.from([data]));
    // The SDK emits chunkError but never rejects start() on a part failure:
    // turn that into a rejection so a server refusal cannot hang the run.
    // It also emits 'error' on a failed commit (start() rejects too), which
    // would crash the process without a listener.
    const failed = new Promise((_, reject) => uploader.on('chunkError', reject));
    uploader.on('error', () => {});
    const res = await Promise.race([uploader.start(), failed]);
    const f = res && res.entries && res.entries[0];
    check('chunked upload returns a file id', f && typeof f.id === 'string', JSON.stringify(res).slice(0, 300));
    check('chunked upload sha1 matches', f && f.sha1 === sha1hex(data), f && f.sha1);
    check('chunked upload size matches', f && f.size === CHUNKED_SIZE, f && f.size);
  });
}

main().catch((err) => { check('unexpected error', false, err && err.stack); }).finally(() => finish(`box-node-sdk ${pkgVersion('box-node-sdk')}`));
