'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// an invite of a user outside the enterprise (-external-users).
// Env: BASE_URL, UPLOAD_URL, ADMIN_TOKEN, ENTERPRISE_ID, EXTERNAL_USER_EMAIL.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure } = require('../lib/common');

async function main() {
  const admin = classicSDK(BoxSDK).getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (invites)`);
  await step('invite', async () => {
    const inv = await admin.enterprise.inviteUser(env('ENTERPRISE_ID'), env('EXTERNAL_USER_EMAIL'));
    check('invite', inv.type === 'invite' && inv.status === 'pending', JSON.stringify(inv));
    check('actionable_by', inv.actionable_by.login === env('EXTERNAL_USER_EMAIL'));
    const member = await failure(admin.enterprise.inviteUser(env('ENTERPRISE_ID'), 'user@cms.test'));
    check('a member: 400', member.status === 400, JSON.stringify(member));
  });
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} invites`);
}

main().catch((err) => { console.error(err); process.exit(1); });
