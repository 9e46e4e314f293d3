'use strict';
// box-node-sdk (classic) signs in to the reference server with JWT
// (getAppAuthClient) and client credentials (getAnonymousClient), from the
// app config written by `refserver -app-config`, then uploads and downloads
// with each token.
// Env: BASE_URL, UPLOAD_URL, ENTERPRISE_ID, APP_CONFIG (path of config.json).
const fs = require('fs');
const BoxSDK = require('box-node-sdk').default;
const { pkgVersion, env, sha1hex, bytes, readAll, describe, check, step, finish, classicRoots } = require('../lib/common');

const RUN = `${process.pid}-${Date.now()}`;


async function roundTrip(name, client) {
  const data = bytes(4_321, `node-auth-${name}`);
  const res = await client.files.uploadFile('0', `node-auth-${name}-${RUN}.bin`, data);
  const file = res && res.entries && res.entries[0];
  check(`${name}: upload returns the file`, file && file.sha1 === sha1hex(data), JSON.stringify(res).slice(0, 300));
  if (!file) return;
  const got = await readAll(await client.files.getReadStream(file.id));
  check(`${name}: download returns the bytes`, sha1hex(got) === sha1hex(data), describe(got));
}

async function main() {
  console.log(`box-node-sdk ${pkgVersion('box-node-sdk')} (auth)`);
  const cfg = JSON.parse(fs.readFileSync(env('APP_CONFIG'), 'utf8'));
  const sdk = BoxSDK.getPreconfiguredInstance(cfg);
  sdk.configure(classicRoots());

  await step('JWT (enterprise service account)', async () => {
    await roundTrip('jwt', sdk.getAppAuthClient('enterprise', env('ENTERPRISE_ID')));
  });

  await step('client credentials (enterprise service account)', async () => {
    await roundTrip('ccg', sdk.getAnonymousClient());
  });
}

main().catch((err) => { check('unexpected error', false, err && err.stack); }).finally(() => finish(`box-node-sdk ${pkgVersion('box-node-sdk')} auth`));
