/// How an external generator's command is contained on this machine, in words for `vignette generators`.
public enum ExternalSandbox {
    /// "bwrap: no network, read-only /usr, only its input and its own folder", or why it runs unsandboxed.
    public static func describe(_ spec: ExternalGeneratorSpec) -> String {
        if !spec.sandbox { return "none: its manifest says \"sandbox\": false (limits and the process-tree kill still apply)" }
        if Bubblewrap.path != nil { return "bwrap: no network, read-only /usr, only its input and its own folder" }
        return "none: \(Bubblewrap.unavailableReason) (limits and the process-tree kill still apply)"
    }
}
