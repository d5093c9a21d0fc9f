/// How long the pipeline waits for what an OSK bridge says, each bound worked
/// out from what the real OSKs and compositors took (docs/ENGINE.md).
extension InsetPipeline {
    /// How long a show waits for an OSK bridge's report that the keyboard is on
    /// the screen, when a bridge that measures it is there (and a frame change
    /// too, while no frame is known for the orientation, and a rotation's
    /// frame until the bridge reports it on the turned screen). The report
    /// delivers it at once, to the real frame; if none comes, the frame is
    /// applied when this runs out.
    /// squeekboard is drawn 50-120 ms after the show, and insetd-osk reports
    /// its frame when two sway readings 50 ms apart agree; with the machine
    /// also running a full test suite, a 250 ms bound ran out before the report
    /// in some runs. GNOME Shell opens its keyboard 300-700 ms after being
    /// asked, hence 1 s. In an app window the wait costs nothing (sway
    /// shrinks the window at once); in full screen the field stays covered
    /// until the report, and an OSK that never shows pads nothing before this
    /// runs out (insetd-osk gives such a show up after 1.48 s).
    public static let frameReportWait: Duration = .seconds(1)

    /// How long the first show in an orientation (no frame reported for the
    /// screen's size yet) waits for the bridge's measurement. What it would
    /// apply at the end is the configured height, a guess the report is about
    /// to correct, which clients would draw for a moment on a window the
    /// compositor has already shrunk for the real keyboard. Under a loaded
    /// machine squeekboard took up to 750 ms to be confirmed. Longer than
    /// insetd-osk takes to give a show up (four requests in 1.48 s, then it
    /// reports the keyboard hidden), so a show no OSK ever confirmed pads
    /// nothing at all.
    public static let frameMeasureWait: Duration = .seconds(2)

    /// How long after a focus report with the keyboard up the OSK hiding by
    /// itself is taken as its answer to the app's text input change
    /// (`PipelineEvent.oskVisibility`),
    /// not as the user's hide. Measured on sway with Chromium moving the focus
    /// between fields: squeekboard hid and insetd-osk reported it 280 ms after
    /// insetd.js's focus (insetd-osk holds a hide 250 ms). Shorter than the
    /// 1.48 s in which insetd-osk gives up a show the OSK never confirms and
    /// reports it hidden, which still hides the keyboard.
    public static let focusMoveGrace: Duration = .seconds(1)
}
