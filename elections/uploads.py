"""Uploads (claim documents, signed consent forms, evidence of a death): PDF, JPEG or PNG,
recognised by their first bytes (never by name), size-limited, kept in the private storage
(benefits/private_files.py, never the web root) under a random name."""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from pathlib import Path

from benefits import private_files

MAX_UPLOAD_BYTES = 10 * 1024 * 1024
MAX_FILES = 10
SIGNATURES = (
    (b"%PDF-", "application/pdf", "pdf"),
    (b"\xff\xd8\xff", "image/jpeg", "jpg"),
    (b"\x89PNG\r\n\x1a\n", "image/png", "png"),
)


class UploadRefused(ValueError):
    pass


@dataclass(frozen=True)
class CheckedUpload:
    original_name: str
    content: bytes
    content_type: str
    extension: str
    sha256: str


def sniff(head: bytes) -> tuple[str, str] | None:
    for magic, content_type, ext in SIGNATURES:
        if head.startswith(magic):
            return content_type, ext
    return None


def check_upload(uploaded) -> CheckedUpload:
    """Read and check one uploaded file; the message names the file and the rule it broke."""
    name = Path(uploaded.name or "upload").name[:200]
    if uploaded.size > MAX_UPLOAD_BYTES:
        raise UploadRefused(f"{name}: a file may be at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
    content = uploaded.read(MAX_UPLOAD_BYTES + 1)
    if len(content) > MAX_UPLOAD_BYTES:
        raise UploadRefused(f"{name}: a file may be at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB.")
    if not content:
        raise UploadRefused(f"{name}: the file is empty.")
    kind = sniff(content[:16])
    if kind is None:
        raise UploadRefused(
            f"{name}: only PDF, JPEG or PNG files are accepted (checked by the file's content)."
        )
    return CheckedUpload(name, content, kind[0], kind[1], hashlib.sha256(content).hexdigest())


def check_uploads(files) -> list[CheckedUpload]:
    files = list(files)
    if len(files) > MAX_FILES:
        raise UploadRefused(f"Documents: at most {MAX_FILES} files at a time.")
    return [check_upload(f) for f in files]


def store(claim_id: int, upload: CheckedUpload) -> str:
    """Write the file; returns its name in the private storage. Removed again if the
    transaction (``atomic_with_files``) that records it does not commit."""
    from benefits.stored_files import write_file

    return write_file(f"claims/{claim_id}/{uuid.uuid4().hex}.{upload.extension}", upload.content)


def open_stored(file_name: str):
    """The stored upload, opened for a streamed download; a name that would leave the private area is
    refused."""
    try:
        return private_files.open_for_download(private_files.safe_name(file_name))
    except ValueError as exc:
        raise UploadRefused("Invalid stored path.") from exc
