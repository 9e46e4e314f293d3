'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// the seeded file request (-file-requests): get, update with its etag,
// copy, delete the copy.
// Env: BASE_URL, UPLOAD_URL, TOKEN, FILE_REQUEST_ID.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;

async function main() {
  const user = classicSDK(BoxSDK).getBasicClient(env('TOKEN'));
  const id = env('FILE_REQUEST_ID');
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (file requests)`);
  await step('get, update, copy, delete', async () => {
    const fr = await user.fileRequests.getById(id);
    check('get', fr.id === id && !!fr.folder);
    const up = await user.fileRequests.update(id, { title: `Classic ${RUN}` }, fr.etag);
    check('update', up.title === `Classic ${RUN}`, up.title);
    const stale = await failure(user.fileRequests.update(id, { title: 'stale' }, fr.etag));
    check('stale etag: 412', stale.status === 412, JSON.stringify(stale));
    const dest = await user.folders.create('0', `classic-fr-${RUN}`);
    const cp = await user.fileRequests.copy(id, { folder: { id: dest.id, type: 'folder' } });
    check('copy', cp.id !== id && cp.folder.id === dest.id && cp.title === `Classic ${RUN}`, JSON.stringify(cp));
    await user.fileRequests.delete(cp.id);
    const gone = await failure(user.fileRequests.getById(cp.id));
    check('deleted: 404', gone.status === 404, JSON.stringify(gone));
  });
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} file requests`);
}

main().catch((err) => { console.error(err); process.exit(1); });
