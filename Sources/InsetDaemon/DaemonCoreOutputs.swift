import InsetCore
import InsetInput
import InsetProtocol
import InsetServer

/// Where the core's results go, as typed messages through the outbox: the
/// pipeline's outputs to every client in one pass, and the topics' messages
/// (devices, rotation, policy) to their subscribers. The outbox encodes them;
/// the core names who hears what.
extension DaemonCore {
    func route(_ step: PipelineStep) {
        tracer?.record(outputs: step.outputs)
        timeline.note(step.outputs)
        // Notifications in a row (an animation's completion and the next
        // change's will) and the adjustments after them reach every client in
        // one pass over the clients.
        var notifications: [BroadcastMessage] = []
        var adjustments: [ViewAdjustment] = []
        for timed in step.outputs {
            switch timed.output {
            case .bridgeKeyboard(let note):
                // The decision the bridges carry out; apps hear it once the OSK is up.
                for bridge in bridges.sorted(by: { $0.rawValue < $1.rawValue }) {
                    outbox.send(.keyboard(note, isLocal: false), to: bridge)
                }
            case .keyboard(let note), .appsKeyboard(let note):
                if !adjustments.isEmpty {
                    outbox.broadcast(notifications, then: adjustments)
                    (notifications, adjustments) = ([], [])
                }
                // One message for the focus owner, one for everyone else; none
                // for the bridges, of a show they heard of when it was decided.
                let local = note.focusOwner.map { [$0: DaemonMessage.keyboard(note, isLocal: true)] } ?? [:]
                let skipped = if case .appsKeyboard = timed.output { bridges } else { Set<ClientID>() }
                notifications.append(BroadcastMessage(.keyboard(note, isLocal: false), replacing: local, skipping: skipped))
            case .adjustment(let adjustment):
                // A keyboard change adjusts every view: one allocation, not one per doubling.
                if adjustments.isEmpty { adjustments.reserveCapacity(step.outputs.count) }
                adjustments.append(adjustment)
            }
        }
        if !notifications.isEmpty || !adjustments.isEmpty { outbox.broadcast(notifications, then: adjustments) }
    }

    var wireDevices: [WireDevice] {
        devices.values.sorted { $0.description.syspath < $1.description.syspath }.map(Self.wire)
    }

    static func wire(_ device: InputDevice) -> WireDevice {
        // A keyboard's placement as classified (allow entry, udev, libinput quirk or bus).
        WireDevice(
            name: device.description.name, devnode: device.description.devnode, class: device.classification.label,
            external: device.placement == .external, reason: device.classification.reason, vendorProduct: device.description.vendorProduct,
            syspath: device.description.syspath)
    }

    func publish(device: InputDevice, event: String) {
        outbox.publish(.device(event: event, Self.wire(device)), to: .devices)
    }

    func publishRotation(_ direction: RotationDirection) {
        outbox.publish(.rotate(direction: direction), to: .rotation)
    }

    func publishPolicy() {
        publishedHardwareKeyboard = pipeline.policy.hardwareKeyboardUsable
        let message = DaemonMessage.policy(
            mode: pipeline.policy.configuration.mode, tabletMode: tabletMode,
            hardwareKeyboard: pipeline.policy.hardwareKeyboardUsable)
        outbox.publish(message, to: .policy)
    }
}
