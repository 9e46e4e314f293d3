'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// folders.lock, folders.getLocks, folders.deleteLock, and a locked folder
// refusing folders.move and folders.delete until it is unlocked.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user).
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const sdk = classicSDK(BoxSDK);
  const user = sdk.getBasicClient(env('TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (folder locks)`);
  const dir = await user.folders.create('0', `locks-node-${RUN}`);
  const target = await user.folders.create('0', `locks-target-node-${RUN}`);

  await step('folder locks', async () => {
    const lock = await user.folders.lock(dir.id);
    check('folders.lock', lock.type === 'folder_lock' && lock.folder.id === dir.id && lock.locked_operations.move === true, JSON.stringify(lock));
    const locks = await user.folders.getLocks(dir.id);
    check('folders.getLocks', locks.entries.length === 1 && locks.entries[0].id === lock.id, JSON.stringify(locks));
    const move = await failure(user.folders.move(dir.id, target.id));
    check('a move is refused', move.status === 403 && move.code === 'access_denied_insufficient_permissions', JSON.stringify(move));
    const del = await failure(user.folders.delete(dir.id, { recursive: true }));
    check('a delete is refused', del.status === 403, JSON.stringify(del));
    await user.folders.deleteLock(lock.id);
    const none = await user.folders.getLocks(dir.id);
    check('folders.deleteLock', none.entries.length === 0);
    await user.folders.delete(dir.id, { recursive: true });
    check('unlocked, it is deleted', true);
  });

  await user.folders.delete(target.id, { recursive: true });
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} folder locks`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
