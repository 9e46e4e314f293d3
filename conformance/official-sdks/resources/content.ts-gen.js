'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// rename, move, describe and tag a file (with if-match), move and rename a
// folder, a name conflict (409), lock and unlock a file (another user is
// refused with 403 access_denied_item_locked), copy a file and a folder,
// and file versions: list, trash, restore, promote.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const { Readable } = require('stream');
const { genLabel, env, check, step, finish, genClient, failure } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const client = genClient(env('TOKEN'));
  const admin = genClient(env('ADMIN_TOKEN'));
  console.log(`${genLabel()} (content)`);
  const root = await client.folders.createFolder({ name: `content-gen-${RUN}`, parent: { id: '0' } });
  const a = await client.folders.createFolder({ name: 'a', parent: { id: root.id } });
  const b = await client.folders.createFolder({ name: 'b', parent: { id: root.id } });
  const up = await client.uploads.uploadFile({ attributes: { name: 'f.txt', parent: { id: a.id } }, file: Readable.from([Buffer.from('v1')]) });
  const file = up.entries[0];

  await step('update files and folders', async () => {
    const got = await client.files.updateFileById(file.id, {
      requestBody: { name: 'g.txt', parent: { id: b.id }, description: 'moved', tags: ['t1', 't2'] },
      queryParams: { fields: ['name', 'parent', 'description', 'tags'] },
      headers: { ifMatch: file.etag },
    });
    check('rename, move, describe, tag', got.name === 'g.txt' && got.parent.id === b.id && got.description === 'moved' && got.tags.length === 2, JSON.stringify(got.rawData));
    const stale = await failure(client.files.updateFileById(file.id, { requestBody: { name: 'h.txt' }, headers: { ifMatch: file.etag } }));
    check('a stale if-match is 412', stale.status === 412);
    const taken = await failure(client.folders.updateFolderById(a.id, { requestBody: { name: 'B' } }));
    check('a taken name is 409 item_name_in_use', taken.status === 409 && taken.code === 'item_name_in_use', JSON.stringify(taken));
    const moved = await client.folders.updateFolderById(a.id, { requestBody: { name: 'a2', parent: { id: b.id } } });
    check('a folder moves and is renamed', moved.name === 'a2' && moved.parent.id === b.id);
    const cycle = await failure(client.folders.updateFolderById(b.id, { requestBody: { parent: { id: a.id } } }));
    check('a folder cannot move below itself', cycle.status === 400);
  });

  await step('lock and unlock', async () => {
    const locked = await client.files.updateFileById(file.id, {
      requestBody: { lock: { access: 'lock', isDownloadPrevented: true } },
      queryParams: { fields: ['lock'] },
    });
    check('the file is locked', locked.lock && locked.lock.isDownloadPrevented === true, JSON.stringify(locked.rawData));
    const refused = await failure(admin.files.updateFileById(file.id, { requestBody: { name: 'x.txt' } }));
    check('another user cannot rename it', refused.status === 403 && refused.code === 'access_denied_item_locked', JSON.stringify(refused));
    const unlocked = await client.files.updateFileById(file.id, { requestBody: { lock: null }, queryParams: { fields: ['lock'] } });
    check('unlocked', unlocked.lock == null);
  });

  await step('file versions', async () => {
    for (const v of ['v2', 'v3']) {
      await client.uploads.uploadFileVersion(file.id, { attributes: { name: 'g.txt' }, file: Readable.from([Buffer.from(v)]) });
    }
    const list = await client.fileVersions.getFileVersions(file.id);
    check('two earlier versions listed', list.totalCount === 2 && list.entries.length === 2, JSON.stringify(list.rawData));
    const v1 = list.entries[list.entries.length - 1];
    await client.fileVersions.deleteFileVersionById(file.id, v1.id);
    const trashed = await client.fileVersions.getFileVersionById(file.id, v1.id);
    check('a deleted version is in the trash', !!trashed.trashedAt);
    const restored = await client.fileVersions.updateFileVersionById(file.id, v1.id, { requestBody: { trashedAt: null } });
    check('restored', restored.trashedAt == null && !!restored.restoredAt, JSON.stringify(restored.rawData));
    const promoted = await client.fileVersions.promoteFileVersion(file.id, { requestBody: { id: v1.id, type: 'file_version' } });
    check('promoted: a new version with the old content', promoted.sha1 === v1.sha1 && promoted.id !== v1.id);
    const after = await client.fileVersions.getFileVersions(file.id);
    check('three earlier versions now', after.totalCount === 3);
  });

  await step('copies', async () => {
    const fc = await client.files.copyFile(file.id, { parent: { id: root.id }, name: 'copy.txt' });
    check('a file copy', fc.name === 'copy.txt' && fc.id !== file.id);
    const bc = await client.folders.copyFolder(b.id, { parent: { id: root.id }, name: 'b copy' });
    const items = await client.folders.getFolderItems(bc.id);
    check('a folder copy holds the subtree', bc.name === 'b copy' && items.totalCount === 2, JSON.stringify(items.rawData).slice(0, 300));
    const again = await failure(client.files.copyFile(file.id, { parent: { id: root.id }, name: 'copy.txt' }));
    check('a copy onto a taken name is 409', again.status === 409);
  });

  finish(`${genLabel()} content`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
