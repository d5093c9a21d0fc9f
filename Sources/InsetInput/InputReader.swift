import CLibevdev
import Glibc
import Logging
import NIOCore
import Synchronization

/// The reader thread's state: the udev monitor, every opened device, one epoll
/// set. Confined to one thread at a time (built on the caller's, then handed to
/// the reader thread), so it needs no locks.
///
/// A device is read here, with libevdev, or, when the monitor has an event
/// loop, on that loop (`EvdevLoopReader`): this thread then only opens it,
/// hands its descriptor over and removes it when it ends.
///
/// Privacy: key events are passed to the device's `HotkeyMatcher` and dropped in
/// the same call. Nothing in this file logs, stores or forwards a key code.
final class InputReader {
    private struct OpenDevice {
        var device: InputDevice
        /// The device's `Reading`'s key in `readings` and in epoll; nil for a device not read.
        var token: UInt64?
    }

    /// What the per-event path needs of a device that is read, found by its
    /// epoll token alone: a read hashes one integer and changes the matcher in
    /// place, and the device's description (strings) stays in `devices`, out
    /// of the path between a hotkey and its notification.
    private final class Reading {
        enum Where {
            case here(EvdevDevice)
            case loop(LoopChannel)
        }

        let syspath: String
        let source: Where
        var matcher: HotkeyMatcher

        init(syspath: String, source: Where, matcher: HotkeyMatcher) {
            self.syspath = syspath
            self.source = source
            self.matcher = matcher
        }

        /// Stops reading: the loop's channel closes, this thread's descriptor
        /// closes as the reading is released.
        func end(epoll: Int32) {
            switch source {
            case .here(let evdev): epoll_ctl(epoll, EPOLL_CTL_DEL, evdev.fileDescriptor, nil)
            case .loop(let channel): channel.close()
            }
        }
    }

    private static let monitorToken: UInt64 = 0
    private static let wakeToken: UInt64 = 1
    private static let heartbeatToken: UInt64 = 2
    private static let endedToken: UInt64 = 3

    private let context: UdevContext
    private let monitor: UdevMonitor
    private let epoll: Int32
    private let wake: Int32
    private let classifier: ClassifierConfiguration
    private let logger: Logger
    private let sink: InputSink
    private let eventLoop: (any EventLoop)?
    private let publish: ([InputDevice]) -> Void
    private let wakeups: WakeupCounter
    private let heartbeat: ReaderHeartbeat
    private var devices: [String: OpenDevice] = [:]
    private var readings: [UInt64: Reading] = [:]
    private var nextToken: UInt64 = 4

