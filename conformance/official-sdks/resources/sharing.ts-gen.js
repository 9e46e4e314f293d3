'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// collaborations (create, the item and pending lists, update, a task
// assigned to the collaborator, delete and the access gone), shared links
// on a file and a folder read through findFileForSharedLink /
// findFolderForSharedLink with the boxapi header (password, removal), a
// file link's effective permission and download_url (fetched without a
// token), a viewer refused the owner's link and told its own permissions,
// and comments (create, reply, list, update, delete).
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const { Readable } = require('stream');
const { genLabel, updateCollaboration, env, check, step, finish, genClient, failure } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const admin = genClient(env('ADMIN_TOKEN'));
  const user = genClient(env('TOKEN'));
  console.log(`${genLabel()} (sharing)`);
  const me = await user.users.getUserMe();
  const dir = await admin.folders.createFolder({ name: `sharing-gen-${RUN}`, parent: { id: '0' } });
  const file = (await admin.uploads.uploadFile({ attributes: { name: 'plan.txt', parent: { id: dir.id } }, file: Readable.from([Buffer.from('plan')]) })).entries[0];

  await step('collaborations', async () => {
    const before = await failure(user.files.getFileById(file.id));
    check('not visible before', before.status === 404);
    const c = await admin.userCollaborations.createCollaboration({ item: { type: 'folder', id: dir.id }, accessibleBy: { type: 'user', id: me.id }, role: 'viewer' });
    check('created, accepted', c.id && c.status === 'accepted' && c.role === 'viewer', JSON.stringify(c.rawData));
    const seen = await user.files.getFileById(file.id);
    check('the collaborator sees the file below the folder', seen.id === file.id);
    const again = await failure(admin.userCollaborations.createCollaboration({ item: { type: 'folder', id: dir.id }, accessibleBy: { type: 'user', id: me.id }, role: 'editor' }));
    check('a second collaboration is user_already_collaborator', again.status === 400 && again.code === 'user_already_collaborator', JSON.stringify(again));
    const root = await failure(admin.userCollaborations.createCollaboration({ item: { type: 'folder', id: '0' }, accessibleBy: { type: 'user', id: me.id }, role: 'editor' }));
    check('the root is refused', root.status === 400 && root.code === 'collaborations_not_available_on_root_folder');
    const list = await admin.listCollaborations.getFolderCollaborations(dir.id);
    check('the folder lists it', list.entries.some((x) => x.id === c.id));
    const pending = await user.listCollaborations.getCollaborations({ status: 'pending' });
    check('no pending invitation for the user', pending.entries.length === 0);
    const up = await updateCollaboration(admin, c.id, { role: 'editor' });
    check('the role changes', up && up.role === 'editor');
    const task = await admin.tasks.createTask({ item: { type: 'file', id: file.id }, action: 'review', message: 'check' });
    const assignment = await admin.taskAssignments.createTaskAssignment({ task: { type: 'task', id: task.id }, assignTo: { id: me.id } });
    check('a task can be assigned to the collaborator', !!assignment.id);
    await admin.userCollaborations.deleteCollaborationById(c.id);
    const after = await failure(user.files.getFileById(file.id));
    check('removed: the access is gone', after.status === 404);
  });

  await step('shared links', async () => {
    const shared = await admin.sharedLinksFiles.addShareLinkToFile(file.id, { sharedLink: { access: 'open', password: 'Secret-123' } }, { fields: 'shared_link' });
    const url = shared.sharedLink.url;
    check('a file link', !!url && shared.sharedLink.isPasswordEnabled === true);
    const noPw = await failure(user.sharedLinksFiles.findFileForSharedLink({}, { boxapi: `shared_link=${url}` }));
    check('the password is needed', noPw.status === 403 && noPw.code === 'incorrect_shared_item_password', JSON.stringify(noPw));
    const got = await user.sharedLinksFiles.findFileForSharedLink({}, { boxapi: `shared_link=${url}&shared_link_password=Secret-123` });
    check('read through the link', got.id === file.id);
    const folderLink = await admin.sharedLinksFolders.addShareLinkToFolder(dir.id, { sharedLink: { access: 'open' } }, { fields: 'shared_link' });
    const folder = await user.sharedLinksFolders.findFolderForSharedLink({}, { boxapi: `shared_link=${folderLink.sharedLink.url}` });
    check('a folder through its link', folder.id === dir.id);
    await admin.sharedLinksFiles.removeSharedLinkFromFile(file.id, { sharedLink: null }, { fields: 'shared_link' });
    const gone = await failure(user.sharedLinksFiles.findFileForSharedLink({}, { boxapi: `shared_link=${url}&shared_link_password=Secret-123` }));
    check('a removed link is not found', gone.status === 404);
  });

  await step('shared link: effective permission, download_url, a viewer', async () => {
    const report = (await admin.uploads.uploadFile({ attributes: { name: 'report.txt', parent: { id: dir.id } }, file: Readable.from([Buffer.from('report body')]) })).entries[0];
    const open = await admin.sharedLinksFiles.addShareLinkToFile(report.id, { sharedLink: { access: 'open' } }, { fields: 'shared_link' });
    const link = open.sharedLink;
    check('an open link: can_download and a download_url', link.effectivePermission === 'can_download' && !!link.downloadUrl, JSON.stringify(open.rawData));
    const res = await fetch(link.downloadUrl);
    check('the download_url downloads without a token', res.status === 200 && (await res.text()) === 'report body', String(res.status));
    const viewOnly = await admin.sharedLinksFiles.updateSharedLinkOnFile(report.id, { sharedLink: { access: 'open', permissions: { canDownload: false } } }, { fields: 'shared_link' });
    check('a view-only link: can_preview, no download_url', viewOnly.sharedLink.effectivePermission === 'can_preview' && viewOnly.sharedLink.downloadUrl == null, JSON.stringify(viewOnly.rawData));
    const c = await admin.userCollaborations.createCollaboration({ item: { type: 'folder', id: dir.id }, accessibleBy: { type: 'user', id: me.id }, role: 'viewer' });
    const denied = await failure(user.sharedLinksFiles.updateSharedLinkOnFile(report.id, { sharedLink: { access: 'open', permissions: { canDownload: true } } }, { fields: 'shared_link' }));
    check("a viewer does not change the owner's link", denied.status === 403 && denied.code === 'access_denied_insufficient_permissions', JSON.stringify(denied));
    const mine = await user.files.getFileById(report.id, { queryParams: { fields: ['permissions'] } });
    check("permissions are the viewer's", mine.permissions.canDownload === true && mine.permissions.canDelete === false && mine.permissions.canSetShareAccess === false, JSON.stringify(mine.rawData));
    await admin.userCollaborations.deleteCollaborationById(c.id);
  });

  await step('comments', async () => {
    const c = await admin.comments.createComment({ message: `looks good ${RUN}`, item: { type: 'file', id: file.id } });
    check('a comment', c.id && c.message === `looks good ${RUN}`);
    const reply = await admin.comments.createComment({ message: 'thanks', item: { type: 'comment', id: c.id } });
    check('a reply', reply.isReplyComment === true);
    const list = await admin.comments.getFileComments(file.id);
    check('the file lists both', list.totalCount === 2, JSON.stringify(list.rawData).slice(0, 200));
    const up = await admin.comments.updateCommentById(c.id, { requestBody: { message: 'looks great' } });
    check('edited', up.message === 'looks great');
    const dup = await failure(admin.comments.createComment({ message: 'thanks', item: { type: 'comment', id: c.id } }));
    check('the same comment at once is recent_similar_comment', dup.status === 409 && dup.code === 'recent_similar_comment');
    await admin.comments.deleteCommentById(reply.id);
    const gone = await failure(admin.comments.getCommentById(reply.id));
    check('deleted', gone.status === 404);
  });

  finish(`${genLabel()} sharing`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
