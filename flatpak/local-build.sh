#!/bin/sh
# local-build.sh: build, install and run the Strata Flatpak without Flathub.
#
# The real manifest targets org.gnome.Platform, which cannot be fetched here,
# so this script makes a runtime and SDK from Debian 12 packages (cached
# between runs), derives a manifest that only swaps the runtime, builds Strata
# with flatpak-builder into a throwaway user installation, checks what the
# installation exports, and takes a screenshot of the app inside its sandbox.
# Then it writes the single-file bundle a user installs
# (_flatpak/strata.flatpak, the runtime's repository named in it), installs
# that bundle into a fresh user installation as a user would, with
# `flatpak install --user`, and takes a screenshot of that install too.
#
# Needs root (debootstrap), network access to the Debian archive on the first
# run, flatpak, flatpak-builder, jq, xvfb-run, dbus-run-session, ImageMagick.
#
# Environment:
#   STRATA_FLATPAK_CACHE  runtime cache (default ~/.cache/strata-flatpak)
#   STRATA_FLATPAK_OUT    where the screenshots go (default _flatpak/out)
#   STRATA_RUNTIME_REPO   the .flatpakrepo the bundle names for its runtime
#                         (default: the local runtime's, made here)
#   DEBIAN_MIRROR         archive for debootstrap (default deb.debian.org)
set -eu

app_id=io.github.stratatrace.Strata
branch=1
src=$(cd "$(dirname "$0")/.." && pwd)
cache=${STRATA_FLATPAK_CACHE:-$HOME/.cache/strata-flatpak}
work=$src/_flatpak
out=${STRATA_FLATPAK_OUT:-$work/out}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
sample=$src/data/samples/android-app-startup.trace

# Everything flatpak installs goes into the throwaway directory, not ~/.local.
export FLATPAK_USER_DIR=$work/user

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'local-build: %s\n' "$*" >&2; exit 1; }

for tool in debootstrap flatpak flatpak-builder eu-strip jq xvfb-run dbus-run-session convert; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is missing"
done

# dbus-x11: debootstrap cannot pick an alternative for dbus-session-bus.
# appstream-util: flatpak-builder runs appstream-compose inside the SDK.
# librsvg2-common: SVG icons, for appstream-compose and for GTK at run time.
# itstool: the help's translated pages.
sdk_packages=dbus-x11,libgtk-4-1,libjson-glib-1.0-0,fonts-dejavu-core,\
fonts-noto-cjk,adwaita-icon-theme,hicolor-icon-theme,shared-mime-info,\
libgl1-mesa-dri,libglib2.0-bin,libgtk-4-dev,libjson-glib-dev,gcc,libc6-dev,\
meson,ninja-build,pkg-config,gettext,desktop-file-utils,appstream,\
appstream-util,librsvg2-common,binutils,elfutils,locales-all,itstool

# The cache holds the package list it was made with: another list makes it anew.
make_rootfs() {
  root=$cache/sdkroot
  if [ "$(cat "$root/.complete" 2>/dev/null)" = "$sdk_packages" ]; then
    return
  fi
  step "debootstrap a Debian 12 SDK root (a few minutes, once)"
  rm -rf "$root"
  mkdir -p "$cache"
  debootstrap --variant=minbase --include="$sdk_packages" bookworm "$root" "$mirror"
  printf '%s' "$sdk_packages" > "$root/.complete"
}

# export_runtime KIND: publish the rootfs /usr as org.example.Strata<KIND>.
export_runtime() {
  kind=$1
  tree=$(mktemp -d "$cache/rt.XXXXXX")
  cp -al "$cache/sdkroot/usr" "$tree/usr"
  # Flatpak shows the runtime's /usr/etc as /etc.
  cp -a "$cache/sdkroot/etc" "$tree/usr/etc"
  rm -f "$tree/usr/etc/ld.so.cache" "$tree/usr/etc/resolv.conf"
  # Flatpak runs a plain `ldconfig` with PATH=/app/bin:/usr/bin.
  ln -sf ../sbin/ldconfig "$tree/usr/bin/ldconfig"
  echo /app/lib > "$tree/usr/etc/ld.so.conf.d/0-app.conf"
  # Without a session bus GLib would autolaunch a dbus-daemon that outlives the app.
  rm -f "$tree/usr/bin/dbus-launch"
  printf '[Runtime]\nname=org.example.Strata%s\nruntime=org.example.StrataPlatform/x86_64/%s\nsdk=org.example.StrataSdk/x86_64/%s\n' \
    "$kind" "$branch" "$branch" > "$tree/metadata"
  flatpak build-export --runtime --files=usr "$cache/repo" "$tree" "$branch"
  rm -rf "$tree"
}

make_runtime() {
  if [ "$(cat "$cache/repo/.complete" 2>/dev/null)" = "$sdk_packages" ]; then
    return
  fi
  step "export the runtime and SDK"
  rm -rf "$cache/repo"
  export_runtime Sdk
  export_runtime Platform
  printf '%s' "$sdk_packages" > "$cache/repo/.complete"
}

install_runtime() {
  step "install the runtime into $FLATPAK_USER_DIR"
  flatpak --user remote-add --no-gpg-verify --if-not-exists strata-local "$cache/repo"
  flatpak --user install -y --noninteractive --or-update strata-local \
    "org.example.StrataPlatform//$branch" "org.example.StrataSdk//$branch"
}

