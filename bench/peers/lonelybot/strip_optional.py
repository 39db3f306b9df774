"""Remove the optional dependencies from Cargo manifests (bench/peers/lonelybot/build.sh).

Cargo resolves every dependency of a manifest, optional ones too, even offline; the
snapshots' optional dependencies (serde, rayon, ...) are not to be had here and are not
used by lonelybot, so they go, with the features that name them.

    python strip_optional.py PATH/Cargo.toml ...
"""

from __future__ import annotations

import json
import re
import sys
import tomllib

_HEADER = re.compile(r"^\s*\[([^\]]+)\]\s*$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def _depth(line: str) -> int:
    return line.count("{") - line.count("}") + line.count("[") - line.count("]")


def strip(text: str) -> tuple[str, list[str]]:
    """The manifest without its optional dependencies (and with its features rewritten
    without them; dev-dependency and target sections dropped), and the names removed."""
    data = tomllib.loads(text)
    deps = data.get("dependencies", {})
    optional = sorted(n for n, v in deps.items() if isinstance(v, dict) and v.get("optional"))
    out: list[str] = []
    lines = text.split("\n")
    section = ""
    dropping = False
    i = 0
    while i < len(lines):
        line = lines[i]
        header = _HEADER.match(line)
        if header:
            section = header.group(1).strip()
            dropping = section == "features" or section.startswith(("dev-dependencies", "target."))
        if dropping:
            i += 1
            continue
        key = _KEY.match(line)
        if section == "dependencies" and key and key.group(1) in optional:
            depth = _depth(line)
            i += 1
            while depth > 0 and i < len(lines):
                depth += _depth(lines[i])
                i += 1
            continue
        out.append(line)
        i += 1

    def kept(item: str) -> bool:
        name = item.split("/")[0].rstrip("?").removeprefix("dep:")
        return name not in optional

    features = data.get("features", {})
    out += ["", "[features]"]
    for name, items in features.items():
        quoted = ", ".join(json.dumps(x) for x in items if kept(x))
        out.append(f"{name} = [{quoted}]")
    out += [f"{name} = []" for name in optional if name not in features]
    return "\n".join(out) + "\n", optional


def main(paths: list[str]) -> int:
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text, removed = strip(f.read())
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(path, "without", ", ".join(removed) or "nothing")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
