'use strict';
// box-typescript-sdk-gen signs in to the reference server with JWT (its
// assertion has no 'kid' header and the service's fixed audience) and with
// client credentials, from the app config written by `refserver
// -app-config`, then uploads and downloads with each token.
// Env: BASE_URL, UPLOAD_URL, ENTERPRISE_ID, APP_CONFIG (path of config.json).
const fs = require('fs');
const { Readable } = require('stream');
const { genSDK, genLabel, env, sha1hex, bytes, readAll, describe, check, step, finish, customBaseUrls } = require('../lib/common');
const { BoxClient, BoxJwtAuth, JwtConfig, BoxCcgAuth, CcgConfig } = genSDK();

const RUN = `${process.pid}-${Date.now()}`;


function clientWith(auth) {
  return new BoxClient({ auth }).withCustomBaseUrls(customBaseUrls());
}

// roundTrip uploads a small file into the signed-in account's root and
// downloads it back.
async function roundTrip(name, client) {
  const data = bytes(4_321, `gen-auth-${name}`);
  const res = await client.uploads.uploadFile({
    attributes: { name: `generated-auth-${name}-${RUN}.bin`, parent: { id: '0' } },
    file: Readable.from([data]),
  });
  const file = res && res.entries && res.entries[0];
  check(`${name}: upload returns the file`, file && file.sha1 === sha1hex(data), JSON.stringify(res).slice(0, 300));
  if (!file) return;
  const got = await readAll(await client.downloads.downloadFile(file.id));
  check(`${name}: download returns the bytes`, sha1hex(got) === sha1hex(data), describe(got));
}

async function main() {
  console.log(`${genLabel()} (auth)`);
  const text = fs.readFileSync(env('APP_CONFIG'), 'utf8');
  const cfg = JSON.parse(text);

  await step('JWT (enterprise service account)', async () => {
    const auth = new BoxJwtAuth({ config: JwtConfig.fromConfigJsonString(text) });
    await roundTrip('jwt', clientWith(auth));
  });

  await step('client credentials (enterprise service account)', async () => {
    const auth = new BoxCcgAuth({
      config: new CcgConfig({
        clientId: cfg.boxAppSettings.clientID,
        clientSecret: cfg.boxAppSettings.clientSecret,
        enterpriseId: env('ENTERPRISE_ID'),
      }),
    });
    await roundTrip('ccg', clientWith(auth));
  });
}

main().catch((err) => { check('unexpected error', false, err && err.stack); }).finally(() => finish(`${genLabel()} auth`));
