#!/bin/sh
# A headless phoc (Phosh's compositor) session for scripts/kiosk-test --compositor
# phoc, run as an unprivileged user inside dbus-run-session like session.sh:
# phoc with the pixman renderer on a $OSK_OUTPUT output (default 540x960), and
# a virtual pointer so that phoc creates its seat. Writes the session's
# environment to $OSK_SESSION_DIR/env for `as-session`, then lives until phoc exits.
set -eu
dir=$OSK_SESSION_DIR
export XDG_RUNTIME_DIR=$dir/xdg HOME=$dir
export WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
export XDG_CONFIG_HOME=$dir/config
printf '[core]\nxwayland = false\n\n[output:HEADLESS-1]\nmode = %s\nscale = 1\n' "${OSK_OUTPUT:-540x960}" > "$dir/phoc.ini"
phoc -C "$dir/phoc.ini" > "$dir/phoc.log" 2>&1 &
phoc=$!
i=0
while [ ! -S "$XDG_RUNTIME_DIR/wayland-0" ]; do
    i=$((i + 1)); [ $i -lt 200 ] || { echo "phoc did not start" >&2; exit 1; }
    sleep 0.05
done
export WAYLAND_DISPLAY=wayland-0
python3 "$(dirname "$0")/vptr.py" > "$dir/vptr.log" 2>&1 &
sleep 0.3
. "$(dirname "$0")/session-env.sh"
publish_session_env "$dir" wayland-0
wait $phoc
