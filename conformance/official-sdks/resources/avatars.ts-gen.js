'use strict';
// box-typescript-sdk-gen, unchanged, against the strict reference server:
// the managed user's avatar: upload (a PNG), read, delete.
// Env: BASE_URL, UPLOAD_URL, TOKEN, USER_ID.
const { Readable } = require('stream');
const { genLabel, env, check, step, finish, genClient, failure, readAll } = require('../lib/common');

// A 1×1 grey PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==', 'base64');

async function main() {
  const user = genClient(env('TOKEN'));
  const uid = env('USER_ID');
  console.log(`${genLabel()} (avatars)`);
  await step('upload, read, delete', async () => {
    const av = await user.avatars.createUserAvatar(uid, { pic: Readable.from([PNG]), picFileName: 'avatar.png', picContentType: 'image/png' });
    check('pic urls', !!av.picUrls && !!av.picUrls.large, JSON.stringify(av));
    const body = await readAll(await user.avatars.getUserAvatar(uid));
    check('read back', body.equals(PNG), `${body.length} bytes`);
    await user.avatars.deleteUserAvatar(uid);
    const gone = await failure(user.avatars.getUserAvatar(uid));
    check('deleted: 404', gone.status === 404, JSON.stringify(gone));
  });
  finish(`${genLabel()} avatars`);
}

main().catch((err) => { console.error(err); process.exit(1); });
