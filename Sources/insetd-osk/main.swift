// insetd-osk: makes the session's real on-screen keyboard follow insetd. The
// command lives in InsetOSKCommand, so that the installed insetd binary
// carries it too (docs/PERFORMANCE.md, "Footprint").
import InsetOSKCommand

InsetdOSK.main()
