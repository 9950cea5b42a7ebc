import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The one-line reason of a file-system error, as the C library words it
/// (`No space left on device`), whatever wrapped it.
public enum SystemError {
    public static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return message(posix.code.rawValue) }
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError { return message(posix.code.rawValue) }
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return message(ENOENT)
            case .fileWriteNoPermission, .fileReadNoPermission: return message(EACCES)
            case .fileWriteOutOfSpace: return message(ENOSPC)
            case .fileWriteVolumeReadOnly: return message(EROFS)
            default: break
            }
        }
        return String(describing: error)
    }

    /// `strerror` of `code`.
    public static func message(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
