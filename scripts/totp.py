#!/usr/bin/env python3
"""Print the current TOTP code for a base32 secret (for the demo staff logins): totp.py SECRET"""

import base64
import hashlib
import hmac
import struct
import sys
import time


def totp(secret: str, at: float | None = None) -> str:
    counter = int((time.time() if at is None else at) // 30)
    digest = hmac.new(
        base64.b32decode(secret, casefold=True), struct.pack(">Q", counter), hashlib.sha1
    ).digest()
    offset = digest[-1] & 0x0F
    return f"{(struct.unpack('>I', digest[offset : offset + 4])[0] & 0x7FFFFFFF) % 1_000_000:06d}"


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: totp.py BASE32_SECRET")
    print(totp(sys.argv[1]))