    init(
        source: UeventSource, classifier: ClassifierConfiguration, wake: Int32, wakeups: WakeupCounter,
        heartbeat: ReaderHeartbeat, eventLoop: (any EventLoop)?, logger: Logger, emit: @escaping @Sendable (InputEvent) -> Void,
        publish: @escaping ([InputDevice]) -> Void
    ) throws(InputSystemError) {
        context = try UdevContext()
        // The monitor starts before the enumeration, so a device added in between
        // is seen twice (harmless: adding a known device replaces it), never missed.
        monitor = try UdevMonitor(context: context, source: source)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw InputSystemError("epoll_create1", errno: errno) }
        self.wake = wake
        self.wakeups = wakeups
        self.heartbeat = heartbeat
        self.classifier = classifier
        self.logger = logger
        self.eventLoop = eventLoop
        sink = try InputSink(emit: emit)
        self.publish = publish
        try watch(monitor.fileDescriptor, token: Self.monitorToken)
        try watch(wake, token: Self.wakeToken)
        try watch(heartbeat.fileDescriptor, token: Self.heartbeatToken)
        try watch(sink.endedSignal, token: Self.endedToken)
    }

    deinit {
        // Closes every device before the epoll set.
        for reading in readings.values { reading.end(epoll: epoll) }
        readings.removeAll()
        close(epoll)
    }

    private func emit(_ event: InputEvent) { sink.emit(event) }

    /// Reads every input device present now.
    func enumerate() throws(InputSystemError) {
        // Each add publishes the device list itself.
        for node in try context.inputEventNodes() { add(node) }
    }

    /// Blocks in `epoll_wait` with no timeout (an idle daemon never wakes up)
    /// until the wake descriptor is signalled. A heartbeat request is answered
    /// here in the loop, so a thread stuck anywhere else does not answer.
    func run() {
        var ready = [epoll_event](repeating: epoll_event(), count: 32)
        while true {
            let count = epoll_wait(epoll, &ready, Int32(ready.count), -1)
            wakeups.count.add(1, ordering: .relaxed)
            if count < 0 {
                if errno == EINTR { continue }
                logger.error("epoll_wait failed, input reading stops", metadata: ["errno": "\(errno)"])
                return
            }
            for item in ready.prefix(Int(count)) {
                switch item.data.u64 {
                case Self.wakeToken: return
                case Self.heartbeatToken: heartbeat.answer()
                case Self.monitorToken: receiveUevents()
                case Self.endedToken:
                    for (token, why) in sink.takeEnded() {
                        if let reading = readings[token] { remove(reading.syspath, because: why) }
                    }
                case let token: service(token: token, events: item.events)
                }
            }
        }
    }

    // MARK: - Uevents

    private func receiveUevents() {
        while let device = monitor.receive() {
            logger.trace("uevent", metadata: ["action": "\(device.action ?? "-")", "syspath": "\(device.syspath)"])
            guard device.isEventNode else { continue }
            switch device.action {
            case "add": add(device)
            case "remove": remove(device.syspath, because: "udev remove")
            case "change": change(device)
            default: continue
            }
        }
    }

    // MARK: - Devices

    private func add(_ node: UdevDevice) {
        guard let description = DeviceDescriptionReader.describe(node) else {
            logger.debug("input node without an input parent, skipped", metadata: ["syspath": "\(node.syspath)"])
            return
        }
        if devices[description.syspath] != nil {
            // Re-added or changed: start from a clean state.
            remove(description.syspath, because: "replaced")
        }
        var device = InputDevice(description: description, classification: DeviceClassifier.classify(description, classifier))
        let metadata: Logger.Metadata = [
            "device": "\(description.name)", "devnode": "\(description.devnode ?? "-")",
            "class": "\(device.classification.label)", "reason": "\(device.classification.reason)",
        ]
        guard device.classification.isRead, let devnode = description.devnode else {
            logger.info("input device ignored", metadata: metadata)
            trackIgnored(device)
            return
        }
        let token = nextToken
        nextToken += 1
        let matcher = HotkeyMatcher(hotkeys: classifier.hotkeys)
        let reading: Reading
        let tabletMode: Bool?
        do {
            if let eventLoop {
                let (descriptor, on) = try EvdevDevice.openForHandOver(path: devnode)
                let channel = EvdevLoopReader.register(
                    descriptor: descriptor, token: token, syspath: description.syspath,
                    hasTabletSwitch: device.classification.hasTabletModeSwitch, matcher: matcher, sink: sink, on: eventLoop)
                reading = Reading(syspath: description.syspath, source: .loop(channel), matcher: matcher)
                tabletMode = on
            } else {
                let evdev = try EvdevDevice(path: devnode)
                try watch(evdev.fileDescriptor, token: token)
                reading = Reading(syspath: description.syspath, source: .here(evdev), matcher: matcher)
                tabletMode = evdev.switchIsOn(Int32(SW_TABLET_MODE))
            }
        } catch {
            if error.deviceVanished {
                logger.info("input device vanished before it could be opened", metadata: metadata)
                return
            }
            logger.warning("input device cannot be opened", metadata: metadata.merging(["error": "\(error)"]) { $1 })
            device.classification = DeviceClassification(
                kind: .ignored, reason: "cannot be opened: \(error)", hasTabletModeSwitch: false)
            trackIgnored(device)
            return
        }
        readings[token] = reading
        devices[description.syspath] = OpenDevice(device: device, token: token)
        logger.info("input device opened", metadata: metadata)
        publishDevices()
        if case .keyboard = device.classification.kind { emit(.keyboardAttached(device)) } else { emit(.deviceWatched(device)) }
        if device.classification.hasTabletModeSwitch, let on = tabletMode {
            sink.setTabletMode(on, for: description.syspath)
        }
    }

    /// Remembers a device that is not read (so `remove` can report it) and says so.
    private func trackIgnored(_ device: InputDevice) {
        devices[device.description.syspath] = OpenDevice(device: device, token: nil)
        publishDevices()
        emit(.deviceIgnored(device))
    }

    /// A `change` (udev rules re-run, `udevadm trigger`) that leaves the class
    /// as it was must not look like an unplug: only a new class re-adds the device.
    private func change(_ node: UdevDevice) {
        guard let description = DeviceDescriptionReader.describe(node), let open = devices[description.syspath],
            DeviceClassifier.classify(description, classifier) == open.device.classification
        else {
            add(node)
            return
        }
        devices[description.syspath]?.device.description = description
        publishDevices()
    }

    private func remove(_ syspath: String, because why: String) {
        guard let open = devices.removeValue(forKey: syspath) else { return }
        // The published list is current before anyone hears of the removal.
        publishDevices()
        if let token = open.token, let reading = readings.removeValue(forKey: token) {
            reading.end(epoll: epoll)
        }
        logger.info(
            "input device removed",
            metadata: ["device": "\(open.device.description.name)", "why": "\(why)"])
        if case .keyboard = open.device.classification.kind {
            emit(.keyboardDetached(open.device))
        } else {
            emit(.deviceRemoved(open.device))
        }
        sink.forgetTabletSwitch(of: syspath)
    }

    private func service(token: UInt64, events: UInt32) {
        guard let reading = readings[token], case .here(let evdev) = reading.source else { return }
        if events & UInt32(EPOLLIN.rawValue) != 0 {
            let result = evdev.drain { event in
                switch event {
                case .normal(let type, let code, let value):
                    if type == UInt32(EV_KEY), let action = reading.matcher.keyEvent(code: Int(code), value: value) {
                        emit(.hotkey(action))
                    } else if type == UInt32(EV_SW), code == UInt32(SW_TABLET_MODE) {
                        sink.setTabletMode(value != 0, for: reading.syspath)
                    }
                case .resync(let type, let code, let value):
                    if type == UInt32(EV_KEY) {
                        reading.matcher.resync(code: Int(code), value: value)
                    } else if type == UInt32(EV_SW), code == UInt32(SW_TABLET_MODE) {
                        sink.setTabletMode(value != 0, for: reading.syspath)
                    }
                }
            }
            if case .failed(let error) = result {
                remove(reading.syspath, because: "read failed: \(InputSystemError("read", errno: error))")
                return
            }
        }
        // A hang-up reads as end of file, which libevdev reports as "nothing
        // queued": without this check the level-triggered epoll would spin.
        let hangUp = UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue) | UInt32(EPOLLRDHUP.rawValue)
        if events & hangUp != 0 {
            remove(reading.syspath, because: "hang-up")
        }
    }

    /// Called wherever `devices` changes, before the change is announced, so
    /// a listener never sees an event ahead of the list.
    private func publishDevices() {
        publish(devices.values.map(\.device).sorted { $0.description.syspath < $1.description.syspath })
    }

    private func watch(_ fd: Int32, token: UInt64) throws(InputSystemError) {
        var event = epoll_event()
        event.events = UInt32(EPOLLIN.rawValue) | UInt32(EPOLLRDHUP.rawValue)
        event.data.u64 = token
        guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else {
            throw InputSystemError("epoll_ctl add", errno: errno)
        }
    }
}

/// How often the reader thread has woken up, readable from any thread: an idle
/// monitor must not wake at all.
final class WakeupCounter: Sendable {
    let count = Atomic<Int>(0)
}
