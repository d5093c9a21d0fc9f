// insetd's GNOME Shell extension: GNOME Shell has no API to show, hide or
// locate its on-screen keyboard, and the Shell's Eval needs unsafe mode (any
// caller could then run any code in the Shell). This exports exactly what
// insetd-osk needs on the session bus, as org.insetd.Shell1 at
// /org/insetd/Shell1: Show and Hide, whether the keyboard is on the screen,
// its frame, and the focused window's frame as drawn. It reports and obeys;
// insetd decides. Nothing typed passes through it.
//
// While it is enabled the Shell does not slide the focused window up when
// the text cursor is under the keyboard: insetd's clients make room for the
// keyboard themselves (padding, scrolling), and a slide on top of that counts
// the keyboard twice (the window moved up by its height and padded by it).
//
// While insetd-osk says a hardware keyboard is usable (SetHardwareKeyboard),
// the keyboard does not open at a text field's request, nor when asked; the
// user's swipe up from the bottom edge still opens it. Turning the a11y
// setting off instead makes GNOME 43 destroy its keyboard, and the focused
// window loses its keyboard focus with it (a Qt app stays inactive). Each
// caller's hold ends when it says so or leaves the bus, so a bridge that
// crashed leaves none.
const { Gio, GLib, St } = imports.gi;
const Main = imports.ui.main;
const KeyboardUI = imports.ui.keyboard;

const IFACE = `<node><interface name="org.insetd.Shell1">
  <method name="Show"/>
  <method name="Hide"/>
  <method name="SetHardwareKeyboard"><arg type="b" name="usable" direction="in"/></method>
  <property name="HardwareKeyboard" type="b" access="read"/>
  <property name="Ready" type="b" access="read"/>
  <property name="Visible" type="b" access="read"/>
  <property name="KeyboardFrame" type="(iiii)" access="read"/>
  <property name="KeyboardDrawn" type="(iiii)" access="read"/>
  <property name="Animates" type="b" access="read"/>
  <property name="WindowFrame" type="(iiii)" access="read"/>
  <property name="WindowSlid" type="b" access="read"/>
  <property name="WindowFullscreen" type="b" access="read"/>
</interface></node>`;

/// The bus object; its properties are read live from the Shell.
class InsetdShell {
    constructor() {
        this._signals = [];
        // The callers holding the keyboard shut: unique bus name -> name watch.
        this._holders = new Map();
    }

    enable() {
        const setFocusWindow = KeyboardUI.Keyboard.prototype._setFocusWindow;
        this._setFocusWindow = setFocusWindow;
        // null: no window to slide; a window slid before still slides back.
        KeyboardUI.Keyboard.prototype._setFocusWindow = function () {
            setFocusWindow.call(this, null);
        };
        // open() is every request (a text field's input panel, the Shell's
        // own entries, Show); _open() is the show itself, 300 ms after a
        // request, so one made just before the hold is held too. Both pass
        // for the user's swipe (gestureActivate opens while the gesture is in
        // progress). The 300 ms timer is also a close's: it is left to run.
        const shell = this;
        this._patched = ['open', '_open'].map(name => {
            const original = KeyboardUI.Keyboard.prototype[name];
            KeyboardUI.Keyboard.prototype[name] = function (...args) {
                if (!shell.HardwareKeyboard || this._gestureInProgress)
                    original.apply(this, args);
            };
            return [name, original];
        });
        this._dbus = Gio.DBusExportedObject.wrapJSObject(IFACE, this);
        this._dbus.export(Gio.DBus.session, '/org/insetd/Shell1');
        this._name = Gio.bus_own_name_on_connection(Gio.DBus.session, 'org.insetd.Shell1',
            Gio.BusNameOwnerFlags.NONE, null, null);
        // Emitted as the keyboard starts sliding in and as it starts sliding out.
        this._connect(Main.keyboard, 'visibility-changed', () => {
            this._changed('Visible', GLib.Variant.new_boolean(this.Visible));
            this._changed('KeyboardFrame', this._frameVariant(this.KeyboardFrame));
        });
        this._connect(St.Settings.get(), 'notify::enable-animations',
            () => this._changed('Animates', GLib.Variant.new_boolean(this.Animates)));
        this._connect(global.display, 'notify::focus-window', () => this._watchFocusWindow());
        this._watchFocusWindow();
        if (Main.layoutManager._startingUp)
            this._connect(Main.layoutManager, 'startup-complete', () => this._changed('Ready', GLib.Variant.new_boolean(true)));
    }

    disable() {
        this._unwatchWindow();
        for (const sender of [...this._holders.keys()])
            this._release(sender);
        KeyboardUI.Keyboard.prototype._setFocusWindow = this._setFocusWindow;
        for (const [name, original] of this._patched)
            KeyboardUI.Keyboard.prototype[name] = original;
        for (const [object, id] of this._signals)
            object.disconnect(id);
        this._signals = [];
        Gio.bus_unown_name(this._name);
        this._dbus.unexport();
        this._dbus = null;
    }

    _connect(object, signal, callback) {
        this._signals.push([object, object.connect(signal, callback)]);
    }

    _changed(name, value) {
        this._dbus?.emit_property_changed(name, value);
    }

    _frameVariant(frame) {
        return new GLib.Variant('(iiii)', frame);
    }

    // The focused window's frame changes without the focus moving (it is
    // maximized, moved, resized): WindowFrame says so as it happens.
    _watchFocusWindow() {
        this._unwatchWindow();
        const window = this._focusWindow;
        if (window) {
            this._watched = [window, ['position-changed', 'size-changed'].map(
                signal => window.connect(signal, () => this._windowChanged()))];
        }
        this._windowChanged();
    }

