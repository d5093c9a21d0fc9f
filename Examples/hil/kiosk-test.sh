#!/bin/sh
# A kiosk's on-screen keyboard, tested with insetd in the loop and no hardware:
# a convertible (built-in keyboard, tablet switch), a USB keyboard plugged in
# and out, the LEFTMETA+K hotkey, and insetd's timeline of why the keyboard did
# what it did. docs/HIL-USERS.md walks through it; scripts/test runs it as is.
#
# Needs insetd, insetctl and insetd-testbed in PATH (swift build; then
# PATH="$(swift build --show-bin-path):$PATH").
set -eu

# 1. Start again inside the testbed, beside two emulated devices. Everything
#    below runs with a fake /sys and /dev/input that insetd reads as hardware.
if [ -z "${INSETD_TESTBED:-}" ]; then
    exec insetd-testbed run --device internal-keyboard --device tablet-switch:hinge -- "$0" "$@"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 2. insetd itself, on the socket the testbed chose ($INSETD_SOCKET, which
#    insetctl reads too). --uevent-source udev: umockdev announces devices in
#    udev's format. The testbed stops it when this script ends.
insetd --socket "$INSETD_SOCKET" --uevent-source udev 2>"$work/insetd.log" &
insetctl wait devices=2 hardware-keyboard=yes keyboard=hidden --timeout 20

# 3. Record the decision timeline from here on, as JSON lines to check and as
#    text to read (each starts with the state now).
insetctl events --jsonl >"$work/timeline.jsonl" &
insetctl events >"$work/timeline.txt" &
until [ -s "$work/timeline.jsonl" ] && [ -s "$work/timeline.txt" ]; do sleep 0.05; done

# 4. The kiosk UI focuses a text field (here insetctl stands in for the UI:
#    a full-screen view with a focused field, kept for a minute). The built-in
#    keyboard is usable, so insetd shows only the accessory bar.
insetctl simulate focus --wait 60000 >/dev/null &
insetctl wait keyboard=bar

# 5. Fold into tablet mode: the built-in keyboard no longer counts, and after
#    the 200 ms hold-off the full on-screen keyboard comes up.
insetd-testbed tablet on
insetctl wait tablet-mode=on hardware-keyboard=no keyboard=shown

# 6. Plug a USB keyboard: a usable hardware keyboard again, back to the bar.
insetd-testbed plug usb-keyboard --name desk
insetctl wait devices=3 hardware-keyboard=yes keyboard=bar

# 7. The hotkey, typed on the first keyboard that has both keys: it toggles
#    the keyboard away, and the second press brings the full keyboard up.
insetd-testbed press LEFTMETA+K
insetctl wait keyboard=hidden
insetd-testbed press LEFTMETA+K
insetctl wait keyboard=shown

# 8. Unplug the USB keyboard and unfold.
insetd-testbed unplug desk
insetctl wait devices=2 hardware-keyboard=no
insetd-testbed tablet off
insetctl wait tablet-mode=off hardware-keyboard=yes

# 9. Why did the keyboard do what it did? The timeline names each cause: the
#    hold-off that made tablet mode count, the hotkey that hid the keyboard.
sleep 0.3 # the recorders are other processes: let them write the last entries
grep -q '"kind":"hold-off-expired"},"decision":"hardware-keyboard"' "$work/timeline.jsonl"
grep -q '"action":"toggle","kind":"hotkey"},"decision":"keyboard"' "$work/timeline.jsonl"
echo "kiosk test passed; insetd's timeline:"
sed 's/^/  /' "$work/timeline.txt"
