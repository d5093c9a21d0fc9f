/// The version every insetd binary reports with `--version`, from one place:
/// `scripts/version` (git describe, else the VERSION file) run by the
/// VersionPlugin at build time, which generates `generatedVersion`.
public enum InsetVersion {
    public static let current: String = generatedVersion
}
