'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// web links (create, read, update, delete), a review task with two
// assignments resolved by their assignees, a file watermark, and a file
// trashed and restored.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, bytes, check, step, finish, classicSDK } = require('../lib/common');

// RUN keeps names unique so the script can run again against one server.
const RUN = `${process.pid}-${Date.now()}`;

// The SDK appends "/<apiVersion>" to both roots, so strip it from our URLs.

// status returns the HTTP status of a failed call (undefined on success).
async function status(promise) {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return err && (err.statusCode || (err.response && err.response.statusCode));
  }
}

async function main() {
  const sdk = classicSDK(BoxSDK);
  const client = sdk.getBasicClient(env('TOKEN'));
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (collab)`);

  const folder = await client.folders.create('0', `collab-node-${RUN}`);
  const upload = await client.files.uploadFile(folder.id, `collab-node-${RUN}.txt`, bytes(1000, 'collab-node'));
  const file = upload.entries[0];

  await step('web link create, read, update, delete', async () => {
    const url = `https://example.com/node/${RUN}`;
    const link = await client.weblinks.create(url, folder.id, { name: `Link ${RUN}`, description: 'spec' });
    check('create returns the link', link && link.type === 'web_link' && link.url === url, JSON.stringify(link));
    const got = await client.weblinks.get(link.id);
    check('get returns the link', got.id === link.id && got.name === `Link ${RUN}`);
    const up = await client.weblinks.update(link.id, { name: `Renamed ${RUN}`, description: 'new' });
    check('update renames', up.name === `Renamed ${RUN}` && up.description === 'new', JSON.stringify(up));
    const sub = await client.folders.create(folder.id, 'sub');
    const moved = await client.weblinks.move(link.id, sub.id);
    check('move changes the parent', moved.parent && moved.parent.id === sub.id);
    await client.weblinks.delete(link.id);
    check('a deleted link is not found', (await status(client.weblinks.get(link.id))) === 404);
  });

  await step('review task with two assignments', async () => {
    const task = await client.tasks.create(file.id, { message: 'Please review' });
    check('task created (review)', task.id && task.action === 'review', JSON.stringify(task));
    const mine = await client.tasks.assignByUserID(task.id, task.created_by.id);
    const theirs = await client.tasks.assignByEmail(task.id, 'admin@cms.test');
    check('two assignees', mine.assigned_to.id === task.created_by.id && theirs.assigned_to.login === 'admin@cms.test');
    const bad = await status(client.tasks.updateAssignment(mine.id, { resolution_state: 'completed' }));
    check('a review task refuses completed', bad === 400, bad);
    const a1 = await client.tasks.updateAssignment(mine.id, { resolution_state: 'approved', message: 'ok' });
    check('approved', a1.resolution_state === 'approved' && a1.completed_at);
    const a2 = await admin.tasks.updateAssignment(theirs.id, { resolution_state: 'approved' });
    check('approved by the admin', a2.resolution_state === 'approved');
    const t = await client.tasks.get(task.id);
    check('task completed', t.is_completed === true);
    const list = await client.tasks.getAssignments(task.id);
    check('assignments listed', list.total_count === 2);
    const one = await client.tasks.getAssignment(mine.id);
    check('assignment read', one.id === mine.id);
    await client.tasks.deleteAssignment(theirs.id);
    await client.tasks.delete(task.id);
    check('deleted task is gone', (await status(client.tasks.get(task.id))) === 404);
  });

  await step('file watermark', async () => {
    const w = await client.files.applyWatermark(file.id);
    check('watermark applied', w && w.watermark && w.watermark.created_at, JSON.stringify(w));
    const got = await client.files.getWatermark(file.id);
    check('watermark read', got && got.created_at, JSON.stringify(got));
    await client.files.removeWatermark(file.id);
    check('watermark removed', (await status(client.files.getWatermark(file.id))) === 404);
  });

  await step('trash and restore a file', async () => {
    await client.files.delete(file.id);
    check('a trashed file is not found', (await status(client.files.get(file.id))) === 404);
    const trashed = await client.files.getTrashedFile(file.id);
    check('trashed file read', trashed.item_status === 'trashed');
    const items = await client.trash.get({ limit: 100 });
    check('the trash lists it', items.entries.some((e) => e.id === file.id));
    const restored = await client.files.restoreFromTrash(file.id, { name: `restored-${RUN}.txt` });
    check('restored under a new name', restored.name === `restored-${RUN}.txt` && restored.item_status === 'active');
    await client.files.delete(file.id);
    await client.files.deletePermanently(file.id);
    check('purged', (await status(client.files.getTrashedFile(file.id))) === 404);
  });
}

main().catch((err) => { check('unexpected error', false, err && err.stack); }).finally(() => finish(`box-node-sdk ${pkgVersion('box-node-sdk')} collab`));
