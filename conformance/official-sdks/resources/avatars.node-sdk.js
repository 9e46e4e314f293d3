'use strict';
// box-node-sdk (classic), unchanged, against the lenient reference server:
// the managed user's avatar from a file stream (the SDK sends its name):
// set, read, delete.
// Env: BASE_URL, UPLOAD_URL, TOKEN, USER_ID.
const fs = require('fs');
const os = require('os');
const path = require('path');
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, check, step, finish, classicSDK, failure, readAll } = require('../lib/common');

// A 1×1 grey PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==', 'base64');

async function main() {
  const user = classicSDK(BoxSDK).getBasicClient(env('TOKEN'));
  const uid = env('USER_ID');
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (avatars)`);
  await step('set, read, delete', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'avatar-')), 'me.png');
    fs.writeFileSync(file, PNG);
    const av = await user.users.setAvatar(uid, fs.createReadStream(file));
    check('pic urls', !!av.pic_urls && !!av.pic_urls.large, JSON.stringify(av));
    const body = await readAll(await user.users.getAvatar(uid));
    check('read back', body.equals(PNG), `${body.length} bytes`);
    await user.users.deleteAvatar(uid);
    const gone = await failure(user.users.deleteAvatar(uid));
    check('deleted: 404', gone.status === 404, JSON.stringify(gone));
  });
  finish(`box-node-sdk ${pkgVersion('box-node-sdk')} avatars`);
}

main().catch((err) => { console.error(err); process.exit(1); });
