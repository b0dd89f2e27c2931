/// Archive entries arranged as a directory tree, with directories implied by paths created.
///
/// Hostile paths are tamed, never trusted: empty and `.` components are dropped, `..` and
/// absolute paths are shown as the names they are (nothing is extracted), and components
/// deeper than `maxDepth` are kept as one name so rendering never recurses deeply.
final class ArchiveTree {
    /// One file or directory of the tree.
    final class Node {
        /// The last path component, as stored.
        let name: String
        /// Whether the node is a directory.
        let isDirectory: Bool
        /// The archive entry, when the archive has one for this node (implied directories have none).
        var entry: ArchiveEntry?
        /// Children, sorted by name once the tree is built.
        var children: [Node] = []
        fileprivate var directories: [String: Node] = [:]

        init(name: String, isDirectory: Bool, entry: ArchiveEntry? = nil) {
            self.name = name
            self.isDirectory = isDirectory
            self.entry = entry
        }
    }

    /// Most directory levels kept apart; deeper components stay joined in one name.
    static let maxDepth = 64

    /// The root (the archive itself).
    let root = Node(name: "", isDirectory: true)
    /// Directories in the tree, implied ones included.
    private(set) var directoryCount = 0
    /// Non-directory entries.
    private(set) var fileCount = 0
    /// Nodes below the root.
    private(set) var nodeCount = 0

    /// Builds the tree of `entries` (in archive order; children end up sorted by name).
    init(_ entries: [ArchiveEntry]) {
        for entry in entries { insert(entry) }
        sort(root)
    }

    private func insert(_ entry: ArchiveEntry) {
        var parts = entry.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init).filter { $0 != "." }
        if parts.count > ArchiveTree.maxDepth {
            let tail = parts[(ArchiveTree.maxDepth - 1)...].joined(separator: "/")
            parts = Array(parts.prefix(ArchiveTree.maxDepth - 1)) + [tail]
        }
        guard let last = parts.popLast() else { return }
        var parent = root
        for part in parts { parent = directory(named: part, in: parent) }
        if entry.kind == .directory {
            directory(named: last, in: parent).entry = entry
        } else {
            parent.children.append(Node(name: last, isDirectory: false, entry: entry))
            fileCount += 1
            nodeCount += 1
        }
    }

    private func directory(named name: String, in parent: Node) -> Node {
        if let existing = parent.directories[name] { return existing }
        let node = Node(name: name, isDirectory: true)
        parent.directories[name] = node
        parent.children.append(node)
        directoryCount += 1
        nodeCount += 1
        return node
    }

    private func sort(_ node: Node) {
        node.children.sort { $0.name == $1.name ? ($0.isDirectory && !$1.isDirectory) : $0.name < $1.name }
        for child in node.children where child.isDirectory { sort(child) }
    }
}
