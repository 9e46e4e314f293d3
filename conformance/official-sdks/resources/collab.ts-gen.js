'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// web links (create, read, update, delete, restore, read through a shared
// link with the boxapi header), a review task with two
// assignments resolved by their assignees, watermarks on a file and a
// folder, and a file trashed and restored.
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const { Readable } = require('stream');
const { genLabel, env, bytes, check, step, finish, genClient } = require('../lib/common');

// RUN keeps names unique so the script can run again against one server.
const RUN = `${process.pid}-${Date.now()}`;

// status returns the HTTP status of a failed call (undefined on success).
async function status(promise) {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return err && err.responseInfo && err.responseInfo.statusCode;
  }
}

async function main() {
  const client = genClient(env('TOKEN'));
  const admin = genClient(env('ADMIN_TOKEN'));
  console.log(`${genLabel()} (collab)`);

  const folder = await client.folders.createFolder({ name: `collab-gen-${RUN}`, parent: { id: '0' } });
  const upload = await client.uploads.uploadFile({
    attributes: { name: `collab-gen-${RUN}.txt`, parent: { id: folder.id } },
    file: Readable.from([bytes(1000, 'collab-gen')]),
  });
  const file = upload.entries[0];

  await step('web link create, read, update, delete, restore', async () => {
    const url = `https://example.com/gen/${RUN}`;
    const link = await client.webLinks.createWebLink({ url, parent: { id: folder.id }, description: 'spec' });
    check('create returns the link', link && link.type === 'web_link' && link.url === url, JSON.stringify(link));
    check('name defaults to the url', link.name === url, link.name);
    const got = await client.webLinks.getWebLinkById(link.id);
    check('get returns the link', got.id === link.id && got.description === 'spec');
    const up = await client.webLinks.updateWebLinkById(link.id, {
      requestBody: { name: `Spec ${RUN}`, url: 'http://example.org/', description: 'new', sharedLink: { access: 'open' } },
    });
    check('update renames', up.name === `Spec ${RUN}`, up.name);
    check('update changes the url', up.url === 'http://example.org/', up.url);
    check('update sets a shared link', up.sharedLink && up.sharedLink.access === 'open', JSON.stringify(up.sharedLink));
    const items = await client.folders.getFolderItems(folder.id, { queryParams: { fields: ['name', 'url'] } });
    check('the folder lists the link', items.entries.some((e) => e.type === 'web_link' && e.id === link.id));
    await client.webLinks.deleteWebLinkById(link.id);
    check('a deleted link is not found', (await status(client.webLinks.getWebLinkById(link.id))) === 404);
    const trashed = await client.trashedWebLinks.getTrashedWebLinkById(link.id);
    check('the link is in the trash', trashed.itemStatus === 'trashed', trashed.itemStatus);
    const restored = await client.trashedWebLinks.restoreWeblinkFromTrash(link.id);
    check('restore brings it back', restored.id === link.id && restored.itemStatus === 'active', restored.itemStatus);
    await client.webLinks.deleteWebLinkById(link.id);
    await client.trashedWebLinks.deleteTrashedWebLinkById(link.id);
    check('purged link is gone', (await status(client.trashedWebLinks.getTrashedWebLinkById(link.id))) === 404);
  });

  await step('web link read through its shared link (boxapi header)', async () => {
    const pw = 'Secret-123';
    const link = await admin.webLinks.createWebLink({ url: `https://example.com/shared/${RUN}`, parent: { id: '0' } });
    const shared = await admin.webLinks.updateWebLinkById(link.id, { requestBody: { sharedLink: { access: 'open', password: pw } } });
    const url = shared.sharedLink && shared.sharedLink.url;
    check('the shared link has a password', shared.sharedLink && shared.sharedLink.isPasswordEnabled === true, JSON.stringify(shared.sharedLink));
    check('the user cannot read the admin\'s link', (await status(client.webLinks.getWebLinkById(link.id))) === 404);
    const boxapi = (password) => ({ headers: { boxapi: `shared_link=${url}&shared_link_password=${password}`, extraHeaders: {} } });
    const got = await client.webLinks.getWebLinkById(link.id, boxapi(pw));
    check('the shared link opens it', got.id === link.id && got.url === link.url, JSON.stringify(got));
    const wrong = await status(client.webLinks.getWebLinkById(link.id, boxapi('Wrong-123')));
    check('a wrong password is 403', wrong === 403, wrong);
    await admin.webLinks.deleteWebLinkById(link.id);
  });

  await step('review task with two assignments', async () => {
    const task = await client.tasks.createTask({ item: { id: file.id, type: 'file' }, action: 'review', message: 'Please review', completionRule: 'all_assignees' });
    check('task created without assignees', task.id && task.taskAssignmentCollection.totalCount === 0, JSON.stringify(task.taskAssignmentCollection));
    const mine = await client.taskAssignments.createTaskAssignment({ task: { id: task.id, type: 'task' }, assignTo: { id: task.createdBy.id } });
    const theirs = await client.taskAssignments.createTaskAssignment({ task: { id: task.id, type: 'task' }, assignTo: { login: 'admin@cms.test' } });
    check('assigned by id', mine.assignedTo.id === task.createdBy.id && mine.resolutionState === 'incomplete');
    check('assigned by login', theirs.assignedTo.login === 'admin@cms.test');
    const wrong = await status(client.taskAssignments.updateTaskAssignmentById(mine.id, { requestBody: { resolutionState: 'completed' } }));
    check('a review task refuses completed', wrong === 400, wrong);
    const a1 = await client.taskAssignments.updateTaskAssignmentById(mine.id, { requestBody: { resolutionState: 'approved', message: 'ok' } });
    check('approved', a1.resolutionState === 'approved' && a1.completedAt !== undefined, JSON.stringify(a1));
    let t = await client.tasks.getTaskById(task.id);
    check('not completed with one of two', t.isCompleted === false);
    const a2 = await admin.taskAssignments.updateTaskAssignmentById(theirs.id, { requestBody: { resolutionState: 'rejected' } });
    check('rejected', a2.resolutionState === 'rejected');
    t = await client.tasks.getTaskById(task.id);
    check('completed with both resolved', t.isCompleted === true);
    const list = await client.taskAssignments.getTaskAssignments(task.id);
    check('two assignments listed', list.totalCount === 2 && list.entries.length === 2);
    const tasks = await client.tasks.getFileTasks(file.id);
    check('the file lists its task', tasks.totalCount === 1 && tasks.entries[0].id === task.id);
    const up = await client.tasks.updateTaskById(task.id, { requestBody: { message: 'Thanks' } });
    check('task update', up.message === 'Thanks');
    await client.taskAssignments.deleteTaskAssignmentById(theirs.id);
    await client.tasks.deleteTaskById(task.id);
    check('deleted task is gone', (await status(client.tasks.getTaskById(task.id))) === 404);
  });

  await step('watermarks on a file and a folder', async () => {
    const body = { watermark: { imprint: 'default' } };
    const w1 = await client.fileWatermarks.updateFileWatermark(file.id, body);
    check('file watermark applied', w1.watermark && w1.watermark.createdAt !== undefined, JSON.stringify(w1));
    const w2 = await client.fileWatermarks.getFileWatermark(file.id);
    check('file watermark read', w2.watermark && w2.watermark.modifiedAt !== undefined);
    await client.fileWatermarks.updateFileWatermark(file.id, body);
    await client.fileWatermarks.deleteFileWatermark(file.id);
    check('file watermark removed', (await status(client.fileWatermarks.getFileWatermark(file.id))) === 404);
    await client.folderWatermarks.updateFolderWatermark(folder.id, body);
    const fw = await client.folderWatermarks.getFolderWatermark(folder.id);
    check('folder watermark read', fw.watermark && fw.watermark.createdAt !== undefined);
    await client.folderWatermarks.deleteFolderWatermark(folder.id);
    check('folder watermark removed', (await status(client.folderWatermarks.deleteFolderWatermark(folder.id))) === 404);
  });

  await step('trash and restore a file', async () => {
    await client.files.deleteFileById(file.id);
    check('a trashed file is not found', (await status(client.files.getFileById(file.id))) === 404);
    const trashed = await client.trashedFiles.getTrashedFileById(file.id);
    check('trashed file read', trashed.itemStatus === 'trashed' && trashed.trashedAt !== undefined, trashed.itemStatus);
    const items = await client.trashedItems.getTrashedItems({ limit: 100 });
    check('the trash lists it', items.entries.some((e) => e.id === file.id), JSON.stringify(items).slice(0, 300));
    const restored = await client.trashedFiles.restoreFileFromTrash(file.id);
    check('restored', restored.id === file.id && restored.itemStatus === 'active', restored.itemStatus);
    const got = await client.files.getFileById(file.id);
    check('back in its folder', got.parent && got.parent.id === folder.id);
    await client.folders.deleteFolderById(folder.id, { queryParams: { recursive: true } });
    const tf = await client.trashedFolders.getTrashedFolderById(folder.id);
    check('a trashed folder is read', tf.itemStatus === 'trashed');
    const rf = await client.trashedFolders.restoreFolderFromTrash(folder.id);
    check('the folder comes back', rf.itemStatus === 'active');
    check('with its file', (await client.files.getFileById(file.id)).id === file.id);
  });
}

main().catch((err) => { check('unexpected error', false, err && err.stack); }).finally(() => finish(`${genLabel()} collab`));
