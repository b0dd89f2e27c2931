import Foundation

/// A file's device and inode: the same directory however it is reached.
struct FileIdentity: Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
