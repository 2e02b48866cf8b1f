#!/usr/bin/python3
"""Validates JSON files against one of docs/schemas/*.json.

Usage: json_schema_check.py SCHEMA_DIR SCHEMA_NAME FILE...
Checks the schema itself against its draft's metaschema, then each file;
prints each violation with its place in the file and exits 1 on any.
References between schemas (common.json#/$defs/...) resolve to files in
SCHEMA_DIR. Uses Debian's python3-jsonschema.
"""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator, RefResolver


def main() -> int:
    schema_dir = pathlib.Path(sys.argv[1]).resolve()
    schema_path = schema_dir / sys.argv[2]
    schema = json.loads(schema_path.read_text())
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema, resolver=RefResolver(schema_path.as_uri(), schema))
    failed = False
    for name in sys.argv[3:]:
        with open(name, encoding="utf-8") as file:
            document = json.load(file)
        for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path)):
            place = "/".join(str(part) for part in error.absolute_path) or "(top)"
            print(f"{name}: {sys.argv[2]}: at {place}: {error.message}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
