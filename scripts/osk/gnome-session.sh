#!/bin/sh
# A headless GNOME Shell 43 session for scripts/kiosk-test --compositor gnome,
# run as an unprivileged user inside dbus-run-session like session.sh:
# `gnome-shell --headless` on a $OSK_OUTPUT virtual monitor (default 540x960)
# with its on-screen keyboard on and insetd's Shell extension (gnome-shell/,
# copied into the user's extensions) enabled; the extension is the only way
# in to the keyboard and windows (no unsafe mode). A stand-in system bus,
# because the Shell dies at start without one (it assumes logind). Writes the
# session's environment to $OSK_SESSION_DIR/env for `as-session`, then lives
# until the Shell exits.
set -eu
dir=$OSK_SESSION_DIR
root=$(cd "$(dirname "$0")/../.." && pwd)
export XDG_RUNTIME_DIR=$dir/xdg HOME=$dir XDG_CONFIG_HOME=$dir/config
dbus-daemon --session --nofork --address="unix:path=$dir/sysbus" > "$dir/sysbus.log" 2>&1 &
sysbus=$!
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$dir/sysbus
extensions=$dir/.local/share/gnome-shell/extensions
mkdir -p "$extensions"
cp -r "$root/gnome-shell/insetd@insetd" "$extensions/"
# The session starts in the overview, where no window has focus: a test-only
# extension leaves it once the Shell is up (a kiosk's own set-up would).
mkdir -p "$extensions/kiosk-test@insetd.test"
printf '{"uuid": "kiosk-test@insetd.test", "name": "kiosk-test", "description": "test", "shell-version": ["43"]}\n' \
    > "$extensions/kiosk-test@insetd.test/metadata.json"
cat > "$extensions/kiosk-test@insetd.test/extension.js" <<'JS'
const Main = imports.ui.main;
function init() {}
function enable() {
    if (Main.layoutManager._startingUp)
        Main.layoutManager.connect('startup-complete', () => Main.overview.hide());
    else
        Main.overview.hide();
}
function disable() {}
JS
gsettings set org.gnome.desktop.a11y.applications screen-keyboard-enabled true
gsettings set org.gnome.shell enabled-extensions "['insetd@insetd', 'kiosk-test@insetd.test']"
gsettings set org.gnome.desktop.notifications show-banners false
output=${OSK_OUTPUT:-540x960}
gnome-shell --headless --virtual-monitor "$output" --wayland --no-x11 --wayland-display=wayland-0 \
    > "$dir/gnome-shell.log" 2>&1 &
shell=$!
i=0
while ! busctl --user get-property org.insetd.Shell1 /org/insetd/Shell1 org.insetd.Shell1 Ready 2>/dev/null \
        | grep -q true; do
    i=$((i + 1)); [ $i -lt 800 ] || { echo "gnome-shell did not start" >&2; kill $shell $sysbus; exit 1; }
    sleep 0.05
done
. "$(dirname "$0")/session-env.sh"
publish_session_env "$dir" wayland-0
wait $shell || true
kill $sysbus
