'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// folder locks as the SDK's own test uses them (create with move and
// delete locked, list for the folder, delete, a second delete fails), and
// the lock's effect: the owner can neither move nor delete the folder
// (403 access_denied_insufficient_permissions) until it is unlocked, while
// a rename still works.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user).
const { genLabel, env, check, step, finish, genClient, failure } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const user = genClient(env('TOKEN'));
  console.log(`${genLabel()} (folder locks)`);
  const dir = await user.folders.createFolder({ name: `locks-gen-${RUN}`, parent: { id: '0' } });
  const target = await user.folders.createFolder({ name: `locks-target-gen-${RUN}`, parent: { id: '0' } });

  await step('folder locks', async () => {
    const lock = await user.folderLocks.createFolderLock({ folder: { id: dir.id, type: 'folder' }, lockedOperations: { move: true, delete: true } });
    check('created', lock.id && lock.folder.id === dir.id && lock.lockedOperations.move === true && lock.lockedOperations.delete === true &&
      lock.lockType === 'freeze', JSON.stringify(lock.rawData));
    const locks = await user.folderLocks.getFolderLocks({ folderId: dir.id });
    check('listed for the folder', locks.entries.length === 1 && locks.entries[0].id === lock.id);
    const move = await failure(user.folders.updateFolderById(dir.id, { requestBody: { parent: { id: target.id } } }));
    check('a move is refused', move.status === 403 && move.code === 'access_denied_insufficient_permissions', JSON.stringify(move));
    const del = await failure(user.folders.deleteFolderById(dir.id, { queryParams: { recursive: true } }));
    // (the SDK reads no error body for a call that answers no content: the status only)
    check('a delete is refused', del.status === 403, JSON.stringify(del));
    const renamed = await user.folders.updateFolderById(dir.id, { requestBody: { name: `locks-gen-renamed-${RUN}` } });
    check('a rename still works', renamed.name === `locks-gen-renamed-${RUN}`);
    await user.folderLocks.deleteFolderLockById(lock.id);
    const again = await failure(user.folderLocks.deleteFolderLockById(lock.id));
    check('a second delete fails', again.status === 404, JSON.stringify(again));
    const none = await user.folderLocks.getFolderLocks({ folderId: dir.id });
    check('no lock left', none.entries.length === 0);
    const moved = await user.folders.updateFolderById(dir.id, { requestBody: { parent: { id: target.id } } });
    check('unlocked, it moves', moved.parent.id === target.id);
  });

  await user.folders.deleteFolderById(target.id, { queryParams: { recursive: true } });
  finish(`${genLabel()} folder locks`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
