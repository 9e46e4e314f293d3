"""Box's official Python SDK (boxsdk 10.x, module box_sdk_gen), unchanged,
against the reference server: upload, new version, download, a 25 MB chunked
upload, then JWT and client-credentials sign-in with an upload and download
each.

Env: BASE_URL (.../2.0), UPLOAD_URL (.../api/2.0), TOKEN (managed user),
ENTERPRISE_ID, APP_CONFIG (config.json written by `refserver -app-config`).
Exits non-zero when any check fails.
"""

import hashlib
import io
import json
import os
import sys
import time
import traceback
from box_sdk_gen import (
    BaseUrls,
    BoxCCGAuth,
    BoxClient,
    BoxDeveloperTokenAuth,
    BoxJWTAuth,
    CCGConfig,
    JWTConfig,
    UploadFileAttributes,
    UploadFileAttributesParentField,
    UploadFileVersionAttributes,
)
from box_sdk_gen.networking.version import __version__ as sdk_version

CHUNKED_SIZE = 25_000_000
RUN = f"{os.getpid()}-{int(time.time() * 1000)}"
results = {"passed": 0, "failed": 0}


def env(name):
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"missing environment variable {name}")
    return value


def root(url):
    """The SDK appends /2.0 to base_url and upload_url: strip it from ours."""
    if not url.endswith("/2.0"):
        raise SystemExit(f"{url} does not end in /2.0")
    return url[: -len("/2.0")]


def data_bytes(n, seed):
    """n deterministic bytes (SHA-256 counter mode, as lib/common.js)."""
    out = bytearray()
    i = 0
    while len(out) < n:
        out += hashlib.sha256(f"{seed}:{i}".encode()).digest()
        i += 1
    return bytes(out[:n])


def sha1hex(b):
    return hashlib.sha1(b).hexdigest()


def check(name, cond, detail=""):
    if cond:
        results["passed"] += 1
        print(f"  ok   {name}")
    else:
        results["failed"] += 1
        print(f"  FAIL {name}{': ' + str(detail) if detail else ''}")


def step(name, fn):
    """Runs one scenario step; an exception is a failure, later steps run."""
    try:
        return fn()
    except Exception as err:  # noqa: BLE001 - report every SDK error as a failure
        results["failed"] += 1
        print(f"  FAIL {name}: {err!r}")
        traceback.print_exc(limit=3, file=sys.stdout)
        return None


def client_with(auth):
    return BoxClient(auth=auth).with_custom_base_urls(
        BaseUrls(
            base_url=root(env("BASE_URL")),
            upload_url=root(env("UPLOAD_URL")),
            oauth_2_url=root(env("BASE_URL")) + "/oauth2",
        )
    )


def upload(client, name, data):
    files = client.uploads.upload_file(
        UploadFileAttributes(name=name, parent=UploadFileAttributesParentField(id="0")),
        io.BytesIO(data),
    )
    return files.entries[0]


def download(client, file_id):
    stream = client.downloads.download_file(file_id)
    return stream.read() if stream is not None else b""


def content_steps(client):
    v1 = data_bytes(100_000, "py-v1")
    v2 = data_bytes(123_457, "py-v2")
    file = step("upload file", lambda: upload(client, f"python-sdk-{RUN}.bin", v1))
    if file is None:
        return
    check("upload returns a file id", bool(file.id), file.id)
    check("upload sha1 matches", file.sha_1 == sha1hex(v1), file.sha_1)
    check("upload size matches", file.size == len(v1), file.size)

    def new_version():
        files = client.uploads.upload_file_version(
            file.id, UploadFileVersionAttributes(name=f"python-sdk-{RUN}.bin"), io.BytesIO(v2)
        )
        f2 = files.entries[0]
        check("new version keeps the file id", f2.id == file.id, f2.id)
        check("new version sha1 matches", f2.sha_1 == sha1hex(v2), f2.sha_1)
        check("new version changes the etag", f2.etag != file.etag, f"{file.etag} -> {f2.etag}")

    step("upload new version", new_version)

    def download_current():
        got = download(client, file.id)
        check("download returns the current version", sha1hex(got) == sha1hex(v2), f"{len(got)} bytes")

    step("download current version", download_current)

    def chunked():
        data = data_bytes(CHUNKED_SIZE, "py-chunked")
        f = client.chunked_uploads.upload_big_file(
            io.BytesIO(data), f"python-chunked-{RUN}.bin", CHUNKED_SIZE, "0"
        )
        check("chunked upload sha1 matches", f.sha_1 == sha1hex(data), f.sha_1)
        check("chunked upload size matches", f.size == CHUNKED_SIZE, f.size)

    step("chunked upload 25 MB", chunked)


def round_trip(name, client):
    data = data_bytes(4_321, f"py-auth-{name}")
    f = upload(client, f"python-auth-{name}-{RUN}.bin", data)
    check(f"{name}: upload returns the file", f.sha_1 == sha1hex(data), f.sha_1)
    got = download(client, f.id)
    check(f"{name}: download returns the bytes", sha1hex(got) == sha1hex(data), f"{len(got)} bytes")


def main():
    print(f"boxsdk {sdk_version} (box_sdk_gen)")
    content_steps(client_with(BoxDeveloperTokenAuth(token=env("TOKEN"))))

    config_path = env("APP_CONFIG")
    step("JWT (enterprise service account)",
         lambda: round_trip("jwt", client_with(BoxJWTAuth(config=JWTConfig.from_config_file(config_path)))))

    def ccg():
        with open(config_path, encoding="utf-8") as fh:
            settings = json.load(fh)["boxAppSettings"]
        auth = BoxCCGAuth(config=CCGConfig(
            client_id=settings["clientID"], client_secret=settings["clientSecret"],
            enterprise_id=env("ENTERPRISE_ID")))
        round_trip("ccg", client_with(auth))

    step("client credentials (enterprise service account)", ccg)
    print(f"boxsdk: {results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