    _unwatchWindow() {
        if (!this._watched)
            return;
        const [window, ids] = this._watched;
        this._watched = null;
        for (const id of ids)
            window.disconnect(id);
    }

    _windowChanged() {
        this._changed('WindowFrame', this._frameVariant(this.WindowFrame));
        this._changed('WindowFullscreen', GLib.Variant.new_boolean(this.WindowFullscreen));
    }

    // insetd's word is applied at once: the Shell's own requests wait
    // KEYBOARD_REST_TIME (300 ms) to fold a quick close and open into
    // nothing, and each request starts that wait again (insetd-osk asking
    // again for a show not seen yet put it off to 600 ms after the focus).
    // insetd has debounced already. The Shell's own requests keep their wait.
    Show() {
        Main.layoutManager.keyboardIndex = Main.layoutManager.primaryIndex;
        const keyboard = Main.keyboard.keyboardActor;
        if (keyboard)
            keyboard.open(true);
    }

    Hide() {
        const keyboard = Main.keyboard.keyboardActor;
        if (!keyboard)
            return;
        try {
            keyboard.close(true);
        } catch (error) {
            // GNOME 43's word completion looks up ibus-typing-booster's
            // settings on the first close and throws where that is not
            // installed, leaving the keyboard up: without completion it closes.
            imports.misc.ibusManager.getIBusManager()._oskCompletion = false;
            keyboard.close(true);
        }
    }

    SetHardwareKeyboardAsync([usable], invocation) {
        try {
            const sender = invocation.get_sender();
            const wasHeld = this.HardwareKeyboard;
            if (usable && !this._holders.has(sender)) {
                // The caller's hold ends when the caller leaves the bus.
                this._holders.set(sender, Gio.bus_watch_name_on_connection(Gio.DBus.session, sender,
                    Gio.BusNameWatcherFlags.NONE, null, () => this._release(sender)));
            } else if (!usable) {
                this._release(sender);
            }
            this._heldChanged(wasHeld);
            invocation.return_value(null);
        } catch (error) {
            invocation.return_dbus_error('org.insetd.Shell1.Error.Failed', String(error));
        }
    }

    _release(sender) {
        const watch = this._holders.get(sender);
        if (watch === undefined)
            return;
        const wasHeld = this.HardwareKeyboard;
        Gio.bus_unwatch_name(watch);
        this._holders.delete(sender);
        this._heldChanged(wasHeld);
    }

    _heldChanged(wasHeld) {
        if (this.HardwareKeyboard !== wasHeld)
            this._changed('HardwareKeyboard', GLib.Variant.new_boolean(this.HardwareKeyboard));
    }

    get HardwareKeyboard() {
        return this._holders.size > 0;
    }

    get Ready() {
        return !Main.layoutManager._startingUp;
    }

    get Visible() {
        return Boolean(Main.keyboard.visible);
    }

    /// The keyboard's frame on the screen once it has slid in (logical
    /// pixels): the bottom of its monitor, its own size; 0s while hidden.
    get KeyboardFrame() {
        const actor = Main.keyboard.keyboardActor;
        const monitor = Main.layoutManager.keyboardMonitor;
        if (!this.Visible || !actor || !monitor)
            return [0, 0, 0, 0];
        const [width, height] = actor.get_transformed_size();
        return [monitor.x, monitor.y + monitor.height - height, width, height].map(Math.round);
    }

    /// The part of the keyboard on its monitor as drawn now (logical
    /// pixels), also while it slides in or out (150 ms): what covers the
    /// windows at this moment; 0s when none of it is on the monitor.
    get KeyboardDrawn() {
        const actor = Main.keyboard.keyboardActor;
        const monitor = Main.layoutManager.keyboardMonitor;
        // Not the keyboard's `visible`: it turns false as the slide out starts.
        if (!actor || !monitor || !actor.mapped || !Main.layoutManager.keyboardBox.visible)
            return [0, 0, 0, 0];
        const [x, y] = actor.get_transformed_position();
        const [width, height] = actor.get_transformed_size();
        const bottom = monitor.y + monitor.height;
        const top = Math.max(y, monitor.y);
        if (top >= bottom || height <= 0)
            return [0, 0, 0, 0];
        return [x, top, width, Math.min(bottom, y + height) - top].map(Math.round);
    }

    /// Whether the Shell animates (its keyboard slides in and out over
    /// 150 ms): not where animations are turned off, nor where it renders
    /// without a GPU (St's enable-animations is false then), and the keyboard
    /// is on the screen at once.
    get Animates() {
        return Boolean(St.Settings.get().enable_animations);
    }

    get _focusWindow() {
        return global.display.focus_window;
    }

    /// The focused window's frame as drawn now: its frame rectangle, moved
    /// by however far its actor is from where the frame puts it (the Shell's
    /// slide eases the actor first and moves the frame after, and moves
    /// only the actor of a maximized or full-screen window).
    get WindowFrame() {
        const window = this._focusWindow;
        const actor = window?.get_compositor_private();
        if (!window || !actor)
            return [0, 0, 0, 0];
        const frame = window.get_frame_rect();
        const buffer = window.get_buffer_rect();
        return [frame.x + actor.x - buffer.x, frame.y + actor.y - buffer.y, frame.width, frame.height].map(Math.round);
    }

    /// Whether the Shell has slid the focused window up for the keyboard.
    get WindowSlid() {
        return Boolean(Main.keyboard.keyboardActor?._focusWindow);
    }

    get WindowFullscreen() {
        return Boolean(this._focusWindow?.is_fullscreen());
    }
}

function init() {
    return new InsetdShell();
}
