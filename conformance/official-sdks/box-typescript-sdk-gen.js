'use strict';
// box-typescript-sdk-gen (the generated SDK), unchanged, against the
// reference server: upload, new version, download, 25 MB chunked upload.
// Env: BASE_URL (…/2.0), UPLOAD_URL (…/api/2.0), TOKEN.
const { Readable } = require('stream');
const { genSDK, genLabel, env, sha1hex, bytes, readAll, describe, check, step, finish, customBaseUrls } = require('./lib/common');
const { BoxClient, BoxDeveloperTokenAuth } = genSDK();

const CHUNKED_SIZE = 25_000_000;
// RUN keeps names unique so the scripts can run again against one server.
const RUN = `${process.pid}-${Date.now()}`;

// The SDK appends "/2.0" to baseUrl and uploadUrl, so strip it from ours.

async function main() {
  const auth = new BoxDeveloperTokenAuth({ token: env('TOKEN') });
  const client = new BoxClient({ auth }).withCustomBaseUrls(customBaseUrls());
  console.log(genLabel());

  const v1 = bytes(100_000, 'gen-v1');
  const v2 = bytes(123_457, 'gen-v2');
  let file;

  await step('upload file', async () => {
    const res = await client.uploads.uploadFile({
      attributes: { name: `generated-sdk-${RUN}.bin`, parent: { id: '0' } },
      file: Readable.from([v1]),
    });
    file = res && res.entries && res.entries[0];
    check('upload returns a file id', file && typeof file.id === 'string' && file.id !== '', JSON.stringify(res));
    check('upload sha1 matches', file && file.sha1 === sha1hex(v1), file && file.sha1);
    check('upload size matches', file && file.size === v1.length, file && file.size);
  });
  if (!file) return;

  await step('upload new version', async () => {
    const res = await client.uploads.uploadFileVersion(file.id, {
      attributes: { name: `generated-sdk-${RUN}.bin` },
      file: Readable.from([v2]),
    });
    const f2 = res && res.entries && res.entries[0];
    check('new version keeps the file id', f2 && f2.id === file.id, f2 && f2.id);
    check('new version sha1 matches', f2 && f2.sha1 === sha1hex(v2), f2 && f2.sha1);
    check('new version changes the sha1', f2 && f2.sha1 !== file.sha1);
    check('new version changes the etag', f2 && f2.etag !== file.etag, f2 && `${file.etag} -> ${f2.etag}`);
  });

  await step('download current version', async () => {
    const stream = await client.downloads.downloadFile(file.id);
    check('download returns a stream', stream !== undefined);
    const got = stream ? await readAll(stream) : Buffer.alloc(0);
    check('download returns the current version', sha1hex(got) === sha1hex(v2), describe(got));
  });

  await step('chunked upload 25 MB', async () => {
    const data = bytes(CHUNKED_SIZE, 'gen-chunked');
    const f = await client.chunkedUploads.uploadBigFile(Readable.from([data]), `generated-chunked-${RUN}.bin`, CHUNKED_SIZE, '0');
    check('chunked upload returns a file id', f && typeof f.id === 'string', JSON.stringify(f).slice(0, 300));
    check('chunked upload sha1 matches', f && f.sha1 === sha1hex(data), f && f.sha1);
    check('chunked upload size matches', f && f.size === CHUNKED_SIZE, f && f.size);
  });
}

main().catch((err) => { check('unexpected error', false, err && err.stack); }).finally(() => finish(genLabel()));
