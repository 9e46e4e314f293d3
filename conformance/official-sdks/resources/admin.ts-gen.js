'use strict';
// box-typescript-sdk-gen, unchanged, against the reference server:
// enterprise administration. Creates and updates a user (and rolls it out
// of the enterprise with an explicit "enterprise": null), creates a group,
// adds a membership and changes its role and configurable permissions
// (null turns them all off), and lists device pins over two pages. The
// server is started with -device-pins (run.sh): the API cannot create pins.
// Env: BASE_URL, UPLOAD_URL, ADMIN_TOKEN, ENTERPRISE_ID.
const { genSDK, genLabel, env, check, step, finish, customBaseUrls } = require('../lib/common');
const { BoxClient, BoxDeveloperTokenAuth } = genSDK();

const RUN = `${process.pid}-${Date.now()}`;


async function main() {
  const auth = new BoxDeveloperTokenAuth({ token: env('ADMIN_TOKEN') });
  const client = new BoxClient({ auth }).withCustomBaseUrls(customBaseUrls());
  const enterpriseId = env('ENTERPRISE_ID');
  console.log(`${genLabel()} (admin)`);

  await step('current user has the enterprise', async () => {
    const me = await client.users.getUserMe({ fields: ['enterprise', 'role'] });
    check('me.enterprise.id', me.enterprise && me.enterprise.id === enterpriseId, JSON.stringify(me.enterprise));
    check('me.role is admin', me.role === 'admin', me.role);
  });

  let user;
  await step('create a managed user', async () => {
    user = await client.users.createUser(
      { name: `Gen User ${RUN}`.slice(0, 50), login: `gen-${RUN}@cms.test`, jobTitle: 'Tester', isSyncEnabled: true },
      { queryParams: { fields: ['name', 'login', 'job_title', 'role', 'enterprise'] } },
    );
    check('user id', user && typeof user.id === 'string' && user.id !== '', JSON.stringify(user));
    check('user job title', user.jobTitle === 'Tester', user.jobTitle);
    check('user role', user.role === 'user', user.role);
  });
  if (!user) return finish(`${genLabel()} admin`);

  await step('login taken is 409 user_login_already_used', async () => {
    try {
      await client.users.createUser({ name: 'Dup', login: `gen-${RUN}@cms.test` });
      check('duplicate login rejected', false);
    } catch (err) {
      check('409', err.responseInfo && err.responseInfo.statusCode === 409, err.message);
      // The SDK keeps the code as JSON text ("\"user_login_already_used\"").
      const code = err.responseInfo && String(err.responseInfo.code).replace(/"/g, '');
      check('code', code === 'user_login_already_used', code);
    }
  });

  await step('update the user', async () => {
    const u = await client.users.updateUserById(user.id, {
      requestBody: { jobTitle: 'Lead', phone: '555-0100', timezone: 'Europe/Paris', notificationEmail: { email: `n-${RUN}@home.test` },
        trackingCodes: [{ type: 'tracking_code', name: 'dept', value: 'QA' }] },
      queryParams: { fields: ['job_title', 'phone', 'timezone', 'notification_email', 'tracking_codes'] },
    });
    check('job title', u.jobTitle === 'Lead', u.jobTitle);
    check('timezone', u.timezone === 'Europe/Paris', u.timezone);
    check('notification email', u.notificationEmail && u.notificationEmail.email === `n-${RUN}@home.test`, JSON.stringify(u.notificationEmail));
    check('tracking codes', u.trackingCodes && u.trackingCodes.length === 1 && u.trackingCodes[0].value === 'QA', JSON.stringify(u.trackingCodes));
  });

  let group;
  await step('create a group', async () => {
    group = await client.groups.createGroup({ name: `Gen Group ${RUN}`, description: 'conformance' });
    check('group id', group && group.id, JSON.stringify(group));
    check('group type', group.groupType === 'managed_group', group.groupType);
  });

  let membership;
  if (group) {
    await step('add a membership', async () => {
      membership = await client.memberships.createGroupMembership({ user: { id: user.id }, group: { id: group.id }, role: 'member' });
      check('membership role', membership.role === 'member', membership.role);
      check('membership group', membership.group && membership.group.id === group.id);
    });
  }
  if (membership) {
    await step('make the member a group admin with configured permissions', async () => {
      const m = await client.memberships.updateGroupMembershipById(membership.id, {
        requestBody: { role: 'admin', configurablePermissions: { can_run_reports: false } },
      });
      const cp = m.rawData.configurable_permissions || {};
      check('role admin', m.role === 'admin', m.role);
      check('given permission as given', cp.can_run_reports === false, JSON.stringify(cp));
      check('omitted permissions on', cp.can_instant_login === true && cp.can_edit_accounts === true, JSON.stringify(cp));
    });
    await step('configurable permissions null turns them all off', async () => {
      const m = await client.memberships.updateGroupMembershipById(membership.id, {
        requestBody: { configurablePermissions: null },
      });
      const cp = m.rawData.configurable_permissions || {};
      check('all off', Object.keys(cp).length >= 4 && Object.values(cp).every((v) => v === false), JSON.stringify(cp));
    });
    await step('list the group memberships', async () => {
      const page = await client.memberships.getGroupMemberships(group.id, { queryParams: { limit: 10 } });
      check('one membership', page.totalCount === 1 && page.entries[0].id === membership.id, JSON.stringify(page.rawData));
      const mine = await client.memberships.getUserMemberships(user.id);
      check('user memberships', mine.totalCount === 1, JSON.stringify(mine.rawData));
    });
  }

  await step('roll the user out of the enterprise', async () => {
    const u = await client.users.updateUserById(user.id, {
      requestBody: { enterprise: null, notify: false },
      queryParams: { fields: ['enterprise'] },
    });
    check('enterprise is null', u.rawData.enterprise === null, JSON.stringify(u.rawData));
    try {
      await client.users.getUserById(user.id);
      check('rolled-out user no longer found', false);
    } catch (err) {
      check('rolled-out user 404', err.responseInfo && err.responseInfo.statusCode === 404, err.message);
    }
    if (group) {
      const page = await client.memberships.getGroupMemberships(group.id);
      check('rolled-out user left the group', page.totalCount === 0, JSON.stringify(page.rawData));
    }
  });

  await step('list device pins over two pages', async () => {
    const first = await client.devicePinners.getEnterpriseDevicePinners(enterpriseId, { queryParams: { limit: 2 } });
    check('first page has 2 pins', first.entries && first.entries.length === 2, JSON.stringify(first.rawData));
    check('next_marker is a number', typeof first.nextMarker === 'number', JSON.stringify(first.nextMarker));
    const second = await client.devicePinners.getEnterpriseDevicePinners(enterpriseId, {
      queryParams: { limit: 2, marker: String(first.nextMarker) },
    });
    check('second page has pins', second.entries && second.entries.length > 0, JSON.stringify(second.rawData));
    const ids = new Set([...first.entries, ...second.entries].map((p) => p.id));
    check('pages do not overlap', ids.size === first.entries.length + second.entries.length);
    const pin = await client.devicePinners.getDevicePinnerById(first.entries[0].id);
    check('get pin', pin.id === first.entries[0].id && pin.productName, JSON.stringify(pin.rawData));
    const desc = await client.devicePinners.getEnterpriseDevicePinners(enterpriseId, { queryParams: { direction: 'DESC', limit: 1 } });
    check('DESC starts at the highest id', Number(desc.entries[0].id) >= Number(second.entries[second.entries.length - 1].id));
  });

  if (group) {
    await step('delete the group', async () => {
      await client.groups.deleteGroupById(group.id);
      check('deleted', true);
    });
  }
  finish(`${genLabel()} admin`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
