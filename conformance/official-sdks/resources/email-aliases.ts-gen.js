'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// a new user's email aliases (the SDK's own test uses <id>@boxdemo.com,
// a domain the server registers with -enterprise-domains).
// Env: BASE_URL, UPLOAD_URL, ADMIN_TOKEN.
const { genLabel, env, check, step, finish, genClient } = require('../lib/common');

const RUN = `${process.pid}${Date.now()}`;

async function main() {
  const admin = genClient(env('ADMIN_TOKEN'));
  console.log(`${genLabel()} (email aliases)`);
  await step('list, create, delete', async () => {
    const u = await admin.users.createUser({ name: `alias ${RUN}`, login: `alias${RUN}@cms.test` });
    const none = await admin.emailAliases.getUserEmailAliases(u.id);
    check('none at first', none.totalCount === 0, JSON.stringify(none));
    const a = await admin.emailAliases.createUserEmailAlias(u.id, { email: `${RUN}@boxdemo.com` });
    check('alias', a.email === `${RUN}@boxdemo.com`, JSON.stringify(a));
    const one = await admin.emailAliases.getUserEmailAliases(u.id);
    check('listed', one.totalCount === 1 && one.entries[0].id === a.id, JSON.stringify(one));
    await admin.emailAliases.deleteUserEmailAliasById(u.id, a.id);
    const after = await admin.emailAliases.getUserEmailAliases(u.id);
    check('deleted', after.totalCount === 0);
  });
  finish(`${genLabel()} email aliases`);
}

main().catch((err) => { console.error(err); process.exit(1); });
