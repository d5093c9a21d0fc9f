#!/bin/sh
# A headless KWin 5.27 session with maliit-keyboard for scripts/kiosk-test
# --compositor kwin, run as an unprivileged user inside dbus-run-session like
# session.sh: `kwin_wayland --virtual` on a $OSK_OUTPUT output (default
# 540x960), which starts maliit itself. KWIN_IM_SHOW_ALWAYS=1 because KWin
# shows the panel only after touch or tablet input, and a headless session has
# none. kwin_wayland is copied first: its file capability (cap_sys_resource)
# makes exec fail in a container whose bounding set lacks it, and a copy drops
# it. Script print() lines go to kwin.log (the test reads windows from there).
# Writes the session's environment to $OSK_SESSION_DIR/env for `as-session`,
# then lives until KWin exits.
set -eu
dir=$OSK_SESSION_DIR
export XDG_RUNTIME_DIR=$dir/xdg HOME=$dir
export XDG_CONFIG_HOME=$dir/config
cp /usr/bin/kwin_wayland "$dir/kwin_wayland"
output=${OSK_OUTPUT:-540x960}
KWIN_IM_SHOW_ALWAYS=1 QT_LOGGING_RULES="kwin_scripting.debug=true" \
    "$dir/kwin_wayland" --virtual --width "${output%x*}" --height "${output#*x}" --socket wayland-0 \
    --inputmethod /usr/bin/maliit-keyboard --no-lockscreen --no-global-shortcuts --no-kactivities \
    > "$dir/kwin.log" 2>&1 &
kwin=$!
i=0
while [ ! -S "$XDG_RUNTIME_DIR/wayland-0" ] || ! busctl --user get-property org.kde.KWin /VirtualKeyboard \
        org.kde.kwin.VirtualKeyboard available >/dev/null 2>&1; do
    i=$((i + 1)); [ $i -lt 300 ] || { echo "kwin did not start" >&2; exit 1; }
    sleep 0.05
done
. "$(dirname "$0")/session-env.sh"
publish_session_env "$dir" wayland-0
wait $kwin
