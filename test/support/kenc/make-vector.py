#!/usr/bin/env python3
"""
Makes the KENC test vector of docs/kenc.md without the appliance's code: the keys come from the
`openssl kdf` command (HKDF-SHA256), the frames from the `cryptography` package's AES-GCM. Its
output is test/unit/engine/kenc-vector.json, which the unit test checks the TypeScript codec against.

    python3 test/support/kenc/make-vector.py > test/unit/engine/kenc-vector.json
"""
import json
import struct
import subprocess

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY = "correct horse battery staple"
SALT = "pithead-kenc-v1"
CLIENT_RANDOM = bytes(range(0, 32))
SERVER_RANDOM = bytes(range(32, 64))
MAGIC = b"PKNC"


def hkdf(label: bytes) -> bytes:
    info = label + CLIENT_RANDOM + SERVER_RANDOM
    out = subprocess.run(
        ["openssl", "kdf", "-keylen", "32", "-kdfopt", "digest:SHA256",
         "-kdfopt", "key:" + KEY, "-kdfopt", "salt:" + SALT,
         "-kdfopt", "hexinfo:" + info.hex(), "HKDF"],
        check=True, capture_output=True, text=True,
    ).stdout.strip()
    return bytes.fromhex(out.replace(":", ""))


def frame(version: int, key: bytes, direction: int, counter: int, plain: bytes) -> bytes:
    length = struct.pack(">H", len(plain))
    nonce = struct.pack(">IQ", direction, counter)
    sealed = AESGCM(key).encrypt(nonce, plain, length)  # ciphertext ‖ 16-byte tag
    # version 1 sends the nonce; since version 2 both ends count it
    return length + (nonce if version == 1 else b"") + sealed


c2s = hkdf(b"c2s")
s2c = hkdf(b"s2c")
client_lines = [b'{"id":1,"method":"mining.subscribe","params":[]}\n', b'{"id":2,"method":"mining.authorize","params":["wal.rig","x"]}\n']
server_lines = [b'{"id":1,"result":[[],"00000001",8],"error":null}\n']
print(json.dumps({
    "kenc_key": KEY,
    "hkdf_salt": SALT,
    "key_c2s": c2s.hex(),
    "key_s2c": s2c.hex(),
    "versions": [{
        "version": v,
        "client_hello": (MAGIC + bytes([v]) + CLIENT_RANDOM).hex(),
        "server_hello": (MAGIC + bytes([v]) + SERVER_RANDOM).hex(),
        "client_to_server": [{"plain": p.decode(), "frame": frame(v, c2s, 1, i, p).hex()} for i, p in enumerate(client_lines)],
        "server_to_client": [{"plain": p.decode(), "frame": frame(v, s2c, 2, i, p).hex()} for i, p in enumerate(server_lines)],
    } for v in (2, 1)],
}, indent=1))
