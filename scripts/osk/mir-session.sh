#!/bin/sh
# A Mir 2.12 miral-shell session for scripts/kiosk-test --compositor mir, run
# as an unprivileged user inside dbus-run-session like session.sh: Xvfb on a
# private display (Mir's only host platform here without DRM is mir:x11),
# miral-shell on a $OSK_OUTPUT output (default 540x960) with every Wayland
# extension (layer-shell, input-method v2, virtual keyboard: squeekboard needs
# them) and its window-management trace in mir.log, the only place Mir tells
# where windows are. Needs its own /tmp/.X11-unix (kiosk-test mounts a tmpfs
# there). Writes the session's environment to $OSK_SESSION_DIR/env for
# `as-session`, then lives until miral-shell exits.
set -eu
dir=$OSK_SESSION_DIR
export XDG_RUNTIME_DIR=$dir/xdg HOME=$dir
export XDG_CONFIG_HOME=$dir/config
output=${OSK_OUTPUT:-540x960}
display=:${OSK_X_DISPLAY:-57}
Xvfb "$display" -screen 0 "${output}x24" -nolisten tcp > "$dir/xvfb.log" 2>&1 &
xvfb=$!
i=0
while [ ! -S "/tmp/.X11-unix/X${display#:}" ]; do
    i=$((i + 1)); [ $i -lt 200 ] || { echo "Xvfb did not start" >&2; kill $xvfb; exit 1; }
    sleep 0.05
done
# squeekboard shows by itself on focus only with this key set before it starts.
gsettings set org.gnome.desktop.a11y.applications screen-keyboard-enabled true
DISPLAY=$display miral-shell --x11-output "$output" --add-wayland-extensions all \
    --window-management-trace > "$dir/mir.log" 2>&1 &
mir=$!
i=0
while [ ! -S "$XDG_RUNTIME_DIR/wayland-0" ]; do
    i=$((i + 1)); [ $i -lt 200 ] || { echo "miral-shell did not start" >&2; kill $mir $xvfb; exit 1; }
    sleep 0.05
done
. "$(dirname "$0")/session-env.sh"
publish_session_env "$dir" wayland-0
wait $mir
kill $xvfb
