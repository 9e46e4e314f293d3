'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// zip downloads as the SDK's own test makes them (two files and an empty
// folder: total 2, downloaded 2, nothing skipped), the archive read with
// getZipDownloadContent (the SDK sends its token there; the server ignores
// it, as the service does), its status, downloadZip in one call, and the
// root folder refused.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user).
const { Readable } = require('stream');
const { genLabel, env, check, step, finish, genClient, failure, readAll } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const user = genClient(env('TOKEN'));
  console.log(`${genLabel()} (zip downloads)`);
  const dir = await user.folders.createFolder({ name: `zip-gen-${RUN}`, parent: { id: '0' } });
  const up = async (name, text) => (await user.uploads.uploadFile({ attributes: { name, parent: { id: dir.id } }, file: Readable.from([Buffer.from(text)]) })).entries[0];
  const a = await up('a.txt', 'alpha');
  const b = await up('b.txt', 'bravo');
  const empty = await user.folders.createFolder({ name: 'empty', parent: { id: dir.id } });
  const request = { items: [{ id: a.id, type: 'file' }, { id: b.id, type: 'file' }, { id: empty.id, type: 'folder' }], downloadFileName: 'zip' };

  await step('zip downloads', async () => {
    const z = await user.zipDownloads.createZipDownload(request);
    check('created', !!z.downloadUrl && !!z.statusUrl && !!z.expiresAt, JSON.stringify(z.rawData));
    check('no name conflicts', Array.isArray(z.nameConflicts) && z.nameConflicts.length === 0);
    const archive = await readAll(await user.zipDownloads.getZipDownloadContent(z.downloadUrl));
    check('a zip archive', archive.length > 0 && archive.readUInt32LE(0) === 0x04034b50, `${archive.length} bytes`);
    check('holding both files', archive.includes(Buffer.from('alpha')) && archive.includes(Buffer.from('bravo')));
    const status = await user.zipDownloads.getZipDownloadStatus(z.statusUrl);
    check('the status counts what was sent', status.totalFileCount === 2 && status.downloadedFileCount === 2 &&
      status.skippedFileCount === 0 && status.skippedFolderCount === 0 && status.state !== 'failed', JSON.stringify(status.rawData));
    const again = await failure(user.zipDownloads.getZipDownloadContent(z.downloadUrl));
    check('the archive URL serves once', again.status === 404, JSON.stringify(again));
    const one = await readAll(await user.zipDownloads.downloadZip(request));
    check('downloadZip in one call', one.length === archive.length, `${one.length} bytes`);
    const root = await failure(user.zipDownloads.createZipDownload({ items: [{ id: '0', type: 'folder' }] }));
    check('the root folder is refused', root.status === 400 && root.code === 'bad_request', JSON.stringify(root));
  });

  await user.folders.deleteFolderById(dir.id, { queryParams: { recursive: true } });
  finish(`${genLabel()} zip downloads`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
