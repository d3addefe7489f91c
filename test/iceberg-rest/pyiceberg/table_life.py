"""A table's life through pyiceberg's REST catalog with SigV4, configured as the AWS guide says
for S3 Tables, the endpoint being Overcast: create a namespace and a table, append with pyarrow,
evolve the schema, append again, read back, time-travel, rename, purge. Prints one JSON line of
findings for the calling test to assert on. Arguments: endpoint, table bucket ARN."""
import json
import sys

import pyarrow as pa
from pyiceberg.catalog import load_catalog
from pyiceberg.exceptions import CommitFailedException, NoSuchTableError
from pyiceberg.types import DoubleType

endpoint, warehouse = sys.argv[1], sys.argv[2]
region = "us-east-1"
catalog = load_catalog(
    "s3tables",
    **{
        "type": "rest",
        "uri": f"{endpoint}/iceberg",
        "warehouse": warehouse,
        "rest.sigv4-enabled": "true",
        "rest.signing-name": "s3tables",
        "rest.signing-region": region,
        "client.access-key-id": "test",
        "client.secret-access-key": "test",
        "client.region": region,
    },
)
out = {}
catalog.create_namespace("sales")
out["namespaces"] = [list(n) for n in catalog.list_namespaces()]
schema = pa.schema([pa.field("id", pa.int64(), nullable=False), pa.field("name", pa.string())])
table = catalog.create_table("sales.orders", schema=schema)
out["location"] = table.location()
table.append(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "name": ["a", "b", "c"]}, schema=schema))
first = table.current_snapshot().snapshot_id
with table.update_schema() as update:
    update.add_column("score", DoubleType())
table = catalog.load_table("sales.orders")
table.append(pa.table({"id": pa.array([4], pa.int64()), "name": ["d"], "score": [9.5]}, schema=table.schema().as_arrow()))
rows = table.scan().to_arrow().sort_by("id").to_pylist()
out["rows"] = rows
out["first_snapshot_rows"] = sorted(r["id"] for r in table.scan(snapshot_id=first).to_arrow().to_pylist())
out["snapshots"] = len(table.snapshots())
out["metadata_location"] = table.metadata_location

# A stale writer: commits against metadata another writer has moved past.
stale = catalog.load_table("sales.orders")
table.append(pa.table({"id": pa.array([5], pa.int64()), "name": ["e"], "score": [1.0]}, schema=table.schema().as_arrow()))
try:
    stale.append(pa.table({"id": pa.array([6], pa.int64()), "name": ["f"], "score": [2.0]}, schema=stale.schema().as_arrow()))
    out["stale_commit"] = "succeeded"
except CommitFailedException as e:
    out["stale_commit"] = "CommitFailedException"
fresh = catalog.load_table("sales.orders")
fresh.append(pa.table({"id": pa.array([6], pa.int64()), "name": ["f"], "score": [2.0]}, schema=fresh.schema().as_arrow()))
out["count_after_retry"] = len(catalog.load_table("sales.orders").scan().to_arrow())

catalog.create_namespace("archive")
catalog.rename_table("sales.orders", "archive.orders_2026")
out["renamed_rows"] = len(catalog.load_table("archive.orders_2026").scan().to_arrow())
out["old_exists"] = catalog.table_exists("sales.orders")
try:
    catalog.drop_table("archive.orders_2026")
    out["plain_drop"] = "dropped"
except Exception as e:  # S3 Tables refuses a drop without purge
    out["plain_drop"] = type(e).__name__
catalog.purge_table("archive.orders_2026")
out["after_purge_exists"] = catalog.table_exists("archive.orders_2026")
print(json.dumps(out, default=str))
