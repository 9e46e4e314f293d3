'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// an invite of a user outside the enterprise (-external-users), read back.
// Env: BASE_URL, UPLOAD_URL, ADMIN_TOKEN, ENTERPRISE_ID, EXTERNAL_USER_EMAIL.
const { genLabel, env, check, step, finish, genClient, failure } = require('../lib/common');

async function main() {
  const admin = genClient(env('ADMIN_TOKEN'));
  console.log(`${genLabel()} (invites)`);
  await step('create, get', async () => {
    const inv = await admin.invites.createInvite({ enterprise: { id: env('ENTERPRISE_ID') }, actionableBy: { login: env('EXTERNAL_USER_EMAIL') } });
    check('invited_to', inv.invitedTo.id === env('ENTERPRISE_ID'));
    check('actionable_by', inv.actionableBy.login === env('EXTERNAL_USER_EMAIL'), JSON.stringify(inv.actionableBy));
    check('pending', inv.status === 'pending', inv.status);
    const got = await admin.invites.getInviteById(inv.id);
    check('get', got.id === inv.id);
    const missing = await failure(admin.invites.createInvite({ enterprise: { id: env('ENTERPRISE_ID') }, actionableBy: { login: 'nobody@nowhere.test' } }));
    check('unknown user: 404', missing.status === 404, JSON.stringify(missing));
  });
  finish(`${genLabel()} invites`);
}

main().catch((err) => { console.error(err); process.exit(1); });
