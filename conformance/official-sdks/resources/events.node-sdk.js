'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// events (current position, a page, the SDK's long-polling EventStream,
// the enterprise stream for the admin) and webhooks (create, get, getAll,
// update, delete) whose deliveries reach a local receiver and pass
// BoxSDK.validateWebhookMessage, while a tampered body does not; a
// collaborator's role change (COLLAB_ROLE_CHANGE, COLLABORATION.UPDATED)
// and a shared link's creation and removal (ITEM_SHARED_CREATE / _UNSHARE,
// SHARED_LINK.CREATED / DELETED).
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN,
// WEBHOOK_PRIMARY_KEY, WEBHOOK_SECONDARY_KEY.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, webhookReceiver } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;


async function main() {
  const sdk = classicSDK(BoxSDK);
  const client = sdk.getBasicClient(env('TOKEN'));
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (events)`);
  const folder = await client.folders.create('0', `events-node-${RUN}`);

  await step('positions and pages', async () => {
    const pos = await client.events.getCurrentStreamPosition();
    check('a current position', pos !== undefined && pos !== null, String(pos));
    const sub = await client.folders.create(folder.id, 'sub');
    const page = await client.events.get({ stream_position: pos });
    check('the new folder is an ITEM_CREATE', page.entries.some((e) => e.event_type === 'ITEM_CREATE' && e.source.id === sub.id));
    const logs = await admin.events.get({ stream_type: 'admin_logs', event_type: 'UPLOAD' });
    check('the enterprise stream (admin)', Array.isArray(logs.entries) && logs.entries.every((e) => e.event_type === 'UPLOAD') && logs.entries.length > 0);
  });

  await step('the SDK event stream long-polls', async () => {
    const stream = await client.events.getEventStream();
    const seen = new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no event from the stream')), 15000);
      stream.on('data', (e) => {
        if (e.event_type === 'ITEM_UPLOAD' && e.source && e.source.name === `streamed-${RUN}.txt`) {
          clearTimeout(t);
          resolve(e);
        }
      });
      stream.on('error', () => {});
    });
    await new Promise((r) => setTimeout(r, 500));
    await client.files.uploadFile(folder.id, `streamed-${RUN}.txt`, Buffer.from('stream me'));
    const ev = await seen;
    check('the upload arrives through the stream', ev.source.name === `streamed-${RUN}.txt`);
    stream.destroy();
  });

  const rcv = await webhookReceiver();
  await step('webhooks and signed deliveries', async () => {
    const hook = await client.webhooks.create(folder.id, 'folder', rcv.url, ['FILE.UPLOADED', 'FILE.TRASHED']);
    check('create', hook.id && hook.address === rcv.url);
    const up = await client.files.uploadFile(folder.id, `hooked-${RUN}.txt`, Buffer.from('deliver me'));
    const d = await rcv.next();
    const payload = JSON.parse(d.body);
    check('a FILE.UPLOADED delivery', payload.trigger === 'FILE.UPLOADED' && payload.source.id === up.entries[0].id);
    const primary = env('WEBHOOK_PRIMARY_KEY');
    const secondary = env('WEBHOOK_SECONDARY_KEY');
    check('validateWebhookMessage accepts it', BoxSDK.validateWebhookMessage(d.body, d.headers, primary, secondary, 600) === true);
    check('a tampered body fails', BoxSDK.validateWebhookMessage(d.body.replace('hooked', 'hacked'), d.headers, primary, secondary, 600) === false);
    await client.files.delete(up.entries[0].id);
    const trashed = JSON.parse((await rcv.next()).body);
    check('FILE.TRASHED follows the delete', trashed.trigger === 'FILE.TRASHED');
    const got = await client.webhooks.get(hook.id);
    check('get', got.id === hook.id);
    const all = await client.webhooks.getAll({ limit: 10 });
    check('getAll lists it', all.entries.some((w) => w.id === hook.id));
    const changed = await client.webhooks.update(hook.id, { triggers: ['FILE.DOWNLOADED'] });
    check('update', changed.triggers.length === 1 && changed.triggers[0] === 'FILE.DOWNLOADED');
    await client.webhooks.delete(hook.id);
    let status;
    try { await client.webhooks.get(hook.id); } catch (err) { status = err.statusCode || (err.response && err.response.statusCode); }
    check('a deleted webhook is not found', status === 404);
  });
  await step('a role change and shared links: events and webhook triggers', async () => {
    const adminMe = await admin.users.get('me');
    const dir = await client.folders.create('0', `roles-node-${RUN}`);
    const file = (await client.files.uploadFile(dir.id, `shared-${RUN}.txt`, Buffer.from('share me'))).entries[0];
    const hook = await client.webhooks.create(dir.id, 'folder', rcv.url, ['COLLABORATION.UPDATED', 'SHARED_LINK.CREATED', 'SHARED_LINK.DELETED']);
    const c = await client.collaborations.createWithUserID(adminMe.id, dir.id, 'viewer');
    const pos = await client.events.getCurrentStreamPosition();
    await client.collaborations.update(c.id, { role: 'editor' });
    const updated = JSON.parse((await rcv.next()).body);
    check('COLLABORATION.UPDATED fires on the role change', updated.trigger === 'COLLABORATION.UPDATED' && updated.source.id === c.id, JSON.stringify(updated).slice(0, 200));
    await client.files.update(file.id, { shared_link: { access: 'open' } });
    const created = JSON.parse((await rcv.next()).body);
    check('SHARED_LINK.CREATED fires on a new link', created.trigger === 'SHARED_LINK.CREATED' && created.source.id === file.id, JSON.stringify(created).slice(0, 200));
    await client.files.update(file.id, { shared_link: null });
    const deleted = JSON.parse((await rcv.next()).body);
    check('SHARED_LINK.DELETED fires on its removal', deleted.trigger === 'SHARED_LINK.DELETED' && deleted.source.id === file.id, JSON.stringify(deleted).slice(0, 200));
    const page = await client.events.get({ stream_position: pos });
    const types = page.entries.map((e) => e.event_type);
    check('COLLAB_ROLE_CHANGE, ITEM_SHARED_CREATE, ITEM_SHARED_UNSHARE on the stream',
      JSON.stringify(types) === JSON.stringify(['COLLAB_ROLE_CHANGE', 'ITEM_SHARED_CREATE', 'ITEM_SHARED_UNSHARE']), JSON.stringify(types));
    await client.webhooks.delete(hook.id);
  });
  rcv.close();
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} events`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
