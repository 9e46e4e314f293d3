'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// the transfer of an owned folder (PUT /users/{id}/folders/0; the classic
// SDK has no manager method for it, so through its own client.put), with
// an app user's folder moving into a new folder of the admin.
// Env: BASE_URL, UPLOAD_URL, ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const sdk = classicSDK(BoxSDK);
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (owned-folder transfer)`);
  const me = await admin.users.get('me');
  const source = await admin.enterprise.addAppUser(`Leaver ${RUN}`);
  const as = sdk.getBasicClient(env('ADMIN_TOKEN'));
  as.asUser(source.id);
  const work = await as.folders.create('0', 'Work');

  await step('transfer', async () => {
    const resp = await admin.put(`/users/${source.id}/folders/0`, { body: { owned_by: { id: me.id } }, qs: { notify: false } });
    check('200', resp.statusCode === 200, `${resp.statusCode} ${JSON.stringify(resp.body)}`);
    const folder = resp.body;
    check('the new folder is the receiver\'s', folder.owned_by.id === me.id && folder.name === `Leaver ${RUN}'s Files and Folders`, JSON.stringify(folder).slice(0, 300));
    const moved = await admin.folders.get(work.id);
    check('the user\'s folder moved into it', moved.parent.id === folder.id && moved.owned_by.id === me.id);
    await admin.folders.delete(folder.id, { recursive: true });
    await admin.users.delete(source.id, { force: true });
  });

  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} owned-folder transfer`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
