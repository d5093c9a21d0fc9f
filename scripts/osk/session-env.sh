# Sourced by the session scripts (session.sh, phoc-, kwin-, mir-, gnome-session.sh):
# publish_session_env DIR DISPLAY [LINE...] writes DIR/env, what as-session and
# the tests read to reach the session, whole or not at all (written aside, then
# renamed). Extra lines (NAME=VALUE) follow the common ones.
publish_session_env() {
    env_dir=$1
    env_display=$2
    shift 2
    {
        echo "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR"
        echo "HOME=$HOME"
        echo "XDG_CONFIG_HOME=$XDG_CONFIG_HOME"
        echo "WAYLAND_DISPLAY=$env_display"
        for line in "$@"; do echo "$line"; done
        echo "DBUS_SESSION_BUS_ADDRESS=$DBUS_SESSION_BUS_ADDRESS"
        # A test run's mark (scripts/leftovers), so what as-session starts carries it too.
        if [ -n "${INSETD_TEST_RUN:-}" ]; then echo "INSETD_TEST_RUN=$INSETD_TEST_RUN"; fi
    } > "$env_dir/env.tmp"
    mv "$env_dir/env.tmp" "$env_dir/env"
}
