'use strict';
// box-node-sdk (classic), unchanged, against the reference server:
// enterprise administration. Creates and updates a user (and rolls it out
// of the enterprise with "enterprise": null), creates a group, adds a
// membership and changes its role and configurable permissions, and lists
// device pins over two pages (the server is started with -device-pins by
// run.sh: the API cannot create pins). Env: BASE_URL, UPLOAD_URL, ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;


async function main() {
  const sdk = classicSDK(BoxSDK);
  const client = sdk.getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (admin)`);

  let user;
  await step('create a managed user', async () => {
    user = await client.enterprise.addUser(`node-${RUN}@cms.test`, `Node User ${RUN}`.slice(0, 50), { job_title: 'Tester' });
    check('user id', user && user.id, JSON.stringify(user));
    check('user login', user.login === `node-${RUN}@cms.test`, user.login);
  });
  if (!user) return finish(`box-node-sdk ${pkgVersion('box-node-sdk')} admin`);

  await step('create an app user', async () => {
    const app = await client.enterprise.addAppUser(`Node Bot ${RUN}`.slice(0, 50), { external_app_user_id: `ext-${RUN}` });
    check('app user has a login', app && typeof app.login === 'string' && app.login.includes('@'), JSON.stringify(app));
    const found = await client.enterprise.getUsers({ external_app_user_id: `ext-${RUN}`, fields: 'is_platform_access_only' });
    check('found by external_app_user_id', found.total_count === 1 && found.entries[0].is_platform_access_only === true, JSON.stringify(found));
  });

  await step('update the user', async () => {
    const u = await client.users.update(user.id, { job_title: 'Lead', address: '1 Main St', notification_email: { email: `n-${RUN}@home.test` } });
    check('job title', u.job_title === 'Lead', u.job_title);
    check('address', u.address === '1 Main St', u.address);
    check('notification email', u.notification_email && u.notification_email.email === `n-${RUN}@home.test`, JSON.stringify(u.notification_email));
    const cleared = await client.users.update(user.id, { notification_email: null });
    check('notification email removed by null', cleared.notification_email === null, JSON.stringify(cleared.notification_email));
  });

  await step('a bad notification e-mail is 400 invalid_parameter', async () => {
    try {
      await client.users.update(user.id, { notification_email: { email: 'not-an-address' } });
      check('rejected', false);
    } catch (err) {
      const body = err.response && err.response.body;
      check('400 invalid_parameter', err.statusCode === 400 && body && body.code === 'invalid_parameter', JSON.stringify(body));
    }
  });

  let group;
  await step('create a group', async () => {
    group = await client.groups.create(`Node Group ${RUN}`, { description: 'conformance', member_viewability_level: 'admins_and_members' });
    check('group id', group && group.id, JSON.stringify(group));
  });

  let membership;
  if (group) {
    await step('add a membership', async () => {
      membership = await client.groups.addUser(group.id, user.id, { role: 'member' });
      check('role member', membership && membership.role === 'member', JSON.stringify(membership));
    });
  }
  if (membership) {
    await step('change role and configurable permissions', async () => {
      const m = await client.groups.updateMembership(membership.id, { role: 'admin', configurable_permissions: { can_create_accounts: false } });
      const cp = m.configurable_permissions || {};
      check('role admin', m.role === 'admin', m.role);
      check('given permission as given', cp.can_create_accounts === false, JSON.stringify(cp));
      check('omitted permissions on', cp.can_run_reports === true, JSON.stringify(cp));
      const off = await client.groups.updateMembership(membership.id, { configurable_permissions: null });
      check('null turns them all off', Object.values(off.configurable_permissions || { x: true }).every((v) => v === false), JSON.stringify(off));
      const list = await client.groups.getMemberships(group.id, { limit: 10 });
      check('group lists the membership', list.total_count === 1, JSON.stringify(list));
    });
  }

  await step('roll the user out of the enterprise', async () => {
    const u = await client.users.update(user.id, { enterprise: null, notify: false }, undefined);
    check('update answered', u && u.id === user.id, JSON.stringify(u));
    const withField = await client.users.get('me', { fields: 'enterprise' });
    check('admin still in the enterprise', withField.enterprise && withField.enterprise.id, JSON.stringify(withField));
    try {
      await client.users.get(user.id);
      check('rolled-out user no longer found', false);
    } catch (err) {
      check('rolled-out user 404', err.statusCode === 404, err.message);
    }
  });

  await step('list device pins over two pages', async () => {
    // getAll looks the enterprise up through /users/me?fields=enterprise.
    const first = await client.devicePins.getAll({ limit: 2 });
    check('first page has 2 pins', first.entries && first.entries.length === 2, JSON.stringify(first));
    check('next_marker is a number', typeof first.next_marker === 'number', JSON.stringify(first.next_marker));
    const second = await client.devicePins.getAll({ limit: 2, marker: first.next_marker });
    check('second page has pins', second.entries && second.entries.length > 0, JSON.stringify(second));
    const ids = new Set([...first.entries, ...second.entries].map((p) => p.id));
    check('pages do not overlap', ids.size === first.entries.length + second.entries.length);
    const pin = await client.devicePins.get(first.entries[0].id);
    check('get pin', pin.id === first.entries[0].id && pin.type === 'device_pinner', JSON.stringify(pin));
  });

  if (group) {
    await step('delete the group', async () => {
      await client.groups.delete(group.id);
      check('deleted', true);
    });
  }
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} admin`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
