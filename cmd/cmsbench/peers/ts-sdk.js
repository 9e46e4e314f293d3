'use strict';
// Box's official TypeScript SDK (box-typescript-sdk-gen, installed by
// conformance/official-sdks), unchanged, measured on the same reference
// server as cmd/cmsbench, printing the same JSON lines with impl "ts-sdk":
// chunkedUploads.uploadBigFile from a file stream and from a plain
// (non-seekable) stream, downloads.downloadFile, folders.getFolderItems with
// marker pages, and (MEASURES=memory, in a process of its own) the peak RSS
// of an upload from a generated stream.
//
// Env: SERVER (the JSON line of cmd/refserver), SOURCE (file of SIZE bytes
// that cmsbench wrote), SIZE, ITEMS, PAGE, PASSES (over the folder, as
// cmsbench -list-passes), MEMORY_SIZE,
// MEASURES (comma-separated: upload_file,upload_reader,download,list,memory).
const fs = require('fs');
const path = require('path');
const { Readable, PassThrough } = require('stream');

const sdkDir = path.join(__dirname, '..', '..', '..', 'conformance', 'official-sdks', 'node_modules');
const { BoxClient, BoxDeveloperTokenAuth } = require(path.join(sdkDir, 'box-typescript-sdk-gen'));

const server = JSON.parse(fs.readFileSync(process.env.SERVER, 'utf8'));
const SIZE = Number(process.env.SIZE || 256 * 1024 * 1024);
const ITEMS = Number(process.env.ITEMS || 20000);
const PAGE = Number(process.env.PAGE || 1000);
const PASSES = Number(process.env.PASSES || 3);
const MEMORY_SIZE = Number(process.env.MEMORY_SIZE || 1024 * 1024 * 1024);
const MEASURES = (process.env.MEASURES || 'upload_file,upload_reader,download,list').split(',');

// The SDK appends "/2.0" to baseUrl and uploadUrl.
const root = (url) => url.replace(/\/2\.0$/, '');
const client = new BoxClient({ auth: new BoxDeveloperTokenAuth({ token: server.tokens.user }) }).withCustomBaseUrls({
  baseUrl: root(server.base_url),
  uploadUrl: root(server.upload_url),
  oauth2Url: root(server.base_url) + '/oauth2',
});

const emit = (r) => process.stdout.write(JSON.stringify({ impl: 'ts-sdk', ...r }) + '\n');
const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;

async function findInRoot(type, name) {
  let marker;
  for (;;) {
    const page = await client.folders.getFolderItems('0', { queryParams: { usemarker: true, limit: 1000, marker } });
    const hit = page.entries.find((e) => e.type === type && e.name === name);
    if (hit) return hit.id;
    if (!page.nextMarker) return undefined;
    marker = page.nextMarker;
  }
}

async function upload(name, stream, size) {
  const t0 = process.hrtime.bigint();
  const file = await client.chunkedUploads.uploadBigFile(stream, `bench-ts-${name}-${Date.now()}.bin`, size, '0');
  const s = seconds(t0);
  if (file.size !== size) throw new Error(`uploaded ${file.size} bytes, want ${size}`);
  await client.files.deleteFileById(file.id);
  await client.trashedFiles.deleteTrashedFileById(file.id);
  return s;
}

// generated yields size bytes in 1 MiB chunks without holding them.
function generated(size) {
  return Readable.from((function* () {
    const chunk = Buffer.alloc(1 << 20);
    for (let pos = 0; pos < size; pos += chunk.length) {
      const n = Math.min(chunk.length, size - pos);
      for (let i = 0; i < n; i++) chunk[i] = ((pos + i) >> 7) & 0xff;
      yield Buffer.from(chunk.subarray(0, n));
    }
  })());
}

const measures = {
  async upload_file() {
    const s = await upload('file', fs.createReadStream(process.env.SOURCE), SIZE);
    emit({ name: 'upload_file', size_bytes: SIZE, seconds: s, mb_per_s: SIZE / 1e6 / s });
  },
  async upload_reader() {
    const plain = fs.createReadStream(process.env.SOURCE).pipe(new PassThrough());
    const s = await upload('reader', plain, SIZE);
    emit({ name: 'upload_reader', size_bytes: SIZE, seconds: s, mb_per_s: SIZE / 1e6 / s });
  },
  async download() {
    const id = await findInRoot('file', `bench-download-${SIZE}.bin`);
    if (!id) throw new Error('run cmsbench -suite download first: no download file');
    const t0 = process.hrtime.bigint();
    const stream = await client.downloads.downloadFile(id);
    let n = 0;
    for await (const chunk of stream) n += chunk.length;
    const s = seconds(t0);
    if (n !== SIZE) throw new Error(`downloaded ${n} bytes, want ${SIZE}`);
    emit({ name: 'download', size_bytes: n, seconds: s, mb_per_s: n / 1e6 / s });
  },
  async list() {
    const id = await findInRoot('folder', `bench-list-${ITEMS}`);
    if (!id) throw new Error('run cmsbench -suite list first: no list folder');
    const t0 = process.hrtime.bigint();
    for (let pass = 0; pass < PASSES; pass++) {
      let n = 0;
      let marker;
      for (;;) {
        const page = await client.folders.getFolderItems(id, { queryParams: { usemarker: true, limit: PAGE, marker } });
        n += page.entries.length;
        if (!page.nextMarker) break;
        marker = page.nextMarker;
      }
      if (n !== ITEMS) throw new Error(`listed ${n} items, want ${ITEMS}`);
    }
    const s = seconds(t0);
    emit({ name: 'list', items: ITEMS, page_size: PAGE, seconds: s, items_per_s: (ITEMS * PASSES) / s });
  },
  async memory() {
    const s = await upload('memory', generated(MEMORY_SIZE), MEMORY_SIZE);
    emit({ name: 'upload_reader_memory', size_bytes: MEMORY_SIZE, seconds: s, mb_per_s: MEMORY_SIZE / 1e6 / s,
      peak_rss_bytes: process.resourceUsage().maxRSS * 1024 });
  },
};

(async () => {
  for (const m of MEASURES) {
    if (!measures[m]) throw new Error(`unknown measure ${m}`);
    await measures[m]();
  }
})().catch((err) => {
  console.error('ts-sdk peer:', err && err.stack ? err.stack : err);
  process.exit(1);
});
