'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// files.createZip and files.downloadZip (the archive streamed to a
// writable, then its status read), with a folder holding a file and a
// subfolder, and two top-level files of the same name renamed and
// reported in name_conflicts.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user).
const { Writable } = require('stream');
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const sdk = classicSDK(BoxSDK);
  const user = sdk.getBasicClient(env('TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (zip downloads)`);
  const dir = await user.folders.create('0', `zip-node-${RUN}`);
  const sub = await user.folders.create(dir.id, 'sub');
  const other = await user.folders.create(dir.id, 'other');
  const inner = (await user.files.uploadFile(sub.id, 'inner.txt', Buffer.from('inner'))).entries[0];
  const r1 = (await user.files.uploadFile(dir.id, 'report.txt', Buffer.from('one'))).entries[0];
  const r2 = (await user.files.uploadFile(other.id, 'report.txt', Buffer.from('two'))).entries[0];

  await step('createZip', async () => {
    const z = await user.files.createZip('bundle', [{ type: 'file', id: r1.id }, { type: 'file', id: r2.id }]);
    check('URLs and expiry', !!z.download_url && !!z.status_url && !!z.expires_at, JSON.stringify(z));
    const conflict = z.name_conflicts && z.name_conflicts[0];
    check('the two report.txt are a name conflict', z.name_conflicts.length === 1 && conflict.length === 2 &&
      conflict.every((c) => c.original_name === 'report.txt' && c.download_name.endsWith('.txt')) &&
      conflict[0].download_name !== conflict[1].download_name, JSON.stringify(z.name_conflicts));
  });

  await step('downloadZip', async () => {
    const chunks = [];
    const sink = new Writable({ write(c, _e, cb) { chunks.push(c); cb(); } });
    const status = await user.files.downloadZip('folder', [{ type: 'folder', id: sub.id }, { type: 'file', id: r1.id }], sink);
    const archive = Buffer.concat(chunks);
    check('a zip archive', archive.length > 0 && archive.readUInt32LE(0) === 0x04034b50, `${archive.length} bytes`);
    check('the folder laid out under its name', archive.includes(Buffer.from('sub/inner.txt')) && archive.includes(Buffer.from('inner')));
    check('the status counts both files', status.total_file_count === 2 && status.downloaded_file_count === 2 &&
      status.skipped_file_count === 0 && status.state === 'succeeded', JSON.stringify(status));
  });

  await user.folders.delete(dir.id, { recursive: true });
  check('cleaned up', !!inner.id);
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} zip downloads`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
