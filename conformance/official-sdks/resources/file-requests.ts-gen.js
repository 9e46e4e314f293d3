'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// a file request the server seeded (-file-requests): get, update, copy,
// delete, as the SDK's own tests do.
// Env: BASE_URL, UPLOAD_URL, TOKEN, FILE_REQUEST_ID.
const { genLabel, env, check, step, finish, genClient, failure } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;

async function main() {
  const user = genClient(env('TOKEN'));
  const id = env('FILE_REQUEST_ID');
  console.log(`${genLabel()} (file requests)`);
  const fr = await step('get', async () => {
    const r = await user.fileRequests.getFileRequestById(id);
    check('id', r.id === id);
    check('folder', !!r.folder && !!r.folder.id);
    return r;
  });
  if (!fr) return finish(`${genLabel()} file requests`);
  await step('update', async () => {
    const r = await user.fileRequests.updateFileRequestById(id, { title: `Receipts ${RUN}`, description: 'scans' });
    check('title', r.title === `Receipts ${RUN}`, r.title);
    check('description', r.description === 'scans');
  });
  await step('copy, delete', async () => {
    const dest = await user.folders.createFolder({ name: `fr-${RUN}`, parent: { id: '0' } });
    const cp = await user.fileRequests.createFileRequestCopy(id, { folder: { id: dest.id, type: 'folder' } });
    check('copy is new', cp.id !== id);
    check('copy keeps title', cp.title === `Receipts ${RUN}`, cp.title);
    check('copy folder', cp.folder.id === dest.id);
    await user.fileRequests.deleteFileRequestById(cp.id);
    const gone = await failure(user.fileRequests.getFileRequestById(cp.id));
    check('deleted: 404', gone.status === 404, JSON.stringify(gone));
  });
  finish(`${genLabel()} file requests`);
}

main().catch((err) => { console.error(err); process.exit(1); });
