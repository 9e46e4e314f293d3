'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// the transfer of an owned folder as the SDK's own test makes it (a new
// app user's files to the admin, transferOwnedFolder with notify false, the
// new folder owned by the admin, then deleted recursively, and the user
// deleted with force), with a folder and a file of the user that move into
// the new folder; a managed user may not transfer (403).
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const { Readable } = require('stream');
const { genLabel, env, check, step, finish, genClient, failure } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const admin = genClient(env('ADMIN_TOKEN'));
  const user = genClient(env('TOKEN'));
  console.log(`${genLabel()} (owned-folder transfer)`);
  const me = await admin.users.getUserMe();
  const source = await admin.users.createUser({ name: `Leaver ${RUN}`, isPlatformAccessOnly: true });
  const as = admin.withAsUserHeader(source.id);
  const work = await as.folders.createFolder({ name: 'Work', parent: { id: '0' } });
  await as.uploads.uploadFile({ attributes: { name: 'notes.txt', parent: { id: '0' } }, file: Readable.from([Buffer.from('notes')]) });

  await step('transfer', async () => {
    const denied = await failure(user.transfer.transferOwnedFolder(source.id, { ownedBy: { id: me.id } }));
    check('a managed user may not transfer', denied.status === 403, JSON.stringify(denied));
    const folder = await admin.transfer.transferOwnedFolder(source.id, { ownedBy: { id: me.id } }, { queryParams: { notify: false } });
    check('the new folder is the receiver\'s', folder.ownedBy.id === me.id && folder.name === `Leaver ${RUN}'s Files and Folders`, JSON.stringify(folder.rawData).slice(0, 400));
    const items = await admin.folders.getFolderItems(folder.id);
    const names = items.entries.map((e) => e.name).sort();
    check('holding the user\'s root items', JSON.stringify(names) === JSON.stringify(['Work', 'notes.txt']), JSON.stringify(names));
    const moved = await admin.folders.getFolderById(work.id);
    check('owned by the receiver now', moved.ownedBy.id === me.id && moved.parent.id === folder.id);
    await admin.folders.deleteFolderById(folder.id, { queryParams: { recursive: true } });
    await admin.users.deleteUserById(source.id, { queryParams: { notify: false, force: true } });
    const gone = await failure(admin.users.getUserById(source.id));
    check('the user is deleted', gone.status === 404, JSON.stringify(gone));
  });

  finish(`${genLabel()} owned-folder transfer`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
