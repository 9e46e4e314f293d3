'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// a new user's email aliases on a registered domain (boxdemo.com).
// Env: BASE_URL, UPLOAD_URL, ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;

async function main() {
  const admin = classicSDK(BoxSDK).getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (email aliases)`);
  await step('add, list, remove', async () => {
    const u = await admin.enterprise.addUser(`classic${RUN}@cms.test`, `classic ${RUN}`);
    const a = await admin.users.addEmailAlias(u.id, `classic${RUN}@boxdemo.com`);
    // The SDK sends is_confirmed false: the admin's alias stays unconfirmed.
    check('alias', a.email === `classic${RUN}@boxdemo.com` && a.is_confirmed === false, JSON.stringify(a));
    const other = await failure(admin.users.addEmailAlias(u.id, `classic${RUN}@unregistered.test`));
    check('unregistered domain: 400', other.status === 400, JSON.stringify(other));
    const list = await admin.users.getEmailAliases(u.id);
    check('listed', list.total_count === 1 && list.entries[0].id === a.id, JSON.stringify(list));
    await admin.users.removeEmailAlias(u.id, a.id);
    check('removed', (await admin.users.getEmailAliases(u.id)).total_count === 0);
  });
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} email aliases`);
}

main().catch((err) => { console.error(err); process.exit(1); });