# The local manifest sits beside the real one: its dir source path is relative.
derive_manifest() {
  local_manifest=$src/flatpak/$app_id.local.json
  jq --arg b "$branch" '.runtime = "org.example.StrataPlatform"
      | .sdk = "org.example.StrataSdk" | ."runtime-version" = $b
      | .modules[-1].sources[0].skip += ["_flatpak", "_build-ci", "_build-tests", "_build-fuzz"]' \
    "$src/flatpak/$app_id.json" > "$local_manifest"
  # Only the runtime may differ from what ships.
  diff_keys=$(jq -n --slurpfile a "$src/flatpak/$app_id.json" --slurpfile b "$local_manifest" \
    '[$a[0], $b[0]] | map(del(.runtime, .sdk, ."runtime-version", .modules[-1].sources[0].skip)) | .[0] == .[1]')
  [ "$diff_keys" = true ] || fail "the local manifest differs from the real one beyond the runtime"
}

build_app() {
  step "flatpak-builder"
  flatpak-builder --user --install --force-clean --disable-rofiles-fuse \
    --state-dir="$work/state" --repo="$work/repo" \
    "$work/build" "$src/flatpak/$app_id.local.json"
}

check_exports() {
  step "check the installed app's exports"
  exports=$FLATPAK_USER_DIR/exports/share
  files=$(flatpak --user info --show-location "$app_id")/files/share
  status=0
  for f in "$exports/applications/$app_id.desktop" \
           "$exports/icons/hicolor/scalable/apps/$app_id.svg" \
           "$exports/icons/hicolor/symbolic/apps/$app_id-symbolic.svg" \
           "$exports/mime/packages/$app_id.xml"; do
    if [ -e "$f" ]; then echo "ok: ${f#$FLATPAK_USER_DIR/}"; else echo "MISSING: $f"; status=1; fi
  done
  if [ -e "$files/metainfo/$app_id.metainfo.xml" ] || [ -e "$files/appdata/$app_id.appdata.xml" ]; then
    echo "ok: metainfo"
  else
    echo "MISSING: metainfo under $files"; status=1
  fi
  grep -q "^Exec=.*flatpak run .*$app_id" "$exports/applications/$app_id.desktop" ||
    { echo "the exported desktop file does not launch the Flatpak"; status=1; }
  grep -q 'application/x-android-dmtrace' "$exports/applications/$app_id.desktop" ||
    { echo "the exported desktop file lost its MIME types"; status=1; }
  [ $status -eq 0 ] || fail "exports incomplete"
}

# run_screenshot NAME [ENV...]: the app in its sandbox under Xvfb.
run_screenshot() {
  name=$1; shift
  png=$out/$name.png
  rm -f "$png"
  dbus-run-session -- xvfb-run -a -s '-screen 0 1600x1000x24 -noreset' \
    timeout 120 flatpak run --user --env=GSK_RENDERER=cairo --env=GDK_BACKEND=x11 "$@" \
      --filesystem="$out" --filesystem="$(dirname "$sample"):ro" \
      "$app_id" --screenshot="$png" --size=1400x900 "$sample"
  [ -s "$png" ] || fail "no screenshot written to $png"
  colours=$(convert "$png" -format '%k' info:)
  spread=$(convert "$png" -colorspace gray -format '%[fx:int(standard_deviation*1000)]' info:)
  echo "$png: $colours colours, grey deviation $spread/1000"
  [ "$colours" -gt 64 ] && [ "$spread" -gt 20 ] || fail "$png looks blank"
}

# make_bundle: the app as one file, naming where its runtime comes from.
make_bundle() {
  step "write the single-file bundle"
  runtime_repo=${STRATA_RUNTIME_REPO:-}
  if [ -z "$runtime_repo" ]; then
    runtime_repo=$cache/strata-local.flatpakrepo
    printf '[Flatpak Repo]\nTitle=Strata local runtime\nUrl=file://%s/repo\n' "$cache" > "$runtime_repo"
    runtime_repo=file://$runtime_repo
  fi
  rm -f "$work/strata.flatpak"
  flatpak build-bundle --runtime-repo="$runtime_repo" "$work/repo" "$work/strata.flatpak" "$app_id"
  ls -l "$work/strata.flatpak"
}

# install_bundle: as a user would, into an installation that has nothing yet:
# the runtime comes from the repository the bundle names.
install_bundle() {
  step "install the bundle into a fresh user installation"
  FLATPAK_USER_DIR=$work/fresh
  rm -rf "$FLATPAK_USER_DIR"
  flatpak --user install -y --noninteractive "$work/strata.flatpak"
  flatpak --user info "$app_id" | sed -n '1,12p'
}

mkdir -p "$work" "$out"
make_rootfs
make_runtime
install_runtime
derive_manifest
build_app
check_exports
step "run the app in its sandbox"
run_screenshot flatpak
run_screenshot flatpak-zh_CN --env=LANG=zh_CN.UTF-8 --env=LANGUAGE=zh_CN
make_bundle
install_bundle
run_screenshot flatpak-bundle
echo "local-build: the Flatpak built, installed and ran, and so did its bundle ($work/strata.flatpak); screenshots in $out"
