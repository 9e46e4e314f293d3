'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// the event stream (positions, a page after "now", OPTIONS /events, the
// SDK's own long-polling EventStream picking up a change) and webhooks
// (create, list by marker, get, update, delete) whose deliveries reach a
// local receiver and pass WebhooksManager.validateMessage, while a
// tampered body or a wrong key does not; a collaborator's role change
// (COLLAB_ROLE_CHANGE, COLLABORATION.UPDATED) and a shared link's creation
// and removal (ITEM_SHARED_CREATE / _UNSHARE, SHARED_LINK.CREATED /
// DELETED).
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN,
// WEBHOOK_PRIMARY_KEY, WEBHOOK_SECONDARY_KEY.
const { Readable } = require('stream');
const { genSDK, genLabel, updateCollaboration, env, check, step, finish, webhookReceiver, genClient } = require('../lib/common');
const { WebhooksManager } = genSDK('managers');

const RUN = `${process.pid}-${Date.now()}`;

async function upload(client, parent, name, text) {
  const res = await client.uploads.uploadFile({ attributes: { name, parent: { id: parent } }, file: Readable.from([Buffer.from(text)]) });
  return res.entries[0];
}

async function main() {
  const client = genClient(env('TOKEN'));
  const primary = env('WEBHOOK_PRIMARY_KEY');
  const secondary = env('WEBHOOK_SECONDARY_KEY');
  console.log(`${genLabel()} (events)`);
  const folder = await client.folders.createFolder({ name: `events-gen-${RUN}`, parent: { id: '0' } });

  await step('event pages', async () => {
    const now = await client.events.getEvents({ streamPosition: 'now' });
    check('now: no events, a position', now.entries.length === 0 && now.nextStreamPosition !== undefined);
    const sub = await client.folders.createFolder({ name: 'sub', parent: { id: folder.id } });
    const page = await client.events.getEvents({ streamPosition: String(now.nextStreamPosition) });
    const created = page.entries.find((e) => e.eventType === 'ITEM_CREATE' && e.source && e.source.id === sub.id);
    check('the new folder is an ITEM_CREATE', !!created, JSON.stringify(page.rawData).slice(0, 300));
    check('events carry ids and their author', created && created.eventId && created.createdBy && created.createdBy.type === 'user');
    const changes = await client.events.getEvents({ streamPosition: String(now.nextStreamPosition), streamType: 'changes' });
    check('stream_type=changes', changes.entries.length >= 1);
    const poll = await client.events.getEventsWithLongPolling();
    const server = poll.entries && poll.entries[0];
    check('OPTIONS /events: a realtime_server', server && server.type === 'realtime_server' && server.url.includes('/events/realtime'), JSON.stringify(poll));
  });

  await step('the SDK event stream long-polls', async () => {
    const stream = client.events.getEventStream({ streamPosition: 'now' });
    const seen = new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('no event from the stream')), 15000);
      stream.on('data', (e) => {
        if (e.eventType === 'ITEM_UPLOAD' && e.source && e.source.name === `streamed-${RUN}.txt`) {
          clearTimeout(t);
          resolve(e);
        }
      });
      stream.on('error', () => {});
    });
    await new Promise((r) => setTimeout(r, 500)); // let it reach the long poll
    await upload(client, folder.id, `streamed-${RUN}.txt`, 'stream me');
    const ev = await seen;
    check('the upload arrives through the stream', ev.source.name === `streamed-${RUN}.txt`);
    stream.destroy();
  });

  const rcv = await webhookReceiver();
  await step('webhooks: CRUD and signed deliveries', async () => {
    const hook = await client.webhooks.createWebhook({ target: { id: folder.id, type: 'folder' }, address: rcv.url, triggers: ['FILE.UPLOADED'] });
    check('create', hook.id && hook.address === rcv.url && hook.triggers.includes('FILE.UPLOADED'));
    const file = await upload(client, folder.id, `hooked-${RUN}.txt`, 'deliver me');
    const d = await rcv.next();
    const payload = JSON.parse(d.body);
    check('a FILE.UPLOADED delivery for the file', payload.trigger === 'FILE.UPLOADED' && payload.source.id === file.id, d.body.slice(0, 200));
    const ok = await WebhooksManager.validateMessage(d.body, d.headers, primary, { secondaryKey: secondary, maxAge: 600 });
    check('validateMessage accepts the delivery', ok === true);
    const onlySecondary = await WebhooksManager.validateMessage(d.body, d.headers, 'not-the-key', { secondaryKey: secondary, maxAge: 600 });
    check('the secondary key alone verifies it', onlySecondary === true);
    const tampered = await WebhooksManager.validateMessage(d.body.replace('hooked', 'hacked'), d.headers, primary, { secondaryKey: secondary, maxAge: 600 });
    check('a tampered body fails', tampered === false);
    const wrong = await WebhooksManager.validateMessage(d.body, d.headers, 'wrong', { secondaryKey: 'wrong too', maxAge: 600 });
    check('wrong keys fail', wrong === false);

    const subs = [];
    for (let i = 0; i < 2; i++) {
      const sub = await client.folders.createFolder({ name: `hooked-sub-${i}`, parent: { id: folder.id } });
      subs.push(await client.webhooks.createWebhook({ target: { id: sub.id, type: 'folder' }, address: rcv.url, triggers: ['FOLDER.RENAMED'] }));
    }
    const ids = new Set();
    let marker;
    for (let i = 0; i < 5; i++) {
      const page = await client.webhooks.getWebhooks({ limit: 2, marker });
      page.entries.forEach((w) => ids.add(w.id));
      if (!page.nextMarker) break;
      marker = page.nextMarker;
    }
    check('the list walks every webhook by marker', [hook, ...subs].every((w) => ids.has(w.id)), JSON.stringify([...ids]));
    const got = await client.webhooks.getWebhookById(hook.id);
    check('get', got.id === hook.id && got.target.id === folder.id);
    const up = await client.webhooks.updateWebhookById(hook.id, { requestBody: { triggers: ['FILE.UPLOADED', 'FILE.TRASHED'] } });
    check('update', up.triggers.length === 2);
    await client.webhooks.deleteWebhookById(hook.id);
    let gone = false;
    try { await client.webhooks.getWebhookById(hook.id); } catch (err) { gone = err.responseInfo && err.responseInfo.statusCode === 404; }
    check('a deleted webhook is not found', gone);
    for (const w of subs) await client.webhooks.deleteWebhookById(w.id);
  });
  await step('a role change and shared links: events and webhook triggers', async () => {
    const adminMe = await genClient(env('ADMIN_TOKEN')).users.getUserMe();
    const dir = await client.folders.createFolder({ name: `roles-gen-${RUN}`, parent: { id: '0' } });
    const file = await upload(client, dir.id, `shared-${RUN}.txt`, 'share me');
    const hook = await client.webhooks.createWebhook({ target: { id: dir.id, type: 'folder' }, address: rcv.url,
      triggers: ['COLLABORATION.UPDATED', 'SHARED_LINK.CREATED', 'SHARED_LINK.DELETED'] });
    const c = await client.userCollaborations.createCollaboration({ item: { type: 'folder', id: dir.id }, accessibleBy: { type: 'user', id: adminMe.id }, role: 'viewer' });
    const now = await client.events.getEvents({ streamPosition: 'now' });
    await updateCollaboration(client, c.id, { role: 'editor' });
    const updated = JSON.parse((await rcv.next()).body);
    check('COLLABORATION.UPDATED fires on the role change', updated.trigger === 'COLLABORATION.UPDATED' && updated.source.id === c.id, JSON.stringify(updated).slice(0, 200));
    await client.sharedLinksFiles.addShareLinkToFile(file.id, { sharedLink: { access: 'open' } }, { fields: 'shared_link' });
    const created = JSON.parse((await rcv.next()).body);
    check('SHARED_LINK.CREATED fires on a new link', created.trigger === 'SHARED_LINK.CREATED' && created.source.id === file.id, JSON.stringify(created).slice(0, 200));
    await client.sharedLinksFiles.removeSharedLinkFromFile(file.id, { sharedLink: null }, { fields: 'shared_link' });
    const deleted = JSON.parse((await rcv.next()).body);
    check('SHARED_LINK.DELETED fires on its removal', deleted.trigger === 'SHARED_LINK.DELETED' && deleted.source.id === file.id, JSON.stringify(deleted).slice(0, 200));
    const page = await client.events.getEvents({ streamPosition: String(now.nextStreamPosition) });
    const types = page.entries.map((e) => e.eventType);
    check('COLLAB_ROLE_CHANGE, ITEM_SHARED_CREATE, ITEM_SHARED_UNSHARE on the stream',
      JSON.stringify(types) === JSON.stringify(['COLLAB_ROLE_CHANGE', 'ITEM_SHARED_CREATE', 'ITEM_SHARED_UNSHARE']), JSON.stringify(types));
    await client.webhooks.deleteWebhookById(hook.id);
  });
  rcv.close();
  finish(`${genLabel()} events`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
