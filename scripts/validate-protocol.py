#!/usr/bin/env python3
"""Validates insetd protocol messages against docs/protocol.schema.json.

  validate-protocol.py docs/PROTOCOL.md            every ```json client / daemon block
  validate-protocol.py --daemon FILE.jsonl         each line as a daemon message
  validate-protocol.py --client FILE.jsonl         each line as a client message

Prints one line per failure and "N passed, N failed"; exits 1 on any failure.
"""
import json
import re
import sys
from pathlib import Path

import jsonschema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "docs" / "protocol.schema.json").read_text())


def validator(role):
    schema = dict(SCHEMA)
    schema.pop("anyOf")
    schema["$ref"] = f"#/$defs/{role}Message"
    return jsonschema.Draft202012Validator(schema)


def examples(markdown):
    for match in re.finditer(r"```json (client|daemon)\n(.*?)```", markdown, re.S):
        for line in match.group(2).strip().splitlines():
            yield match.group(1), line


def main(argv):
    if argv[:1] in (["--daemon"], ["--client"]):
        role = argv[0][2:]
        items = [(role, line) for line in Path(argv[1]).read_text().splitlines() if line.strip()]
    else:
        items = list(examples(Path(argv[0]).read_text()))
    validators = {"client": validator("client"), "daemon": validator("daemon")}
    passed = failed = 0
    for role, line in items:
        try:
            message = json.loads(line)
            errors = sorted(validators[role].iter_errors(message), key=lambda e: e.path)
        except json.JSONDecodeError as error:
            errors = [error]
        if errors:
            failed += 1
            print(f"FAIL {role}: {line[:120]}\n     {errors[0].message if hasattr(errors[0], 'message') else errors[0]}")
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
