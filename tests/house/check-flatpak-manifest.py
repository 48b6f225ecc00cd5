#!/usr/bin/python3
"""check-flatpak-manifest.py SRCDIR: the Flatpak manifest agrees with the
desktop file, the metainfo and the build, and keeps the sandbox tight."""
import configparser
import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

src = sys.argv[1]
app_id = "io.github.stratatrace.Strata"
manifest_path = os.path.join(src, "flatpak", app_id + ".json")
failures = []
count = 0


def check(name, condition, detail=""):
    global count
    count += 1
    if condition:
        print(f"ok {count} - {name}")
    else:
        failures.append(name)
        print(f"not ok {count} - {name} {detail}")


with open(manifest_path, encoding="utf-8") as f:
    manifest = json.load(f)

desktop = configparser.ConfigParser(interpolation=None)
desktop.optionxform = str
desktop.read(os.path.join(src, "data", app_id + ".desktop.in"), encoding="utf-8")
entry = desktop["Desktop Entry"]
metainfo = ET.parse(os.path.join(src, "data", app_id + ".metainfo.xml.in")).getroot()

check("manifest id is the app id", manifest.get("id") == app_id, manifest.get("id"))
check("manifest file is named after the id", os.path.basename(manifest_path) == manifest["id"] + ".json")
check("metainfo id matches", metainfo.findtext("id") == manifest["id"], metainfo.findtext("id"))
check("desktop Icon matches", entry.get("Icon") == manifest["id"], entry.get("Icon"))
check("command matches the desktop Exec", entry.get("Exec", "").split()[0] == manifest.get("command"),
      f"{entry.get('Exec')} vs {manifest.get('command')}")
binary = metainfo.find("provides/binary")
check("command matches metainfo <binary>", binary is not None and binary.text == manifest.get("command"))
check("runtime is org.gnome.Platform", manifest.get("runtime") == "org.gnome.Platform")
check("sdk is org.gnome.Sdk", manifest.get("sdk") == "org.gnome.Sdk")
check("runtime-version is 51", manifest.get("runtime-version") == "51", manifest.get("runtime-version"))

finish_args = manifest.get("finish-args", [])
for arg in ["--share=ipc", "--socket=fallback-x11", "--socket=wayland", "--device=dri"]:
    check(f"finish-args has {arg}", arg in finish_args)
check("no filesystem access (files come through portals)",
      not any(a.startswith("--filesystem") for a in finish_args), finish_args)
check("no plain x11 socket", "--socket=x11" not in finish_args)
check("no network", "--share=network" not in finish_args)

modules = manifest.get("modules", [])
app_module = modules[-1] if modules else {}
check("last module builds Strata with meson", app_module.get("buildsystem") == "meson")
sources = app_module.get("sources", [])
check("app module is built from the local tree",
      any(s.get("type") == "dir" and os.path.isfile(
          os.path.join(os.path.dirname(manifest_path), s.get("path", ""), "meson.build")) for s in sources))

try:
    import jsonschema
except ImportError:
    jsonschema = None
if jsonschema is not None:
    with open(os.path.join(src, "flatpak", "manifest.schema.json"), encoding="utf-8") as f:
        validator = jsonschema.Draft7Validator(json.load(f))
    errors = [f"{'/'.join(map(str, e.path)) or '<root>'}: {e.message}" for e in validator.iter_errors(manifest)]
    check("manifest matches the schema", not errors, errors)
    # The schema must catch the mistakes flatpak-builder lets through.
    broken = {
        "a misspelt key": lambda m: m.update(comand=m.pop("command")),
        "an unknown build system": lambda m: m["modules"][-1].update(buildsystem="mesonx"),
        "a number in finish-args": lambda m: m["finish-args"].append(42),
        "an unknown source type": lambda m: m["modules"][-1]["sources"][0].update(type="dirx"),
    }
    for name, breakage in broken.items():
        copy = json.loads(json.dumps(manifest))
        breakage(copy)
        check(f"the schema refuses {name}", any(True for _ in validator.iter_errors(copy)))
else:
    print("# python3-jsonschema is missing: schema not checked")

flatpak_builder = shutil.which("flatpak-builder")
if flatpak_builder:
    env = dict(os.environ, G_DEBUG="fatal-warnings")
    result = subprocess.run([flatpak_builder, "--show-manifest", manifest_path],
                            env=env, capture_output=True, text=True)
    check("flatpak-builder --show-manifest with fatal warnings", result.returncode == 0,
          result.stderr.strip())

print(f"1..{count}")
sys.exit(1 if failures else 0)
