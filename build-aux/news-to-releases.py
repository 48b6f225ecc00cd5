#!/usr/bin/env python3
"""news-to-releases.py NEWS IN OUT: the metainfo file IN with its
<releases> made from NEWS, written to OUT.

NEWS holds one section per release, newest first:

    Strata 0.2.0 (2026-11-26)
    =========================

    - One change, wrapped
      over lines.

Each section becomes a <release version= date=> whose description is the
list of its changes; IN holds "@RELEASES@" where they go.
"""

import re
import sys
from xml.sax.saxutils import escape

HEADING = re.compile(r"^Strata (\S+) \((\d{4}-\d{2}-\d{2})\)$")


def releases(news):
    found = []
    for line in news.splitlines():
        heading = HEADING.match(line)
        if heading:
            found.append((heading.group(1), heading.group(2), []))
        elif found and line.startswith("- "):
            found[-1][2].append(line[2:].strip())
        elif found and line.startswith("  ") and found[-1][2]:
            found[-1][2][-1] += " " + line.strip()
    if not found or any(not items for _, _, items in found):
        sys.exit("NEWS: every release needs a heading and at least one change")
    return found


def to_xml(found):
    out = []
    for version, date, items in found:
        out.append(f'    <release version="{version}" date="{date}">')
        out.append("      <description>")
        out.append("        <ul>")
        out += [f"          <li>{escape(item)}</li>" for item in items]
        out.append("        </ul>")
        out.append("      </description>")
        out.append("    </release>")
    return "\n".join(out)


def main():
    news, template, output = sys.argv[1:4]
    with open(news, encoding="utf-8") as f:
        found = releases(f.read())
    with open(template, encoding="utf-8") as f:
        text = f.read()
    if "@RELEASES@" not in text:
        sys.exit(f"{template}: no @RELEASES@ to fill")
    with open(output, "w", encoding="utf-8") as f:
        f.write(text.replace("@RELEASES@", to_xml(found)))


if __name__ == "__main__":
    main()
