// insetctl: look at and steer insetd from a terminal. The command lives in
// InsetctlCommand, so that the installed insetd binary carries it too (one
// Swift runtime for every installed command: docs/PERFORMANCE.md, "Footprint").
import InsetctlCommand

Insetctl.main()
