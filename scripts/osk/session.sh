#!/bin/sh
# The graphical session for the OSK tests, run as an unprivileged user inside
# dbus-run-session (sway refuses to run as root): a headless sway with the
# pixman renderer on a 390x844 output. Writes the session's environment to
# $OSK_SESSION_DIR/env for `as-session`, then lives until sway exits.
set -eu
dir=$OSK_SESSION_DIR
export XDG_RUNTIME_DIR=$dir/xdg HOME=$dir
export WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
export XDG_CONFIG_HOME=$dir/config
printf 'output HEADLESS-1 resolution %s\n' "${OSK_OUTPUT:-390x844}" > "$dir/sway.conf"
# More configuration lines (scripts/kiosk-test: a kiosk's borderless windows).
[ -z "${OSK_SWAY_CONFIG:-}" ] || printf '%s\n' "$OSK_SWAY_CONFIG" >> "$dir/sway.conf"
sway -c "$dir/sway.conf" > "$dir/sway.log" 2>&1 &
sway=$!
i=0
while [ ! -S "$XDG_RUNTIME_DIR/wayland-1" ] || ! ls "$XDG_RUNTIME_DIR"/sway-ipc.* >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 200 ] || { echo "sway did not start" >&2; exit 1; }
    sleep 0.05
done
. "$(dirname "$0")/session-env.sh"
publish_session_env "$dir" wayland-1 "SWAYSOCK=$(ls "$XDG_RUNTIME_DIR"/sway-ipc.*)"
wait $sway
