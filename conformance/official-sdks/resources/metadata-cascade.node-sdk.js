'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// a metadata cascade policy: create, force-apply (none, overwrite), list,
// get, delete; a file uploaded later gets the folder's values.
// Env: BASE_URL, UPLOAD_URL, TOKEN, ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;

async function main() {
  const sdk = classicSDK(BoxSDK);
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  const user = sdk.getBasicClient(env('TOKEN'));
  const key = `classicCascade${RUN}`;
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (metadata cascade policies)`);
  const folder = await step('template, folder, file', async () => {
    await admin.metadata.createTemplate(`Classic cascade ${RUN}`, [{ type: 'string', key: 'status', displayName: 'Status' }], { templateKey: key });
    const f = await user.folders.create('0', `classic-cascade-${RUN}`);
    f.before = (await user.files.uploadFile(f.id, 'before.txt', Buffer.from('b'))).entries[0];
    await user.folders.addMetadata(f.id, 'enterprise', key, { status: 'draft' });
    await user.files.addMetadata(f.before.id, 'enterprise', key, { status: 'own' });
    return f;
  });
  if (!folder) return finish(`box-node-sdk ${pkgVersion('box-node-sdk')} metadata cascade policies`);
  await step('policy', async () => {
    const p = await user.metadata.createCascadePolicy('enterprise', key, folder.id);
    check('parent', p.parent.id === folder.id, JSON.stringify(p));
    await user.metadata.forceApplyCascadePolicy(p.id, 'none');
    check('none keeps', (await user.files.getMetadata(folder.before.id, 'enterprise', key)).status === 'own');
    await user.metadata.forceApplyCascadePolicy(p.id, 'overwrite');
    check('overwrite replaces', (await user.files.getMetadata(folder.before.id, 'enterprise', key)).status === 'draft');
    const later = (await user.files.uploadFile(folder.id, 'later.txt', Buffer.from('l'))).entries[0];
    check('later file', (await user.files.getMetadata(later.id, 'enterprise', key)).status === 'draft');
    const list = await user.metadata.getCascadePolicies(folder.id);
    check('listed', list.entries.length === 1 && list.entries[0].id === p.id, JSON.stringify(list));
    check('get', (await user.metadata.getCascadePolicy(p.id)).id === p.id);
    await user.metadata.deleteCascadePolicy(p.id);
    const gone = await failure(user.metadata.getCascadePolicy(p.id));
    check('deleted: 404', gone.status === 404, JSON.stringify(gone));
  });
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} metadata cascade policies`);
}

main().catch((err) => { console.error(err); process.exit(1); });
