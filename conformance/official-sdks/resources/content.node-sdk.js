'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// files.update (rename, if-match through etag), files.move, folders.update,
// files.lock / unlock (the SDK sends lock.type, which the service takes),
// files.copy, folders.copy, files.getVersions, deleteVersion,
// promoteVersion, and a version restored through the client's own put.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const sdk = classicSDK(BoxSDK);
  const client = sdk.getBasicClient(env('TOKEN'));
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (content)`);
  const root = await client.folders.create('0', `content-node-${RUN}`);
  const a = await client.folders.create(root.id, 'a');
  const b = await client.folders.create(root.id, 'b');
  const file = (await client.files.uploadFile(a.id, 'f.txt', Buffer.from('v1'))).entries[0];

  await step('update and move', async () => {
    const renamed = await client.files.update(file.id, { name: 'g.txt', etag: file.etag });
    check('rename with if-match', renamed.name === 'g.txt');
    const stale = await failure(client.files.update(file.id, { name: 'h.txt', etag: file.etag }));
    check('a stale etag is 412', stale.status === 412);
    const moved = await client.files.move(file.id, b.id);
    check('files.move', moved.parent.id === b.id);
    const folder = await client.folders.update(a.id, { name: 'a2', description: 'd' });
    check('folders.update', folder.name === 'a2' && folder.description === 'd');
    const taken = await failure(client.folders.update(a.id, { name: 'B' }));
    check('a taken name is 409', taken.status === 409 && taken.code === 'item_name_in_use', JSON.stringify(taken));
  });

  await step('lock and unlock', async () => {
    await client.files.lock(file.id, { is_download_prevented: false });
    const got = await client.files.get(file.id, { fields: 'lock' });
    check('locked', got.lock && got.lock.type === 'lock', JSON.stringify(got));
    const refused = await failure(admin.files.update(file.id, { name: 'x.txt' }));
    check('another user is refused', refused.status === 403 && refused.code === 'access_denied_item_locked', JSON.stringify(refused));
    await client.files.unlock(file.id);
    const after = await client.files.get(file.id, { fields: 'lock' });
    check('unlocked', after.lock === null);
  });

  await step('versions', async () => {
    await client.files.uploadNewFileVersion(file.id, Buffer.from('v2'));
    await client.files.uploadNewFileVersion(file.id, Buffer.from('v3'));
    const versions = await client.files.getVersions(file.id);
    check('two earlier versions', versions.total_count === 2, JSON.stringify(versions));
    const v1 = versions.entries[versions.entries.length - 1];
    await client.files.deleteVersion(file.id, v1.id);
    const restored = await client.wrapWithDefaultHandler(client.put)(`/files/${file.id}/versions/${v1.id}`, { body: { trashed_at: null } });
    check('restored through put', restored.trashed_at === null && !!restored.restored_at, JSON.stringify(restored));
    const promoted = await client.files.promoteVersion(file.id, v1.id);
    check('promoteVersion', promoted.sha1 === v1.sha1 && promoted.id !== v1.id);
  });

  await step('copies', async () => {
    const fc = await client.files.copy(file.id, root.id, { name: 'copy.txt' });
    check('files.copy', fc.name === 'copy.txt');
    const bc = await client.folders.copy(b.id, root.id, { name: 'b copy' });
    const items = await client.folders.getItems(bc.id);
    check('folders.copy with its subtree', items.total_count === 1, JSON.stringify(items).slice(0, 300));
  });

  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} content`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
