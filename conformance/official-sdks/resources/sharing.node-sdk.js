'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// collaborations.createWithUserID / createWithUserEmail / update / delete,
// folders.getCollaborations, a shared link set with files.update and read
// with sharedItems.get (the SDK percent-encodes the boxapi header; the
// server takes it), a file link's effective_permission and download_url
// (fetched without a token), a viewer refused the owner's link and told its
// own permissions, and comments (create, reply, update, delete,
// files.getComments).
// Env: BASE_URL, UPLOAD_URL, TOKEN (managed user), ADMIN_TOKEN.
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;

async function main() {
  const sdk = classicSDK(BoxSDK);
  const admin = sdk.getBasicClient(env('ADMIN_TOKEN'));
  const user = sdk.getBasicClient(env('TOKEN'));
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (sharing)`);
  const me = await user.users.get('me');
  const dir = await admin.folders.create('0', `sharing-node-${RUN}`);
  const file = (await admin.files.uploadFile(dir.id, 'plan.txt', Buffer.from('plan'))).entries[0];

  await step('collaborations', async () => {
    const c = await admin.collaborations.createWithUserID(me.id, dir.id, 'viewer');
    check('createWithUserID', c.status === 'accepted' && c.role === 'viewer', JSON.stringify(c));
    const seen = await user.files.get(file.id);
    check('the collaborator sees the file', seen.id === file.id);
    const invited = await admin.collaborations.createWithUserEmail(`guest-${RUN}@example.com`, dir.id, 'previewer');
    check('an e-mail invitation is pending', invited.status === 'pending' && invited.invite_email === `guest-${RUN}@example.com`);
    const list = await admin.folders.getCollaborations(dir.id);
    check('folders.getCollaborations', list.entries.length === 2);
    const up = await admin.collaborations.update(c.id, { role: 'editor' });
    check('update', up.role === 'editor');
    await admin.collaborations.delete(c.id);
    const gone = await failure(user.files.get(file.id));
    check('deleted: the access is gone', gone.status === 404);
  });

  await step('shared links', async () => {
    const updated = await admin.files.update(file.id, { shared_link: { access: 'open', password: 'Secret-123' }, fields: 'shared_link' });
    const url = updated.shared_link.url;
    check('a link with a password', !!url && updated.shared_link.is_password_enabled === true);
    const item = await user.sharedItems.get(url, 'Secret-123');
    check('sharedItems.get with the password', item.id === file.id);
    let refused = '';
    try {
      await user.sharedItems.get(url, 'nope-123');
    } catch (err) {
      refused = `${err.statusCode || (err.response && err.response.statusCode)} ${err.message}`;
    }
    check('a wrong password is refused with 403', refused.startsWith('403 ') && refused.includes('Incorrect shared link password'), refused);
  });

  await step('shared link: effective permission, download_url, a viewer', async () => {
    const report = (await admin.files.uploadFile(dir.id, 'report.txt', Buffer.from('report body'))).entries[0];
    const open = await admin.files.update(report.id, { shared_link: { access: 'open' }, fields: 'shared_link' });
    const link = open.shared_link;
    check('an open link: can_download and a download_url', link.effective_permission === 'can_download' && !!link.download_url, JSON.stringify(open));
    const res = await fetch(link.download_url);
    check('the download_url downloads without a token', res.status === 200 && (await res.text()) === 'report body', String(res.status));
    const viewOnly = await admin.files.update(report.id, { shared_link: { access: 'open', permissions: { can_download: false } }, fields: 'shared_link' });
    check('a view-only link: can_preview, no download_url', viewOnly.shared_link.effective_permission === 'can_preview' && viewOnly.shared_link.download_url === null, JSON.stringify(viewOnly));
    const c = await admin.collaborations.createWithUserID(me.id, dir.id, 'viewer');
    const denied = await failure(user.files.update(report.id, { shared_link: { access: 'open', permissions: { can_download: true } } }));
    check("a viewer does not change the owner's link", denied.status === 403, JSON.stringify(denied));
    const mine = await user.files.get(report.id, { fields: 'permissions' });
    check("permissions are the viewer's", mine.permissions.can_download === true && mine.permissions.can_delete === false && mine.permissions.can_set_share_access === false, JSON.stringify(mine));
    await admin.collaborations.delete(c.id);
  });

  await step('comments', async () => {
    const c = await admin.comments.create(file.id, `noted ${RUN}`);
    check('create', c.message === `noted ${RUN}`);
    const reply = await admin.comments.reply(c.id, 'thanks');
    check('reply', reply.is_reply_comment === true);
    const list = await admin.files.getComments(file.id);
    check('files.getComments', list.total_count === 2);
    const up = await admin.comments.update(c.id, { message: 'edited' });
    check('update', up.message === 'edited');
    await admin.comments.delete(reply.id);
    const gone = await failure(admin.comments.get(reply.id));
    check('delete', gone.status === 404);
  });

  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} sharing`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
