#!/bin/sh
# A headless Phosh 0.24 session (Phosh the shell on phoc, its compositor) for
# scripts/kiosk-test --compositor phosh, run as an unprivileged user inside
# dbus-run-session like session.sh. phoc in shell mode (-S) on a $OSK_OUTPUT
# output (default 540x960) with the pixman renderer starts phosh itself (-E),
# as phosh-session does, but without gnome-session: phosh runs without it, its
# system services (logind, upower, NetworkManager, ModemManager, hostname1,
# iio-sensor-proxy) and a system bus, logging a warning for each. phosh -U:
# it starts on its lock screen otherwise, and nothing here could unlock it.
# A virtual pointer first, so that phoc has a seat (phoc-session.sh).
# phosh runs with WAYLAND_DEBUG=client: its own log is the account of its
# top bar's and home bar's exclusive zones (scripts/osk/kiosk_phosh.py), phoc
# having no IPC. Writes the session's environment to $OSK_SESSION_DIR/env for
# `as-session` once phosh has drawn its bars, then lives until phoc exits.
set -eu
dir=$OSK_SESSION_DIR
here=$(cd "$(dirname "$0")" && pwd)
export XDG_RUNTIME_DIR=$dir/xdg HOME=$dir
export WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
export XDG_CONFIG_HOME=$dir/config
# phoc's debug log says when phosh is up; its layer-shell lines name the OSK's surface.
export G_MESSAGES_DEBUG=phoc-phosh-private
printf '[core]\nxwayland = false\n\n[output:HEADLESS-1]\nmode = %s\nscale = 1\n' "${OSK_OUTPUT:-540x960}" > "$dir/phoc.ini"
cat > "$dir/phosh-start.sh" <<EOF
#!/bin/sh
python3 "$here/vptr.py" > "$dir/vptr.log" 2>&1 &
sleep 0.5
WAYLAND_DEBUG=client exec /usr/libexec/phosh -U 2> "$dir/phosh.log"
EOF
phoc -S -C "$dir/phoc.ini" -E "sh $dir/phosh-start.sh" > "$dir/phoc.log" 2>&1 &
phoc=$!
i=0
while ! grep -q "Shell state set to 1" "$dir/phoc.log" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt 600 ] || { echo "phosh did not start: $(tail -5 "$dir/phoc.log")" >&2; exit 1; }
    sleep 0.05
done
export WAYLAND_DISPLAY=wayland-0
. "$here/session-env.sh"
publish_session_env "$dir" wayland-0
wait $phoc
