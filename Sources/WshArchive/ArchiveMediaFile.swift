import FoundationEssentials
import Glibc
import WshText

extension ArchiveMediaFolder {
    /// What a file being downloaded is called until it is kept: never a name
    /// `file(sha256:type:)` gives, so a reader of the folder never sees half a file.
    static let temporaryPrefix = ".part-"

    /// Makes the folder (0700) when missing, and removes the temporary files
    /// a run left when it was killed in the middle of one (those of a process
    /// that is gone; another wsh downloading into the same folder keeps its own).
    public func prepare() throws(ArchiveError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw Self.failure(path, errno) }
        guard let folder = opendir(path) else { throw Self.failure(path, errno) }
        defer { closedir(folder) }
        var left: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(Self.temporaryPrefix) else { continue }
            let pid = name.dropFirst(Self.temporaryPrefix.count).split(separator: "-").first.flatMap { pid_t($0) }
            if let pid, pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH { continue }
            left.append(name)
        }
        for name in left { unlink(path + "/" + name) }
    }

    /// A new temporary file in the folder (0600), for one download.
    public func newFile() throws(ArchiveError) -> ArchiveMediaFile {
        var random = SystemRandomNumberGenerator()
        let name = Self.temporaryPrefix + "\(getpid())-" + String(random.next() as UInt64, radix: 36)
        let temporary = path + "/" + name
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(path, errno) }
        return ArchiveMediaFile(folder: self, temporaryPath: temporary, descriptor: descriptor)
    }

    /// The one line for a file that cannot be written in the folder: it is
    /// the folder's fault (full, read-only), not the server's.
    static func failure(_ folder: String, _ code: Int32) -> ArchiveError {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT: return ArchiveError("the disk holding \(folder) is full (\(reason)): no half file was kept", code: 13)
        case EACCES, EPERM, EROFS: return ArchiveError("cannot write in \(folder) (\(reason)): is the folder read-only?", code: 8)
        default: return ArchiveError("cannot write in \(folder): \(reason)")
        }
    }
}

/// One file being downloaded into the media folder: written under a
/// temporary name and hashed as it is written, then kept under the name of
/// its hash (`keep`) or removed (`discard`). Used from one thread at a time.
public final class ArchiveMediaFile: @unchecked Sendable {
    /// Bytes written so far.
    public private(set) var bytes = 0
    /// The first bytes (up to `ArchiveMediaType.headLength`): what the file is.
    public private(set) var head: [UInt8] = []
    private let folder: ArchiveMediaFolder
    private let temporaryPath: String
    private var descriptor: Int32
    private var hasher = SHA256.Hasher()

    init(folder: ArchiveMediaFolder, temporaryPath: String, descriptor: Int32) {
        self.folder = folder
        self.temporaryPath = temporaryPath
        self.descriptor = descriptor
    }

    deinit { discard() }

    /// Appends `data`; a full disk or a failing write is one line.
    public func write(_ data: Data) throws(ArchiveError) {
        if head.count < ArchiveMediaType.headLength { head += data.prefix(ArchiveMediaType.headLength - head.count) }
        let failure = data.withUnsafeBytes { buffer in
            hasher.update(buffer)
            return StandardStreams.write(buffer, to: descriptor)
        }
        if let failure { throw ArchiveMediaFolder.failure(folder.path, failure) }
        bytes += data.count
    }

    /// Keeps the file under the name of its hash with the extension of
    /// `type`: on disk (fsync) before the rename, so a kept name always
    /// holds the whole file. Returns the hash, as `sha256sum` writes it.
    public func keep(type: String) throws(ArchiveError) -> String {
        let sha256 = SHA256.hexText(hasher.finalize())
        guard fsync(descriptor) == 0 else { throw ArchiveMediaFolder.failure(folder.path, errno) }
        close(descriptor)
        descriptor = -1
        let target = folder.file(sha256: sha256, type: type)
        let subfolder = String(target[..<target.lastIndex(of: "/")!])
        if mkdir(subfolder, 0o700) != 0 && errno != EEXIST { throw ArchiveMediaFolder.failure(folder.path, errno) }
        guard rename(temporaryPath, target) == 0 else { throw ArchiveMediaFolder.failure(folder.path, errno) }
        return sha256
    }

    /// Removes the temporary file, unless it was kept.
    public func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(temporaryPath)
    }
}
