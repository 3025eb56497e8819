"""An S3-compatible object store on loopback for tests: moto's server mode in a thread, one bucket, and
the environment production reads (config.settings.base.private_storage_config)."""

from __future__ import annotations

import logging
import socket
from contextlib import contextmanager
from dataclasses import dataclass

BUCKET = "plan-benefits-private"
CREDENTIALS = {"aws_access_key_id": "test-key", "aws_secret_access_key": "test-secret"}


@dataclass
class ObjectStore:
    endpoint: str
    bucket: str
    client: object  # boto3 S3 client

    @property
    def environ(self) -> dict[str, str]:
        """The variables an operator sets to put the private files in this store."""
        return {
            "PRIVATE_STORAGE_S3_BUCKET": self.bucket,
            "PRIVATE_STORAGE_S3_ENDPOINT_URL": self.endpoint,
            "PRIVATE_STORAGE_S3_REGION": "us-east-1",
            "PRIVATE_STORAGE_S3_ACCESS_KEY_ID": CREDENTIALS["aws_access_key_id"],
            "PRIVATE_STORAGE_S3_SECRET_ACCESS_KEY": CREDENTIALS["aws_secret_access_key"],
        }

    def object_keys(self) -> list[str]:
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket)
        return sorted(obj["Key"] for page in pages for obj in page.get("Contents", []))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def moto_s3(*buckets: str):
    """A moto S3 server on 127.0.0.1 with the named buckets (default: one), stopped on exit."""
    import boto3
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", **CREDENTIALS)
    for bucket in buckets or (BUCKET,):
        client.create_bucket(Bucket=bucket)
    try:
        yield ObjectStore(endpoint, (buckets or (BUCKET,))[0], client)
    finally:
        server.stop()
