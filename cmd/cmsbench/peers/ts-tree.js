'use strict';
// Box's official TypeScript SDK (box-typescript-sdk-gen, installed by
// conformance/official-sdks), unchanged, uploading a local tree the way a
// user of that SDK would write it (it has no tree upload): folders first,
// then the files with 4 uploads in flight, uploads.uploadFile below
// 20,000,000 bytes and chunkedUploads.uploadBigFile above. Prints one JSON
// line {impl:"ts-sdk", name:"tree_upload", files, bytes, seconds}.
//
// Env: SERVER (the JSON line of cmd/refserver), SRC (the tree), FOLDER
// (the folder id to upload into).
const fs = require('fs');
const path = require('path');

const sdkDir = path.join(__dirname, '..', '..', '..', 'conformance', 'official-sdks', 'node_modules');
const { BoxClient, BoxDeveloperTokenAuth } = require(path.join(sdkDir, 'box-typescript-sdk-gen'));

const server = JSON.parse(fs.readFileSync(process.env.SERVER, 'utf8'));
const root = (url) => url.replace(/\/2\.0$/, '');
const client = new BoxClient({ auth: new BoxDeveloperTokenAuth({ token: server.tokens.user }) }).withCustomBaseUrls({
  baseUrl: root(server.base_url),
  uploadUrl: root(server.upload_url),
  oauth2Url: root(server.base_url) + '/oauth2',
});
const SRC = process.env.SRC;
const CHUNKED = 20000000;

function walk(dir, rel, dirs, files) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      dirs.push(r);
      walk(path.join(dir, e.name), r, dirs, files);
    } else if (e.isFile()) {
      files.push(r);
    }
  }
}

async function main() {
  const dirs = [];
  const files = [];
  walk(SRC, '', dirs, files);
  const t0 = process.hrtime.bigint();
  const ids = { '': process.env.FOLDER };
  for (const d of dirs) {
    const parent = d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '';
    const f = await client.folders.createFolder({ name: path.basename(d), parent: { id: ids[parent] } });
    ids[d] = f.id;
  }
  let bytes = 0;
  let next = 0;
  async function worker() {
    while (next < files.length) {
      const r = files[next++];
      const parent = r.includes('/') ? r.slice(0, r.lastIndexOf('/')) : '';
      const p = path.join(SRC, r);
      const size = fs.statSync(p).size;
      if (size >= CHUNKED) {
        await client.chunkedUploads.uploadBigFile(fs.createReadStream(p), path.basename(r), size, ids[parent]);
      } else {
        await client.uploads.uploadFile({ attributes: { name: path.basename(r), parent: { id: ids[parent] } }, file: fs.createReadStream(p) });
      }
      bytes += size;
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()]);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({ impl: 'ts-sdk', name: 'tree_upload', files: files.length, bytes, seconds }) + '\n');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
